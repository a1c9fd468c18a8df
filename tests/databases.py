"""PostgreSQL databases for the tests (the session's server is ``conftest.postgres_server``)."""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

_databases = itertools.count(1)


@asynccontextmanager
async def fresh_database(server: Any) -> AsyncIterator[str]:
    """Create an empty database on ``server``, yield its URL, drop it afterwards."""
    name = f"parlour_{os.getpid()}_{next(_databases)}"
    admin = await asyncpg.connect(server.get_uri())
    try:
        await admin.execute(f"CREATE DATABASE {name}")
        yield server.get_uri(name)
    finally:
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        await admin.close()


async def emptied(url: str) -> str:
    """Delete every row of the database at ``url`` but its schema's (triggers off: the
    ledger's append-only trigger would refuse), restarting its ids; return ``url``.

    Emptying takes milliseconds where creating a database takes most of a second on a
    loaded machine, so the store tests get a database as good as fresh, fast.
    """
    db = await asyncpg.connect(url)
    try:
        tables = [row[0] for row in await db.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            " AND tablename <> 'schema_migrations'")]
        await db.execute("SET session_replication_role = replica")
        await db.execute(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY")
    finally:
        await db.close()
    return url
