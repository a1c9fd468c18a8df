"""Bytes a table's commit writes, early in a game and after hundreds of actions.

``python -m bench.snapshot_bench [actions]`` plays one table of each game through the real
runtime (:class:`bot.runtime.registry.TableRegistry` on an SQLite store in a temporary
directory; members only, every decision answered with the game's timeout default, the next
deal started as soon as one ends) for ``actions`` changes (default 200), and records what
each ``store.commit_table`` wrote: the snapshot and the log's new events. Printed per game:
bytes per commit at the start (the first ten after Start), at the end (the last ten), the
most, what one whole snapshot of the table (its game with its rules and log inside, as
snapshot version 3 wrote at every commit) would have been at the start and at the end, and
the mean CPU time of the main thread building a commit (:meth:`bot.runtime.table.Table.write`:
the snapshot, the log's new events and the undo point; the store's own thread is not
counted), in microseconds.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bot.clock import ManualClock
from bot.config import Settings
from bot.games import GAMES
from bot.runtime.refs import Ref
from bot.runtime.registry import TableRegistry
from bot.runtime.table import Table, TableState
from bot.store import SqliteStore, TableWrite
from engine.core import SYSTEM

SEATS = {"tripoli": 4, "troefcall": 4, "kalooki": 3}
WINDOW = 10
"""Commits averaged at the start and at the end."""


def whole(table: Table) -> int:
    """Bytes of the table's snapshot with its game's rules and log inside (version 3)."""
    data = json.loads(table.snapshot())
    data["game"] = json.loads(table.game.model_dump_json())
    return len(json.dumps(data))


async def play(name: str, actions: int, folder: Path) -> dict[str, float]:
    async with SqliteStore(folder / f"{name}.db", starting_chips=10_000) as store:
        written: list[int] = []
        commit = store.commit_table

        async def counted(write: TableWrite) -> None:
            await commit(write)
            written.append(len((write.snapshot or "").encode()) + len((write.log or "").encode()))

        store.commit_table = counted  # type: ignore[method-assign]
        writing: list[float] = []
        write = Table.write

        def timed(self: Table, rules: Any = None) -> Any:
            start = time.thread_time()
            made = write(self, rules)
            writing.append(time.thread_time() - start)
            return made

        Table.write = timed  # type: ignore[method-assign]
        settings = Settings(_env_file=None, database=folder / "unused.db", ai_delay=0,
                            board_edit_interval=0)
        registry = TableRegistry(SimpleNamespace(store=store, settings=settings,
                                                 clock=ManualClock(), sleep=asyncio.sleep),
                                 GAMES)
        table = registry.open(name, guild_id=1, channel_id=2, host_id=1, host_name="m1",
                              options={}, buy_in=100)
        for member in range(2, SEATS[name] + 1):
            await registry.join(table, member, f"m{member}")
        await registry.start(table, 1, is_manager=False)
        written.clear()
        writing.clear()
        start = whole(table)
        try:
            for _ in range(actions):
                if table.state is not TableState.PLAYING:
                    break
                await step(registry, table)
        finally:
            Table.write = write  # type: ignore[method-assign]
        end = whole(table) if table.state is TableState.PLAYING else float("nan")
        await registry.close()
    return {"start": statistics.mean(written[:WINDOW]), "end": statistics.mean(written[-WINDOW:]),
            "most": max(written), "whole_start": start, "whole_end": end,
            "commits": len(written), "write_us": 1e6 * statistics.mean(writing)}


async def step(registry: TableRegistry, table: Table) -> None:
    """One change: the next deal, or a decision (a rule timer's first) answered by its
    timeout default."""
    game = table.game
    if game.between_deals:
        await registry.next_deal(table, 1, Ref(table.id, "next", None, game.deal_number))
        return
    seat = min(p.seat for p in game.pending() if p.required or p.seat == SYSTEM)
    async with registry._changing(table):  # as a click or a timer: apply, commit
        game.apply(seat, game.timeout_action(seat), game.decision_id(seat))
        await registry._progress(table)


async def run(actions: int) -> None:
    print(f"bytes per commit over {actions} actions (snapshot + new log events)")
    print(f"{'game':<10} {'start':>7} {'end':>7} {'most':>7}   "
          f"{'v3 start':>8} {'v3 end':>8}  commits  µs/write")
    with tempfile.TemporaryDirectory() as folder:
        for name in SEATS:
            f: dict[str, Any] = await play(name, actions, Path(folder))
            print(f"{name:<10} {f['start']:>7.0f} {f['end']:>7.0f} {f['most']:>7}   "
                  f"{f['whole_start']:>8} {f['whole_end']:>8.0f}  {f['commits']:>7}  "
                  f"{f['write_us']:>8.0f}")


def main() -> None:
    actions = int(sys.argv[1]) if __name__ == "__main__" and len(sys.argv) > 1 else 200
    asyncio.run(run(actions))


if __name__ == "__main__":
    main()
