"""Pictures: render time of each game's board and of a 16-card hand, cold and cached, and
the PNG sizes (issue 14: under 100 KB an image; issue 15: at most 2 ms to draw and encode a
picture on this machine).

``python -m bench.images_bench [repeats]`` builds each picture from a seeded game's view
(the AI plays until there is something to show: a Michigan run, a trick of three cards;
Kalooki's is its busiest board, six players with two combinations each). *Cold* is drawing
and encoding a picture not drawn before (the card faces already drawn once by an earlier
picture, as in a running bot; the very first picture of a process also draws the faces:
shown as "first"); *cached* is a lookup in
:class:`bot.images.cache.PictureCache`. Times are milliseconds, the mean of ``repeats``
(default 30): the mean of the CPU time spent (``cpu``: what a picture costs the process,
whatever else the machine runs) and of the wall time, and the fastest wall time.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from bot.games import GAMES
from bot.images import kalooki, tripoli, troefcall
from bot.images.cache import PictureCache
from bot.images.picture import HandPicture, Picture, png
from engine.cards import Card, Suit
from engine.kalooki.game import KalookiGame
from engine.kalooki.phases import Phase as KalookiPhase
from engine.tripoli.phases import Phase as TripoliPhase
from engine.troefcall.phases import Phase as TroefcallPhase


def play_until(name: str, players: int, done: Callable[[Any], bool], seed: int) -> Any:
    """A seeded game of ``name`` played by the AI until ``done(game)`` (or 5000 steps)."""
    adapter = GAMES[name]
    game = adapter.new_game({}, players, seed.to_bytes(8, "big"), 100)
    rng = random.Random(seed)
    for _ in range(5000):
        if done(game) or game.is_over:
            break
        if game.between_deals:
            game.start_deal()
            continue
        pending = sorted(game.pending(), key=lambda p: not p.required)
        seat = pending[0].seat
        action = (adapter.ai_action(game, seat, rng) if seat >= 0
                  else game.timeout_action(seat))
        if action is not None:
            game.apply(seat, action, pending[0].decision)
    return game


def boards(seed: int) -> dict[str, Picture]:
    """One board picture of each game, from the public views."""
    game = play_until("tripoli", 5, lambda g: g.phase is TripoliPhase.MICHIGAN
                      and len(g.public_view().michigan.last_run) >= 4, seed)
    out: dict[str, Picture] = {"tripoli": tripoli.board_picture(game.public_view(), True)}
    game = play_until("troefcall", 4, lambda g: g.phase is TroefcallPhase.PLAY
                      and g.public_view().trick is not None
                      and len(g.public_view().trick.plays) == 3, seed)
    out["troefcall"] = troefcall.board_picture(game.public_view())
    out["kalooki"] = kalooki.board_picture(six_laid_down().public_view())
    return out


def six_laid_down() -> KalookiGame:
    """Kalooki's busiest board: six players, each with a three and a run of five."""
    melds: list[tuple[int, Any, list[int]]] = []
    for seat in range(6):
        suit, copy = Suit(seat % 4), seat // 4
        melds.append((seat, "three", [int(Card.of(2 + seat, s, copy)) for s in Suit][:3]))
        melds.append((seat, "four", [int(Card.of(9 + r, suit, copy)) for r in range(5)]
                      if seat % 2 else [int(Card.of(8 + r, suit, copy)) for r in range(5)]))
    used = {c for _, _, cards in melds for c in cards}
    rest = [c for c in range(104) if c not in used]
    hands = {seat: rest[seat * 5:(seat + 1) * 5] for seat in range(6)}
    return KalookiGame.from_position(hands=hands, phase=KalookiPhase.PLAY, melds=melds,
                                     discard=rest[30:32])


def hand(seed: int) -> HandPicture:
    """A 16-card hand with some cards legal and two raised."""
    cards = random.Random(seed).sample(range(52), 16)
    return HandPicture(held=tuple(sorted(cards)), legal=tuple(sorted(cards[:6])),
                       raised=tuple(cards[6:8]))


def timed(work: Callable[[], Any], repeats: int) -> tuple[float, float, float]:
    """Milliseconds of ``work`` over ``repeats`` runs: the mean CPU time of this thread,
    the mean wall time and the fastest wall time."""
    cpu, runs = 0.0, []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.thread_time()
        work()
        runs.append((time.perf_counter() - start) * 1000)
        cpu += (time.thread_time() - start_cpu) * 1000
    return cpu / repeats, sum(runs) / repeats, min(runs)


async def cached_ms(cache: PictureCache, picture: Picture, repeats: int) -> float:
    """Milliseconds per :meth:`PictureCache.png` of a picture it holds."""
    await cache.png(picture)
    start = time.perf_counter()
    for _ in range(repeats):
        await cache.png(picture)
    return (time.perf_counter() - start) * 1000 / repeats


def main(repeats: int = 30) -> None:
    start = time.perf_counter()
    png(hand(0))
    first = (time.perf_counter() - start) * 1000
    print(f"first picture of the process (draws the card faces): {first:.1f} ms")
    pictures = {**{f"{name} board": p for name, p in boards(1).items()},
                "16-card hand": hand(1)}
    cache = PictureCache()
    for name, picture in pictures.items():
        data = png(picture)
        cpu, wall, best = timed(lambda picture=picture: png(picture), repeats)
        cached = asyncio.run(cached_ms(cache, picture, repeats))
        print(f"{name:>16}: cold cpu {cpu:4.2f} ms, wall {wall:5.2f} (best {best:4.2f}) · "
              f"cached {cached:6.3f} ms · {len(data) / 1024:5.1f} KB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
