"""Hand messages kept current through their interaction tokens (issue 10 item 2), in simcord.

A member's latest hand message is edited with the webhook token of the interaction that
showed it, while that token lives (15 minutes, less a margin); after that, or when Discord
refuses the edit, the link is dropped without a failure, and the next My hand posts a fresh
hand that is kept current again. An old view's stale button answers with the refusal above
the current hand, in that same message. The member the turn passes to gets one ephemeral
line below their hand, deleted when that turn is over. :class:`test_tripoli.Session` checks
every answer (answered once, no card leaked, chips conserved).
"""

from __future__ import annotations

from typing import Any

from test_tripoli import labels, open_table
from test_tripoli_refusals import to_select

from bot.i18n import ENGLISH
from bot.runtime.hands import NUDGE, TOKEN_SECONDS
from engine.tripoli.phases import Phase


def hand_edits(world: Any, since: int, hand_token: str) -> list[Any]:
    """The webhook edits made with ``hand_token`` since request ``since``."""
    return [r for r in world.env.http_requests[since:]
            if r.method == "PATCH" and r.path.startswith("/webhooks/")
            and r.path.split("/")[3] == hand_token]


def token_of(world: Any, since: int) -> str:
    """The token of the (only) interaction answered since request ``since``."""
    [token] = {r.path.split("/")[3] for r in world.env.http_requests[since:]
               if r.path.startswith("/interactions/")}
    return token


async def my_hand(session: Any, member: Any) -> tuple[Any, str]:
    """Press My hand; the fresh message and the token that keeps it current."""
    mark = len(session.world.env.http_requests)
    hand = await session.my_hand(member)
    return hand, token_of(session.world, mark)


async def both_clocks(world: Any, seconds: float) -> None:
    world.clock.advance(seconds)
    await world.env.advance_time(seconds)


async def select_five(session: Any, member: Any, hand: Any) -> None:
    await session.click(member, hand, label="Best five")


async def test_a_hand_past_its_token_is_left_alone_and_the_next_my_hand_is_kept(world):
    alice, bob, carol = world.alice, world.bob, world.carol
    session = await open_table(world, alice, bob, carol, turn_seconds=3600)
    await to_select(session)
    hand, token = await my_hand(session, alice)
    await both_clocks(world, TOKEN_SECONDS + 60)  # the token is gone; the decision is not
    mark, errors = len(world.env.http_requests), world.env.error_cursor
    for member in (bob, carol):
        await select_five(session, member, await session.my_hand(member))
    assert session.seat(alice) not in session.table.hand_links  # let go, not tried
    await select_five(session, alice, hand)  # the old view still acts (C02) …
    assert session.game.phase is Phase.BETTING
    assert not hand_edits(world, mark, token), "an expired token was used"
    assert not world.env.errors_since(errors)
    fresh, fresh_token = await my_hand(session, alice)  # … and the next My hand is kept
    assert fresh.id != hand.id
    assert session.table.hand_links[session.seat(alice)].interaction.token == fresh_token


async def test_a_hand_edit_discord_refuses_drops_the_link_quietly(world):
    alice, bob, carol = world.alice, world.bob, world.carol
    session = await open_table(world, alice, bob, carol, turn_seconds=3600)
    await to_select(session)
    hands = {}
    for member in (bob, carol):
        hand, _token = await my_hand(session, member)
        await select_five(session, member, hand)  # the click's token keeps the hand now
        hands[member.id] = hand, session.table.hand_links[session.seat(member)].interaction.token
    # only Discord's clock moves: the bot believes the tokens live, Discord refuses them
    await world.env.advance_time(TOKEN_SECONDS + 60)
    mark, errors = len(world.env.http_requests), world.env.error_cursor
    await select_five(session, alice, await session.my_hand(alice))
    await session.play_until(lambda: session.game.phase is not Phase.BETTING)
    await world.env.advance_time(1)
    tried = [member for member in (bob, carol) if hand_edits(world, mark, hands[member.id][1])]
    assert tried, "no edit was tried"  # the betting changed their views
    for member in tried:
        link = session.table.hand_links.get(session.seat(member))
        assert link is None or link.interaction.token != hands[member.id][1]
    assert not world.env.errors_since(errors)
    fresh, token = await my_hand(session, bob)
    assert fresh.id != hands[bob.id][0].id
    assert session.table.hand_links[session.seat(bob)].interaction.token == token


async def test_a_stale_button_shows_the_refusal_above_the_current_hand(world):
    session = await open_table(world, world.alice, world.bob, world.carol)
    await to_select(session)
    bob = world.bob
    old = await session.my_hand(bob)
    fresh = await session.my_hand(bob)  # the newer one is kept current, not `old`
    await select_five(session, bob, fresh)
    result = await session.click(bob, old, label="Best five")
    assert result.response.id == old.id and "decision is over" in result.response.content
    assert "Best five" not in labels(result.response)  # the current hand, below the refusal
    assert session.table.hand_links[session.seat(bob)].interaction.message.id == old.id


async def test_the_member_the_turn_passes_to_gets_one_line_below_the_hand(world):
    alice, bob, carol = world.alice, world.bob, world.carol
    session = await open_table(world, alice, bob, carol, turn_seconds=3600)
    await to_select(session)
    for member in (alice, bob, carol):
        await select_five(session, member, await session.my_hand(member))
    for member in (alice, bob, carol):
        await session.my_hand(member)
    await both_clocks(world, 60)  # nobody touched their hand for a minute
    nudged: list[int] = []
    for _ in range(12):
        if session.game.phase is not Phase.BETTING:
            break
        [seat] = session.game.to_act
        member = session.member(seat)
        lines = [m for m in world.channel.history(viewer=member)
                 if m.flags.ephemeral and m.content == ENGLISH.t(NUDGE)]
        assert len(lines) <= 1, "an earlier nudge was not deleted"
        nudged += [member.id] * len(lines)
        await session.default_move(seat, member)
        await both_clocks(world, 60)
        if seat not in session.game.to_act:  # her turn is over: the line is gone
            assert not [m for m in world.channel.history(viewer=member)
                        if m.flags.ephemeral and m.content == ENGLISH.t(NUDGE)]
    assert nudged, "nobody was told it is their turn"
    public = [m for m in world.channel.history() if not m.flags.ephemeral]
    assert [m.id for m in public] == [session.board.id]  # nothing added to the channel
