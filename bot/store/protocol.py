"""The store's contract: the :class:`Store` protocol, its errors and ledger rows (DESIGN.md §5).

Every backend (SQLite, the embedded default; PostgreSQL, when one bot runs as several shard
processes) keeps the same promises:

- chips are whole ints, per server (guild); an account is created on first use with the
  starting grant;
- every change of chips is one atomic operation that writes the balance and escrow changes
  and their append-only ledger rows together, or nothing at all;
- balances never go below 0; balances + escrow == everything granted - everything burned;
  each balance equals the sum of its ledger rows;
- bad input (a bool, 0 or a negative amount, a gift to oneself) raises before anything moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol, runtime_checkable

from bot.shards import Shards

LedgerKind = Literal["grant", "burn", "transfer", "escrow", "settle", "orphan_return"]
"""Kinds of ledger rows (``"burn"``: chips an admin took away, destroyed)."""


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
    user_id
        Whose balance it is, when the operation moved several members' chips.
    """

    def __init__(self, balance: int, amount: int, user_id: int | None = None) -> None:
        super().__init__(f"not enough chips: the balance is {balance}, {amount} asked")
        self.balance = balance
        self.amount = amount
        self.user_id = user_id


@dataclass(frozen=True, slots=True)
class ChipMove:
    """One member's chips moving between their balance and a table's escrow.

    Attributes
    ----------
    kind
        ``"escrow"`` (balance -> table: a buy-in or a stake; ``amount`` > 0) or ``"settle"``
        (table -> balance: the seat's stack or share leaves the table; ``amount`` >= 0, and
        it closes the member's claim on the pool even when 0).
    user_id
        The member.
    amount
        Chips.
    reason
        Ledger tag (1..64 characters): ``"buy_in"``, ``"stake"``, ``"leave"``, ``"payout"``,
        ``"refund"``.
    """

    kind: Literal["escrow", "settle"]
    user_id: int
    amount: int
    reason: str


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of a finished game (a row of ``result_seats``).

    Attributes
    ----------
    seat
        The engine's seat number.
    user_id
        The member who held the seat at the end, None for an AI seat.
    name
        The name shown at the table.
    team
        Index of the seat's team in the outcome's ``teams``, None without teams.
    place
        1-based finishing place; seats that tie share it.
    score
        The game's own measure (Tripoli final stack in chips, Troefcall team points,
        Kalooki penalty points).
    chips
        Chips won (> 0) or lost (< 0) at the table, for chip games; else None.
    """

    seat: int
    user_id: int | None
    name: str
    team: int | None
    place: int
    score: int
    chips: int | None


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game, recorded once (a row of ``results`` and one per seat).

    Attributes
    ----------
    game
        The game's name (``"tripoli"``).
    ranked
        True when every seat was a member's from start to end (it may be rated).
    complete
        True when the game was played to its rules' end.
    options
        JSON text of the table's options.
    outcome
        JSON text of the engine's :class:`engine.core.Outcome`.
    seats
        One row per seat.
    """

    game: str
    ranked: bool
    complete: bool
    options: str
    outcome: str
    seats: tuple[SeatResult, ...]


@dataclass(frozen=True, slots=True)
class TableWrite:
    """One change of a live table, committed whole by :meth:`Store.commit_table`.

    Attributes
    ----------
    table_id, guild_id, channel_id
        The table and where it is played.
    snapshot
        The table's saved JSON after the change, or None when the table is over (its saved
        state and log are deleted).
    moves
        The chip movements the change made (buy-ins, stakes, settlements), in order.
    result
        The finished game's record, when the change finished it.
    log
        The events the change added to the game's log, a JSON array (oldest first),
        appended to the table's saved log; None when it added none.
    logged
        The game's count of logged events after them (the saved log is read back in its
        order).
    log_reset
        ``log`` replaces the saved log instead (the game's whole log: a new game, or a game
        saved with its log inside its snapshot).
    """

    table_id: str
    guild_id: int
    channel_id: int
    snapshot: str | None
    moves: tuple[ChipMove, ...] = ()
    result: GameResult | None = None
    log: str | None = None
    logged: int = 0
    log_reset: bool = False


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
        ``"grant"`` (new chips: starting grant, daily, admin grant), ``"burn"`` (chips an
        admin took, destroyed), ``"transfer"`` (a gift,
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


Metric = Literal["chips", "rating", "wins", "games"]
"""What a board ranks by: the balance, the conservative rating, ranked wins or games."""


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One member on a board.

    Attributes
    ----------
    rank
        1-based; members with equal values share the rank of the first of them.
    user_id
        The member.
    value
        The metric's value: chips (int), rating points (float, ``mu - 3 sigma``), wins or
        games (int).
    name
        The member's last known name (from the results or the bot's commands), if any.
    """

    rank: int
    user_id: int
    value: float | int
    name: str | None


@dataclass(frozen=True, slots=True)
class MemberStats:
    """A member's ranked results in one game (or every game, ``game == ""``).

    Attributes
    ----------
    game
        The game's name, ``""`` for every game together.
    games, wins
        Ranked results played and won (a win is first place of a complete game).
    net_chips
        Chips won minus chips lost at chip tables (Tripoli), in chips.
    best_place
        Best place of a complete ranked game, None if none.
    streak, best_streak
        Wins in a row up to now, and the longest such run.
    rating
        ``(mu, sigma, rated games)`` in rating points, None if never rated in this game.
    """

    game: str
    games: int
    wins: int
    net_chips: int
    best_place: int | None
    streak: int
    best_streak: int
    rating: tuple[float, float, int] | None


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
        self, guild_id: int, user_id: int, amount: int, now: datetime, bonus: int = 0,
        bonus_cap: int = 0,
    ) -> int | None:
        """Grant the daily chips (plus the streak bonus) unless claimed in the 24 h before
        ``now``; new balance or None."""
        ...

    async def daily_streak(self, guild_id: int, user_id: int) -> tuple[int, datetime | None]:
        """Return the member's daily streak in days and their last claim (None if never)."""
        ...

    async def burn(self, guild_id: int, user_id: int, amount: int, reason: str) -> int:
        """Destroy ``amount`` (> 0) chips of a balance; return the new balance."""
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

    async def commit_table(self, write: TableWrite) -> None:
        """Apply ``write.moves``, save (or delete) the table's snapshot and record its result,
        all in one transaction: a crash leaves either everything or nothing (issue: crash-proof
        chips). Raises :class:`InsufficientChips` (with ``user_id``) when an escrow exceeds
        a balance, and nothing changes."""
        ...

    async def results(self, guild_id: int, game: str | None = None) -> list[tuple[GameResult, int]]:
        """Return the guild's recorded results (of ``game``, or every game) with their ids,
        oldest first."""
        ...

    async def table_escrow(self, table_id: str) -> int:
        """Return the chips the table's escrow holds (0 for an unknown table)."""
        ...

    async def ratings(self, guild_id: int, game: str) -> dict[int, tuple[float, float, int]]:
        """Return member id -> ``(mu, sigma, rated games)`` of one game on one server."""
        ...

    async def rating_history(
        self, guild_id: int, game: str, user_id: int, limit: int = 10
    ) -> list[tuple[float, float]]:
        """Return the member's last ``limit`` rating changes ``(before, after)`` in
        conservative rating points, oldest first."""
        ...

    async def board(
        self, guild_id: int, metric: Metric, game: str | None, offset: int, limit: int
    ) -> tuple[list[BoardRow], int]:
        """Return one page of a board (``limit`` rows from ``offset``) and its length."""
        ...

    async def board_rank(
        self, guild_id: int, metric: Metric, game: str | None, user_id: int
    ) -> BoardRow | None:
        """Return the member's row of a board, or None when they are not on it."""
        ...

    async def member_stats(self, guild_id: int, user_id: int) -> list[MemberStats]:
        """Return the member's stats of every game they played (and ``""``: all games)."""
        ...

    async def remember_names(self, guild_id: int, names: dict[int, str]) -> None:
        """Keep the last names members were seen with (member id -> display name)."""
        ...

    async def return_orphan_escrow(
        self, live_table_ids: set[str], shards: Shards | None = None
    ) -> dict[str, int]:
        """Give back the escrow of every table (of a guild on ``shards``; None: every guild)
        not in ``live_table_ids`` to exactly the members whose claims put it there; chips
        per table (a pool that does not add up stays)."""
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

    async def load_table_logs(self, shards: Shards | None = None) -> dict[str, list[str]]:
        """Return the saved tables' logs: table id -> its rows' JSON arrays, oldest first."""
        ...

    async def load_tables(self, shards: Shards | None = None) -> list[tuple[str, int, int, str]]:
        """Return every saved table (of a guild on ``shards``; None: every guild) as
        ``(table_id, guild_id, channel_id, data)``."""
        ...

    async def get_setting(self, scope: str, key: str) -> str | None:
        """Return a setting's JSON text, or None if unset."""
        ...

    async def set_setting(self, scope: str, key: str, value: str | None) -> None:
        """Set a setting's JSON text; ``None`` removes it."""
        ...
