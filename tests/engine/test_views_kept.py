"""A game keeps the views it gave of its current state (``engine/core.py``
``GameState.viewed``): read again they are the same objects; any change, through a method
or by assigning a field, gives new ones; copies and equality ignore them."""

from __future__ import annotations

import copy
import pickle

from engine.tripoli.actions import Keep
from engine.tripoli.game import TripoliGame
from engine.tripoli.rules import PRESETS


def new_game() -> TripoliGame:
    return TripoliGame.new(PRESETS["classic"], 3, b"kept", first_dealer=0)


def test_one_state_gives_one_view_and_a_change_a_new_one():
    game = new_game()
    public, seat = game.public_view(), game.view(0)
    assert game.public_view() is public and game.view(0) is seat
    assert seat.table is public  # a seat's view holds the public view of the same state
    game.apply(0, Keep(), game.decision_id(0))
    assert game.public_view() is not public and game.public_view() != public
    assert game.view(0).options != seat.options


def test_assigning_a_field_drops_the_views():
    game = new_game()
    before = game.public_view()
    game.stacks = [s + 1 for s in game.stacks]  # type: ignore[operator]
    assert game.public_view().stacks == tuple(before.stacks[s] + 1 for s in range(3))


def test_a_runtime_operation_drops_the_views():
    game = new_game()
    assert not game.public_view().ending
    game.end_session()  # during a deal: only "ends after this deal"
    assert game.public_view().ending


def test_copies_and_equality_ignore_the_kept_views():
    game = new_game()
    untouched = copy.deepcopy(game)
    game.view(1)
    assert game == untouched
    for other in (copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert other == game and other.view(1) == game.view(1)
        assert other.view(1) is not game.view(1)


def test_a_copy_with_other_rules_views_its_own_rules():
    game = new_game()
    assert game.public_view().rules_name == "classic"
    other = game.model_copy(update={"rules": PRESETS["italian"]})
    assert other.public_view().rules_name == "italian"
    assert game.public_view().rules_name == "classic"
