"""The store's contract: the :class:`Store` protocol, its errors and ledger rows (DESIGN.md §5).

Every backend (SQLite today, PostgreSQL when one bot runs as several shard processes) keeps
the same promises:

- chips are whole ints, per server (guild); an account is created on first use with the
  starting grant;
- every change of chips is one atomic operation that writes the balance and escrow changes
  and their append-only ledger rows together, or nothing at all;
- balances never go below 0; balances + escrow == everything granted (nothing is burned);
  each balance equals the sum of its ledger rows;
- bad input (a bool, 0 or a negative amount, a gift to oneself) raises before anything moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol, runtime_checkable

LedgerKind = Literal["grant", "transfer", "escrow", "settle", "orphan_return"]


class StoreError(Exception):
    """The store could not do what was asked; nothing changed (the player may retry)."""


class InsufficientChips(StoreError):
    """A balance holds fewer chips than an operation takes; nothing moved.

    Parameters
    ----------
    balance
        The balance at the time of the refusal, in chips.
    amount
        The chips the operation asked for.
    """

    def __init__(self, balance: int, amount: int) -> None:
        super().__init__(f"not enough chips: the balance is {balance}, {amount} asked")
        self.balance = balance
        self.amount = amount


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One append-only ledger row: a change of one member's balance.

    Attributes
    ----------
    id
        Increasing row number (the order the changes happened in).
    guild_id, user_id
        Whose balance changed (Discord snowflakes).
    delta
        Chips added (> 0) or taken (< 0); never 0.
    balance_after
        The balance right after this change, in chips (>= 0).
    kind
        ``"grant"`` (new chips: starting grant, daily, admin grant), ``"transfer"`` (a gift,
        ``other_user_id`` is the other side), ``"escrow"`` (balance -> table), ``"settle"``
        (table -> balance) or ``"orphan_return"`` (escrow of a vanished table given back).
    reason
        Short tag: ``"starting_grant"``, ``"daily"``, the reason given to ``grant`` or the kind.
    table_id
        The table of an escrow, settle or orphan return; ``None`` otherwise.
    other_user_id
        The other member of a transfer; ``None`` otherwise.
    at
        When the change was recorded (aware, UTC).
    """

    id: int
    guild_id: int
    user_id: int
    delta: int
    balance_after: int
    kind: LedgerKind
    reason: str
    table_id: str | None
    other_user_id: int | None
    at: datetime


@runtime_checkable
class Store(Protocol):
    """Chips, restart-proof tables and settings of the bot (DESIGN.md §5).

    All amounts are whole chips (``int``, never ``bool``). ``guild_id``, ``user_id`` and
    ``channel_id`` are Discord snowflakes; ``table_id`` is a short str chosen by the runtime.
    Invalid arguments raise ``TypeError``/``ValueError`` before anything moves; a failure of the
    backend raises :class:`StoreError` and leaves everything as it was.
    """

    async def open(self) -> None:
        """Connect and bring the schema up to date."""
        ...

    async def close(self) -> None:
        """Finish the running operation and disconnect."""
        ...

    async def balance(self, guild_id: int, user_id: int) -> int:
        """Return the balance, creating the account with the starting grant on first use."""
        ...

    async def grant(self, guild_id: int, user_id: int, amount: int, reason: str) -> int:
        """Add ``amount`` (> 0) new chips; return the new balance."""
        ...

    async def claim_daily(
        self, guild_id: int, user_id: int, amount: int, now: datetime
    ) -> int | None:
        """Grant the daily chips unless claimed in the 24 h before ``now``; new balance or None."""
        ...

    async def transfer(
        self, guild_id: int, from_user: int, to_user: int, amount: int
    ) -> tuple[int, int]:
        """Give ``amount`` chips from one member to another; return both new balances."""
        ...

    async def escrow(self, guild_id: int, user_id: int, table_id: str, amount: int) -> int:
        """Move ``amount`` chips from the balance into the table's escrow; new balance."""
        ...

    async def settle(self, guild_id: int, user_id: int, table_id: str, amount: int) -> int:
        """Move ``amount`` (>= 0) chips of the table's escrow to the balance; new balance."""
        ...

    async def table_escrow(self, table_id: str) -> int:
        """Return the chips the table's escrow holds (0 for an unknown table)."""
        ...

    async def return_orphan_escrow(self, live_table_ids: set[str]) -> dict[str, int]:
        """Give back the escrow of every table not in ``live_table_ids``; chips per table."""
        ...

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[tuple[int, int]]:
        """Return up to ``limit`` ``(user_id, balance)``, richest first."""
        ...

    async def rank(self, guild_id: int, user_id: int) -> tuple[int, int] | None:
        """Return ``(rank, accounts)`` (rank 1-based) or None without an account."""
        ...

    async def ledger(self, guild_id: int, user_id: int) -> list[LedgerEntry]:
        """Return the member's ledger rows, oldest first."""
        ...

    async def audit(self, guild_id: int) -> tuple[int, int, int]:
        """Return (sum of balances, escrow of the guild's tables, granted - burned)."""
        ...

    async def save_table(self, table_id: str, guild_id: int, channel_id: int, data: str) -> None:
        """Insert or replace the saved JSON of a live table."""
        ...

    async def delete_table(self, table_id: str) -> None:
        """Forget a saved table (no error if unknown)."""
        ...

    async def load_tables(self) -> list[tuple[str, int, int, str]]:
        """Return every saved table as ``(table_id, guild_id, channel_id, data)``."""
        ...

    async def get_setting(self, scope: str, key: str) -> str | None:
        """Return a setting's JSON text, or None if unset."""
        ...

    async def set_setting(self, scope: str, key: str, value: str | None) -> None:
        """Set a setting's JSON text; ``None`` removes it."""
        ...
