"""The SQLite store (aiosqlite), Parlour's embedded default (DESIGN.md §5).

One aiosqlite connection is shared by every task of the bot. aiosqlite runs statements one by
one on its own thread, so two tasks' multi-statement transactions would interleave on the
connection (measured: it corrupts balances). An ``asyncio.Lock`` therefore wraps every
operation: each is one ``BEGIN IMMEDIATE ... COMMIT`` transaction (rolled back on any error,
including cancellation), and reads run alone too, so they never see half an operation.
``BEGIN IMMEDIATE`` takes the file's write lock at once, so another process's change waits
(``busy_timeout``) instead of interleaving.

The database runs in WAL mode with a busy timeout (another process, e.g. a backup, may hold
the file briefly) and enforces foreign keys; the schema's CHECKs refuse negative balances and
zero ledger deltas, and triggers keep the ledger append-only.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store.protocol import StoreError
from bot.store.schema import Migration
from bot.store.sql import Connection, SqlStore

log = logging.getLogger(__name__)

T = TypeVar("T")

#: The path that opens a private in-memory database (no file, no WAL).
MEMORY = ":memory:"


class SqliteStore(SqlStore):
    """Chips, saved tables and settings in one SQLite file; implements :class:`Store`.

    Parameters
    ----------
    path
        The database file (its directory is created if missing), or ``":memory:"``.
    starting_chips, clock, migrations
        As for :class:`~bot.store.sql.SqlStore`.
    busy_timeout
        Seconds to wait for a lock held by another process before failing (> 0).

    Raises
    ------
    TypeError, ValueError
        If ``starting_chips`` or ``busy_timeout`` is not acceptable.
    """

    dialect = "sqlite"

    def __init__(
        self,
        path: str | Path,
        *,
        starting_chips: int,
        busy_timeout: float = 5.0,
        clock: Callable[[], datetime] | None = None,
        migrations: Sequence[Migration] | None = None,
    ) -> None:
        if isinstance(busy_timeout, bool) or not isinstance(busy_timeout, int | float):
            raise TypeError(f"busy_timeout must be a number of seconds, not {busy_timeout!r}")
        if not busy_timeout > 0:
            raise ValueError(f"busy_timeout must be > 0 seconds, got {busy_timeout}")
        super().__init__(starting_chips=starting_chips, clock=clock, migrations=migrations)
        self.path = path
        self.busy_timeout = float(busy_timeout)
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    async def open(self) -> None:
        """Connect, set WAL, busy timeout and foreign keys, and apply pending migrations.

        Opening an open store does nothing.

        Raises
        ------
        StoreError
            If the file cannot be opened or its schema is newer than (or differs from) the
            migrations this code knows; the store stays closed.
        """
        if self._db is not None:
            return
        try:
            if str(self.path) != MEMORY:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            db = await aiosqlite.connect(self.path, isolation_level=None, timeout=self.busy_timeout)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the database {self.path}: {exc}") from exc
        try:
            await db.execute(f"PRAGMA busy_timeout = {round(self.busy_timeout * 1000)}")
            [(journal,)] = await db.execute_fetchall("PRAGMA journal_mode = WAL")
            if journal != "wal" and str(self.path) != MEMORY:
                log.warning("store: %s runs in journal mode %r, not WAL", self.path, journal)
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            self._db = db
            await self._migrate()
        except BaseException as exc:
            self._db = None
            await db.close()
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"cannot prepare the database {self.path}: {exc}") from exc
            raise

    async def close(self) -> None:
        """Wait for the running operations and the queued table changes, then disconnect
        (closing twice does nothing)."""
        await self._commits.drain()
        async with self._lock:
            db, self._db = self._db, None
            if db is not None:
                await db.close()

    async def _write(self, change: Callable[[Connection], Awaitable[T]]) -> T:
        """Run ``change`` as one ``BEGIN IMMEDIATE ... COMMIT``, alone on the connection."""
        async with self._lock:
            db = self._connection()
            try:
                await db.execute("BEGIN IMMEDIATE")
                result = await change(_Statements(db))
                await db.execute("COMMIT")
            except BaseException as exc:
                await _rollback(db)
                if isinstance(exc, sqlite3.Error):
                    raise StoreError(f"the database failed: {exc}") from exc
                raise
            return result

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[Connection]:
        """The connection, alone (never inside another task's transaction)."""
        async with self._lock:
            db = self._connection()
            try:
                yield _Statements(db)
            except sqlite3.Error as exc:
                raise StoreError(f"the database failed: {exc}") from exc

    def _connection(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("the store is not open")
        return self._db


class _Statements:
    """An aiosqlite connection seen as a :class:`~bot.store.sql.Connection`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in await self._db.execute_fetchall(sql, parameters)]

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> None:
        await self._db.execute(sql, parameters)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(sql, rows)


async def _rollback(db: aiosqlite.Connection) -> None:
    try:
        await db.rollback()
    except sqlite3.Error:
        log.exception("store: rollback failed")
