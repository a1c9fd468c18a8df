"""``/settings dm on|off`` in simcord: the member's DM hand views (DESIGN.md §4, case C14)."""

from __future__ import annotations

from leak_scan import message_cards
from test_tripoli import open_table

from engine.tripoli.phases import Phase


async def dm_setting(world, member) -> str | None:
    return await world.store.get_setting(f"user:{member.id}", "dm")


def own_cards(session, member) -> set[int]:
    return {int(card) for card in session.game.hands[session.seat(member)]}


async def test_the_setting_is_stored_per_member_and_answered_privately(world):
    on = await world.slash(world.alice, "settings dm", state="on")
    assert on.response.ephemeral and "**on**" in on.response.content
    assert await dm_setting(world, world.alice) == "true"
    assert await dm_setting(world, world.bob) is None
    off = await world.slash(world.alice, "settings dm", state="off")
    assert off.response.ephemeral and "**off**" in off.response.content
    assert await dm_setting(world, world.alice) == "false"
    assert world.bot.tables.by_channel == {}  # no table was touched


async def test_turned_on_mid_deal_the_dm_comes_at_once_then_off_stops_it(world):
    alice, bob = world.alice, world.bob
    session = await open_table(world, alice, bob)
    await session.click(alice, session.board, label="Start")
    assert alice.user.dm_channel is None or not alice.user.dm_channel.history()
    answer = await world.slash(alice, "settings dm", state="on")
    assert f"<#{world.channel.id}>" in answer.response.content
    await world.env.advance_time(1)
    [dm] = alice.user.dm_channel.history()
    assert message_cards(dm) and message_cards(dm) <= own_cards(session, alice)
    assert bob.user.dm_channel is None or not bob.user.dm_channel.history()

    dealer = session.game.dealer
    await session.click(session.member(dealer), session.board, label="Keep")
    await world.env.advance_time(1)
    [dm] = alice.user.dm_channel.history()  # the same message, now with the poker controls
    assert "Best five" in [getattr(c, "label", None) for row in dm.components for c in row.children]

    await session.run(alice, alice.user.click(dm, label="Best five"))  # played from the DM
    await world.slash(alice, "settings dm", state="off")
    [dm] = alice.user.dm_channel.history()
    before = [row.to_dict() for row in dm.components], dm.embeds[0].to_dict()
    hand = await session.my_hand(bob)
    await session.click(bob, hand, label="Best five")  # the poker betting begins
    await world.env.advance_time(1)
    assert session.game.phase is Phase.BETTING
    [dm] = alice.user.dm_channel.history()
    assert ([row.to_dict() for row in dm.components], dm.embeds[0].to_dict()) == before
    await session.play_until(lambda: session.game.phase is Phase.BETWEEN_DEALS)
    await session.click(bob, session.board, label="Next deal")
    await world.env.advance_time(1)
    assert len(alice.user.dm_channel.history()) == 1  # no DM for the new deal


async def test_closed_dms_fall_back_and_turning_on_again_retries(world):
    alice, bob = world.alice, world.bob
    session = await open_table(world, alice, bob)
    await session.click(alice, session.board, label="Start")
    bob_dm = await world.bot.create_dm(bob.user)  # the channel the bot will write to
    world.env.inject_error("POST", f"/channels/{bob_dm.id}/messages", status=403, code=50007)
    await world.slash(bob, "settings dm", state="on")
    await world.env.advance_time(1)
    notes = " ".join(field.value for field in session.board.embeds[0].fields)
    assert "Bob's DMs are closed" in notes and not message_cards(session.board)
    assert not bob.user.dm_channel.history()
    assert not world.env.errors
    hand = await session.my_hand(bob)  # the fallback works
    assert message_cards(hand) == own_cards(session, bob)  # his whole hand

    await world.slash(bob, "settings dm", state="on")  # DMs opened meanwhile: try again
    await world.env.advance_time(1)
    [dm] = bob.user.dm_channel.history()
    assert message_cards(dm) <= own_cards(session, bob)
