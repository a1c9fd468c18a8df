"""What every SQL store shares: the chip bank's logic, written once (DESIGN.md §5).

:class:`SqlStore` implements the whole :class:`~bot.store.protocol.Store` protocol on top of
three things a backend provides: a :class:`Connection` (``fetch``, ``execute``,
``executemany`` with ``?`` placeholders), :meth:`SqlStore._write` (run a change as one
transaction, all or nothing) and :meth:`SqlStore._reading` (a consistent read). The SQL here
is the subset SQLite and PostgreSQL agree on; what differs between them (column types,
triggers, constraint changes) lives in the migration files of ``migrations/<dialect>/``.

Backends: :class:`bot.store.sqlite.SqliteStore` (the embedded default) and
:class:`bot.store.postgres.PostgresStore` (several shard processes on one database).
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime, timedelta
from types import TracebackType
from typing import Any, ClassVar, Protocol, Self, TypeVar

from bot import ratings
from bot.shards import Shards
from bot.store import checks
from bot.store.escrow import exact_claims
from bot.store.group import GroupCommit
from bot.store.protocol import (
    BoardRow,
    ChipMove,
    GameResult,
    InsufficientChips,
    LedgerEntry,
    MemberStats,
    Metric,
    SeatResult,
    StoreError,
    TableWrite,
)
from bot.store.schema import Migration, load_migrations

log = logging.getLogger(__name__)

T = TypeVar("T")

#: A daily claim is refused until this long after the previous one.
DAILY_WINDOW = timedelta(hours=24)

#: A daily claim this soon after the previous one continues the streak.
STREAK_WINDOW = timedelta(hours=48)

#: The ``member_stats.game`` of the rows that add up every game.
EVERY_GAME = ""

#: The migration that adds ratings, stats and names: applying it derives them from the
#: results already recorded.
DERIVED_SINCE = 3

#: Most snapshots one statement saves (five parameters each: far below SQLite's limit).
SAVES_PER_STATEMENT = 100

#: The migration that adds the tables' logs (``table_logs``), saved apart from the snapshots.
LOGS_SINCE = 6

#: Longest member name kept for the boards (Discord display names are at most 32).
MAX_NAME_SHOWN = 64

_LEDGER_COLUMNS = (
    "id, guild_id, user_id, delta, balance_after, kind, reason, table_id, other_user_id, created_at"
)


class Connection(Protocol):
    """One database connection inside a transaction, as the shared code sees it.

    Statements use ``?`` placeholders; rows come back as tuples.
    """

    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one statement and return its rows."""
        ...

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> None:
        """Run one statement (or, without parameters, a script of several)."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""
        ...


class SqlStore(ABC):
    """Chips, saved tables and settings in an SQL database; implements :class:`Store`.

    Parameters
    ----------
    starting_chips
        Chips granted to an account on first use (>= 0; ``PARLOUR_STARTING_CHIPS``).
    clock
        Returns the current instant (aware, UTC) for ledger times; default the wall clock.
        The runtime passes its injectable clock's ``now``.
    migrations
        The schema migrations to apply; default the files of
        ``bot/store/migrations/<dialect>``.

    Raises
    ------
    TypeError, ValueError
        If ``starting_chips`` is not acceptable.

    Notes
    -----
    Call :meth:`open` (or use ``async with``) before anything else; every operation raises
    :class:`StoreError` while the store is closed.
    """

    #: The directory of ``bot/store/migrations`` this backend applies.
    dialect: ClassVar[str]

    #: What follows a SELECT of the rows a change goes on to write, to lock them until it
    #: commits (``" FOR UPDATE"``), or ``""`` where a change locks the whole database.
    for_update: ClassVar[str] = ""

    #: A statement run first in the migrating transaction (another process migrating the
    #: same database at the same moment waits for it), or None.
    migration_lock: ClassVar[str | None] = None

    def __init__(
        self,
        *,
        starting_chips: int,
        clock: Callable[[], datetime] | None = None,
        migrations: Sequence[Migration] | None = None,
    ) -> None:
        self.starting_chips = checks.chips(starting_chips, allow_zero=True, what="starting_chips")
        self._clock = clock or _wall_clock
        self._migrations = tuple(
            load_migrations(dialect=self.dialect) if migrations is None else migrations
        )
        # the boards' tables exist from DERIVED_SINCE on (older schemas: upgrade tests)
        self._derives = any(m.version == DERIVED_SINCE for m in self._migrations)
        self._commits: GroupCommit[tuple[TableWrite, datetime]] = GroupCommit(
            self._commit_batch)
        self._logs = any(m.version == LOGS_SINCE for m in self._migrations)

    # -- what a backend provides ------------------------------------------------------------

    @abstractmethod
    async def open(self) -> None:
        """Connect and apply pending migrations (:meth:`_migrate`); opening twice does nothing.

        Raises
        ------
        StoreError
            If the database cannot be reached or its schema is newer than (or differs from)
            the migrations this code knows; the store stays closed.
        """

    @abstractmethod
    async def close(self) -> None:
        """Wait for the running operations, then disconnect (closing twice does nothing)."""

    @abstractmethod
    async def _write(self, change: Callable[[Connection], Awaitable[T]]) -> T:
        """Run ``change`` as one transaction and return its result.

        Any exception (a refusal, a database error, a cancellation) rolls everything back;
        the backend's errors surface as :class:`StoreError`. A backend may run ``change``
        again after a conflict with another process, so ``change`` keeps no state outside
        the database between its runs.
        """

    @abstractmethod
    def _reading(self) -> AbstractAsyncContextManager[Connection]:
        """A connection whose reads see one committed state (no half of a change)."""

    # -- life cycle -------------------------------------------------------------------------

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
        """Apply the migrations the database has not recorded yet, in one transaction."""

        async def change(db: Connection) -> None:
            if self.migration_lock is not None:
                await db.execute(self.migration_lock)
            await db.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            applied = dict(await db.fetch("SELECT version, name FROM schema_migrations"))
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
                if migration.version == DERIVED_SINCE:
                    await self._derive_all(db)

        return await self._write(change)

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
        async def change(db: Connection) -> Any:
            return await self._account(db, guild_id, user_id, self._now())

        return await self._write(change)

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
        async def change(db: Connection) -> Any:
            await self._account(db, guild_id, user_id, now)
            return await self._move(db, guild_id, user_id, amount, "grant", reason, now)

        return await self._write(change)

    async def claim_daily(
        self, guild_id: int, user_id: int, amount: int, now: datetime, bonus: int = 0,
        bonus_cap: int = 0,
    ) -> int | None:
        """Grant the daily chips (ledger reason ``"daily"``) once per 24 hours, with a streak
        bonus.

        A claim within 48 hours of the previous one continues the member's streak (else it
        starts again at 1); the claim grants ``amount + min(bonus_cap, bonus * (streak - 1))``
        chips (:func:`daily_amount`).

        Parameters
        ----------
        amount
            Chips of every claim (> 0; ``PARLOUR_DAILY_CHIPS``).
        now
            The current instant (timezone-aware); the claim is refused until 24 h after the
            previous one.
        bonus, bonus_cap
            Chips added per day of the streak after the first, and the most they add up to
            (>= 0; ``PARLOUR_DAILY_STREAK_BONUS``, ``PARLOUR_DAILY_STREAK_CAP``).

        Returns
        -------
        int or None
            The new balance, or ``None`` if the member claimed within the 24 h before ``now``
            (nothing changes, except that a new account gets its starting grant).

        Raises
        ------
        TypeError, ValueError
            If an amount is not an int (> 0, or >= 0 for the bonus), ``now`` is not an aware
            datetime, or an id is invalid.
        StoreError
            If the database fails.
        """
        checks.snowflake(guild_id, "guild_id")
        checks.snowflake(user_id, "user_id")
        checks.chips(amount)
        checks.chips(bonus, allow_zero=True, what="bonus")
        checks.chips(bonus_cap, allow_zero=True, what="bonus_cap")
        now = _aware(now, "now")
        async def change(db: Connection) -> Any:
            await self._account(db, guild_id, user_id, now)
            rows = await db.fetch(
                "SELECT last_daily, daily_streak FROM accounts WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            last, streak = rows[0]
            since = None if last is None else now - datetime.fromisoformat(last)
            if since is not None and since < DAILY_WINDOW:
                return None
            streak = streak + 1 if since is not None and since < STREAK_WINDOW else 1
            await db.execute(
                "UPDATE accounts SET last_daily = ?, daily_streak = ?"
                " WHERE guild_id = ? AND user_id = ?",
                (_iso(now), streak, guild_id, user_id),
            )
            granted = daily_amount(amount, bonus, bonus_cap, streak)
            return await self._move(db, guild_id, user_id, granted, "grant", "daily", now)

        return await self._write(change)

    async def daily_streak(self, guild_id: int, user_id: int) -> tuple[int, datetime | None]:
        """Return the member's daily streak (days in a row) and their last claim, if any.

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
            "SELECT daily_streak, last_daily FROM accounts WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        if not rows or rows[0][1] is None:
            return 0, None
        return rows[0][0], datetime.fromisoformat(rows[0][1])

    async def burn(self, guild_id: int, user_id: int, amount: int, reason: str) -> int:
        """Take chips out of a balance for good (``/chips take``; ledger kind ``"burn"``).

        Parameters
        ----------
        amount
            Chips to destroy (> 0, at most the balance).
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
        InsufficientChips
            If the balance holds fewer than ``amount`` chips (nothing moves).
        StoreError
            If the database fails.
        """
        checks.snowflake(guild_id, "guild_id")
        checks.snowflake(user_id, "user_id")
        checks.chips(amount)
        checks.name(reason, "reason")
        now = self._now()
        async def change(db: Connection) -> Any:
            held = await self._account(db, guild_id, user_id, now)
            if held < amount:
                raise InsufficientChips(held, amount, user_id)
            return await self._move(db, guild_id, user_id, -amount, "burn", reason, now)

        return await self._write(change)

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
        async def change(db: Connection) -> Any:
            held = (await self._accounts(db, guild_id, (from_user, to_user), now))[from_user]
            if held < amount:
                raise InsufficientChips(held, amount)
            giver = await self._move(
                db, guild_id, from_user, -amount, "transfer", "gift", now, other_user_id=to_user
            )
            taker = await self._move(
                db, guild_id, to_user, amount, "transfer", "gift", now, other_user_id=from_user
            )
            return giver, taker

        return await self._write(change)

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
        async def change(db: Connection) -> Any:
            await self._account(db, guild_id, user_id, now)  # accounts first, then the pool
            return await self._escrow(db, guild_id, table_id, ChipMove("escrow", user_id, amount,
                                                                     "escrow"), now)

        return await self._write(change)

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
        async def change(db: Connection) -> Any:
            await self._account(db, guild_id, user_id, now)  # accounts first, then the pool
            return await self._settle(db, guild_id, table_id, ChipMove("settle", user_id, amount,
                                                                     "settle"), now)

        return await self._write(change)

    async def commit_table(self, write: TableWrite) -> None:
        """Commit one change of a live table whole: its chip moves, its saved state, its result.

        Every escrow and settlement of ``write.moves`` (in order), the snapshot saved with
        the log's new events (or the saved table and its log deleted when
        ``write.snapshot`` is None) and the finished game's result are all or nothing: a
        crash at any moment leaves the balances, the escrow and the saved table agreeing
        (before the change or after it). The changes of several
        tables that arrive while one transaction runs are committed together in the next
        (group commit, :class:`~bot.store.group.GroupCommit`), each on its own savepoint
        when it moves chips or records a result; this returns once that transaction
        committed.

        Raises
        ------
        TypeError, ValueError
            If an id, amount or text is invalid (nothing moves).
        InsufficientChips
            If an escrow asks more than the member's balance (``user_id`` says whose);
            nothing moves and nothing is saved.
        StoreError
            If a settlement exceeds the table's escrow, the table id is another guild's
            (its escrow or its saved state), or the database fails; nothing changes.
        """
        checks.name(write.table_id, "table_id")
        checks.snowflake(write.guild_id, "guild_id")
        checks.snowflake(write.channel_id, "channel_id")
        if write.snapshot is not None:
            checks.text(write.snapshot, "snapshot")
        if write.log is not None:
            checks.text(write.log, "log")
        if type(write.logged) is not int or write.logged < 0:
            raise ValueError(f"logged must be an int >= 0, got {write.logged!r}")
        for move in write.moves:
            checks.snowflake(move.user_id, "user_id")
            checks.chips(move.amount, allow_zero=move.kind == "settle")
            checks.name(move.reason, "reason")
        await self._commits.submit((write, self._now()))

    async def _commit_batch(
        self, batch: Sequence[tuple[TableWrite, datetime]]
    ) -> list[BaseException | None]:
        """Commit the table changes of ``batch`` in one transaction, in order; per change,
        None or the refusal it alone was rolled back for (:data:`bot.store.group.Flush`).

        A change that moves chips or records a result runs on a savepoint, so its refusal
        undoes it alone. Consecutive changes that only save a snapshot (of different
        tables) are one multi-row upsert (:meth:`_save_snapshots`); the refusal of one of
        them (the table id is another guild's) comes from a row the upsert did not write.
        """

        async def change(db: Connection) -> list[BaseException | None]:
            outcomes: list[BaseException | None] = [None] * len(batch)
            saves: list[int] = []  # snapshot-only changes waiting for their upsert

            async def save() -> None:
                refused = await self._save_snapshots(db, [batch[n] for n in saves])
                for n in saves:
                    outcomes[n] = refused.get(batch[n][0].table_id)
                await self._append_logs(db, [batch[n][0] for n in saves
                                             if outcomes[n] is None])
                saves.clear()

            for number, (write, now) in enumerate(batch):
                if not write.moves and write.result is None and write.snapshot is not None:
                    if (len(saves) == SAVES_PER_STATEMENT
                            or any(batch[n][0].table_id == write.table_id for n in saves)):
                        await save()
                    saves.append(number)
                    continue
                if saves:
                    await save()
                alone = bool(write.moves) or write.result is not None
                if alone:
                    await db.execute(f"SAVEPOINT change_{number}")
                try:
                    await self._commit_one(db, write, now)
                except (InsufficientChips, StoreError) as refusal:
                    if not alone:
                        raise
                    await db.execute(f"ROLLBACK TO SAVEPOINT change_{number}")
                    outcomes[number] = refusal
                if alone:
                    await db.execute(f"RELEASE SAVEPOINT change_{number}")
            if saves:
                await save()
            return outcomes

        return await self._write(change)

    async def _commit_one(self, db: Connection, write: TableWrite, now: datetime) -> None:
        """The statements of one table change (:meth:`commit_table`)."""
        # every member's account first (in id order), then the table's pool
        await self._accounts(db, write.guild_id, [move.user_id for move in write.moves], now)
        for move in write.moves:
            step = self._escrow if move.kind == "escrow" else self._settle
            await step(db, write.guild_id, write.table_id, move, now)
        if write.snapshot is None:
            await db.execute("DELETE FROM saved_tables WHERE table_id = ?", (write.table_id,))
            await self._delete_log(db, write.table_id)
            # the table is over: an empty pool is forgotten with any claim left open
            # (a leaver whose stake stayed in the pot)
            await db.execute(
                "DELETE FROM escrow_pools WHERE table_id = ? AND amount = 0",
                (write.table_id,),
            )
        else:
            refused = await self._save_snapshots(db, [(write, now)])
            if refused:
                raise refused[write.table_id]
            await self._append_logs(db, [write])
        if write.result is not None:
            result_id = await self._record(db, write, write.result, now)
            if self._derives:
                await self._derive(db, write.guild_id, result_id, write.result)

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

    # -- ratings, stats and boards ----------------------------------------------------------

    async def ratings(self, guild_id: int, game: str) -> dict[int, tuple[float, float, int]]:
        """Return every rating of one game on one server.

        Returns
        -------
        dict[int, tuple[float, float, int]]
            Member id -> ``(mu, sigma, rated games)``, ``mu`` and ``sigma`` in rating points
            (:mod:`bot.ratings`).

        Raises
        ------
        TypeError, ValueError
            If ``guild_id`` or ``game`` is invalid.
        StoreError
            If the database fails.
        """
        checks.snowflake(guild_id, "guild_id")
        checks.name(game, "game")
        rows = await self._read(
            "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND game = ?",
            (guild_id, game),
        )
        return {user_id: (mu, sigma, games) for user_id, mu, sigma, games in rows}

    async def rating_history(
        self, guild_id: int, game: str, user_id: int, limit: int = 10
    ) -> list[tuple[float, float]]:
        """Return a member's last rating changes in one game, oldest first.

        Parameters
        ----------
        limit
            How many rated results at most (>= 1).

        Returns
        -------
        list[tuple[float, float]]
            ``(before, after)`` per rated result, in conservative rating points
            (``mu - 3 sigma``).

        Raises
        ------
        TypeError, ValueError
            If an argument is invalid.
        StoreError
            If the database fails.
        """
        checks.snowflake(guild_id, "guild_id")
        checks.name(game, "game")
        checks.snowflake(user_id, "user_id")
        _limit(limit)
        rows = await self._read(
            "SELECT mu_before - 3 * sigma_before, mu - 3 * sigma FROM rating_changes"
            " WHERE guild_id = ? AND game = ? AND user_id = ? ORDER BY result_id DESC LIMIT ?",
            (guild_id, game, user_id, limit),
        )
        return [(before, after) for before, after in reversed(rows)]

    async def board(
        self, guild_id: int, metric: Metric, game: str | None, offset: int, limit: int
    ) -> tuple[list[BoardRow], int]:
        """Return one page of a board, best first, and how many members the board holds.

        Each call reads one index range (no scan of the results): balances, ratings and
        ranked stats are kept per member as the results are committed.

        Parameters
        ----------
        metric
            ``"chips"`` (balances; ``game`` must be None), ``"rating"`` (one game's
            conservative ratings; ``game`` required), ``"wins"`` or ``"games"`` (ranked
            results of one game, or of every game when ``game`` is None).
        offset, limit
            The page: rows ``offset .. offset + limit - 1`` (0-based; ``limit`` >= 1).

        Returns
        -------
        tuple[list[BoardRow], int]
            The page's rows (equal values share a rank; ties ordered by member id) and the
            number of members on the board.

        Raises
        ------
        TypeError, ValueError
            If an argument is invalid or the metric does not fit ``game``.
        StoreError
            If the database fails.
        """
        table, column, filters, parameters = _board_source(guild_id, metric, game)
        where = _where("t", filters)
        _limit(limit)
        if type(offset) is not int or offset < 0:
            raise ValueError(f"offset must be an int >= 0, got {offset!r}")
        async with self._reading() as db:
            rows = await db.fetch(
                f"SELECT t.user_id, t.{column}, n.name FROM {table} AS t"
                " LEFT JOIN member_names AS n"
                "  ON n.guild_id = t.guild_id AND n.user_id = t.user_id"
                f" WHERE {where} ORDER BY t.{column} DESC, t.user_id LIMIT ? OFFSET ?",
                (*parameters, limit, offset),
            )
            [(total,)] = await db.fetch(
                f"SELECT COUNT(*) FROM {table} AS t WHERE {where}", parameters
            )
            first = rows[0][1] if rows else None
            [(above,)] = await db.fetch(
                f"SELECT COUNT(*) FROM {table} AS t WHERE {where} AND t.{column} > ?",
                (*parameters, first),
            ) if rows else [(0,)]
        page: list[BoardRow] = []
        for position, (user_id, value, name) in enumerate(rows, start=offset):
            if not page:
                rank = above + 1
            elif value == page[-1].value:
                rank = page[-1].rank
            else:
                rank = position + 1
            page.append(BoardRow(rank, user_id, value, name))
        return page, total

    async def board_rank(
        self, guild_id: int, metric: Metric, game: str | None, user_id: int
    ) -> BoardRow | None:
        """Return a member's row of a board (see :meth:`board`), or None when they are not
        on it (no account, never rated, no ranked result).

        Raises
        ------
        TypeError, ValueError
            If an argument is invalid or the metric does not fit ``game``.
        StoreError
            If the database fails.
        """
        table, column, filters, parameters = _board_source(guild_id, metric, game)
        checks.snowflake(user_id, "user_id")
        where = _where("t", filters)
        rows = await self._read(
            f"SELECT me.{column}, n.name, 1 + (SELECT COUNT(*) FROM {table} AS t"
            f"  WHERE {where} AND t.{column} > me.{column})"
            f" FROM {table} AS me LEFT JOIN member_names AS n"
            "  ON n.guild_id = me.guild_id AND n.user_id = me.user_id"
            f" WHERE {_where('me', filters)} AND me.user_id = ?",
            (*parameters, *parameters, user_id),
        )
        if not rows:
            return None
        value, name, rank = rows[0]
        return BoardRow(rank, user_id, value, name)

    async def member_stats(self, guild_id: int, user_id: int) -> list[MemberStats]:
        """Return a member's ranked stats per game, with their ratings.

        Returns
        -------
        list[MemberStats]
            One per game played (by name), then ``game == ""`` for every game together;
            empty when the member has no ranked result.

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
            "SELECT s.game, s.games, s.wins, s.net_chips, s.best_place, s.streak,"
            " s.best_streak, r.mu, r.sigma, r.games FROM member_stats AS s"
            " LEFT JOIN ratings AS r"
            "  ON r.guild_id = s.guild_id AND r.game = s.game AND r.user_id = s.user_id"
            " WHERE s.guild_id = ? AND s.user_id = ? ORDER BY s.game = '', s.game",
            (guild_id, user_id),
        )
        return [
            MemberStats(game, games, wins, net, best, streak, best_streak,
                        None if mu is None else (mu, sigma, rated))
            for game, games, wins, net, best, streak, best_streak, mu, sigma, rated in rows
        ]

    async def remember_names(self, guild_id: int, names: Mapping[int, str]) -> None:
        """Keep the names members were last seen with (the boards show members who left
        the server by them).

        Parameters
        ----------
        names
            Member id -> display name (cut to :data:`MAX_NAME_SHOWN` characters).

        Raises
        ------
        TypeError, ValueError
            If an id or name is invalid.
        StoreError
            If the database fails.
        """
        checks.snowflake(guild_id, "guild_id")
        for user_id, name in names.items():
            checks.snowflake(user_id, "user_id")
            checks.name(name[:MAX_NAME_SHOWN] if isinstance(name, str) else name, "name")
        if not names:
            return
        async def change(db: Connection) -> Any:
            await db.executemany(
                "INSERT INTO member_names (guild_id, user_id, name) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name"
                " WHERE member_names.name <> excluded.name",
                [(guild_id, user_id, name[:MAX_NAME_SHOWN]) for user_id, name in names.items()],
            )

        return await self._write(change)

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

    async def return_orphan_escrow(
        self, live_table_ids: Iterable[str], shards: Shards | None = None
    ) -> dict[str, int]:
        """Give back the escrow of every table that no longer exists (at start-up).

        For each pool of a guild on ``shards`` whose table is not in ``live_table_ids``
        (another shard process's pools are never looked at), each member gets back
        exactly their outstanding claim (:func:`bot.store.escrow.exact_claims`), with ledger
        rows of kind ``"orphan_return"``; then the pool is forgotten. A pool whose claims do
        not add up is logged and left alone (nothing is guessed). All of it is one
        transaction.

        Parameters
        ----------
        live_table_ids
            Ids of the tables the runtime restored (their escrow stays).
        shards
            The shards this process hosts; None for every guild (one process).

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

        async def change(db: Connection) -> dict[str, int]:
            returned: dict[str, int] = {}
            pools = await db.fetch(
                "SELECT table_id, guild_id, amount FROM escrow_pools"
                f" WHERE {_on_shards('guild_id', shards)} ORDER BY table_id"
            )
            for table_id, guild_id, pool in pools:
                if table_id in live:
                    continue
                claims = await db.fetch(
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
                        db, guild_id, user_id, share, "orphan_return", "orphan_return", now,
                        table_id=table_id,
                    )
                await db.execute("DELETE FROM escrow_pools WHERE table_id = ?", (table_id,))
                if pool:
                    returned[table_id] = pool
            return returned

        returned = await self._write(change)
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
            burned (the sum of ``"grant"`` and ``"burn"`` ledger rows). A sound store has
            ``balances + escrow == granted``.

        Raises
        ------
        TypeError, ValueError
            If ``guild_id`` is invalid.
        StoreError
            If the database fails.
        """
        checks.snowflake(guild_id, "guild_id")
        rows = await self._read(
            "SELECT (SELECT CAST(COALESCE(SUM(balance), 0) AS BIGINT) FROM accounts"
            "  WHERE guild_id = ?),"
            " (SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM escrow_pools"
            "  WHERE guild_id = ?),"
            " (SELECT CAST(COALESCE(SUM(delta), 0) AS BIGINT) FROM ledger WHERE guild_id = ?"
            "  AND kind IN ('grant', 'burn'))",
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
        async def change(db: Connection) -> Any:
            write = TableWrite(table_id, guild_id, channel_id, data)
            refused = await self._save_snapshots(db, [(write, now)])
            if refused:
                raise refused[table_id]

        return await self._write(change)

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
        async def change(db: Connection) -> Any:
            await db.execute("DELETE FROM saved_tables WHERE table_id = ?", (table_id,))
            await self._delete_log(db, table_id)

        return await self._write(change)

    async def load_table_logs(self, shards: Shards | None = None) -> dict[str, list[str]]:
        """Return the logs of the saved tables (:attr:`TableWrite.log`, appended by each
        commit): table id -> the JSON arrays of its rows, oldest first; a table without
        one is left out.

        Parameters
        ----------
        shards
            Only the tables of guilds on these shards; None for every table.

        Raises
        ------
        StoreError
            If the database fails.
        """
        if not self._logs:
            return {}
        rows = await self._read(
            "SELECT l.table_id, l.events FROM table_logs AS l"
            " JOIN saved_tables AS t ON t.table_id = l.table_id"
            f" WHERE {_on_shards('t.guild_id', shards)} ORDER BY l.table_id, l.upto"
        )
        logs: dict[str, list[str]] = {}
        for table_id, events in rows:
            logs.setdefault(table_id, []).append(events)
        return logs

    async def load_tables(self, shards: Shards | None = None) -> list[tuple[str, int, int, str]]:
        """Return the saved tables as ``(table_id, guild_id, channel_id, data)``, by table id.

        Parameters
        ----------
        shards
            Only the tables of guilds on these shards (the shard process's own); None for
            every table.

        Raises
        ------
        StoreError
            If the database fails.
        """
        rows = await self._read(
            "SELECT table_id, guild_id, channel_id, data FROM saved_tables"
            f" WHERE {_on_shards('guild_id', shards)} ORDER BY table_id"
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
        async def change(db: Connection) -> Any:
            if value is None:
                await db.execute("DELETE FROM settings WHERE scope = ? AND key = ?", (scope, key))
            else:
                await db.execute(
                    "INSERT INTO settings (scope, key, value) VALUES (?, ?, ?)"
                    " ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value",
                    (scope, key, value),
                )

        return await self._write(change)

    # -- helpers ----------------------------------------------------------------------------

    async def _read(self, sql: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one SELECT on a consistent state (never inside another task's change)."""
        async with self._reading() as db:
            return await db.fetch(sql, parameters)

    def _now(self) -> datetime:
        return _aware(self._clock(), "the store's clock")

    async def _accounts(
        self, db: Connection, guild_id: int, user_ids: Iterable[int], now: datetime
    ) -> dict[int, int]:
        """Lock (and create) several members' accounts, in user id order, and return their
        balances: two changes that lock the same accounts take them in the same order, so
        neither waits for the other forever."""
        return {user_id: await self._account(db, guild_id, user_id, now)
                for user_id in sorted(set(user_ids))}

    async def _account(
        self, db: Connection, guild_id: int, user_id: int, now: datetime
    ) -> int:
        """Return a balance, creating the account with the starting grant if it is new.

        The account's row stays locked until the change commits (:attr:`for_update`), so
        what the change decides from the balance still holds when it writes.
        """
        select = (
            f"SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?{self.for_update}"
        )
        rows = await db.fetch(select, (guild_id, user_id))
        if rows:
            return rows[0][0]
        created = await db.fetch(
            "INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, 0, ?)"
            " ON CONFLICT (guild_id, user_id) DO NOTHING RETURNING balance",
            (guild_id, user_id, _iso(now)),
        )
        if not created:  # another process created it in the meantime (and granted it)
            [(balance,)] = await db.fetch(select, (guild_id, user_id))
            return balance
        if not self.starting_chips:
            return 0
        return await self._move(
            db, guild_id, user_id, self.starting_chips, "grant", "starting_grant", now
        )

    async def _move(
        self,
        db: Connection,
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
        rows = await db.fetch(
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
        self, db: Connection, guild_id: int, table_id: str, move: ChipMove,
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
            " ON CONFLICT (table_id) DO UPDATE SET amount = escrow_pools.amount + excluded.amount",
            (table_id, guild_id, move.amount),
        )
        await db.execute(
            "INSERT INTO escrow_contributions (table_id, user_id, outstanding, escrowed)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (table_id, user_id) DO UPDATE SET"
            " outstanding = escrow_contributions.outstanding + excluded.outstanding,"
            " escrowed = escrow_contributions.escrowed + excluded.escrowed",
            (table_id, move.user_id, move.amount, move.amount),
        )
        return balance

    async def _settle(
        self, db: Connection, guild_id: int, table_id: str, move: ChipMove,
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

    async def _save_snapshots(
        self, db: Connection, writes: Sequence[tuple[TableWrite, datetime]]
    ) -> dict[str, StoreError]:
        """Insert or replace the snapshots of ``writes`` (different tables, at most
        :data:`SAVES_PER_STATEMENT`) in one statement; returns the refusal of each table id
        another guild's table holds (the ids of two shard processes' tables could meet),
        whose row was left as it was."""
        saved = await db.fetch(
            "INSERT INTO saved_tables (table_id, guild_id, channel_id, data, updated_at)"
            " VALUES " + ", ".join(["(?, ?, ?, ?, ?)"] * len(writes)) +
            " ON CONFLICT (table_id) DO UPDATE SET"
            " channel_id = excluded.channel_id, data = excluded.data,"
            " updated_at = excluded.updated_at"
            " WHERE saved_tables.guild_id = excluded.guild_id RETURNING table_id",
            [value for write, now in writes for value in (
                write.table_id, write.guild_id, write.channel_id, write.snapshot, _iso(now))],
        )
        written = {table_id for (table_id,) in saved}
        return {write.table_id: StoreError(f"table {write.table_id} is saved for another"
                                           f" guild than {write.guild_id}")
                for write, _now in writes if write.table_id not in written}

    async def _append_logs(self, db: Connection, writes: Sequence[TableWrite]) -> None:
        """Append each change's log events to its table's saved log (or replace it), the
        rows of ``writes`` (saved snapshots) in one statement."""
        if not self._logs:
            return
        for write in writes:
            if write.log_reset:
                await self._delete_log(db, write.table_id)
        rows = [(w.table_id, w.logged, w.log) for w in writes if w.log is not None]
        if rows:
            await db.execute(
                "INSERT INTO table_logs (table_id, upto, events) VALUES "
                + ", ".join(["(?, ?, ?)"] * len(rows)),
                [value for row in rows for value in row],
            )

    async def _delete_log(self, db: Connection, table_id: str) -> None:
        """Forget a table's saved log (a schema older than :data:`LOGS_SINCE` keeps none)."""
        if self._logs:
            await db.execute("DELETE FROM table_logs WHERE table_id = ?", (table_id,))

    async def _record(
        self, db: Connection, write: TableWrite, result: GameResult, now: datetime
    ) -> int:
        """Insert the result and its seats; the result's id."""
        rows = await db.fetch(
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
        return result_id

    async def _derive(
        self, db: Connection, guild_id: int, result_id: int, result: GameResult
    ) -> None:
        """Bring what the boards read up to date with one new result, in its transaction:
        the members' last names, their stats (ranked results) and ratings (rated ones)."""
        # by member id: two results of the same members lock their rows in the same order
        members = sorted((seat for seat in result.seats if seat.user_id is not None),
                         key=lambda seat: seat.user_id)
        await db.executemany(
            "INSERT INTO member_names (guild_id, user_id, name) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name",
            [(guild_id, seat.user_id, seat.name[:MAX_NAME_SHOWN]) for seat in members],
        )
        if not result.ranked:
            return
        await db.executemany(
            "INSERT INTO member_stats AS s (guild_id, game, user_id, games, wins, net_chips,"
            " best_place, streak, best_streak) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
            " games = s.games + 1, wins = s.wins + excluded.wins,"
            " net_chips = s.net_chips + excluded.net_chips,"
            " best_place = CASE WHEN s.best_place IS NULL"
            "   OR excluded.best_place < s.best_place THEN excluded.best_place"
            "  ELSE s.best_place END,"
            " streak = CASE WHEN excluded.wins = 1 THEN s.streak + 1 ELSE 0 END,"
            " best_streak = CASE WHEN excluded.wins = 1 AND s.streak + 1 > s.best_streak"
            "  THEN s.streak + 1 ELSE s.best_streak END",
            [(guild_id, game, seat.user_id, won, seat.chips or 0,
              seat.place if result.complete else None, won, won)
             for seat in members
             for won in [int(result.complete and seat.place == 1)]
             for game in (result.game, EVERY_GAME)],
        )
        if not ratings.rated(result.ranked, result.complete, result.seats):
            return
        # the member_stats rows just written stay locked until the commit, so another result
        # of the same members waits here and then reads the ratings this one writes
        ids = [seat.user_id for seat in members]
        rows = await db.fetch(
            "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND game = ?"
            f" AND user_id IN ({', '.join('?' * len(ids))})",
            (guild_id, result.game, *ids),
        )
        before = {user_id: ratings.Rating(mu, sigma) for user_id, mu, sigma in rows}
        after = ratings.update(result.seats, before)
        await db.executemany(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, display, games)"
            " VALUES (?, ?, ?, ?, ?, ?, 1) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
            " mu = excluded.mu, sigma = excluded.sigma, display = excluded.display,"
            " games = ratings.games + 1",
            [(guild_id, result.game, user_id, new.mu, new.sigma, new.display)
             for user_id, new in after.items()],
        )
        await db.executemany(
            "INSERT INTO rating_changes (result_id, guild_id, game, user_id, mu_before,"
            " sigma_before, mu, sigma) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(result_id, guild_id, result.game, user_id, old.mu, old.sigma, new.mu, new.sigma)
             for user_id, new in after.items()
             for old in [before.get(user_id, ratings.Rating())]],
        )

    async def _derive_all(self, db: Connection) -> None:
        """Derive names, stats and ratings from every result already recorded, oldest first
        (once, when the migration that adds them is applied to an older database)."""
        results = await db.fetch(
            "SELECT id, guild_id, game, ranked, complete FROM results ORDER BY id"
        )
        for result_id, guild_id, game, ranked, complete in results:
            seats = await db.fetch(
                "SELECT seat, user_id, name, team, place, score, chips FROM result_seats"
                " WHERE result_id = ? ORDER BY seat",
                (result_id,),
            )
            result = GameResult(game, bool(ranked), bool(complete), "{}", "{}",
                                tuple(SeatResult(*seat) for seat in seats))
            await self._derive(db, guild_id, result_id, result)

    async def _pool(self, db: Connection, guild_id: int, table_id: str) -> int:
        """Return the chips of a table's pool (0 if none); refuse a pool of another guild."""
        rows = await db.fetch(
            f"SELECT guild_id, amount FROM escrow_pools WHERE table_id = ?{self.for_update}",
            (table_id,),
        )
        if not rows:
            return 0
        owner, amount = rows[0]
        if owner != guild_id:
            raise StoreError(f"table {table_id} holds escrow of guild {owner}, not {guild_id}")
        return amount


def daily_amount(amount: int, bonus: int, bonus_cap: int, streak: int) -> int:
    """Chips of a daily claim on day ``streak`` (>= 1) of a streak:
    ``amount + min(bonus_cap, bonus * (streak - 1))``."""
    return amount + min(bonus_cap, bonus * (streak - 1))


def _board_source(
    guild_id: int, metric: object, game: object
) -> tuple[str, str, tuple[str, ...], tuple[Any, ...]]:
    """The table, column and filter of a board: ``(table, column, filtered columns, their
    values)``."""
    checks.snowflake(guild_id, "guild_id")
    if game is not None:
        checks.name(game, "game")
    match metric:
        case "chips":
            if game is not None:
                raise ValueError("chips are per server, not per game: the chips board has no game")
            return "accounts", "balance", ("guild_id",), (guild_id,)
        case "rating":
            if game is None:
                raise ValueError("ratings are per game: the rating board needs a game")
            return "ratings", "display", ("guild_id", "game"), (guild_id, game)
        case "wins" | "games":
            return ("member_stats", metric, ("guild_id", "game"),
                    (guild_id, EVERY_GAME if game is None else game))
    raise ValueError(f"metric must be chips, rating, wins or games, not {metric!r}")


def _on_shards(column: str, shards: Shards | None) -> str:
    """The SQL condition "the guild in ``column`` is on one of ``shards``" (Discord's
    ``(guild_id >> 22) % shard_count``), or ``"1 = 1"`` for every guild. The shard ids are
    ints checked by :class:`~bot.shards.Shards`, so they are written into the SQL."""
    if shards is None:
        return "1 = 1"
    ids = ", ".join(str(shard) for shard in shards.ids)
    return f"(({column} >> 22) % {shards.count}) IN ({ids})"


def _where(alias: str, columns: Sequence[str]) -> str:
    """``"t.guild_id = ? AND t.game = ?"`` for ``alias`` ``"t"``."""
    return " AND ".join(f"{alias}.{column} = ?" for column in columns)


def _limit(limit: object) -> int:
    if type(limit) is not int or limit < 1:
        raise ValueError(f"limit must be an int >= 1, got {limit!r}")
    return limit


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
