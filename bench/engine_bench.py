"""Tripoli engine throughput: random-legal deals per second and microseconds per action.

``python -m bench.engine_bench [seconds]`` plays random-legal deals (every player picks a
uniformly random legal action) for 4 and 7 players and prints deals per second (whole deals:
start, spare hand, phase 1, poker, Michigan) and the mean time of one ``apply`` call
(``legal_actions`` + validation + state change), in microseconds.
"""

from __future__ import annotations

import random
import sys
import time

from engine.tripoli.ai import random_legal
from engine.tripoli.game import TripoliGame
from engine.tripoli.phases import Phase
from engine.tripoli.rules import PRESETS

BIG_STACK = 10**9  # nobody is eliminated during a benchmark


def run(players: int, seconds: float, seed: int = 1) -> tuple[int, int, float, float]:
    """Play for about ``seconds``; returns (deals, actions, wall seconds, seconds in apply)."""
    rng = random.Random(seed)
    game = TripoliGame.new(
        PRESETS["classic"], players, b"bench", stacks=[BIG_STACK] * players, first_dealer=0
    )
    deals = actions = 0
    in_apply = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if game.phase == Phase.BETWEEN_DEALS:
            game.start_deal()
            continue
        seat = min(game.to_act)
        t0 = time.perf_counter()
        action = random_legal(game.legal_actions(seat), rng)
        game.apply(seat, action)
        in_apply += time.perf_counter() - t0
        actions += 1
        if game.phase == Phase.BETWEEN_DEALS:
            deals += 1
    return deals, actions, time.perf_counter() - start, in_apply


def main(seconds: float = 3.0) -> None:
    for players in (4, 7):
        deals, actions, wall, in_apply = run(players, seconds)
        print(
            f"tripoli {players} players: {deals / wall:8.1f} deals/s, "
            f"{actions / max(deals, 1):5.1f} actions/deal, "
            f"{1e6 * in_apply / max(actions, 1):7.1f} µs/action (legal_actions + apply)"
        )


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0)
