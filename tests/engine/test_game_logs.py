"""Every game counts the events it logs, and what its log keeps of a whole session is what
it kept step by step (a table saves the log apart, event by event, and cuts it at load).

Sessions are played by each decision's timeout default (a rule timer's too), deal after
deal; every event the game returns is collected and compared with the log.
"""

from __future__ import annotations

import json

import pytest

from engine.core import GameState
from engine.kalooki.game import KalookiGame
from engine.kalooki.rules import KalookiRules
from engine.tripoli.game import TripoliGame
from engine.tripoli.rules import make_rules
from engine.troefcall.game import TroefcallGame
from engine.troefcall.rules import TroefcallRules

GAMES = {
    "tripoli": lambda: TripoliGame.new(make_rules("classic"), 4, b"logs" * 8),
    "troefcall": lambda: TroefcallGame.new(TroefcallRules(), 4, b"logs" * 8),
    "kalooki": lambda: KalookiGame.new(KalookiRules(), 3, b"logs" * 8),
}
STEPS = 400


def played(name: str) -> tuple[GameState, list]:
    """A session of ``name`` after up to :data:`STEPS` decisions, and every event it logged."""
    game = GAMES[name]()
    events = list(game.log)  # the opening deal's
    for _ in range(STEPS):
        if game.is_over:
            break
        if game.between_deals:
            events += game.start_deal()
        else:
            pending = next(p for p in game.pending() if p.required)
            events += game.apply(pending.seat, game.timeout_action(pending.seat))
        assert game.logged == len(events)
        assert game.kept_log(events) == game.log
    return game, events


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_log_keeps_of_the_whole_session_what_it_kept_step_by_step(name):
    game, events = played(name)
    assert len(events) > len(game.log)  # the log was cut on the way


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_loads_with_given_rules_and_its_whole_log(name):
    game, events = played(name)
    data = json.loads(game.model_dump_json(exclude={"rules"}))
    data["log"] = [json.loads(event.model_dump_json()) for event in events]
    loaded = type(game).load(json.dumps(data), game.rules)
    assert loaded.model_dump_json() == game.model_dump_json() and loaded.rules is game.rules
    with pytest.raises(ValueError):
        type(game).load(json.dumps(data))  # no rules in the JSON and none given
