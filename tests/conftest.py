"""Fixtures every test directory shares: both store back ends, PostgreSQL included.

PostgreSQL is real: the ``pgserver`` test dependency ships the server's binaries, and one
server runs for the whole session (started on first use; as root, pgserver runs it as its
own ``pgserver`` system user; a watchdog process stops it should the session be killed).
A test gets a fresh database of its own (``postgres_url``), or the session's migrated
database emptied of every row (``database_url``).
Nothing is skipped when the server cannot start: the tests that need it fail, loudly.

Fixtures
--------
postgres_server
    The session's server (a ``pgserver.PostgresServer``).
postgres_url
    A fresh, empty database on it (no schema yet): its ``postgresql://`` URL.
database_url
    Parametrized over both back ends: an SQLite file in ``tmp_path`` (``"sqlite"``) or the
    session's migrated PostgreSQL database with every row deleted (``"postgres"``); pass it
    to :func:`bot.store.open_store`.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from databases import emptied, fresh_database

from bot.store import open_store

#: The store back ends every parametrized store test runs on.
BACKENDS = ("sqlite", "postgres")

#: Stops the server if this session is killed before it can (a test run under ``timeout``).
WATCHDOG = Path(__file__).with_name("postgres_watchdog.py")


@pytest.fixture(scope="session")
def postgres_server() -> Any:
    import pgserver  # a test dependency (pyproject.toml): missing, every PostgreSQL test fails

    # not under pytest's tmp_path: its private (0700) directories would keep out the
    # pgserver user the server runs as when the tests run as root
    home = Path(tempfile.mkdtemp(prefix="parlour-postgres-"))
    subprocess.Popen([sys.executable, str(WATCHDOG), str(os.getpid()), str(home)],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     start_new_session=True)
    server = pgserver.get_server(home / "data", cleanup_mode="delete")
    try:
        # a throwaway server: durability buys nothing here and costs each test's commits
        for setting in ("fsync", "synchronous_commit", "full_page_writes"):
            server.psql(f"ALTER SYSTEM SET {setting} = off;")
        server.psql("SELECT pg_reload_conf();")
        yield server
    finally:
        server.cleanup()
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_shared(postgres_server) -> str:
    """The URL of one database migrated once for the session (see ``database_url``)."""
    name = "parlour_shared"

    async def create() -> None:
        admin = await asyncpg.connect(postgres_server.get_uri())
        try:
            await admin.execute(f"CREATE DATABASE {name}")
        finally:
            await admin.close()
        await (await open_store(postgres_server.get_uri(name), starting_chips=0)).close()

    # on a thread of its own: the fixture may be first asked for inside a test's event loop
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, create()).result()
    return postgres_server.get_uri(name)


@pytest.fixture
async def postgres_url(postgres_server) -> AsyncIterator[str]:
    async with fresh_database(postgres_server) as url:
        yield url


@pytest.fixture(params=BACKENDS)
async def database_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "parlour.db")
    return await emptied(request.getfixturevalue("postgres_shared"))
