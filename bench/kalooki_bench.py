"""Kalooki AI strength and engine speed: mean penalty per deal and time per deal.

``python -m bench.kalooki_bench [deals]`` plays ``deals`` scored deals (default 60) of each
preset, and of Trinidad with calls on honour (``honour``: random-legal players then challenge
at random, §2T.6), with 4 players: one AI (seat 0) against three random-legal players
(``ai.random_legal``), and four AIs. It prints the mean penalty per deal of the AI seat and
of the others (points, lower is better), the share of deals the AI seat went out, void
deals, and the wall time per deal (all decisions, views and ``apply`` included). Call
windows close as soon as every seat asked has let its chance pass.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence

from engine.core import SYSTEM
from engine.kalooki import ai
from engine.kalooki.game import KalookiGame
from engine.kalooki.phases import Phase
from engine.kalooki.rules import PRESETS, KalookiRules, make_rules

RULES: dict[str, KalookiRules] = {**PRESETS, "honour": make_rules("trinidad", honour_calls=True)}

MAX_STEPS_PER_DEAL = 3000  # a deal still running after this many decisions is abandoned


def _step(game: KalookiGame, policies: Sequence[Callable], rng: random.Random) -> list:
    if game.phase == Phase.WINDOW:
        for seat in rng.sample(sorted(game.to_act), len(game.to_act)):
            action = policies[seat](game.view(seat), game.legal_actions(seat), rng)
            if action is not None:
                return game.apply(seat, action)
        return game.apply(SYSTEM, game.timeout_action(SYSTEM))
    seat = game.turn
    return game.apply(seat, policies[seat](game.view(seat), game.legal_actions(seat), rng))


def run(preset: str, policies: Sequence[Callable], deals: int, seed: int = 1) -> dict:
    """Play ``deals`` scored deals; returns penalties per seat, outs, voids and seconds."""
    rng = random.Random(seed)
    n = len(policies)
    penalties = [0] * n
    outs = [0] * n
    scored = voids = stuck = 0
    start = time.perf_counter()
    rules = RULES[preset]
    game = KalookiGame.new(rules, n, b"bench-%d" % seed, first_dealer=0)
    while scored < deals:
        if game.is_over:
            game = KalookiGame.new(rules, n, b"bench-%d-%d" % (seed, scored))
        if game.between_deals:
            game.start_deal()
        for _ in range(MAX_STEPS_PER_DEAL):
            events = _step(game, policies, rng)
            for e in events:
                if e.kind == "deal_scored":
                    scored += 1
                    for s, points in e.penalties.items():
                        penalties[s] += points
                elif e.kind == "went_out":
                    outs[e.seat] += 1
                elif e.kind == "deal_void":
                    voids += 1
            if game.between_deals or game.is_over:
                break
        else:
            stuck += 1
            game = KalookiGame.new(rules, n, b"bench-stuck-%d" % stuck)
    wall = time.perf_counter() - start
    return {
        "penalties": penalties,
        "outs": outs,
        "deals": scored,
        "voids": voids,
        "stuck": stuck,
        "seconds": wall,
    }


def main(deals: int = 60) -> None:
    for preset in RULES:
        for label, policies in (
            ("AI vs 3 random", [ai.choose, ai.random_legal, ai.random_legal, ai.random_legal]),
            ("4 AIs", [ai.choose] * 4),
        ):
            r = run(preset, policies, deals)
            per = [p / r["deals"] for p in r["penalties"]]
            print(
                f"kalooki {preset:8} {label:15}: AI seat {per[0]:6.1f} pts/deal, "
                f"others {sum(per[1:]) / 3:6.1f}; AI seat out {r['outs'][0] / r['deals']:4.0%}; "
                f"{r['voids']} void, {r['stuck']} abandoned; "
                f"{1000 * r['seconds'] / (r['deals'] + r['voids']):6.1f} ms/deal"
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60)
