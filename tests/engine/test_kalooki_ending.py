"""How a Kalooki set ends (``rules/kalooki.md`` §2 item 59, T27; :class:`engine.core.EndReason`):
after its last deal the lowest total wins, and so when the table's agreed length ends it; a
set the host or the runtime (too few players) ends before its last deal has no winner.
"""

from __future__ import annotations

import json

import pytest
from test_kalooki_support import Pool

from engine.core import EndReason
from engine.kalooki.actions import Discard
from engine.kalooki.game import KalookiGame
from engine.kalooki.phases import Phase
from engine.kalooki.rules import JAMAICAN

BEFORE = {0: 40, 1: 20, 2: 60}
"""The totals before the deal of :func:`going_out`."""

AFTER = {0: 40, 1: 30, 2: 73}
"""The totals once seat 0 went out: K♥ costs seat 1 10 points, Q♦ 3♦ seat 2 13."""

EARLY = [(EndReason.HOST, False), (EndReason.PLAYERS, False), (EndReason.LENGTH, True)]
"""Each reason to end a set before its last deal, and whether the set is then complete."""


def going_out(deal_number: int) -> tuple[KalookiGame, Discard]:
    """Deal ``deal_number`` of a Jamaican set of three at :data:`BEFORE`; seat 0, laid down,
    goes out with the discard returned (§2.10 item 53)."""
    p = Pool()
    game = KalookiGame.from_position(
        JAMAICAN, hands={0: p("2c"), 1: p("Kh"), 2: p("Qd 3d")}, dealer=2, turn=0,
        phase=Phase.PLAY, laid_down=[0], deal_number=deal_number, totals=BEFORE)
    return game, Discard(card=game.hands[0][0])


@pytest.mark.parametrize("reason", [None, *EndReason])
def test_the_last_deal_ends_the_set_with_the_lowest_total_winning(reason):
    game, out = going_out(JAMAICAN.deals)
    if reason is not None:  # asked to end after this deal: it is the last one anyway
        assert game.end_session(reason=reason) == [] and game.public_view().ending
    events = game.apply(0, out)
    assert events[-1].kind == "session_over" and events[-1].complete
    assert game.outcome.complete and game.outcome.scores == AFTER
    assert game.outcome.winners == (1,)


@pytest.mark.parametrize(("reason", "complete"), EARLY)
def test_a_set_asked_to_end_after_a_deal_before_its_last(reason, complete):
    game, out = going_out(4)
    assert game.end_session(reason=reason) == [] and game.ending and not game.is_over
    events = game.apply(0, out)
    assert [e.kind for e in events][-2:] == ["deal_scored", "session_over"]
    assert events[-1].complete is complete and game.outcome.complete is complete
    assert game.outcome.scores == AFTER and game.outcome.places == ((1,), (0,), (2,))
    assert game.outcome.winners == ((1,) if complete else ())


@pytest.mark.parametrize(("reason", "complete"), EARLY)
def test_a_set_ended_between_deals_before_its_last(reason, complete):
    game, out = going_out(4)
    game.apply(0, out)
    assert game.between_deals and not game.is_over
    events = game.end_session(reason=reason)
    assert [e.kind for e in events] == ["session_over"] and events[0].complete is complete
    assert game.outcome.scores == AFTER
    assert game.outcome.winners == ((1,) if complete else ())


@pytest.mark.parametrize(("deal_number", "reason", "complete"), [
    (4, EndReason.HOST, False), (4, EndReason.LENGTH, True), (1, EndReason.LENGTH, False)])
def test_abandoning_a_deal_scores_nothing_and_the_first_deal_leaves_no_winner(
        deal_number, reason, complete):
    game, _out = going_out(deal_number)
    events = game.end_session(abandon=True, reason=reason)
    assert [e.kind for e in events] == ["session_over"] and game.is_over
    assert game.outcome.complete is complete and game.outcome.scores == BEFORE
    assert game.outcome.winners == ((1,) if complete else ())


def test_a_set_saved_ending_before_the_reason_was_kept_ends_as_the_host_asked():
    game, out = going_out(4)
    game.end_session()  # the host's end, the default
    saved = json.loads(game.model_dump_json())
    assert saved.pop("end_reason") == "host"
    old = KalookiGame.model_validate_json(json.dumps(saved))
    assert old.ending and old.end_reason is None
    old.apply(0, out)
    assert old.is_over and not old.outcome.complete and old.outcome.scores == AFTER
