"""Live tables: one game per channel, its lock, seats, chips and board message (DESIGN.md §4).

The bot owns one :class:`TableRegistry` (``bot.tables``). It keeps every live :class:`Table`
by channel id and by table id and runs the table's life: lobby (join, leave, add AI,
start, cancel), decisions (validate → apply → settle under the table's lock; Discord calls
after the lock is released), AI seats, deals, the end of the session and the settlement of
chips. Everything game-specific goes through the game's adapter (:mod:`bot.games`).

Reliability (DESIGN.md §4): every change is saved (``store.save_table``) and tables are
restored at start-up; a change whose save fails is undone and refused ("try again") unless
it already moved chips in the store; every member's pending decision has a deadline, fired
by one scheduler per bot reading ``bot.clock`` (two timeouts in a row hand the seat to the
AI until "I'm back"); board edits with no interaction behind them use the bot's token, are
debounced by ``board_edit_interval``, re-post a board that was deleted (10008) or is too old
to edit (30046) and try again after a server error (5xx); members who turned DM hand views
on get one DM per deal, edited as their hand changes. A lobby untouched for 10 minutes
closes; a started table nobody deals again on for 10 minutes after a deal, or whose members
are all away or leaving at a deal's end, ends its session (leftover round, then settlement).

Chips (DESIGN.md §5): a table with members only is *ranked*: Start (and a join between deals)
escrows the buy-in from the member's balance into the table; leaving and the end of the
session settle the stack back. A table with any AI seat is *casual*: every seat starts with
the buy-in from the table's own bank and nothing touches the members' balances.

The member-level operations (:meth:`TableRegistry.join`, :meth:`~TableRegistry.act` …) take
plain ids and raise :class:`~bot.runtime.refs.Refusal`; the interaction handlers inherited
from :class:`bot.runtime.interactions.TableInteractions` turn clicks into
those operations and answer
each interaction exactly once. The table's data lives in :mod:`bot.runtime.table`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import AsyncIterator, Coroutine, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import discord

from bot.games import GAMES
from bot.render import common
from bot.runtime.interactions import TableInteractions
from bot.runtime.refs import STALE_MESSAGE, Ref, Refusal, new_table_id
from bot.runtime.spec import GameAdapter, Rendered
from bot.runtime.table import Seat, Table, TableState
from bot.store import InsufficientChips, StoreError
from engine.core import IllegalAction

log = logging.getLogger("parlour.tables")

T = TypeVar("T")

DM_SETTING = "dm"
"""Key of a member's DM hand views setting (scope ``user:<id>``, JSON ``true``/``false``)."""

DM_CLOSED = 50007
"""Discord's error code for "Cannot send messages to this user" (closed DMs)."""

REPOST_CODES = frozenset({10008, 30046})
"""Board edit errors answered by posting a new board: unknown message (deleted) and too many
edits of an old message."""

TIMEOUTS_TO_AI = 2
"""Consecutive timeouts after which the AI plays a member's seat (until "I'm back")."""

LOBBY_IDLE = 600.0
"""Seconds after its last change at which a lobby closes itself."""

NEXT_DEAL_IDLE = 600.0
"""Seconds after a deal's end at which a started table nobody deals again on ends its
session (the leftover round, then every stack is settled)."""

BOARD_RETRIES = 3
"""Times a board edit that failed on Discord's side (5xx) is tried again."""

BOARD_RETRY_WAIT = 5.0
"""Seconds before trying a failed board edit again (or the edit interval, if longer)."""

SCHEDULER_MIN_WAIT = 1.0
"""Seconds the scheduler waits at least between two looks at the deadlines."""

AI_STEPS_MAX = 10_000
"""Safety bound on AI moves applied in one go (a game always asks a human before that)."""

SAVE_FAILED = "The table could not be saved, so that was not done. Please try again."

_HINTS = {
    "over_limit": "That is above the table's limit.",
    "not_enough_chips": "You do not have that many chips.",
}


class TableRegistry(TableInteractions):
    """Every live table of the bot, keyed by channel id and by table id.

    Parameters
    ----------
    bot
        The running bot: ``bot.store`` (chips), ``bot.settings`` (``ai_delay``,
        ``board_edit_interval``), and the Discord client methods used to edit boards.
    games
        Adapters by game name; defaults to :data:`bot.games.GAMES`.
    """

    def __init__(self, bot: Any, games: dict[str, GameAdapter] | None = None) -> None:
        self.bot = bot
        self.games = dict(GAMES if games is None else games)
        self.by_channel: dict[int, Table] = {}
        self.by_id: dict[str, Table] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._scheduling = False
        self._sleeper: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ lifecycle

    async def restore(self) -> None:
        """Bring back every saved table at start-up (DESIGN.md §4 "Restart").

        Each table is registered again, its board is re-rendered (so its buttons match the
        state) and pending AI decisions are resumed. Old components keep working: their
        custom_ids name the table and the decision. A snapshot that cannot be read is
        logged and skipped.
        """
        for table_id, _guild, _channel, data in await self.bot.store.load_tables():
            try:
                table = Table.from_snapshot(data, self.games)
            except (ValueError, KeyError, TypeError) as error:
                log.error("table %s could not be restored: %s", table_id, error)
                continue
            self.by_channel[table.channel_id] = table
            self.by_id[table.id] = table
            if table.state is TableState.PLAYING:
                self._spawn(self._resume(table))
            self.schedule_board_edit(table)
        self._scheduling = True
        self._reschedule()

    async def _resume(self, table: Table) -> None:
        async with self._changing(table):
            await self._progress(table)

    async def close(self) -> None:
        """Stop the deadline scheduler and every table's background work."""
        self._scheduling = False
        pending = [task for task in self._tasks if not task.done()]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    def _spawn(self, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_log_failure)
        return task

    def _now(self) -> float:
        """The bot clock's time in POSIX seconds (an injectable clock: tests move it)."""
        return float(self.bot.clock.now().timestamp())

    def _next_due(self) -> float | None:
        """The earliest deadline or idle time (lobby, between deals) of any table (POSIX
        seconds)."""
        times = [when for table in self.by_id.values()
                 for _decision, when in table.deadlines.values()]
        times += [table.idle_deadline for table in self.by_id.values()
                  if table.idle_deadline is not None]
        return min(times, default=None)

    def _reschedule(self) -> None:
        """Sleep until the earliest deadline (one scheduler per bot), replacing the sleep
        in progress; a no-op until :meth:`restore` started scheduling."""
        if not self._scheduling:
            return
        if self._sleeper is not None:
            self._sleeper.cancel()
            self._sleeper = None
        due = self._next_due()
        if due is not None:
            wait = max(due - self._now(), SCHEDULER_MIN_WAIT)
            self._sleeper = self._spawn(self._sleep_then_fire(wait))

    async def _sleep_then_fire(self, wait: float) -> None:
        await asyncio.sleep(wait)
        self._sleeper = None
        self._spawn(self._fire_and_reschedule())

    async def _fire_and_reschedule(self) -> None:
        try:
            await self.fire_due()
        except Exception:  # the scheduler must survive any one table's failure
            log.exception("the table scheduler failed")
        self._reschedule()

    async def fire_due(self) -> None:
        """Apply every expired decision's timeout action, close idle lobbies and end the
        session of tables idle between deals (:data:`NEXT_DEAL_IDLE`).

        Called by the scheduler (started by :meth:`restore`) when the earliest deadline is
        due; reads the time from ``bot.clock``.
        """
        now = self._now()
        for table in list(self.by_id.values()):
            try:
                if table.state is TableState.LOBBY:
                    if table.idle_deadline is not None and now >= table.idle_deadline:
                        await self._close_idle(table, now)
                elif table.idle_deadline is not None and now >= table.idle_deadline:
                    await self._end_idle(table, now)
                elif any(when <= now for _decision, when in table.deadlines.values()):
                    await self._time_out(table, now)
            except Refusal as refusal:  # not saved: undone, and due again at the next look
                log.warning("table %s: a deadline could not be applied: %s", table.id, refusal)

    async def _time_out(self, table: Table, now: float) -> None:
        """The rule-defined default for each expired decision (DESIGN.md §4 "Timers")."""
        async with self._changing(table):
            game = table.game
            for seat, (decision, when) in sorted(table.deadlines.items()):
                if when > now or seat not in game.to_act or game.decision_id(seat) != decision:
                    continue
                game.apply(seat, game.timeout_action(seat), decision)
                count = table.timeouts[seat] = table.timeouts.get(seat, 0) + 1
                name = common.seat_label(table, seat)
                if count >= TIMEOUTS_TO_AI:
                    table.seats[seat].ai = True
                    table.note(f"{name} timed out again: the AI plays for them until they "
                               "press I'm back.")
                else:
                    table.note(f"{name} ran out of time.")
            await self._progress(table)
        self.schedule_board_edit(table)

    async def _close_idle(self, table: Table, now: float) -> None:
        async with table.lock:
            if (table.state is not TableState.LOBBY or table.idle_deadline is None
                    or now < table.idle_deadline):
                return
            table.state = TableState.OVER
            table.note("The lobby closed after 10 idle minutes.")
            self._forget(table)
        self.schedule_board_edit(table)

    async def _end_idle(self, table: Table, now: float) -> None:
        """End the session of a table nobody dealt again on for :data:`NEXT_DEAL_IDLE`
        seconds: the leftover round (members' decisions time out, then the AI plays them),
        then every stack is settled (rules/tripoli.md §2.9 item 59)."""
        adapter = self.adapter(table)
        async with self._changing(table):
            if (table.state is not TableState.PLAYING or table.idle_deadline is None
                    or now < table.idle_deadline):
                return
            table.idle_deadline = None
            if not adapter.between_deals(table.game):  # a deal started meanwhile
                return
            table.ending = True
            table.note("Nobody dealt again for 10 minutes: the session ends with the leftover "
                       "round.")
            adapter.end_session(table.game, False)
            await self._progress(table)
        self.schedule_board_edit(table)

    # ------------------------------------------------------------------ lookup

    def adapter(self, table: Table) -> GameAdapter:
        """The game adapter of ``table``, with the seat range its rules allow."""
        return self.games[table.game_name].for_table(table.options)

    def get(self, table_id: str) -> Table:
        """The live table ``table_id``.

        Raises
        ------
        Refusal
            ``no_table`` when it is over or never existed.
        """
        table = self.by_id.get(table_id)
        if table is None:
            raise Refusal("no_table", "This table is closed.")
        return table

    # ------------------------------------------------------------------ lobby

    def open(
        self,
        game_name: str,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: dict[str, Any],
        buy_in: int,
    ) -> Table:
        """Open a lobby in ``channel_id`` with the host in seat 0.

        Raises
        ------
        Refusal
            ``busy`` when the channel already has a live table (any game).
        """
        existing = self.by_channel.get(channel_id)
        if existing is not None:
            title = self.adapter(existing).title
            raise Refusal(
                "busy",
                f"This channel already has a {title} table ({existing.id}); "
                "end it first or use another channel.",
            )
        table = Table(
            id=new_table_id(set(self.by_id)),
            game_name=game_name,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            buy_in=buy_in,
            options=dict(options),
            seats=[Seat(host_id, host_name)],
            idle_deadline=self._now() + LOBBY_IDLE,
        )
        self.by_channel[channel_id] = table
        self.by_id[table.id] = table
        self._reschedule()
        return table

    def _require_host(self, table: Table, member_id: int, is_manager: bool, what: str) -> None:
        if member_id != table.host_id and not is_manager:
            raise Refusal("not_host", f"Only the host or a member with Manage Channels can {what}.")

    async def join(self, table: Table, member_id: int, name: str) -> None:
        """Sit ``member_id`` down: in the lobby, or between deals of a started table.

        A ranked table escrows the buy-in at once when the game is running; a casual table
        gives the new seat the buy-in from its bank.

        Raises
        ------
        Refusal
            ``seated``, ``full``, ``mid_deal`` (join between deals), ``ending``, ``chips``.
        """
        adapter = self.adapter(table)
        async with self._changing(table):
            if table.seat_of(member_id) is not None:
                raise Refusal("seated", "You are already seated at this table.")
            if len(table.active_seats()) >= adapter.max_seats:
                raise Refusal("full", f"The table is full ({adapter.max_seats} seats).")
            if table.state is TableState.LOBBY:
                table.seats.append(Seat(member_id, name))
                table.note(f"{common.short_name(name)} sat down.")
                return
            self._require_playing(table)
            if table.ending:
                raise Refusal("ending", "This table is ending; no new seats.")
            if not adapter.between_deals(table.game):
                raise Refusal("mid_deal", "You can join between deals; wait for this one to end.")
            if table.ranked:
                await self._escrow(table, member_id, name)
            try:
                seat = adapter.add_seat(table.game, table.buy_in)
            except IllegalAction as error:
                if table.ranked:
                    await self._settle(table, member_id, table.buy_in)
                raise Refusal(error.code, error.message) from error
            assert seat == len(table.seats), "engine seats and table seats must stay aligned"
            table.seats.append(Seat(member_id, name))
            table.note(f"{common.short_name(name)} joined with {table.buy_in} chips.")

    async def leave(self, table: Table, member_id: int) -> None:
        """Stand ``member_id`` up: at once in the lobby or between deals (settling their stack
        on a ranked table), else the AI plays their cards to the end of the deal.

        A host who leaves passes the host's powers on (see :meth:`_pass_host`).

        Raises
        ------
        Refusal
            ``not_seated``; ``leaving`` (already leaves after this deal: nothing changes);
            ``host`` (the host of a lobby no other member sits at closes it with Cancel).
        """
        async with self._changing(table):
            seat = table.seat_of(member_id)
            if seat is None:
                raise Refusal("not_seated", "You are not seated at this table.")
            if table.seats[seat].leaving:
                raise Refusal("leaving", "You already leave after this deal.")
            if (table.state is TableState.LOBBY and member_id == table.host_id
                    and sum(s.member_id is not None for s in table.seats) == 1):
                raise Refusal("host", "You are the host: use Cancel to close the table.")
            await self._stand_up(table, seat)

    async def kick(
        self, table: Table, member_id: int, is_manager: bool, target_id: int
    ) -> None:
        """The host (or a Manage Channels member) stands another member up, as :meth:`leave`.

        Raises
        ------
        Refusal
            ``not_host``; ``not_seated`` (the target); ``leaving`` (the target already
            leaves after this deal: nothing changes); ``host`` (the host of a lobby).
        """
        async with self._changing(table):
            self._require_host(table, member_id, is_manager, "remove players")
            seat = table.seat_of(target_id)
            if seat is None:
                raise Refusal("not_seated", "That member is not seated at this table.")
            if table.seats[seat].leaving:
                name = common.short_name(table.seats[seat].name)
                raise Refusal("leaving", f"{name} already leaves after this deal.")
            if table.state is TableState.LOBBY and target_id == table.host_id:
                raise Refusal("host", "The host cannot be removed; cancel the table instead.")
            await self._stand_up(table, seat)

    async def _stand_up(self, table: Table, seat: int) -> None:
        name = common.short_name(table.seats[seat].name)
        if table.state is TableState.LOBBY:
            del table.seats[seat]
            table.note(f"{name} stood up.")
            self._pass_host(table, seat)
            return
        self._require_playing(table)
        if self.adapter(table).between_deals(table.game):
            await self._remove_seat(table, seat)
        else:
            table.seats[seat].leaving = table.seats[seat].ai = True
            table.note(f"{name} leaves after this deal; the AI plays their cards.")
        self._pass_host(table, seat + 1)
        await self._progress(table)

    def _pass_host(self, table: Table, start: int) -> None:
        """Hand the host's powers to the next member clockwise from seat ``start`` who stays
        seated, when the host is no longer seated or leaves after this deal (announced on
        the board). With nobody to take over the host stays: the session then ends at the
        deal's end (:meth:`_cannot_go_on`) or the lobby is closed with Cancel."""
        host = table.seat_of(table.host_id)
        if host is not None and not table.seats[host].leaving:
            return
        count = len(table.seats)
        for step in range(count):
            entry = table.seats[(start + step) % count]
            if entry.member_id is not None and not entry.left and not entry.leaving:
                table.host_id = entry.member_id
                table.note(f"{common.short_name(entry.name)} is the host now.")
                return

    async def back(self, table: Table, member_id: int) -> None:
        """A member whose seat the AI plays (after timeouts) takes it back.

        Raises
        ------
        Refusal
            ``not_seated``; ``leaving`` (the member leaves after this deal); ``not_away``
            (the member plays their seat already).
        """
        async with self._changing(table):
            self._require_playing(table)
            seat = table.seat_of(member_id)
            if seat is None:
                raise Refusal("not_seated", "You are not seated at this table.")
            entry = table.seats[seat]
            if entry.leaving:
                raise Refusal("leaving", "You leave after this deal; the AI plays your cards "
                              "until then.")
            if not entry.ai:
                raise Refusal("not_away", "You are playing your seat already.")
            entry.ai = False
            table.timeouts.pop(seat, None)
            table.note(f"{common.short_name(entry.name)} is back.")
            await self._progress(table)

    async def add_ai(self, table: Table, member_id: int, is_manager: bool) -> None:
        """Add an AI seat to the lobby (the table becomes casual).

        Raises
        ------
        Refusal
            ``not_host``, ``started``, ``full``.
        """
        adapter = self.adapter(table)
        async with self._changing(table):
            self._require_host(table, member_id, is_manager, "add AI players")
            if table.state is not TableState.LOBBY:
                raise Refusal("started", "AI players can only be added in the lobby.")
            if len(table.seats) >= adapter.max_seats:
                raise Refusal("full", f"The table is full ({adapter.max_seats} seats).")
            number = 1 + sum(seat.member_id is None for seat in table.seats)
            table.seats.append(Seat(None, f"AI {number}", ai=True))
            table.note(f"AI {number} sat down; the table is casual (play chips).")

    async def start(self, table: Table, member_id: int, is_manager: bool) -> None:
        """Start the game: escrow the buy-ins of a ranked table, build the game, deal.

        Raises
        ------
        Refusal
            ``not_host``, ``started``, ``few`` (not enough seats), ``chips`` (a member cannot
            pay the buy-in: nothing is escrowed), or the game's refusal of the options.
        """
        adapter = self.adapter(table)
        async with self._changing(table):
            self._require_host(table, member_id, is_manager, "start the game")
            if table.state is not TableState.LOBBY:
                raise Refusal("started", "The game has already started.")
            if len(table.seats) < adapter.min_seats:
                raise Refusal(
                    "few",
                    f"This {adapter.title} table needs {adapter.min_seats}-{adapter.max_seats} "
                    f"players; {len(table.seats)} seated.",
                )
            escrowed: list[int] = []
            try:
                if table.ranked:
                    for seat in table.seats:
                        assert seat.member_id is not None
                        await self._escrow(table, seat.member_id, seat.name)
                        escrowed.append(seat.member_id)
                seed = secrets.token_bytes(32)
                game = adapter.new_game(table.options, [table.buy_in] * len(table.seats), seed)
            except (Refusal, IllegalAction, StoreError) as error:
                for escrowed_member in escrowed:
                    await self._settle(table, escrowed_member, table.buy_in)
                if isinstance(error, IllegalAction):
                    raise Refusal(error.code, error.message) from error
                raise
            table.game, table.seed, table.state = game, seed, TableState.PLAYING
            table.notes.clear()
            await self._progress(table)

    async def cancel(self, table: Table, member_id: int, is_manager: bool) -> None:
        """Close a lobby (nothing is escrowed before Start).

        Raises
        ------
        Refusal
            ``not_host``; ``started`` (use the end command).
        """
        async with table.lock:
            self._require_host(table, member_id, is_manager, "cancel the table")
            if table.state is not TableState.LOBBY:
                raise Refusal("started", "The game has started; end it with the end command.")
            table.state = TableState.OVER
            table.note("The table was cancelled.")
            self._forget(table)

    # ------------------------------------------------------------------ play

    def _require_playing(self, table: Table) -> None:
        if table.state is TableState.LOBBY:
            raise Refusal("lobby", "The game has not started yet.")
        if table.state is TableState.OVER:
            raise Refusal("no_table", "This table is closed.")

    def decision_seat(self, table: Table, member_id: int, ref: Ref) -> int:
        """The seat of ``member_id`` if ``ref`` is that seat's pending decision.

        Raises
        ------
        Refusal
            ``not_seated``; ``not_your_turn`` (the decision belongs to another seat);
            ``stale`` (the decision is over).
        """
        self._require_playing(table)
        seat = table.seat_of(member_id)
        if seat is None:
            raise Refusal("not_seated", "You are not seated at this table.")
        if ref.seat is not None and ref.seat != seat:
            owner = common.seat_label(table, ref.seat) if ref.seat < len(table.seats) else "?"
            raise Refusal("not_your_turn", f"Not your turn: that decision is {owner}'s.")
        game = table.game
        if seat not in game.to_act or ref.decision != game.decision_id(seat):
            raise Refusal("stale", STALE_MESSAGE)
        return seat

    async def act(
        self,
        table: Table,
        member_id: int,
        ref: Ref,
        values: Sequence[str] = (),
        amount: int | None = None,
    ) -> int:
        """Apply ``member_id``'s answer to the decision ``ref`` (validate → apply, one lock).

        Returns
        -------
        int
            The seat that acted.

        Raises
        ------
        Refusal
            As :meth:`decision_seat`, or the engine's refusal (``illegal``, ``over_limit``,
            ``not_enough_chips`` …). Nothing changes then.
        """
        adapter = self.adapter(table)
        async with table.lock:
            seat = self.decision_seat(table, member_id, ref)
            action = adapter.action(table.game, seat, ref.verb, ref.arg, values, amount)
            before = table.game.model_dump_json()
            try:
                table.game.apply(seat, action, ref.decision)
            except IllegalAction as error:
                hint = _HINTS.get(error.code)
                message = f"{hint} {error.message}" if hint else error.message
                raise Refusal(error.code, message) from error
            try:
                await self._save(table)
            except StoreError as error:
                table.game = adapter.load_game(before)
                raise Refusal("store", SAVE_FAILED) from error
            table.timeouts.pop(seat, None)
            await self._progress(table)
            await self._save_quietly(table)
        return seat

    async def next_deal(self, table: Table, member_id: int, ref: Ref) -> None:
        """Start the next deal; ``ref.decision`` must be the number of the deal just over.

        Raises
        ------
        Refusal
            ``not_seated``; ``stale`` (that deal already moved on).
        """
        adapter = self.adapter(table)
        async with self._changing(table):
            self._require_playing(table)
            if table.seat_of(member_id) is None:
                raise Refusal("not_seated", "You are not seated at this table.")
            game = table.game
            if not adapter.between_deals(game) or ref.decision != adapter.deal_number(game):
                raise Refusal("stale", STALE_MESSAGE)
            try:
                adapter.start_deal(game)
            except IllegalAction as error:
                raise Refusal(error.code, error.message) from error
            table.notes.clear()
            await self._progress(table)

    async def end(self, table: Table, member_id: int, is_manager: bool, abandon: bool) -> None:
        """End the session: after the current deal, or abandoning it (``abandon``); then the
        game's leftover play; then every stack is settled. A lobby is simply closed.

        Raises
        ------
        Refusal
            ``not_host``; ``ending`` (already ending after this deal and not abandoning).
        """
        if table.state is TableState.LOBBY:
            await self.cancel(table, member_id, is_manager)
            return
        adapter = self.adapter(table)
        async with self._changing(table):
            self._require_host(table, member_id, is_manager, "end the table")
            self._require_playing(table)
            if table.ending and not abandon:
                raise Refusal("ending", "This table already ends after the current deal.")
            try:
                adapter.end_session(table.game, abandon)
            except IllegalAction as error:
                raise Refusal(error.code, error.message) from error
            table.ending = True
            table.note("The deal was abandoned; the session ends." if abandon
                       else "The session ends after this deal.")
            await self._progress(table)

    # ------------------------------------------------------------------ progress (under lock)

    def _ai_seat(self, table: Table) -> int | None:
        to_act = table.game.to_act
        return next((s for s in sorted(to_act) if table.seats[s].ai), None)

    def _apply_ai(self, table: Table, seat: int) -> None:
        game = table.game
        action = self.adapter(table).ai_action(game, seat, table.rng)
        game.apply(seat, action, game.decision_id(seat))

    async def _progress(self, table: Table, *, in_driver: bool = False) -> None:
        """After a change: AI seats act (inline when ``ai_delay`` is 0, else from the table's
        AI driver task), seats leave between deals, a table without members ends, a
        finished session is settled, and the members' pending decisions get their deadlines.
        Runs under the table's lock."""
        await self._advance(table, in_driver)
        self._arm(table)
        self._reschedule()
        table.dms_dirty = True
        self._schedule_publish(table)

    def _arm(self, table: Table) -> None:
        """Give every member's new pending decision a deadline (the table's ``turn_seconds``
        option, else the game's time for that decision); drop the others. Between deals
        the table's idle time runs (:data:`NEXT_DEAL_IDLE` from the deal's end)."""
        game = table.game
        pending: set[int] = set()
        if table.state is TableState.PLAYING:
            pending = {s for s in game.to_act if not table.seats[s].ai}
        for seat, (decision, _when) in list(table.deadlines.items()):
            if seat not in pending or decision != game.decision_id(seat):
                del table.deadlines[seat]
        adapter = self.adapter(table)
        if table.state is TableState.PLAYING:
            if not adapter.between_deals(game):
                table.idle_deadline = None
            elif table.idle_deadline is None:
                table.idle_deadline = self._now() + NEXT_DEAL_IDLE
        for seat in pending - set(table.deadlines):
            seconds = table.options.get("turn_seconds") or adapter.decision_seconds(game, seat)
            table.deadlines[seat] = (game.decision_id(seat), self._now() + seconds)

    async def _advance(self, table: Table, in_driver: bool) -> None:
        adapter = self.adapter(table)
        delay = self.bot.settings.ai_delay
        for _ in range(AI_STEPS_MAX):
            game = table.game
            if game.is_over:
                await self._finish(table)
                return
            if adapter.between_deals(game):
                if not table.ending and self._cannot_go_on(table):
                    table.ending = True
                    table.note("Too few players stay (or every member is away): the session "
                               "ends with the leftover round.")
                    adapter.end_session(game, False)
                    continue
                for seat, entry in enumerate(table.seats):
                    if entry.leaving and not entry.left:
                        await self._remove_seat(table, seat)
                return
            seat = self._ai_seat(table)
            if seat is None:
                return
            if delay > 0:
                if not in_driver and (table.ai_task is None or table.ai_task.done()):
                    table.ai_task = self._spawn(self._drive_ai(table, delay))
                return
            self._apply_ai(table, seat)
        raise RuntimeError(f"table {table.id}: AI seats did not stop acting")

    def _cannot_go_on(self, table: Table) -> bool:
        """True at the end of a deal when the session must end: fewer seats than the game's
        minimum stay, or no member who stays is present (every one leaving or away, the AI
        playing their seats). Leaving seats are then kept for the leftover round, so the
        board's chips are played for and every stack is settled (rules/tripoli.md §2.9
        item 59)."""
        staying = [s for s in table.active_seats() if not table.seats[s].leaving]
        present = any(table.seats[s].member_id is not None and not table.seats[s].ai
                      for s in staying)
        return not present or len(staying) < self.adapter(table).min_seats

    async def _drive_ai(self, table: Table, delay: float) -> None:
        """AI moves one at a time, ``delay`` seconds apart, each followed by a board edit."""
        while True:
            await asyncio.sleep(delay)
            async with table.lock:
                if table.state is not TableState.PLAYING:
                    return
                seat = self._ai_seat(table)
                if seat is None:
                    return
                self._apply_ai(table, seat)
                await self._progress(table, in_driver=True)
                await self._save_quietly(table)
            self.schedule_board_edit(table)

    async def _settle(self, table: Table, member_id: int, chips: int) -> None:
        """Pay ``chips`` of the table's escrow back to the member (counted in
        ``table.chip_moves``: a change that moved chips is not undone)."""
        table.chip_moves += 1
        await self.bot.store.settle(table.guild_id, member_id, table.id, chips)

    async def _escrow(self, table: Table, member_id: int, name: str) -> None:
        table.chip_moves += 1
        try:
            await self.bot.store.escrow(table.guild_id, member_id, table.id, table.buy_in)
        except InsufficientChips as error:
            raise Refusal(
                "chips",
                f"{common.short_name(name)} needs {table.buy_in} chips for the buy-in and has "
                f"{error.balance}.",
            ) from error

    async def _remove_seat(self, table: Table, seat: int) -> None:
        entry = table.seats[seat]
        stack = self.adapter(table).remove_seat(table.game, seat)
        if table.ranked and entry.member_id is not None:
            await self._settle(table, entry.member_id, stack)
        entry.left, entry.leaving = True, False
        table.note(f"{common.short_name(entry.name)} left with {stack} chips.")

    async def _finish(self, table: Table) -> None:
        """Settle every seated member's final stack (ranked) and close the table."""
        if table.ranked:
            stacks = self.adapter(table).stacks(table.game)
            for seat, entry in enumerate(table.seats):
                if entry.left or entry.member_id is None:
                    continue
                try:
                    await self._settle(table, entry.member_id, stacks[seat] or 0)
                except StoreError:
                    log.exception("table %s: settling seat %d failed; the escrow stays and is "
                                  "returned at the next start-up", table.id, seat)
        table.state = TableState.OVER
        self._forget(table)

    @asynccontextmanager
    async def _changing(self, table: Table) -> AsyncIterator[None]:
        """Hold the table's lock for a change; save the table when the change succeeds.

        When saving fails, a change that moved no chips is undone and refused
        (``Refusal("store")``: the member is told to try again); a change that moved chips
        in the store stands, and the next change saves it.
        """
        async with table.lock:
            before, chip_moves = table.snapshot(), table.chip_moves
            yield
            if table.state is TableState.LOBBY:
                table.idle_deadline = self._now() + LOBBY_IDLE
            try:
                await self._save(table)
            except StoreError as error:
                if table.chip_moves != chip_moves:
                    log.exception("table %s: saving failed after chips moved; the next change "
                                  "saves again", table.id)
                    return
                log.warning("table %s: saving failed; the change is undone: %s", table.id, error)
                table.restore(before, self.games)
                raise Refusal("store", SAVE_FAILED) from error
            finally:
                self._reschedule()

    def _forget(self, table: Table) -> None:
        if self.by_channel.get(table.channel_id) is table:
            del self.by_channel[table.channel_id]
        self.by_id.pop(table.id, None)
        self._spawn(self._delete_saved(table))

    async def _delete_saved(self, table: Table) -> None:
        try:
            await self.bot.store.delete_table(table.id)
        except StoreError:
            log.exception("table %s: could not delete its saved state", table.id)

    async def _save(self, table: Table) -> None:
        """Save the table (after every change, under its lock).

        Raises
        ------
        StoreError
            When the store fails; callers that can undo their change do so.
        """
        if table.state is TableState.OVER:
            return
        await self.bot.store.save_table(
            table.id, table.guild_id, table.channel_id, table.snapshot()
        )

    async def _save_quietly(self, table: Table) -> None:
        """Save, logging a failure (the next change saves again)."""
        try:
            await self._save(table)
        except StoreError:
            log.exception("table %s: saving failed; the next change saves again", table.id)

    # ------------------------------------------------------------------ rendering & board

    def render_board(self, table: Table) -> Rendered:
        """The board message of ``table`` as it is now (lobby, game, or final result)."""
        adapter = self.adapter(table)
        if table.state is TableState.LOBBY:
            return common.lobby(
                table, adapter.title, adapter.describe_options(table.options),
                adapter.min_seats, adapter.max_seats,
            )
        if table.game is None:
            reason = table.notes[-1] if table.notes else "The table was cancelled."
            return common.closed(table, adapter.title, reason)
        return adapter.board(table)

    def schedule_board_edit(self, table: Table) -> None:
        """Edit the board soon with the bot's token (never an interaction token, C01).

        Edits asked for within ``board_edit_interval`` seconds become one edit.
        """
        table.board_dirty = True
        self._schedule_publish(table)

    def _schedule_publish(self, table: Table) -> None:
        if table.board_task is None or table.board_task.done():
            table.board_task = self._spawn(self._publish_loop(table))

    async def _publish_loop(self, table: Table) -> None:
        """Debounced publishing: the board, then the members' DM hand views.

        At most one board edit per ``board_edit_interval`` seconds; a board edit that fails
        on Discord's side (5xx) is tried again, :data:`BOARD_RETRIES` times at most,
        :data:`BOARD_RETRY_WAIT` seconds apart (the table's state does not depend on it).
        """
        failures = 0
        while table.board_dirty or table.dms_dirty:
            wait = self.bot.settings.board_edit_interval
            await asyncio.sleep(max(wait, BOARD_RETRY_WAIT) if failures else wait)
            if table.board_dirty:
                table.board_dirty = False
                if await self._edit_board(table):
                    failures = 0
                else:
                    failures += 1
                    table.board_dirty = table.board_dirty or failures <= BOARD_RETRIES
            if table.dms_dirty:
                table.dms_dirty = False
                await self._update_dms(table)

    async def wants_dm(self, member_id: int) -> bool:
        """True when the member turned DM hand views on (setting ``user:<id>`` / ``dm``,
        JSON ``true``; written by ``/settings dm on|off``)."""
        text = await self.bot.store.get_setting(f"user:{member_id}", DM_SETTING)
        return text is not None and json.loads(text) is True

    async def set_dm(self, member_id: int, on: bool) -> list[Table]:
        """Turn a member's DM hand views on or off (``/settings dm``) and apply it at once.

        Turning them on sends the member's DM hand view of every deal they are playing now
        (and tries again where their DMs were found closed); turning them off stops editing
        the DMs already sent.

        Returns
        -------
        list[Table]
            The live tables where the member holds a hand now.

        Raises
        ------
        StoreError
            When the setting cannot be saved; nothing changed then.
        """
        await self.bot.store.set_setting(f"user:{member_id}", DM_SETTING, json.dumps(on))
        playing = [table for table in self.by_id.values()
                   if table.state is TableState.PLAYING and table.seat_of(member_id) is not None]
        for table in playing:
            seat = table.seat_of(member_id)
            if on:
                table.dm_closed.pop(seat, None)
            table.dms_dirty = True
            self._schedule_publish(table)
        return playing

    async def _update_dms(self, table: Table) -> None:
        """Keep one DM hand view per member and deal up to date (DESIGN.md §4); a member
        whose DMs are closed (50007) is told on the board, without cards, to use My hand."""
        if table.state is not TableState.PLAYING:
            return
        adapter = self.adapter(table)
        deal = adapter.deal_number(table.game)
        for seat in table.active_seats():
            entry = table.seats[seat]
            if entry.member_id is None or table.dm_closed.get(seat) == deal:
                continue
            if not await self.wants_dm(entry.member_id):
                continue
            rendered = adapter.hand(table, seat)
            known = table.dm_messages.get(seat)
            try:
                if known is not None and known[0] == deal:
                    channel = self.bot.get_partial_messageable(known[1])
                    await channel.get_partial_message(known[2]).edit(
                        embed=rendered.embed, view=rendered.view
                    )
                else:
                    dm = await self.bot.create_dm(discord.Object(id=entry.member_id))
                    message = await dm.send(embed=rendered.embed, view=rendered.view)
                    table.dm_messages[seat] = (deal, dm.id, message.id)
            except discord.HTTPException as error:
                if error.code != DM_CLOSED:
                    log.warning("table %s: DM hand view of seat %d failed: %s",
                                table.id, seat, error)
                    continue
                table.dm_closed[seat] = deal
                table.note(f"{common.short_name(entry.name)}'s DMs are closed: "
                           "press My hand to see your cards.")
                self.schedule_board_edit(table)

    async def _edit_board(self, table: Table) -> bool:
        """Show the table's state on its board (re-posting a board that is gone).

        Returns False when Discord failed on its side (5xx) and the edit is worth retrying.
        """
        if table.board_message_id is None:
            return True
        rendered = self.render_board(table)
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            await channel.get_partial_message(table.board_message_id).edit(
                embed=rendered.embed, view=rendered.view
            )
        except discord.HTTPException as error:
            if error.code not in REPOST_CODES:
                log.warning("table %s: board edit failed: %s", table.id, error)
                return error.status < 500
            log.info("table %s: board message gone (%s); posting a new one", table.id, error)
            try:
                message = await channel.send(embed=rendered.embed, view=rendered.view)
            except discord.HTTPException as failure:
                log.warning("table %s: board could not be re-posted: %s", table.id, failure)
                return failure.status < 500
            async with table.lock:
                table.board_message_id = message.id
                await self._save_quietly(table)
        return True

def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("table task failed", exc_info=task.exception())
