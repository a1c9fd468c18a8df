"""Tripoli meets the engine protocol of ``engine/core.py`` (DESIGN.md §2): pending
decisions, ``check``, ``between_deals``, ``outcome``; a snapshot written by the 0.1
runtime still loads and plays on; the view models import no game."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from engine.core import Game, IllegalAction, Outcome, Pending, SeatedForChips
from engine.poker import best_five
from engine.tripoli import views
from engine.tripoli.actions import Bet, Check, Keep, Lead, Select
from engine.tripoli.game import TripoliGame
from engine.tripoli.phases import Phase
from engine.tripoli.rules import TripoliRules

SNAPSHOT = Path(__file__).parents[1] / "bot" / "snapshots" / "tripoli_v1_playing.json"


def test_the_game_meets_the_engine_protocol():
    game = TripoliGame.new(TripoliRules(), 3, b"p")
    assert isinstance(game, Game) and isinstance(game, SeatedForChips)
    assert game.GAME_NAME == "tripoli" and game.SCHEMA_VERSION == 1


def test_pending_lists_every_required_decision_and_the_simultaneous_selection():
    game = TripoliGame.new(TripoliRules(), 4, b"pending", first_dealer=2)
    assert game.pending() == (Pending(seat=2, decision=game.decision_id(2)),)
    game.apply(2, Keep())
    pending = game.pending()
    assert [p.seat for p in pending] == [0, 1, 2, 3]
    assert all(p.required and p.after is None for p in pending)
    assert [p.decision for p in pending] == [game.decision_id(s) for s in range(4)]
    game.apply(1, Select(cards=best_five(game.hands[1])))
    assert {p.seat for p in game.pending()} == game.to_act == {0, 2, 3}


def test_check_refuses_with_the_code_of_apply_and_changes_nothing(tri):
    game = TripoliGame.new(TripoliRules(), 3, b"check", first_dealer=0)
    before = game.model_dump_json()
    cases = [
        (1, Keep(), None, "not_your_turn"),
        (0, Keep(), game.decision_id(0) - 1, "stale"),
        (0, Check(), None, "illegal"),
        (0, Lead(card=game.hands[0][0]), None, "illegal"),
    ]
    for seat, action, decision, code in cases:
        with pytest.raises(IllegalAction) as checked:
            game.check(seat, action, decision)
        assert checked.value.code == code and game.model_dump_json() == before
        assert tri.refused(game, seat, action, decision) == code
    assert game.check(0, Keep(), game.decision_id(0)) is None
    assert game.model_dump_json() == before


def test_check_refuses_a_bet_over_the_limit_as_apply_does(tri):
    hands = {1: "2♣ 4♦ 6♥ 8♠ 10♣", 0: "Q♣ Q♦ 2♥ 5♠ 8♣"}
    game = TripoliGame.from_position(
        phase=Phase.BETTING,
        stacks=[20, 20],
        hands={s: tri.cards(h) for s, h in hands.items()},
        selections={s: tri.cards(h) for s, h in hands.items()},
        board={"POT": 4},
        dealer=0,
    )
    with pytest.raises(IllegalAction) as info:
        game.check(1, Bet(amount=11))
    assert info.value.code == "over_limit" == tri.refused(game, 1, Bet(amount=11))
    game.check(1, Bet(amount=10))


def test_between_deals_start_deal_and_end_session_return_events(tri):
    game = TripoliGame.new(TripoliRules(), 3, b"deals", first_dealer=0)
    assert not game.between_deals and game.outcome is None
    tri.play_out(game)
    assert game.between_deals and game.phase == Phase.BETWEEN_DEALS
    events = game.start_deal()
    assert events[0].kind == "deal_started" and not game.between_deals
    assert game.end_session() == []  # after this deal
    tri.play_out(game)
    assert game.is_over and not game.between_deals
    assert game.log[-1].kind == "session_over"


def test_outcome_ranks_final_stacks_with_ties_grouped_and_chips_are_the_deltas():
    # a session ended between deals with an empty board: no leftover round (item 59)
    game = TripoliGame.from_position(phase=Phase.BETWEEN_DEALS, stacks=[30, 70, 30, None, 10])
    game.buy_ins = [50, 50, 20, 0, 10]
    events = game.end_session()
    assert [e.kind for e in events] == ["session_over"]
    assert game.outcome == Outcome(
        scores={0: 30, 1: 70, 2: 30, 4: 10},
        places=((1,), (0, 2), (4,)),
        chips={0: -20, 1: 20, 2: 10, 4: 0},
        complete=True,
    )
    assert game.outcome.winners == (1,)
    game.remove_seat(1)  # leaving a finished table does not rewrite the outcome
    assert game.outcome.places[0] == (1,)


def test_abandoning_the_first_deal_ends_a_game_nobody_won(tri):
    game = TripoliGame.new(TripoliRules(), 3, b"abandon", stacks=[100, 80, 120],
                           first_dealer=0)
    game.end_session(abandon=True)
    tri.play_out(game)
    outcome = game.outcome
    assert game.is_over and outcome is not None and not outcome.complete
    assert outcome.winners == () and outcome.chips == {0: 0, 1: 0, 2: 0}
    assert outcome.scores == {0: 100, 1: 80, 2: 120}  # the buy-ins, ranked by them
    assert outcome.places == ((2,), (0,), (1,))
    assert TripoliGame.model_validate_json(game.model_dump_json()).outcome == outcome


def test_abandoning_a_later_deal_still_ends_with_a_complete_outcome(tri):
    game = TripoliGame.new(TripoliRules(), 3, b"abandon", first_dealer=0)
    tri.play_out(game)
    after_one = list(game.stacks)
    game.start_deal()
    game.end_session(abandon=True)
    assert game.stacks == after_one  # deal 2 undone (its leftover round may follow)
    tri.play_out(game)
    assert game.is_over and game.outcome.complete and game.outcome.winners
    assert sorted(s for place in game.outcome.places for s in place) == [0, 1, 2]
    assert sum(game.outcome.chips.values()) == 0


def test_a_session_too_poor_for_its_first_antes_ends_with_nobody_winning(tri):
    rules = TripoliRules(ante=10)  # 9 spaces: 90 chips a deal
    assert rules.first_deal_chips == 90
    game = TripoliGame.new(rules, 2, b"poor", stacks=[89, 89], first_dealer=0)
    tri.play_out(game)
    outcome = game.outcome
    assert game.is_over and game.deal_number == 0 and outcome is not None
    assert not outcome.complete and outcome.winners == ()
    assert outcome.chips == {0: 0, 1: 0} and game.stacks == [89, 89]


def test_a_session_whose_players_run_out_after_a_deal_is_complete(tri):
    game = TripoliGame.new(TripoliRules(ante=10), 2, b"poor", stacks=[90, 90],
                           first_dealer=0)
    while not game.is_over:
        if game.phase is Phase.BETWEEN_DEALS:
            game.start_deal()
        tri.play_out(game)
    assert game.deal_number >= 1 and game.outcome.complete and game.outcome.winners


def test_the_first_deal_needs_the_larger_ante_on_every_space_unless_zero_chips():
    assert TripoliRules(ante=2, dealer_ante=3).first_deal_chips == 27
    assert TripoliRules(ante=3, dealer_ante=1).first_deal_chips == 27
    assert TripoliRules(elimination="zero_chips").first_deal_chips == 1


def test_a_snapshot_of_the_first_release_loads_and_plays_on(tri):
    text = json.loads(SNAPSHOT.read_text())["game"]
    game = TripoliGame.model_validate_json(text)
    later = {"complete": True, "logged": 0}  # fields added since, at their defaults
    assert json.loads(game.model_dump_json()) == json.loads(text) | later
    assert game.phase == Phase.SELECT and game.to_act == {0, 1, 2}
    assert {p.seat for p in game.pending()} == {0, 1, 2}
    total = game.total_chips()
    tri.play_out(game)
    game.end_session()
    tri.play_out(game)
    assert game.is_over and game.total_chips() == total
    assert sum(game.outcome.scores.values()) == total


def test_the_view_models_import_no_game():
    # views.py holds only the view models; the game builds them (no import cycle)
    tree = ast.parse(Path(views.__file__).read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "engine.tripoli.game" not in imported
    assert not [n for n in vars(views) if n.endswith("_view")]
