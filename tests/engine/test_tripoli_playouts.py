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

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tripoli.rules import PRESETS

playout_settings = settings(max_examples=100, deadline=None)


@playout_settings
@given(
    n=st.integers(2, 9),
    seed=st.integers(0, 2**32),
    deals=st.integers(1, 4),
    abandon=st.booleans(),
)
def test_ai_sessions_keep_every_invariant(tri, n, seed, deals, abandon):
    tri.play_session(n, seed, "ai", deals, abandon, PRESETS["classic"])


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
    tri.play_session(n, seed, "random", deals, abandon, rules)
