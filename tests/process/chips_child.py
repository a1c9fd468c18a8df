"""A child process of the shared-database test (``test_shared_postgres.py``): one of several
bot processes moving chips on one PostgreSQL at the same time.

Usage (from the repository's root; ``tests/`` holds :mod:`table_round`)::

    PYTHONPATH=.:tests python tests/process/chips_child.py DATABASE_URL NUMBER OPERATIONS GO

It opens the store as the bot does (``open_store`` on ``PARLOUR_DATABASE_URL``), waits for
the instant ``GO`` (seconds since the epoch, so that the siblings start together) and runs
``OPERATIONS`` chip operations, eight at a time, on the same two servers and eight members
as its siblings: gifts, daily claims (the same days as its siblings, so they race for each
claim), admin grants and takes, and tables (:func:`table_round.table_round`: three members'
buy-ins committed with the table, then the pot shared out as the table is deleted). Its
process ``NUMBER`` seeds its choices and names its tables. It prints one JSON line: when it
began and ended, what the store granted it (daily chips and admin grants per server), each
claim it won, and the refusals and errors it met.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta

from table_round import table_round

from bot.store import InsufficientChips, open_store

GUILDS = (10, 11)
MEMBERS = tuple(range(1, 9))
START = 1000
DAILY = 100
WORKERS = 8
DAY = datetime(2026, 1, 1, tzinfo=UTC)


async def main(url: str, number: int, operations: int, go: float) -> None:
    rng = random.Random(number)
    store = await open_store(url, starting_chips=START)
    await asyncio.sleep(max(0.0, go - time.time()))
    began = time.time()
    granted: Counter[int] = Counter()
    claims: list[list[int]] = []
    refused: Counter[str] = Counter()
    errors: list[str] = []

    async def operation(n: int) -> None:
        guild, a, b = rng.choice(GUILDS), *rng.sample(MEMBERS, 2)
        amount = rng.randint(1, 600)
        match n % 6:
            case 0:
                await store.transfer(guild, a, b, amount)
            case 1:
                day = n % 5  # the siblings claim the same five days
                balance = await store.claim_daily(guild, a, DAILY, DAY + timedelta(days=day))
                if balance is not None:
                    granted[guild] += DAILY
                    claims.append([guild, a, day])
            case 2:
                await store.grant(guild, a, amount, "admin_grant")
                granted[guild] += amount
            case 3:
                await store.burn(guild, a, amount, "admin_take")
                granted[guild] -= amount
            case _:
                await table_round(store, rng, f"p{number}t{n}", guild, MEMBERS)

    async def worker(numbers: range) -> None:
        for n in numbers:
            try:
                await operation(n)
            except InsufficientChips:
                refused[n % 6 if n % 6 < 4 else 4] += 1
            except Exception as exc:  # reported to the parent, which fails the test
                errors.append(f"{type(exc).__name__}: {exc}")

    try:
        await asyncio.gather(*(worker(range(w, operations, WORKERS)) for w in range(WORKERS)))
    finally:
        ended = time.time()
        await store.close()
    print(json.dumps({"began": began, "ended": ended,
                      "granted": {str(g): granted[g] for g in GUILDS}, "claims": claims,
                      "refused": sum(refused.values()), "errors": errors}))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])))
