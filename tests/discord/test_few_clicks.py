"""Few clicks per decision (issue 10 item 3), by clicks in simcord: Tripoli's quick amounts
beside Bet… and Raise… act at once with the amount they show, and the chosen poker hand is
named in the player's view as soon as it is chosen."""

from __future__ import annotations

from test_tripoli import Session, labels, open_table

from engine.poker import describe, hand_value
from engine.tripoli import events as ev
from engine.tripoli.phases import Phase


async def to_betting(session: Session) -> int:
    """Start, settle the spare hand, everyone takes their best five: the seat to bet."""
    await session.click(session.member(0), session.board, label="Start")
    await session.play_until(lambda: session.game.phase is Phase.BETTING)
    return min(session.game.to_act)


async def test_quick_amounts_bet_and_raise_exactly_what_they_show(world):
    session = await open_table(world, world.alice, world.bob, bet_limit=10, buy_in=100)
    seat = await to_betting(session)
    shown = labels(session.board)
    assert {"Check", "Bet 1", "Bet 10", "Bet…"} <= set(shown)
    clicked = await session.click(session.member(seat), session.board, label="Bet 10")
    assert clicked.modal is None  # one click, no form
    game = session.game
    assert [e for e in game.log if isinstance(e, ev.BetMade)][-1].amount == 10
    assert game.betting.contrib[seat] == 10
    other = min(game.to_act)
    assert {"Call 10", "Raise by 1", "Fold"} <= set(labels(session.board))
    hand = await session.my_hand(session.member(other))
    assert "Call 10" in labels(hand) and "Raise by 1" in labels(hand)
    clicked = await session.click(session.member(other), hand, label="Raise by 1")
    assert clicked.modal is None
    assert session.game.betting.contrib[other] == 11
    assert "Call 1" in labels(session.board)
    await session.click(session.member(seat), session.board, label="Call 1")
    assert session.game.betting.contrib[seat] == 11


async def test_the_chosen_poker_hand_is_named_at_once(world):
    session = await open_table(world, world.alice, world.bob)
    await session.click(world.alice, session.board, label="Start")
    await session.play_until(lambda: session.game.phase is Phase.SELECT)
    seat = min(session.game.to_act)
    member = session.member(seat)
    hand = await session.my_hand(member)
    await session.click(member, hand, label="Best five")
    chosen = session.game.selections[seat]
    named = describe(hand_value(chosen))
    shown = (await session.my_hand(member)).embeds[0]
    assert any(field.name == f"Your poker five: {named}" for field in shown.fields)
