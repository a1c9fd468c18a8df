"""Text renders: milliseconds per board and per private hand of each game (issue 15).

``python -m bench.render_bench [steps]`` plays a seeded game of each game with the AI into its
second deal (Tripoli 5 players, Troefcall 4, Kalooki 4), then for ``steps`` more decisions
(default 200) renders, after each decision, the board as the runtime does
(:func:`bot.render.summary.board`: the game's board, the deal summary between deals) and the
private hand of the seat to act (``adapter.hand``), in English, from the engine's views.
Every render sees a new state, as in a running bot (one decision between two renders). Times
are the mean milliseconds of process CPU time of a render, the lowest of 3 runs: on a busy
machine the figures count neither the time others run nor, as far as can be, what they cost
this process (caches, the clock). A render describes its picture only when asked
(:attr:`bot.runtime.spec.Rendered.picture`: a server that shows pictures): ``+pic`` is what
describing the board's and the hand's picture adds (not their drawing).
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from bot.games import GAMES
from bot.render.summary import board
from bot.runtime.spec import SeatInfo, TableInfo
from engine.core import SYSTEM

PLAYERS = {"tripoli": 5, "troefcall": 4, "kalooki": 4}


def table_info(name: str, players: int) -> TableInfo:
    """A table of one member (seat 0) and AI seats, in English."""
    spec = GAMES[name].spec_for({})
    seats = tuple(SeatInfo(member_id=100 if s == 0 else None,
                           name="Alice" if s == 0 else f"AI {s}", ai=s != 0,
                           team=spec.team_of(s)) for s in range(players))
    return TableInfo(id="b3nch1", spec=spec, seats=seats, host_id=100, ranked=False,
                     buy_in=1000, deadlines={0: 1.8e9})


def step(name: str, game: Any, rng: random.Random) -> None:
    """One decision of the seat due (required decisions first), or the next deal."""
    adapter = GAMES[name]
    if game.between_deals:
        game.start_deal()
        return
    pending = sorted(game.pending(), key=lambda p: not p.required)
    seat = pending[0].seat
    action = adapter.ai_action(game, seat, rng) if seat >= 0 else game.timeout_action(seat)
    if action is not None:
        game.apply(seat, action, pending[0].decision)


def measure(name: str, steps: int, seed: int = 15) -> tuple[float, float, float, float, int]:
    """Mean ms per board render, its picture's description, per hand render and its
    picture's description over ``steps`` decisions of the second deal on, and the renders
    made."""
    adapter = GAMES[name]
    players = PLAYERS[name]
    info = table_info(name, players)
    game = adapter.new_game({}, players, seed.to_bytes(8, "big"), 1000)
    rng = random.Random(seed)
    while game.deal_number < 2 and not game.is_over:
        step(name, game, rng)
    spent = [0.0] * 4  # board, its picture, hand, its picture
    renders = 0
    for _ in range(steps):
        if game.is_over:
            break
        step(name, game, rng)
        seats = [p.seat for p in game.pending() if p.seat != SYSTEM] or [0]
        marks = [time.process_time()]
        shown = board(adapter, info, game, None)
        marks.append(time.process_time())
        _ = shown.picture
        marks.append(time.process_time())
        shown = adapter.hand(info, game, seats[0])
        marks.append(time.process_time())
        _ = shown.picture
        marks.append(time.process_time())
        for i in range(4):
            spent[i] += marks[i + 1] - marks[i]
        renders += 1
    board_ms, board_pic, hand_ms, hand_pic = (s * 1000 / renders for s in spent)
    return board_ms, board_pic, hand_ms, hand_pic, renders


def main(steps: int = 200, runs: int = 3) -> None:
    for name in PLAYERS:
        measure(name, 20)  # warm up
        figures = [measure(name, steps) for _ in range(runs)]
        board_ms, board_pic, hand_ms, hand_pic = (min(f[i] for f in figures) for i in range(4))
        renders = figures[0][4]
        print(f"{name:>10}: board {board_ms:6.3f} ms (+pic {board_pic:5.3f}) · "
              f"hand {hand_ms:6.3f} ms (+pic {hand_pic:5.3f}) ({renders} renders each)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
