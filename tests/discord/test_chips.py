"""/chips balance, /chips daily, /chips give, by several members in simcord (the boards:
test_leaderboard.py).

Every interaction goes through ``world.slash``, which fails unless the bot answered it exactly
once, in time, without raising. Cases C08 (bad gifts) and C09 (a gift to a seated player).
"""

from __future__ import annotations

from datetime import timedelta

import pytest

STARTING = 1000  # the settings fixture's PARLOUR_STARTING_CHIPS
DAILY = 100  # the settings fixture's PARLOUR_DAILY_CHIPS


async def ledger_sizes(world, *members):
    return [len(await world.store.ledger(world.guild.id, member.id)) for member in members]


async def test_balance_creates_the_account_with_the_starting_grant(world):
    result = await world.slash(world.alice, "chips balance")
    assert result.response.ephemeral
    embed = result.response.embeds[0]
    assert "You hold **1,000 chips**" in embed.description
    assert embed.fields[0].value == "1 of 1"
    [entry] = await world.store.ledger(world.guild.id, world.alice.id)
    assert (entry.delta, entry.reason, entry.at) == (STARTING, "starting_grant", world.clock.now())
    await world.assert_chips_conserved()


async def test_balance_of_another_member_and_refusal_for_a_bot(world):
    await world.slash(world.alice, "chips give", member=world.bob, amount=30)
    result = await world.slash(world.carol, "chips balance", member=world.bob)
    assert result.response.ephemeral
    assert f"{world.bob.mention} holds **1,030 chips**" in result.response.embeds[0].description

    result = await world.slash(world.carol, "chips balance", member=world.robot)
    assert result.response.ephemeral
    assert "bots don't hold chips" in result.response.content
    accounts = await world.store.leaderboard(world.guild.id, limit=100)
    assert world.robot.id not in {user_id for user_id, _ in accounts}


async def test_daily_once_per_24_hours(world):
    start = world.clock.now()
    result = await world.slash(world.alice, "chips daily")
    assert result.response.ephemeral
    assert "You collected **100 chips**" in result.response.embeds[0].description
    assert "You now hold **1,100 chips**" in result.response.embeds[0].description

    world.clock.advance(timedelta(hours=23, minutes=59).total_seconds())
    result = await world.slash(world.alice, "chips daily")
    assert result.response.ephemeral
    next_claim = int((start + timedelta(hours=24)).timestamp())
    assert f"<t:{next_claim}:R>" in result.response.content
    assert await world.balances(world.alice) == [STARTING + DAILY]

    world.clock.advance(60)
    result = await world.slash(world.alice, "chips daily")
    assert "You now hold **1,200 chips**" in result.response.embeds[0].description
    ledger = await world.store.ledger(world.guild.id, world.alice.id)
    assert [entry.reason for entry in ledger] == ["starting_grant", "daily", "daily"]
    await world.assert_chips_conserved()


async def test_daily_is_per_member_and_per_server(world):
    await world.slash(world.alice, "chips daily")
    await world.slash(world.bob, "chips daily")
    assert await world.balances(world.alice, world.bob) == [STARTING + DAILY] * 2
    other = world.env.create_guild("Another Server")
    lounge = other.create_text_channel("lounge")
    alice_there = other.add_member(world.env.create_user("alice2"))
    result = await world.slash(alice_there, "chips daily", where=lounge)
    assert "You now hold **1,100 chips**" in result.response.embeds[0].description
    assert await world.balances(world.alice) == [STARTING + DAILY]


async def test_give_moves_chips_publicly_and_is_recorded(world):
    result = await world.slash(world.alice, "chips give", member=world.bob, amount=250)
    assert not result.response.ephemeral
    embed = result.response.embeds[0]
    assert embed.description == f"{world.alice.mention} gave {world.bob.mention} **250 chips**."
    assert "750 chips" in embed.footer.text
    assert await world.balances(world.alice, world.bob) == [750, 1250]
    gift = (await world.store.ledger(world.guild.id, world.bob.id))[-1]
    assert (gift.kind, gift.delta, gift.other_user_id) == ("transfer", 250, world.alice.id)
    await world.assert_chips_conserved()


async def test_give_everything_then_nothing_is_left_to_give(world):
    await world.slash(world.alice, "chips give", member=world.bob, amount=STARTING)
    assert await world.balances(world.alice, world.bob) == [0, 2 * STARTING]
    result = await world.slash(world.alice, "chips give", member=world.bob, amount=1)
    assert result.response.ephemeral
    assert "You hold only 0 chips" in result.response.content
    assert await world.balances(world.alice, world.bob) == [0, 2 * STARTING]


@pytest.mark.parametrize(
    "amount, recipient, reason",
    [
        (0, "bob", "1 chip or more, not 0"),
        (-1, "bob", "1 chip or more, not -1"),
        (-5000, "bob", "1 chip or more, not -5,000"),
        (1001, "bob", "You hold only 1,000 chips"),
        (2**53 - 1, "bob", "You hold only 1,000 chips"),
        (10, "alice", "can't give chips to yourself"),
        (10, "robot", "bots don't hold chips"),
    ],
)
async def test_bad_gifts_are_refused_and_nothing_moves(world, amount, recipient, reason):
    """C08: amount 0, negative, above the balance, to oneself or to a bot."""
    await world.balances(world.alice, world.bob)  # open both accounts
    before = await ledger_sizes(world, world.alice, world.bob)
    result = await world.slash(
        world.alice, "chips give", member=getattr(world, recipient), amount=amount
    )
    assert result.response.ephemeral
    assert reason in result.response.content
    assert await world.balances(world.alice, world.bob) == [STARTING, STARTING]
    assert await ledger_sizes(world, world.alice, world.bob) == before
    await world.assert_chips_conserved()


async def test_gift_to_a_seated_player_lands_in_the_balance_not_the_table(world):
    """C09: a seated player's escrow (their table stack) is untouched by a gift."""
    guild_id = world.guild.id
    await world.store.escrow(guild_id, world.bob.id, "table-c09", 100)
    assert await world.balances(world.bob) == [STARTING - 100]
    await world.slash(world.alice, "chips give", member=world.bob, amount=1)
    assert await world.balances(world.alice, world.bob) == [STARTING - 1, STARTING - 100 + 1]
    assert await world.store.table_escrow("table-c09") == 100
    balances, escrow, granted = await world.assert_chips_conserved()
    assert (balances, escrow, granted) == (2 * STARTING - 100, 100, 2 * STARTING)


async def test_chip_commands_are_for_servers_only(world):
    assert "chips balance" not in world.alice.user.available_commands()
    assert {"chips balance", "chips daily", "chips give", "leaderboard"} <= set(
        world.alice.available_commands(world.channel)
    )
