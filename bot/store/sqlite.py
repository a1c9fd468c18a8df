"""The SQLite store (aiosqlite), Parlour's embedded default (DESIGN.md §5).

One aiosqlite connection is shared by every task of the bot. aiosqlite runs statements one by
one on its own thread, so two tasks' multi-statement transactions would interleave on the
connection (measured: it corrupts balances). An ``asyncio.Lock`` therefore wraps every
operation: each is one ``BEGIN IMMEDIATE ... COMMIT`` transaction (rolled back on any error,
including cancellation), and reads run alone too, so they never see half an operation.

The database runs in WAL mode with a busy timeout (another process, e.g. a backup, may hold
the file briefly) and enforces foreign keys; the schema's CHECKs refuse negative balances and
zero ledger deltas, and triggers keep the ledger append-only.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import aiosqlite

from bot.store import checks
from bot.store.escrow import exact_claims
from bot.store.protocol import (
    ChipMove,
    GameResult,
    InsufficientChips,
    LedgerEntry,
    SeatResult,
    StoreError,
    TableWrite,
)
from bot.store.schema import Migration, load_migrations

log = logging.getLogger(__name__)

#: A daily claim is refused until this long after the previous one.
DAILY_WINDOW = timedelta(hours=24)

#: The path that opens a private in-memory database (no file, no WAL).
MEMORY = ":memory:"

_LEDGER_COLUMNS = (
    "id, guild_id, user_id, delta, balance_after, kind, reason, table_id, other_user_id, created_at"
)


class SqliteStore:
    """Chips, saved tables and settings in one SQLite file; implements :class:`Store`.

    Parameters
    ----------
    path
        The database file (its directory is created if missing), or ``":memory:"``.
    starting_chips
        Chips granted to an account on first use (>= 0; ``PARLOUR_STARTING_CHIPS``).
    busy_timeout
        Seconds to wait for a lock held by another process before failing (> 0).
    clock
        Returns the current instant (aware, UTC) for ledger times; default the wall clock.
        The runtime passes its injectable clock's ``now``.
    migrations
        The schema migrations to apply; default the files of ``bot/store/migrations``.

    Raises
    ------
    TypeError, ValueError
        If ``starting_chips`` or ``busy_timeout`` is not acceptable.

    Notes
    -----
    Call :meth:`open` (or use ``async with``) before anything else; every operation raises
    :class:`StoreError` while the store is closed.
    """

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
        self.path = path
        self.starting_chips = checks.chips(starting_chips, allow_zero=True, what="starting_chips")
        self.busy_timeout = float(busy_timeout)
        self._clock = clock or _wall_clock
        self._migrations = tuple(load_migrations() if migrations is None else migrations)
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    # -- life cycle -------------------------------------------------------------------------

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
        """Wait for the running operation, then disconnect (closing twice does nothing)."""
        async with self._lock:
            db, self._db = self._db, None
            if db is not None:
                await db.close()

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    async def _migrate(self) -> None:
        async with self._transaction() as db:
            await db.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            applied = dict(await db.execute_fetchall("SELECT version, name FROM schema_migrations"))
            known = {migration.version: migration.name for migration in self._migrations}
            for version, name in sorted(applied.items()):
                if known.get(version) != name:
                    raise StoreError(
                        f"the database has migration {version:04d}_{name}, which this code does"
                        " not know (a newer or different Parlour wrote it)"
                    )
            for migration in self._migrations:
                if migration.version in applied:
                    continue
                for statement in migration.statements:
                    await db.execute(statement)
                await db.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, _iso(self._now())),
                )
                log.info("store: applied migration %04d_%s", migration.version, migration.name)

    # -- chips ------------------------------------------------------------------------------

    async def balance(self, guild_id: int, user_id: int) -> int:
        """Return a member's balance in chips.

        The account is created on first use with the starting grant (ledger reason
        ``"starting_grant"``; DESIGN.md §5).

        Raises
        ------
        TypeError, ValueError
            If an id is not a Discord id.
        StoreError
            If the database fails.
        """
        checks.snowflake(guild_id, "guild_id")
        checks.snowflake(user_id, "user_id")
        rows = await self._read(
            "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        if rows:
            return rows[0][0]
        async with self._transaction() as db:
            return await self._account(db, guild_id, user_id, self._now())

    async def grant(self, guild_id: int, user_id: int, amount: int, reason: str) -> int:
        """Add new chips to a balance (e.g. an admin grant).

        Parameters
        ----------
        amount
            Chips to add (> 0).
        reason
            Short tag kept in the ledger row (1..64 characters).

        Returns
        -------
        int
            The new balance.

        Raises
        ------
        TypeError, ValueError
            If ``amount`` is not an int > 0, ``reason`` is blank, or an id is invalid.
        StoreError
            If the database fails.
        """
        checks.snowflake(guild_id, "guild_id")
        checks.snowflake(user_id, "user_id")
        checks.chips(amount)
        checks.name(reason, "reason")
        now = self._now()
        async with self._transaction() as db:
            await self._account(db, guild_id, user_id, now)
            return await self._move(db, guild_id, user_id, amount, "grant", reason, now)

    async def claim_daily(
        self, guild_id: int, user_id: int, amount: int, now: datetime
    ) -> int | None:
        """Grant the daily chips (ledger reason ``"daily"``) once per 24 hours.

        Parameters
        ----------
        amount
            Chips to grant (> 0; ``PARLOUR_DAILY_CHIPS``).
        now
            The current instant (timezone-aware); the claim is refused until 24 h after the
            previous one.

        Returns
        -------
        int or None
            The new balance, or ``None`` if the member claimed within the 24 h before ``now``
            (nothing changes, except that a new account gets its starting grant).

        Raises
        ------
        TypeError, ValueError
            If ``amount`` is not an int > 0, ``now`` is not an aware datetime, or an id is
            invalid.
        StoreError
            If the database fails.
        """
        checks.snowflake(guild_id, "guild_id")
        checks.snowflake(user_id, "user_id")
        checks.chips(amount)
        now = _aware(now, "now")
        async with self._transaction() as db:
            await self._account(db, guild_id, user_id, now)
            rows = await db.execute_fetchall(
                "SELECT last_daily FROM accounts WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            last = rows[0][0]
            if last is not None and now - datetime.fromisoformat(last) < DAILY_WINDOW:
                return None
            await db.execute(
                "UPDATE accounts SET last_daily = ? WHERE guild_id = ? AND user_id = ?",
                (_iso(now), guild_id, user_id),
            )
            return await self._move(db, guild_id, user_id, amount, "grant", "daily", now)

    async def transfer(
        self, guild_id: int, from_user: int, to_user: int, amount: int
    ) -> tuple[int, int]:
        """Give chips from one member's balance to another's (``/chips give``).

        Only server balances move; table stacks and escrow are untouched (case C09).

        Returns
        -------
        tuple[int, int]
            The new balances of ``from_user`` and ``to_user``.

        Raises
        ------
        TypeError, ValueError
            If ``amount`` is not an int > 0, ``from_user == to_user``, or an id is invalid.
        InsufficientChips
            If ``from_user`` holds fewer than ``amount`` chips (nothing moves).
        StoreError
            If the database fails.
        """
        checks.snowflake(guild_id, "guild_id")
        checks.snowflake(from_user, "from_user")
        checks.snowflake(to_user, "to_user")
        checks.chips(amount)
        if from_user == to_user:
            raise ValueError(f"a member cannot give chips to themselves (user {from_user})")
        now = self._now()
        async with self._transaction() as db:
            held = await self._account(db, guild_id, from_user, now)
            if held < amount:
                raise InsufficientChips(held, amount)
            await self._account(db, guild_id, to_user, now)
            giver = await self._move(
                db, guild_id, from_user, -amount, "transfer", "gift", now, other_user_id=to_user
            )
            taker = await self._move(
                db, guild_id, to_user, amount, "transfer", "gift", now, other_user_id=from_user
            )
            return giver, taker

    async def escrow(self, guild_id: int, user_id: int, table_id: str, amount: int) -> int:
        """Move chips from a member's balance into a table's escrow (a ranked buy-in).

        The member's claim on the table's pool grows by ``amount`` (see
        :mod:`bot.store.escrow`).

        Returns
        -------
        int
            The new balance.

        Raises
        ------
        TypeError, ValueError
            If ``amount`` is not an int > 0, or an id is invalid.
        InsufficientChips
            If the balance holds fewer than ``amount`` chips (nothing moves).
        StoreError
            If the table's escrow belongs to another guild, or the database fails.
        """
        checks.snowflake(guild_id, "guild_id")
        checks.snowflake(user_id, "user_id")
        checks.name(table_id, "table_id")
        checks.chips(amount)
        now = self._now()
        async with self._transaction() as db:
            return await self._escrow(db, guild_id, table_id, ChipMove("escrow", user_id, amount,
                                                                     "escrow"), now)

    async def settle(self, guild_id: int, user_id: int, table_id: str, amount: int) -> int:
        """Move chips from a table's escrow to a member's balance (their stack leaves the table).

        Settling closes the member's claim on the pool, whatever the amount: a member who
        lost their buy-in settles 0 and has nothing more to get back. A pool that is empty
        with no open claim is forgotten.

        Parameters
        ----------
        amount
            The member's stack in chips (>= 0); may exceed what they escrowed (they won).

        Returns
        -------
        int
            The new balance.

        Raises
        ------
        TypeError, ValueError
            If ``amount`` is not an int >= 0, or an id is invalid.
        StoreError
            If the table's escrow holds fewer than ``amount`` chips or belongs to another
            guild (nothing moves), or the database fails.
        """
        checks.snowflake(guild_id, "guild_id")
        checks.snowflake(user_id, "user_id")
        checks.name(table_id, "table_id")
        checks.chips(amount, allow_zero=True)
        now = self._now()
        async with self._transaction() as db:
            return await self._settle(db, guild_id, table_id, ChipMove("settle", user_id, amount,
                                                                     "settle"), now)

    async def commit_table(self, write: TableWrite) -> None:
        """Commit one change of a live table whole: its chip moves, its saved state, its result.

        Every escrow and settlement of ``write.moves`` (in order), the snapshot saved (or
        the saved table deleted when ``write.snapshot`` is None) and the finished game's
        result are one ``BEGIN IMMEDIATE ... COMMIT``: a crash at any moment leaves the
        balances, the escrow and the saved table agreeing (before the change or after it).

        Raises
        ------
        TypeError, ValueError
            If an id, amount or text is invalid (nothing moves).
        InsufficientChips
            If an escrow asks more than the member's balance (``user_id`` says whose);
            nothing moves and nothing is saved.
        StoreError
            If a settlement exceeds the table's escrow or the database fails; nothing changes.
        """
        checks.name(write.table_id, "table_id")
        checks.snowflake(write.guild_id, "guild_id")
        checks.snowflake(write.channel_id, "channel_id")
        if write.snapshot is not None:
            checks.text(write.snapshot, "snapshot")
        for move in write.moves:
            checks.snowflake(move.user_id, "user_id")
            checks.chips(move.amount, allow_zero=move.kind == "settle")
            checks.name(move.reason, "reason")
        now = self._now()
        async with self._transaction() as db:
            for move in write.moves:
                step = self._escrow if move.kind == "escrow" else self._settle
                await step(db, write.guild_id, write.table_id, move, now)
            if write.snapshot is None:
                await db.execute("DELETE FROM saved_tables WHERE table_id = ?", (write.table_id,))
            else:
                await self._save_snapshot(db, write, now)
            if write.result is not None:
                await self._record(db, write, write.result, now)

    async def results(
        self, guild_id: int, game: str | None = None
    ) -> list[tuple[GameResult, int]]:
        """Return the recorded results of a guild, oldest first, each with its id.

        Parameters
        ----------
        game
            Only this game's results (``"tripoli"``); None for every game.

        Raises
        ------
        TypeError, ValueError
            If ``guild_id`` is invalid.
        StoreError
            If the database fails.
        """
        checks.snowflake(guild_id, "guild_id")
        where, parameters = "guild_id = ?", [guild_id]
        if game is not None:
            where, parameters = where + " AND game = ?", [guild_id, game]
        rows = await self._read(
            f"SELECT id, game, ranked, complete, options, outcome FROM results WHERE {where}"
            " ORDER BY id",
            parameters,
        )
        seats = await self._read(
            "SELECT result_id, seat, user_id, name, team, place, score, chips FROM result_seats"
            f" WHERE result_id IN (SELECT id FROM results WHERE {where})"
            " ORDER BY result_id, seat",
            parameters,
        )
        by_result: dict[int, list[SeatResult]] = {}
        for result_id, *seat in seats:
            by_result.setdefault(result_id, []).append(SeatResult(*seat))
        return [
            (GameResult(game_name, bool(ranked), bool(complete), options, outcome,
                        tuple(by_result.get(result_id, ()))), result_id)
            for result_id, game_name, ranked, complete, options, outcome in rows
        ]

    async def table_escrow(self, table_id: str) -> int:
        """Return the chips a table's escrow holds (0 for a table with none).

        Raises
        ------
        TypeError, ValueError
            If ``table_id`` is not a short non-blank str.
        StoreError
            If the database fails.
        """
        checks.name(table_id, "table_id")
        rows = await self._read("SELECT amount FROM escrow_pools WHERE table_id = ?", (table_id,))
        return rows[0][0] if rows else 0

    async def return_orphan_escrow(self, live_table_ids: Iterable[str]) -> dict[str, int]:
        """Give back the escrow of every table that no longer exists (at start-up).

        For each pool whose table is not in ``live_table_ids``, each member gets back exactly
        their outstanding claim (:func:`bot.store.escrow.exact_claims`), with ledger rows of
        kind ``"orphan_return"``; then the pool is forgotten. A pool whose claims do not add
        up is logged and left alone (nothing is guessed). All of it is one transaction.

        Parameters
        ----------
        live_table_ids
            Ids of the tables the runtime restored (their escrow stays).

        Returns
        -------
        dict[str, int]
            Chips returned per table, for tables whose pool held > 0 chips.

        Raises
        ------
        TypeError
            If an id in ``live_table_ids`` is not a str.
        StoreError
            If the database fails.
        """
        live = set(live_table_ids)
        for table_id in live:
            if not isinstance(table_id, str):
                raise TypeError(f"table ids must be str, not {table_id!r}")
        now = self._now()
        returned: dict[str, int] = {}
        async with self._transaction() as db:
            pools = await db.execute_fetchall(
                "SELECT table_id, guild_id, amount FROM escrow_pools ORDER BY table_id"
            )
            for table_id, guild_id, pool in pools:
                if table_id in live:
                    continue
                claims = await db.execute_fetchall(
                    "SELECT user_id, outstanding FROM escrow_contributions WHERE table_id = ?",
                    (table_id,),
                )
                try:
                    shares = exact_claims(pool, claims)
                except ValueError as exc:
                    log.error("store: the escrow of table %s stays for an admin: %s", table_id, exc)
                    continue
                for user_id, share in sorted(shares.items()):
                    await self._account(db, guild_id, user_id, now)
                    await self._move(
                        db,
                        guild_id,
                        user_id,
                        share,
                        "orphan_return",
                        "orphan_return",
                        now,
                        table_id=table_id,
                    )
                await db.execute("DELETE FROM escrow_pools WHERE table_id = ?", (table_id,))
                if pool:
                    returned[table_id] = pool
        if returned:
            log.info("store: returned orphan escrow %s", returned)
        return returned

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[tuple[int, int]]:
        """Return the richest members of a guild (balances only; escrow not counted).

        Parameters
        ----------
        limit
            How many rows at most (>= 1).

        Returns
        -------
        list[tuple[int, int]]
            ``(user_id, balance)`` by balance descending, then user_id ascending.

        Raises
        ------
        TypeError, ValueError
            If ``limit`` is not an int >= 1, or ``guild_id`` is invalid.
        StoreError
            If the database fails.
        """
        checks.snowflake(guild_id, "guild_id")
        if type(limit) is not int or limit < 1:
            raise ValueError(f"limit must be an int >= 1, got {limit!r}")
        rows = await self._read(
            "SELECT user_id, balance FROM accounts WHERE guild_id = ?"
            " ORDER BY balance DESC, user_id ASC LIMIT ?",
            (guild_id, limit),
        )
        return [(user_id, balance) for user_id, balance in rows]

    async def rank(self, guild_id: int, user_id: int) -> tuple[int, int] | None:
        """Return a member's place in the guild, in the leaderboard's order.

        Returns
        -------
        tuple[int, int] or None
            ``(rank, accounts)``: rank 1 is the richest (ties ordered by user_id, as in
            :meth:`leaderboard`), ``accounts`` is the number of accounts in the guild.
            ``None`` if the member has no account (none is created).

        Raises
        ------
        TypeError, ValueError
            If an id is invalid.
        StoreError
            If the database fails.
        """
        checks.snowflake(guild_id, "guild_id")
        checks.snowflake(user_id, "user_id")
        rows = await self._read(
            "SELECT 1 + (SELECT COUNT(*) FROM accounts AS other WHERE other.guild_id = me.guild_id"
            "  AND (other.balance > me.balance"
            "   OR (other.balance = me.balance AND other.user_id < me.user_id))),"
            " (SELECT COUNT(*) FROM accounts AS other WHERE other.guild_id = me.guild_id)"
            " FROM accounts AS me WHERE me.guild_id = ? AND me.user_id = ?",
            (guild_id, user_id),
        )
        return (rows[0][0], rows[0][1]) if rows else None

    async def ledger(self, guild_id: int, user_id: int) -> list[LedgerEntry]:
        """Return every ledger row of a member, oldest first (none if no account).

        Raises
        ------
        TypeError, ValueError
            If an id is invalid.
        StoreError
            If the database fails.
        """
        checks.snowflake(guild_id, "guild_id")
        checks.snowflake(user_id, "user_id")
        rows = await self._read(
            f"SELECT {_LEDGER_COLUMNS} FROM ledger WHERE guild_id = ? AND user_id = ? ORDER BY id",
            (guild_id, user_id),
        )
        return [
            LedgerEntry(*row[:-1], at=datetime.fromisoformat(row[-1]))  # type: ignore[misc]
            for row in rows
        ]

    async def audit(self, guild_id: int) -> tuple[int, int, int]:
        """Return the totals that must balance for a guild (DESIGN.md §5).

        Returns
        -------
        tuple[int, int, int]
            ``(balances, escrow, granted)`` in chips: the sum of the guild's balances, the
            chips held in escrow by its tables, and everything ever granted minus everything
            burned (the sum of ``"grant"`` ledger rows; the store burns nothing). A sound
            store has ``balances + escrow == granted``.

        Raises
        ------
        TypeError, ValueError
            If ``guild_id`` is invalid.
        StoreError
            If the database fails.
        """
        checks.snowflake(guild_id, "guild_id")
        rows = await self._read(
            "SELECT (SELECT COALESCE(SUM(balance), 0) FROM accounts WHERE guild_id = ?),"
            " (SELECT COALESCE(SUM(amount), 0) FROM escrow_pools WHERE guild_id = ?),"
            " (SELECT COALESCE(SUM(delta), 0) FROM ledger WHERE guild_id = ? AND kind = 'grant')",
            (guild_id, guild_id, guild_id),
        )
        balances, escrow, granted = rows[0]
        return balances, escrow, granted

    # -- saved tables -----------------------------------------------------------------------

    async def save_table(self, table_id: str, guild_id: int, channel_id: int, data: str) -> None:
        """Insert or replace the saved state of a live table.

        Parameters
        ----------
        data
            The runtime's JSON text; stored as given, never parsed.

        Raises
        ------
        TypeError, ValueError
            If an argument has the wrong type or an id is invalid.
        StoreError
            If the database fails.
        """
        checks.name(table_id, "table_id")
        checks.snowflake(guild_id, "guild_id")
        checks.snowflake(channel_id, "channel_id")
        checks.text(data, "data")
        now = self._now()
        async with self._transaction() as db:
            await self._save_snapshot(db, TableWrite(table_id, guild_id, channel_id, data), now)

    async def delete_table(self, table_id: str) -> None:
        """Forget a saved table; an unknown id does nothing. Its escrow is not touched.

        Raises
        ------
        TypeError, ValueError
            If ``table_id`` is not a short non-blank str.
        StoreError
            If the database fails.
        """
        checks.name(table_id, "table_id")
        async with self._transaction() as db:
            await db.execute("DELETE FROM saved_tables WHERE table_id = ?", (table_id,))

    async def load_tables(self) -> list[tuple[str, int, int, str]]:
        """Return every saved table as ``(table_id, guild_id, channel_id, data)``, by table id.

        Raises
        ------
        StoreError
            If the database fails.
        """
        rows = await self._read(
            "SELECT table_id, guild_id, channel_id, data FROM saved_tables ORDER BY table_id"
        )
        return [(table_id, guild, channel, data) for table_id, guild, channel, data in rows]

    # -- settings ---------------------------------------------------------------------------

    async def get_setting(self, scope: str, key: str) -> str | None:
        """Return a setting's JSON text, or ``None`` if it is unset.

        Parameters
        ----------
        scope
            Whose setting: ``"user:123"`` (``/settings dm``), ``"channel:456"`` (house rules).
        key
            The setting's name.

        Raises
        ------
        TypeError, ValueError
            If ``scope`` or ``key`` is not a short non-blank str.
        StoreError
            If the database fails.
        """
        checks.name(scope, "scope")
        checks.name(key, "key")
        rows = await self._read(
            "SELECT value FROM settings WHERE scope = ? AND key = ?", (scope, key)
        )
        return rows[0][0] if rows else None

    async def set_setting(self, scope: str, key: str, value: str | None) -> None:
        """Set a setting's JSON text, or remove it with ``None``.

        Raises
        ------
        TypeError, ValueError
            If ``scope`` or ``key`` is not a short non-blank str, or ``value`` is neither a
            str nor None.
        StoreError
            If the database fails.
        """
        checks.name(scope, "scope")
        checks.name(key, "key")
        if value is not None:
            checks.text(value, "value")
        async with self._transaction() as db:
            if value is None:
                await db.execute("DELETE FROM settings WHERE scope = ? AND key = ?", (scope, key))
            else:
                await db.execute(
                    "INSERT INTO settings (scope, key, value) VALUES (?, ?, ?)"
                    " ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value",
                    (scope, key, value),
                )

    # -- helpers ----------------------------------------------------------------------------

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Run the body as one ``BEGIN IMMEDIATE ... COMMIT``, alone on the connection.

        Any exception (a refusal, a database error, a cancellation) rolls everything back;
        ``sqlite3`` errors surface as :class:`StoreError`.
        """
        async with self._lock:
            db = self._connection()
            try:
                await db.execute("BEGIN IMMEDIATE")
                yield db
                await db.execute("COMMIT")
            except BaseException as exc:
                await _rollback(db)
                if isinstance(exc, sqlite3.Error):
                    raise StoreError(f"the database failed: {exc}") from exc
                raise

    async def _read(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        """Run one SELECT alone on the connection (never inside another task's transaction)."""
        async with self._lock:
            db = self._connection()
            try:
                return list(await db.execute_fetchall(sql, parameters))
            except sqlite3.Error as exc:
                raise StoreError(f"the database failed: {exc}") from exc

    def _connection(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("the store is not open")
        return self._db

    def _now(self) -> datetime:
        return _aware(self._clock(), "the store's clock")

    async def _account(
        self, db: aiosqlite.Connection, guild_id: int, user_id: int, now: datetime
    ) -> int:
        """Return a balance, creating the account with the starting grant if it is new."""
        rows = await db.execute_fetchall(
            "SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        if rows:
            return rows[0][0]
        await db.execute(
            "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, 0, ?)",
            (guild_id, user_id, _iso(now)),
        )
        if not self.starting_chips:
            return 0
        return await self._move(
            db, guild_id, user_id, self.starting_chips, "grant", "starting_grant", now
        )

    async def _move(
        self,
        db: aiosqlite.Connection,
        guild_id: int,
        user_id: int,
        delta: int,
        kind: str,
        reason: str,
        now: datetime,
        *,
        table_id: str | None = None,
        other_user_id: int | None = None,
    ) -> int:
        """Change an existing balance by ``delta`` and append its ledger row; new balance."""
        rows = await db.execute_fetchall(
            "UPDATE accounts SET balance = balance + ? WHERE guild_id = ? AND user_id = ?"
            " RETURNING balance",
            (delta, guild_id, user_id),
        )
        balance = rows[0][0]
        await db.execute(
            "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, reason, table_id,"
            " other_user_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (guild_id, user_id, delta, balance, kind, reason, table_id, other_user_id, _iso(now)),
        )
        return balance

    async def _escrow(
        self, db: aiosqlite.Connection, guild_id: int, table_id: str, move: ChipMove,
        now: datetime,
    ) -> int:
        """Balance -> the table's pool (and the member's claim); the new balance."""
        await self._pool(db, guild_id, table_id)
        held = await self._account(db, guild_id, move.user_id, now)
        if held < move.amount:
            raise InsufficientChips(held, move.amount, move.user_id)
        balance = await self._move(
            db, guild_id, move.user_id, -move.amount, "escrow", move.reason, now,
            table_id=table_id,
        )
        await db.execute(
            "INSERT INTO escrow_pools (table_id, guild_id, amount) VALUES (?, ?, ?)"
            " ON CONFLICT (table_id) DO UPDATE SET amount = amount + excluded.amount",
            (table_id, guild_id, move.amount),
        )
        await db.execute(
            "INSERT INTO escrow_contributions (table_id, user_id, outstanding, escrowed)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (table_id, user_id) DO UPDATE SET"
            " outstanding = outstanding + excluded.outstanding,"
            " escrowed = escrowed + excluded.escrowed",
            (table_id, move.user_id, move.amount, move.amount),
        )
        return balance

    async def _settle(
        self, db: aiosqlite.Connection, guild_id: int, table_id: str, move: ChipMove,
        now: datetime,
    ) -> int:
        """The table's pool -> balance, closing the member's claim; the new balance."""
        held = await self._pool(db, guild_id, table_id)
        if held < move.amount:
            raise StoreError(
                f"table {table_id} holds {held} chips in escrow, cannot settle {move.amount}"
            )
        balance = await self._account(db, guild_id, move.user_id, now)
        if move.amount:
            balance = await self._move(
                db, guild_id, move.user_id, move.amount, "settle", move.reason, now,
                table_id=table_id,
            )
            await db.execute(
                "UPDATE escrow_pools SET amount = amount - ? WHERE table_id = ?",
                (move.amount, table_id),
            )
        await db.execute(
            "UPDATE escrow_contributions SET outstanding = 0 WHERE table_id = ? AND user_id = ?",
            (table_id, move.user_id),
        )
        await db.execute(
            "DELETE FROM escrow_pools WHERE table_id = ? AND amount = 0 AND NOT EXISTS"
            " (SELECT 1 FROM escrow_contributions"
            "  WHERE table_id = escrow_pools.table_id AND outstanding > 0)",
            (table_id,),
        )
        return balance

    async def _save_snapshot(
        self, db: aiosqlite.Connection, write: TableWrite, now: datetime
    ) -> None:
        await db.execute(
            "INSERT INTO saved_tables (table_id, guild_id, channel_id, data, updated_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET"
            " guild_id = excluded.guild_id, channel_id = excluded.channel_id,"
            " data = excluded.data, updated_at = excluded.updated_at",
            (write.table_id, write.guild_id, write.channel_id, write.snapshot, _iso(now)),
        )

    async def _record(
        self, db: aiosqlite.Connection, write: TableWrite, result: GameResult, now: datetime
    ) -> None:
        rows = await db.execute_fetchall(
            "INSERT INTO results (guild_id, channel_id, table_id, game, ranked, complete,"
            " options, outcome, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (write.guild_id, write.channel_id, write.table_id, result.game, int(result.ranked),
             int(result.complete), result.options, result.outcome, _iso(now)),
        )
        result_id = rows[0][0]
        await db.executemany(
            "INSERT INTO result_seats (result_id, seat, user_id, name, team, place, score,"
            " chips) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(result_id, seat.seat, seat.user_id, seat.name, seat.team, seat.place, seat.score,
              seat.chips) for seat in result.seats],
        )

    async def _pool(self, db: aiosqlite.Connection, guild_id: int, table_id: str) -> int:
        """Return the chips of a table's pool (0 if none); refuse a pool of another guild."""
        rows = await db.execute_fetchall(
            "SELECT guild_id, amount FROM escrow_pools WHERE table_id = ?", (table_id,)
        )
        if not rows:
            return 0
        owner, amount = rows[0]
        if owner != guild_id:
            raise StoreError(f"table {table_id} holds escrow of guild {owner}, not {guild_id}")
        return amount


async def open_store(path: str | Path, starting_chips: int, **options: Any) -> SqliteStore:
    """Create a :class:`SqliteStore`, open it and apply pending migrations.

    Parameters
    ----------
    path
        The database file (``PARLOUR_DATABASE``) or ``":memory:"``.
    starting_chips
        Chips of a new account (``PARLOUR_STARTING_CHIPS``).
    **options
        ``busy_timeout``, ``clock`` or ``migrations``, passed to :class:`SqliteStore`.

    Raises
    ------
    StoreError
        If the database cannot be opened or migrated.
    """
    store = SqliteStore(path, starting_chips=starting_chips, **options)
    await store.open()
    return store


def _wall_clock() -> datetime:
    return datetime.now(UTC)


def _aware(when: object, what: str) -> datetime:
    if not isinstance(when, datetime):
        raise TypeError(f"{what} must be a datetime, not {when!r}")
    if when.tzinfo is None or when.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware (UTC), got naive {when}")
    return when.astimezone(UTC)


def _iso(when: datetime) -> str:
    return when.astimezone(UTC).isoformat()


async def _rollback(db: aiosqlite.Connection) -> None:
    try:
        await db.rollback()
    except sqlite3.Error:
        log.exception("store: rollback failed")
