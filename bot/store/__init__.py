"""The store: chips, restart-proof tables and settings behind one protocol (DESIGN.md §5).

``open_store(database, starting_chips)`` returns an opened, migrated store: a
:class:`PostgresStore` for a ``postgresql://`` URL, else a :class:`SqliteStore` (a plain path
or ``sqlite:///path``). The runtime codes against :class:`Store`.
"""

from pathlib import Path
from typing import Any

from bot.store.postgres import PostgresStore
from bot.store.protocol import (
    BoardRow,
    ChipMove,
    GameResult,
    InsufficientChips,
    LedgerEntry,
    MemberStats,
    Metric,
    SeatResult,
    Store,
    StoreError,
    TableWrite,
)
from bot.store.sql import SqlStore
from bot.store.sqlite import SqliteStore

#: URL schemes of a PostgreSQL database (libpq accepts both).
POSTGRES_SCHEMES = ("postgresql://", "postgres://")

#: The prefix of an SQLite URL; the rest is the file's path (``sqlite:///data/parlour.db``
#: is ``data/parlour.db``, ``sqlite:////srv/parlour.db`` is ``/srv/parlour.db``).
SQLITE_SCHEME = "sqlite:///"


def make_store(
    database: str | Path, starting_chips: int, pool_size: int | None = None, **options: Any
) -> SqlStore:
    """The store ``database`` names, not yet opened.

    Parameters
    ----------
    database
        ``PARLOUR_DATABASE_URL``: ``postgresql://...`` for PostgreSQL; ``sqlite:///path``,
        a plain path or ``":memory:"`` for SQLite.
    starting_chips
        Chips of a new account (``PARLOUR_STARTING_CHIPS``).
    pool_size
        The most connections to PostgreSQL (``PARLOUR_DATABASE_POOL``; None: the store's
        default); SQLite, one connection, ignores it.
    **options
        Passed to the store's class (``clock``, ``migrations``; SQLite's ``busy_timeout``).

    Raises
    ------
    TypeError, ValueError
        If an argument is not acceptable.
    """
    text = str(database)
    if text.startswith(POSTGRES_SCHEMES):
        if pool_size is not None:
            options["pool_size"] = pool_size
        return PostgresStore(text, starting_chips=starting_chips, **options)
    path = text.removeprefix(SQLITE_SCHEME) if text.startswith(SQLITE_SCHEME) else database
    return SqliteStore(path, starting_chips=starting_chips, **options)


async def open_store(
    database: str | Path, starting_chips: int, pool_size: int | None = None, **options: Any
) -> SqlStore:
    """:func:`make_store`, opened and migrated.

    Raises
    ------
    StoreError
        If the database cannot be opened or migrated.
    """
    store = make_store(database, starting_chips, pool_size, **options)
    await store.open()
    return store


__all__ = [
    "BoardRow",
    "ChipMove",
    "GameResult",
    "InsufficientChips",
    "LedgerEntry",
    "MemberStats",
    "Metric",
    "PostgresStore",
    "SeatResult",
    "SqlStore",
    "SqliteStore",
    "Store",
    "StoreError",
    "TableWrite",
    "make_store",
    "open_store",
]
