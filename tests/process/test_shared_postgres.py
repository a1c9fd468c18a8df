"""Two bot processes share one PostgreSQL and move chips at the same moment (issue 15: shard
processes over one database): gifts, daily claims, admin grants and takes, buy-ins and
payouts (:mod:`chips_child`). Afterwards every invariant holds on the database itself:

- each balance equals the sum of its ledger rows, and each row's ``balance_after`` is the
  running sum of that member's rows (no lost update between the processes);
- per server, balances + escrow == grants - burns, and the grants are exactly the starting
  grants plus what the children were told they were granted (nothing granted twice);
- each daily claim was won by exactly one process, once per member and day;
- no escrow is left (every table paid out), and the only refusals were "not enough chips".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import asyncpg

CHILD = Path(__file__).with_name("chips_child.py")
ROOT = Path(__file__).resolve().parents[2]
OPERATIONS = 240
"""Chip operations each child runs."""
START = 1000
GUILDS = (10, 11)


def child(url: str, number: int, go: float) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(  # tests/: the child's table_round
        [str(ROOT), str(ROOT / "tests"), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, str(CHILD), url, str(number), str(OPERATIONS),
                           str(go)],
                          capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


async def test_two_processes_moving_chips_on_one_postgresql_lose_none(postgres_url):
    go = time.time() + 3  # both children connected and migrated by then
    with ThreadPoolExecutor(2) as pool:
        reports = list(pool.map(lambda number: child(postgres_url, number, go), (1, 2)))
    for report in reports:
        assert report["errors"] == []
    first, second = reports
    assert first["began"] < second["ended"] and second["began"] < first["ended"]  # at once
    claims = Counter(tuple(claim) for report in reports for claim in report["claims"])
    assert claims and set(claims.values()) == {1}  # each (server, member, day) won once

    db = await asyncpg.connect(postgres_url)
    try:
        for guild in GUILDS:
            accounts = dict(await db.fetch(
                "SELECT user_id, balance FROM accounts WHERE guild_id = $1", guild))
            for user, balance in accounts.items():
                rows = await db.fetch("SELECT delta, balance_after FROM ledger"
                                      " WHERE guild_id = $1 AND user_id = $2 ORDER BY id",
                                      guild, user)
                running = 0
                for delta, after in rows:
                    running += delta
                    assert after == running >= 0, (guild, user)
                assert running == balance, (guild, user)
            escrow = await db.fetchval(
                "SELECT COALESCE(SUM(amount), 0) FROM escrow_pools WHERE guild_id = $1", guild)
            granted = await db.fetchval(
                "SELECT COALESCE(SUM(delta), 0) FROM ledger WHERE guild_id = $1"
                " AND kind IN ('grant', 'burn')", guild)
            assert escrow == 0
            assert sum(accounts.values()) + escrow == granted
            told = sum(report["granted"][str(guild)] for report in reports)
            assert granted == START * len(accounts) + told
            dailies = await db.fetch("SELECT user_id, COUNT(*) FROM ledger WHERE guild_id = $1"
                                     " AND reason = 'daily' GROUP BY user_id", guild)
            assert dict(dailies) == dict(Counter(user for g, user, _day in claims if g == guild))
        assert await db.fetchval("SELECT COUNT(*) FROM saved_tables") == 0
    finally:
        await db.close()
