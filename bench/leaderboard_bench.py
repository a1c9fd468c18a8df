"""Boards and stats at scale (`python -m bench.leaderboard_bench [--members N] [--results N]`).

Fills one server with ``members`` accounts and ``results`` ranked, complete four-seat results
committed through :meth:`bot.store.SqliteStore.commit_table` (so ratings, stats and names are
derived as in play), then times what ``/leaderboard`` and ``/stats`` read: a page and the
caller's rank of every board, and a member's stats with a rating history. Prints the query
plans of the board reads (each uses an index; none scans the results). Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.store import GameResult, SeatResult, SqliteStore, TableWrite

GUILD, CHANNEL = 1, 2
GAMES = ("tripoli", "troefcall", "kalooki")


def _result(rng: random.Random, members: int) -> GameResult:
    game = rng.choice(GAMES)
    users = rng.sample(range(1, members + 1), 4)
    if game == "troefcall":
        winner = rng.randrange(2)
        seats = tuple(SeatResult(s, u, f"member{u}", s % 2, 1 if s % 2 == winner else 2, 0,
                                 None) for s, u in enumerate(users))
    else:
        places = sorted(rng.randint(1, 4) for _ in users)
        seats = tuple(SeatResult(s, u, f"member{u}", None, p, 0,
                                 rng.randint(-100, 100) if game == "tripoli" else None)
                      for s, (u, p) in enumerate(zip(users, places, strict=True)))
    return GameResult(game, True, True, "{}", "{}", seats)


async def _time(label: str, runs: int, work: Callable[[int], Awaitable[object]]) -> None:
    started = time.perf_counter()
    for run in range(runs):
        await work(run)
    print(f"{label:<44} {1000 * (time.perf_counter() - started) / runs:8.3f} ms/call")


async def run(members: int, results: int) -> None:
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        async with SqliteStore(path, starting_chips=1000) as store:
            started = time.perf_counter()
            for user in range(1, members + 1):
                await store.grant(GUILD, user, rng.randint(1, 5000), "bench")
            for number in range(results):
                await store.commit_table(TableWrite(f"t{number}", GUILD, CHANNEL, None,
                                                    result=_result(rng, members)))
            print(f"filled {members:,} members and {results:,} results in "
                  f"{time.perf_counter() - started:.1f} s")
            for metric, game in (("chips", None), ("rating", "tripoli"), ("wins", None),
                                 ("games", "kalooki")):
                await _time(f"/leaderboard {metric} {game or 'all'}: page", 200,
                            lambda run, m=metric, g=game: store.board(
                                GUILD, m, g, (run % 50) * 10, 10))
                await _time(f"/leaderboard {metric} {game or 'all'}: caller's rank", 200,
                            lambda run, m=metric, g=game: store.board_rank(
                                GUILD, m, g, 1 + run * 37 % members))
            await _time("/stats: member stats", 200,
                        lambda run: store.member_stats(GUILD, 1 + run * 37 % members))
            await _time("/stats: rating history (10)", 200,
                        lambda run: store.rating_history(GUILD, "tripoli",
                                                         1 + run * 37 % members))
        with sqlite3.connect(path) as db:
            for table, column, where in (("accounts", "balance", "guild_id = 1"),
                                         ("ratings", "display", "guild_id = 1 AND game = 't'"),
                                         ("member_stats", "wins", "guild_id = 1 AND game = ''")):
                plan = db.execute(f"EXPLAIN QUERY PLAN SELECT user_id FROM {table} WHERE {where}"
                                  f" ORDER BY {column} DESC, user_id LIMIT 10 OFFSET 100")
                print(f"plan {table}: {' / '.join(row[3] for row in plan)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=10_000)
    parser.add_argument("--results", type=int, default=100_000)
    options = parser.parse_args([] if __name__ != "__main__" else None)
    asyncio.run(run(options.members, options.results))


if __name__ == "__main__":
    main()
