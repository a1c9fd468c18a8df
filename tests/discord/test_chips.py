"""/chips balance, /chips daily, /chips give, by several members in simcord (the boards:
test_leaderboard.py).

Every interaction goes through ``world.slash``, which fails unless the bot answered it exactly
once, in time, without raising. Cases C08 (bad gifts) and C09 (a gift to a seated player).
"""

from __future__ import annotations

from datetime import timedelta

import discord
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
    assert "Bob holds **1,030 chips**" in result.response.embeds[0].description  # no mention

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
    result = await world.slash(world.alice, "chips daily")  # day 2 of the streak: +10
    assert "You now hold **1,210 chips**" in result.response.embeds[0].description
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
    assert embed.description == "Alice gave Bob **250 chips**."  # names, never a raw mention
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
    assert {"chips balance", "chips daily", "chips give", "chips history", "chips grant",
            "chips take", "leaderboard", "stats"} <= set(
        world.alice.available_commands(world.channel)
    )


BONUS, CAP = 10, 60  # the settings' default streak bonus and cap


async def test_daily_streak_grows_to_its_cap_and_breaks_after_48_hours(world):
    granted = []
    for _ in range(9):
        before = (await world.balances(world.alice))[0]
        result = await world.slash(world.alice, "chips daily")
        granted.append((await world.balances(world.alice))[0] - before)
        fields = {f.name: f.value for f in result.response.embeds[0].fields}
        next_claim = int((world.clock.now() + timedelta(hours=24)).timestamp())
        assert fields["Next claim"] == f"<t:{next_claim}:R>"
        world.clock.advance(timedelta(hours=25).total_seconds())
    assert granted == [DAILY + min(CAP, BONUS * day) for day in range(9)]
    world.clock.advance(timedelta(hours=24).total_seconds())  # 49 h since the last claim
    result = await world.slash(world.alice, "chips daily")
    assert f"You collected **{DAILY} chips**." in result.response.embeds[0].description
    assert result.response.embeds[0].fields[0].value == "1 day"
    await world.assert_chips_conserved()


async def admin(world):
    role = world.guild.create_role("Croupier", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("boss", global_name="Boss"),
                                  roles=[role])


async def test_grant_and_take_need_manage_server_and_keep_the_audit(world):
    boss = await admin(world)
    result = await world.slash(boss, "chips grant", member=world.bob, amount="500")
    assert not result.response.ephemeral
    assert result.response.embeds[0].description == "Boss granted **500 chips** to Bob."
    result = await world.slash(boss, "chips take", member=world.bob, amount="1200")
    assert result.response.embeds[0].description == "Boss took **1,200 chips** from Bob."
    assert await world.balances(world.bob) == [STARTING + 500 - 1200]
    balances, escrow, net = await world.assert_chips_conserved()
    assert (balances, escrow, net) == (300, 0, STARTING + 500 - 1200)  # grants - burns
    burn = (await world.store.ledger(world.guild.id, world.bob.id))[-1]
    assert (burn.kind, burn.delta, burn.reason) == ("burn", -1200, "admin_take")

    before = await world.balances(world.alice, world.bob)
    for command in ("chips grant", "chips take"):
        result = await world.slash(world.alice, command, member=world.bob, amount="10")
        assert result.response.ephemeral and "Manage Server" in result.response.content
    result = await world.slash(boss, "chips take", member=world.bob, amount="301")
    assert result.response.ephemeral and "holds only 300 chips" in result.response.content
    assert await world.balances(world.alice, world.bob) == before


@pytest.mark.parametrize("amount", ["-5", "0", "1e3", "１e２", str(2**63), "2**63", "", "12a",
                                    "+3", "1_0"])
@pytest.mark.parametrize("command", ["chips grant", "chips take"])
async def test_bad_admin_amounts_are_refused_and_nothing_moves(world, command, amount):
    boss = await admin(world)
    await world.balances(world.bob)
    before = await ledger_sizes(world, world.bob)
    result = await world.slash(boss, command, member=world.bob, amount=amount)
    assert result.response.ephemeral
    assert ("digits only" in result.response.content or "at least 1" in result.response.content
            or "at most" in result.response.content)
    assert await world.balances(world.bob) == [STARTING]
    assert await ledger_sizes(world, world.bob) == before
    result = await world.slash(boss, command, member=world.robot, amount="5")
    assert result.response.ephemeral and "bots don't hold chips" in result.response.content


@pytest.mark.parametrize("amount", ["9" * 30, "1" * 5000, "0" * 30 + "2" * 13])
async def test_admin_amounts_of_too_many_digits_are_over_the_limit(world, amount):
    """A whole number too long for any balance is refused as above the limit (not as "not a
    whole number"), even one of thousands of digits; nothing moves."""
    boss = await admin(world)
    await world.balances(world.bob)
    result = await world.slash(boss, "chips grant", member=world.bob, amount=amount)
    assert result.response.ephemeral
    assert "at most 1,000,000,000,000 chips" in result.response.content
    assert "not a whole number" not in result.response.content
    assert await world.balances(world.bob) == [STARTING]
    result = await world.slash(boss, "chips grant", member=world.bob, amount="0" * 30 + "7")
    assert not result.response.ephemeral
    assert await world.balances(world.bob) == [STARTING + 7]


@pytest.mark.parametrize("amount", [10**3 + 0.5, "1e3", 2**63])
async def test_gift_amounts_that_are_not_integers_never_reach_the_bot(world, amount):
    """Discord itself refuses a non-integer (or out-of-range) integer option."""
    await world.balances(world.alice, world.bob)
    with pytest.raises(Exception, match="amount"):
        await world.alice.slash(world.channel, "chips give", member=world.bob, amount=amount)
    assert await world.balances(world.alice, world.bob) == [STARTING, STARTING]


async def test_history_pages_each_movement_with_its_reason(world):
    boss = await admin(world)
    await world.slash(world.alice, "chips daily")
    await world.slash(world.bob, "chips give", member=world.alice, amount=5)
    await world.slash(boss, "chips grant", member=world.alice, amount="7")
    await world.store.escrow(world.guild.id, world.alice.id, "t1", 50)
    await world.store.settle(world.guild.id, world.alice.id, "t1", 50)
    result = await world.slash(world.alice, "chips history")
    assert result.response.ephemeral
    rows = result.response.embeds[0].description.splitlines()
    labels = [row.split(" · ")[2].split(" → ")[0] for row in rows]
    assert labels == ["settlement", "buy-in", "grant", "gift", "daily", "starting grant"]
    assert "**-50**" in rows[1] and rows[0].endswith("→ 1,112 chips")
    for _ in range(12):
        await world.slash(world.bob, "chips give", member=world.alice, amount=1)
    second = await world.slash(world.alice, "chips history", page=2)
    assert second.response.embeds[0].footer.text == (
        "Page 2 of 2 · /chips history page:<n> for more")  # an English client's names
    assert len(second.response.embeds[0].description.splitlines()) == 8


@pytest.mark.parametrize("command", ["chips balance", "chips give", "chips grant", "chips take"])
async def test_a_bot_is_named_by_its_display_name_in_every_refusal(world, command):
    """Tryout #11: ``give`` wrote a raw mention and ``grant`` the user name; every refusal
    names a bot as the server shows it (its nickname here)."""
    boss = await admin(world)
    croupier = world.guild.add_member(world.env.create_user("dealerbot", bot=True),
                                      nick="Croupier Bot")
    options = {"member": croupier}
    if command != "chips balance":
        options["amount"] = 5 if command == "chips give" else "5"
    result = await world.slash(boss, command, **options)
    assert result.response.ephemeral
    assert result.response.content == "Croupier Bot is a bot; bots don't hold chips."
