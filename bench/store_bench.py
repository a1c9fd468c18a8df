"""Store throughput: chip operations per second (`python -m bench.store_bench`).

Each figure runs on a fresh database in a temporary directory, with ``tasks`` coroutines
sharing one :class:`bot.store.SqliteStore` (as the bot's tasks do) and ``asyncio.gather``
racing them. Transactions are serialised by the store's lock, so concurrency measures the cost
of queueing, not parallel speed-up. Prints one line per operation; asserts nothing but the
audit (balances + escrow == granted) after each run.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.store import SqliteStore

GUILD = 1
START = 1_000_000


async def _timed(tasks: int, per_task: int, op: Callable[[int, int], Awaitable[object]]) -> float:
    """Run ``op(task, i)`` ``per_task`` times in each of ``tasks`` racing tasks; ops/second."""

    async def worker(task: int) -> None:
        for i in range(per_task):
            await op(task, i)

    began = time.perf_counter()
    await asyncio.gather(*(worker(task) for task in range(tasks)))
    return tasks * per_task / (time.perf_counter() - began)


async def _check_books(store: SqliteStore) -> None:
    balances, escrow, granted = await store.audit(GUILD)
    if balances + escrow != granted:
        raise AssertionError(f"books broken: {balances} + {escrow} != {granted}")


async def measure(directory: Path, tasks: int, per_task: int) -> dict[str, float]:
    """Measure each operation on its own fresh database.

    Parameters
    ----------
    directory
        Where the database files go.
    tasks
        Concurrent coroutines sharing the store.
    per_task
        Operations each coroutine runs back to back.

    Returns
    -------
    dict[str, float]
        Operations per second by operation name.
    """
    members = range(1, tasks + 1)
    figures: dict[str, float] = {}

    async def fresh(name: str) -> SqliteStore:
        store = SqliteStore(directory / f"{name}.db", starting_chips=START)
        await store.open()
        for member in members:
            await store.balance(GUILD, member)
        return store

    store = await fresh("balance")
    figures["balance (read)"] = await _timed(
        tasks, per_task, lambda t, i: store.balance(GUILD, t + 1)
    )
    await store.close()

    store = await fresh("transfer")
    figures["transfer (gift)"] = await _timed(
        tasks, per_task, lambda t, i: store.transfer(GUILD, t + 1, (t + 1) % tasks + 1, 1)
    )
    await _check_books(store)
    await store.close()

    store = await fresh("escrow")
    figures["escrow (buy-in)"] = await _timed(
        tasks, per_task, lambda t, i: store.escrow(GUILD, t + 1, f"table-{i % 8}", 10)
    )
    # every member settles back what they escrowed, table by table
    figures["settle"] = await _timed(
        tasks, per_task, lambda t, i: store.settle(GUILD, t + 1, f"table-{i % 8}", 10)
    )
    await _check_books(store)
    await store.close()

    store = await fresh("mixed")
    for member in members:
        await store.escrow(GUILD, member, "table", per_task)

    def settle_or_gift(t: int, i: int) -> Awaitable[object]:
        if i % 2:
            return store.transfer(GUILD, t + 1, (t + 1) % tasks + 1, 1)
        return store.settle(GUILD, t + 1, "table", 1)

    figures["settle + gift, mixed"] = await _timed(tasks, per_task, settle_or_gift)
    await _check_books(store)
    await store.close()
    return figures


def main(argv: list[str] | None = None) -> None:
    """Print operations per second for each store operation under concurrency."""
    parser = argparse.ArgumentParser(prog="python -m bench.store_bench", description=__doc__)
    parser.add_argument("--tasks", type=int, default=50, help="concurrent tasks (default 50)")
    parser.add_argument("--ops", type=int, default=40, help="operations per task (default 40)")
    args = parser.parse_args(argv)
    if args.tasks < 2 or args.ops < 1:
        parser.error("--tasks must be >= 2 (members give chips around a ring) and --ops >= 1")
    with tempfile.TemporaryDirectory(prefix="parlour-store-bench-") as directory:
        figures = asyncio.run(measure(Path(directory), args.tasks, args.ops))
    print(f"store (SQLite, WAL, one shared connection): {args.tasks} tasks x {args.ops} ops each")
    for name, rate in figures.items():
        print(f"  {name:<22} {rate:>9,.0f} ops/s")


if __name__ == "__main__":
    main()
