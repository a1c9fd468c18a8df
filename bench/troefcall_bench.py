"""Troefcall: the AI partnership against a random-legal one, and engine speed.

``python -m bench.troefcall_bench [games]`` plays ``games`` (default 200) seeded games to 15
points. One team is played by :func:`engine.troefcall.ai.choose`, the other by uniformly
random legal actions (its partner's optional kap taken half of the time); the AI team sits
at seats 0 + 2 in even games and 1 + 3 in odd ones. Prints the AI team's win rate, hands per
game, the mean time per game (milliseconds) and per action (microseconds): the whole step
(the seat's view, the choice, ``apply``) and ``apply`` alone.
"""

from __future__ import annotations

import random
import sys
import time

from engine.troefcall.ai import choose, random_legal
from engine.troefcall.game import TroefcallGame
from engine.troefcall.rules import TroefcallRules


def play(seed: int, ai_team: int) -> tuple[int | None, int, int, float]:
    """One game; returns (winning team, hands played, actions, seconds in ``apply``)."""
    rng = random.Random(seed)
    game = TroefcallGame.new(TroefcallRules(), 4, seed.to_bytes(8, "big"))
    actions, in_apply = 0, 0.0
    while not game.is_over:
        if game.between_deals:
            game.start_deal()
            continue
        for pending in sorted(game.pending(), key=lambda p: not p.required):
            seat, options = pending.seat, game.legal_actions(pending.seat)
            if seat % 2 == ai_team:
                action = choose(game.view(seat), options, rng)
            elif pending.required or rng.random() < 0.5:
                action = random_legal(options, rng)
            else:
                action = None
            if action is not None:
                t0 = time.perf_counter()
                game.apply(seat, action, pending.decision)
                in_apply += time.perf_counter() - t0
                actions += 1
                break
    return game.winner, len(game.results), actions, in_apply


def main(games: int = 200) -> None:
    wins = hands = actions = 0
    in_apply = 0.0
    start = time.perf_counter()
    for seed in range(games):
        ai_team = seed % 2
        winner, played, acted, applying = play(seed, ai_team)
        wins += winner == ai_team
        hands += played
        actions += acted
        in_apply += applying
    wall = time.perf_counter() - start
    print(
        f"troefcall AI vs random-legal, {games} games to 15: AI wins {100 * wins / games:.1f} %, "
        f"{hands / games:.1f} hands/game, {1e3 * wall / games:.1f} ms/game, "
        f"{1e6 * wall / max(actions, 1):.1f} µs/action (view + choice + apply), "
        f"{1e6 * in_apply / max(actions, 1):.1f} µs/action in apply"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
