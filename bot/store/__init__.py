"""The store: chips, restart-proof tables and settings behind one protocol (DESIGN.md §5).

``open_store(path, starting_chips)`` returns an opened, migrated :class:`SqliteStore`; the
runtime codes against :class:`Store` so another backend (PostgreSQL) can take its place.
"""

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
from bot.store.sqlite import SqliteStore, open_store

__all__ = [
    "BoardRow",
    "ChipMove",
    "GameResult",
    "InsufficientChips",
    "LedgerEntry",
    "MemberStats",
    "Metric",
    "SeatResult",
    "SqliteStore",
    "Store",
    "StoreError",
    "TableWrite",
    "open_store",
]
