"""The PostgreSQL store (asyncpg): one database shared by several shard processes
(DESIGN.md §5).

Every change runs as one ``READ COMMITTED`` transaction on a connection of the process's
pool, and locks the rows it decides from before it reads them (``SELECT ... FOR UPDATE``,
:attr:`~bot.store.sql.SqlStore.for_update`): a member's account (their balance, their last
daily claim) and a table's escrow pool. Accounts are locked in member id order, before the
pool, so two changes never wait for each other in a circle; the ratings a result updates are
read after its ``member_stats`` rows are written (and locked). Row locks rather than
``SERIALIZABLE`` with retries: chips of one member are a hot spot (gifts, buy-ins and payouts
of a busy member at several tables), and under ``SERIALIZABLE`` every such overlap aborts a
transaction to be run again (measured: 80 gifts between two members at once exhausted 30
tries), while a row lock makes the second change wait a few milliseconds and go on. Should
PostgreSQL still report a deadlock or a serialization failure, the change is run again (up to
:data:`ATTEMPTS` times, after a short random pause). Reads of one statement run on their own
(one statement sees one snapshot); the boards' reads of several statements share one
``REPEATABLE READ READ ONLY`` transaction.

The schema (``migrations/postgres``) keeps the same guarantees as SQLite's: CHECKs refuse
negative balances and zero ledger deltas, triggers keep the ledger append-only. Migrations
take an advisory lock, so processes started together migrate one after the other.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.store.protocol import StoreError
from bot.store.schema import Migration
from bot.store.sql import Connection, SqlStore

log = logging.getLogger(__name__)

T = TypeVar("T")

#: How many times a change is tried when it conflicts with another transaction.
ATTEMPTS = 30

#: Longest pause between two tries, in seconds (the pause is random, up to this).
MAX_PAUSE = 0.05

#: The key of the advisory lock migrations take (any constant; "parlour" in ASCII digits).
MIGRATION_LOCK_KEY = 7065114108111117114

_DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)


class PostgresStore(SqlStore):
    """Chips, saved tables and settings in a PostgreSQL database; implements :class:`Store`.

    Parameters
    ----------
    url
        ``postgresql://user:password@host:port/database`` (libpq's URL forms, e.g.
        ``postgresql:///parlour?host=/run/postgresql``).
    starting_chips, clock, migrations
        As for :class:`~bot.store.sql.SqlStore`.
    pool_size
        Most connections this process opens (>= 1).

    Raises
    ------
    TypeError, ValueError
        If ``starting_chips`` or ``pool_size`` is not acceptable.
    """

    dialect = "postgres"
    for_update = " FOR UPDATE"
    migration_lock = f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK_KEY})"

    def __init__(
        self,
        url: str,
        *,
        starting_chips: int,
        clock: Callable[[], datetime] | None = None,
        migrations: Sequence[Migration] | None = None,
        pool_size: int = 10,
    ) -> None:
        if type(pool_size) is not int or pool_size < 1:
            raise ValueError(f"pool_size must be an int >= 1, got {pool_size!r}")
        super().__init__(starting_chips=starting_chips, clock=clock, migrations=migrations)
        self.url = url
        self.pool_size = pool_size
        self._connections: asyncpg.Pool | None = None

    async def open(self) -> None:
        """Connect the pool and apply pending migrations; opening twice does nothing.

        Raises
        ------
        StoreError
            If the server cannot be reached, refuses the login, or the schema is newer than
            (or differs from) the migrations this code knows; the store stays closed.
        """
        if self._connections is not None:
            return
        try:
            pool = await asyncpg.create_pool(self.url, min_size=1, max_size=self.pool_size)
        except (*_DRIVER_ERRORS, ValueError) as exc:
            raise StoreError(f"cannot open the database {shown(self.url)}: {exc}") from exc
        self._connections = pool
        try:
            await self._migrate()
        except BaseException:
            self._connections = None
            await pool.close()
            raise

    async def close(self) -> None:
        """Wait for the running operations and the queued table changes, then close the pool
        (closing twice does nothing)."""
        await self._commits.drain()
        pool, self._connections = self._connections, None
        if pool is not None:
            await pool.close()

    async def _write(self, change: Callable[[Connection], Awaitable[T]]) -> T:
        """Run ``change`` in one transaction, again after a deadlock."""
        for attempt in range(1, ATTEMPTS + 1):
            try:
                async with self._connection().acquire() as db, db.transaction():
                    return await change(_Statements(db))
            except asyncpg.TransactionRollbackError as exc:  # a deadlock, a serialization failure
                if attempt == ATTEMPTS:
                    raise StoreError(f"the database stayed busy ({attempt} tries): {exc}") from exc
                log.debug("store: try %d conflicted (%s), trying again", attempt, exc.sqlstate)
                await asyncio.sleep(random.uniform(0, MAX_PAUSE * min(1.0, attempt / 10)))
            except _DRIVER_ERRORS as exc:
                raise StoreError(f"the database failed: {exc}") from exc
        raise AssertionError("unreachable")  # pragma: no cover

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[Connection]:
        """One ``REPEATABLE READ READ ONLY`` transaction: every read sees one snapshot."""
        try:
            async with self._connection().acquire() as db, db.transaction(
                isolation="repeatable_read", readonly=True
            ):
                yield _Statements(db)
        except _DRIVER_ERRORS as exc:
            raise StoreError(f"the database failed: {exc}") from exc

    async def _read(self, sql: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one SELECT on its own (one statement sees one committed snapshot)."""
        try:
            return [tuple(row) for row in await self._connection().fetch(numbered(sql),
                                                                         *parameters)]
        except _DRIVER_ERRORS as exc:
            raise StoreError(f"the database failed: {exc}") from exc

    def _connection(self) -> asyncpg.Pool:
        if self._connections is None:
            raise StoreError("the store is not open")
        return self._connections


class _Statements:
    """An asyncpg connection seen as a :class:`~bot.store.sql.Connection`."""

    def __init__(self, db: asyncpg.Connection) -> None:
        self._db = db

    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in await self._db.fetch(numbered(sql), *parameters)]

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> None:
        if parameters:
            await self._db.execute(numbered(sql), *parameters)
        else:  # may be a whole script (a migration file)
            await self._db.execute(sql)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = [tuple(row) for row in rows]
        if rows:
            await self._db.executemany(numbered(sql), rows)


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """The shared code's ``?`` placeholders as PostgreSQL's ``$1, $2 ...`` (its SQL holds no
    ``?`` inside a string)."""
    first, *rest = sql.split("?")
    return first + "".join(f"${number}{part}" for number, part in enumerate(rest, start=1))


def shown(url: str) -> str:
    """The database URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))
