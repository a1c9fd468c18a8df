"""The void bound (``engine/kalooki/rules.py``: a deal void ``void_limit`` times in a row is
skipped) and late calls (``CallDiscard(late=True)``: a call that waits for the window's end,
made by AI seats so they never call faster than a member)."""

from __future__ import annotations

from test_kalooki_support import Pool, check_invariants, refused

from engine.cards import Card
from engine.core import SYSTEM
from engine.kalooki.actions import Allow, CallDiscard, Draw
from engine.kalooki.game import KalookiGame
from engine.kalooki.phases import Phase
from engine.kalooki.rules import JAMAICAN, make_rules


def void_now(game: KalookiGame) -> list:
    """Empty the stock after a first exhaustion: the current player's stock draw voids the
    deal (§2.12 item 61)."""
    game.stock, game.exhaustions = [], 1
    turn = game.turn
    if game.phase is Phase.WINDOW:
        game.apply(SYSTEM, game.timeout_action(SYSTEM))
    return game.apply(turn, Draw(source="stock"))


def test_six_players_in_deal_nine_cannot_void_forever() -> None:
    game = KalookiGame.new(JAMAICAN, 6, b"void bound", first_dealer=5)
    game.deal_number, game.phase = 8, Phase.BETWEEN_DEALS  # deal 8 is over: deal 9 next
    game.start_deal()
    assert game.deal_number == 9 and game.contract.fours == 4
    for void in range(1, JAMAICAN.void_limit):
        events = void_now(game)
        assert [e.kind for e in events] == ["deal_void"] and not events[0].skipped
        assert game.between_deals and game.dealer == 5 and game.voids == void
        game.start_deal()
        assert game.deal_number == 9
    events = void_now(game)
    kinds = [e.kind for e in events]
    assert kinds == ["deal_void", "session_over"] and events[0].skipped
    assert game.is_over and game.outcome is not None and game.outcome.complete
    assert game.totals == [0] * 6


def test_a_skipped_deal_moves_the_set_on_with_the_next_dealer() -> None:
    rules = make_rules("jamaican", void_limit=2)
    game = KalookiGame.new(rules, 4, b"skip", first_dealer=1)
    void_now(game)
    assert game.voids == 1 and game.redeal
    game.start_deal()
    [event] = void_now(game)
    assert event.skipped and game.dealer == 2 and game.voids == 0 and not game.redeal
    game.start_deal()
    assert game.deal_number == 2 and game.dealer == 2
    check_invariants(game)


def test_a_late_call_waits_for_the_window_and_loses_to_a_call_within_it() -> None:
    p = Pool()
    hands = {0: p("2c 3c 4c"), 1: p("5d 6d 7d"), 2: p("9h 9s Kd"), 3: p("Qs Qh 2d")}
    game = KalookiGame.from_position(JAMAICAN, hands=hands, dealer=3, turn=1,
                                     phase=Phase.WINDOW, discard=p("9d"), discarder=0)
    assert set(game.callers()) == {2, 3}
    assert game.apply(2, CallDiscard(late=True), game.decision_id(2)) == []
    assert 2 not in game.to_act and game.phase is Phase.WINDOW
    assert refused(game, 2, CallDiscard(late=True)) == "called"
    game.apply(3, CallDiscard(), game.decision_id(3))  # within the window: it wins
    assert game.phase is Phase.ANSWER and game.caller == 3 and game.late_calls == []


def test_the_first_late_call_becomes_the_call_when_the_window_closes() -> None:
    p = Pool()
    hands = {0: p("2c 3c 4c"), 1: p("5d 6d 7d"), 2: p("9h 9s Kd"), 3: p("Qs Qh 2d")}
    game = KalookiGame.from_position(JAMAICAN, hands=hands, dealer=3, turn=1,
                                     phase=Phase.WINDOW, discard=p("9d"), discarder=0)
    called = Card(game.discard[-1])
    game.apply(3, CallDiscard(late=True), game.decision_id(3))
    game.apply(2, CallDiscard(late=True), game.decision_id(2))
    events = game.apply(SYSTEM, game.timeout_action(SYSTEM))
    assert [e.kind for e in events] == ["window_closed", "called"] and game.caller == 3
    game.apply(1, Allow(), game.decision_id(1))
    assert called in game.hands[3] and game.calls_used[3] == 1 and game.phase is Phase.DRAW
    check_invariants(game)


def test_taking_the_discard_drops_the_late_calls() -> None:
    p = Pool()
    hands = {0: p("2c 3c 4c"), 1: p("5d 6d 7d"), 2: p("9h 9s Kd")}
    game = KalookiGame.from_position(JAMAICAN, hands=hands, dealer=2, turn=1,
                                     phase=Phase.WINDOW, discard=p("9d"), discarder=0)
    game.apply(2, CallDiscard(late=True), game.decision_id(2))
    game.apply(1, Draw(source="discard"), game.decision_id(1))
    assert game.late_calls == [] and game.phase is Phase.PLAY and game.calls_used == [0, 0, 0]
