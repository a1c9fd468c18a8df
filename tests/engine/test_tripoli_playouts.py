"""Seeded random Tripoli sessions with invariants checked after every action.

Sessions of 2-9 players are driven by the AI or by uniformly random legal actions through
several deals, ``end_session`` (sometimes abandoning a deal), the leftover round and OVER.
After every step: chips and cards are conserved, exactly the seats in ``to_act`` have
options, no view shows a card its seat may not see, and the snapshot round trip is exact;
after about a third of the steps, swapping two cards a seat may not see leaves its view
unchanged.
Random junk actions (mostly illegal) are refused without changing anything, and stale
decision ids are refused.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import IllegalAction
from engine.tripoli import ai
from engine.tripoli.actions import Fold
from engine.tripoli.game import TripoliGame
from engine.tripoli.phases import Phase
from engine.tripoli.rules import PRESETS

MAX_STEPS = 3000


def _session(tri, n: int, seed: int, policy: str, deals: int, abandon: bool, preset: str) -> None:
    rng = random.Random(seed)
    stacks = [rng.choice([0, 9, 12, 30, 100, 100]) for _ in range(n)]
    game = TripoliGame.new(PRESETS[preset], n, seed.to_bytes(8, "big"), stacks=stacks)
    total = game.total_chips()
    tri.check_invariants(game, total)
    played_deals = 1
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        if game.phase == Phase.BETWEEN_DEALS:
            if played_deals >= deals:
                game.end_session()
            else:
                game.start_deal()
                played_deals += 1
            tri.check_invariants(game, total)
            continue
        if played_deals >= deals and not game.leftover and not game.ending and rng.random() < 0.05:
            game.end_session(abandon=abandon)
            tri.check_invariants(game, total)
            continue
        if rng.random() < 0.15:
            _try_junk(tri, game, rng)
        seat = rng.choice(sorted(game.to_act))
        options = game.legal_actions(seat)
        if policy == "ai":
            action = ai.choose(game.view(seat), options, random.Random(rng.random()))
        else:
            action = tri.random_action(options, rng)
        assert tri.listed(action, options)
        betting = game.betting if game.phase == Phase.BETTING else None
        folded = set(betting.folded) if betting else set()
        if isinstance(action, Fold):
            folded.add(seat)
        stale = game.decision_id(seat) - 1
        assert tri.refused(game, seat, action, stale) == "stale"
        events = game.apply(seat, action, game.decision_id(seat))
        for e in events:
            if e.kind == "showdown":
                assert not set(e.hands) & folded
        tri.check_invariants(game, total)
        if rng.random() < 0.3:
            tri.check_hidden(game)
    assert game.is_over, "the session did not terminate"
    assert game.result is not None and sum(game.result.values()) + sum(game.board.values()) == total


def _try_junk(tri, game: TripoliGame, rng: random.Random) -> None:
    seat = rng.randrange(game.seats)
    action = tri.junk_action(game, rng)
    if game.to_act and seat in game.to_act and tri.listed(action, game.legal_actions(seat)):
        return  # legal after all: not junk
    before = game.model_dump_json()
    try:
        game.apply(seat, action)
    except IllegalAction:
        assert game.model_dump_json() == before
    else:
        raise AssertionError(f"accepted an unlisted action {action!r} from seat {seat}")


playout_settings = settings(max_examples=100, deadline=None)


@playout_settings
@given(
    n=st.integers(2, 9),
    seed=st.integers(0, 2**32),
    deals=st.integers(1, 4),
    abandon=st.booleans(),
)
def test_ai_sessions_keep_every_invariant(tri, n, seed, deals, abandon):
    _session(tri, n, seed, "ai", deals, abandon, "classic")


@playout_settings
@given(
    n=st.integers(2, 9),
    seed=st.integers(0, 2**32),
    deals=st.integers(1, 4),
    abandon=st.booleans(),
    preset=st.sampled_from(sorted(PRESETS)),
)
def test_random_legal_sessions_keep_every_invariant(tri, n, seed, deals, abandon, preset):
    rules = PRESETS[preset]
    n = min(max(n, rules.min_players), rules.max_players)
    _session(tri, n, seed, "random", deals, abandon, preset)
