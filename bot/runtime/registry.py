"""Live tables: one game per channel, its lock, seats, stakes and board message (DESIGN.md §4).

The bot owns one :class:`TableRegistry` (``bot.tables``). It keeps every live :class:`Table`
by channel id and by table id and runs the table's life for every game alike: lobby (join,
leave, add AI, start, cancel), decisions (validate → apply → commit under the table's
lock; Discord calls after the lock is released), AI seats, deals, the end of the game and
its result. What differs between games is read from the game's declaration
(:class:`~bot.runtime.spec.GameSpec`: seat range, seating, stakes, joins, substitutes) and
done by its adapter (:mod:`bot.games`); the runtime never names a game.

One commit per change: a change (a click, a timeout, an AI move, a lobby step) runs under
the table's lock; the chips it moves (the stakes policy, :mod:`bot.runtime.stakes`), the
table's snapshot and, when it finishes the game, the result are committed together
(``store.commit_table``). When the commit fails, the change is undone in memory and
refused ("try again"), so a crash or a failing store never leaves chips and table
disagreeing. Tables are restored at start-up.

Decisions (DESIGN.md §2): every *required* pending decision of a member has a deadline
(the adapter's base time for it scaled by the table's pace, or its ``turn_seconds``; none
at the ``untimed`` pace, :mod:`bot.runtime.pace`); on expiry the engine's
``timeout_action`` applies and counts a strike. Two strikes in a row *and* no interaction
of the member for :data:`~bot.runtime.pace.AWAY_SILENCE` mark them away: the AI plays
their seat until they click anything at the table. *Optional* decisions have no deadline
and simply lapse. A rule's own timer (a pending decision of ``engine.core.SYSTEM`` with a
delay) fires when its delay is over. A lobby untouched for 10 minutes closes; a started
table nobody deals again on for 10 minutes after a deal, or whose members are all away or
leaving at a deal's end, ends — but never while a member interacted with it in the last
:data:`~bot.runtime.pace.ACTIVE_WINDOW` seconds. The agreed length (``deals`` or
``minutes``) ends the session at the end of the deal that reaches it. Each end tells the
game why (:class:`engine.core.EndReason`: the agreed length, the host, not enough players)
and the game decides what it means by its rules: complete and paid out, or cut short
with the stakes back (``Outcome.complete``).

The member-level operations (:meth:`TableRegistry.join`, :meth:`~TableRegistry.act` …) take
plain ids and raise :class:`~bot.runtime.refs.Refusal`; the interaction handlers inherited
from :class:`bot.runtime.interactions.TableInteractions` turn clicks into those operations
and answer each interaction exactly once; board edits and DM hand views are
:class:`bot.runtime.publisher.Publisher`'s, the hand messages kept current
:class:`bot.runtime.hands.HandKeeper`'s.
"""

from __future__ import annotations

import asyncio
import heapq
import json
import logging
import secrets
from collections.abc import AsyncIterator, Coroutine, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from bot import ratings
from bot.i18n import Language, Msg
from bot.i18n.choice import Languages
from bot.render import common, summary
from bot.render.summary import RatingNote
from bot.runtime import pace
from bot.runtime.hands import HandKeeper
from bot.runtime.interactions import TableInteractions
from bot.runtime.pictures import Pictures
from bot.runtime.publisher import Publisher
from bot.runtime.refs import STALE, Ref, Refusal, new_table_id
from bot.runtime.renders import Shown
from bot.runtime.spec import GameAdapter, GameSpec, Rendered
from bot.runtime.stakes import POLICIES, StakesPolicy
from bot.runtime.table import Saved, Seat, Table, TableState
from bot.store import GameResult, InsufficientChips, SeatResult, StoreError
from engine import fairness
from engine.core import SYSTEM, EndReason, IllegalAction, Outcome, SeatedForChips

log = logging.getLogger("parlour.tables")

T = TypeVar("T")

TIMEOUTS_TO_AI = 2
"""Consecutive timeouts after which a member silent for :data:`bot.runtime.pace.AWAY_SILENCE`
is away: the AI plays their seat until they interact again."""

LOBBY_IDLE = 600.0
"""Seconds after its last change at which a lobby closes itself."""

NEXT_DEAL_IDLE = 600.0
"""Seconds after a deal's end at which a started table nobody deals again on ends."""

SCHEDULER_MIN_WAIT = 1.0
"""Seconds the scheduler waits at least between two looks at the deadlines."""

AI_STEPS_MAX = 10_000
"""Safety bound on AI moves applied in one go (a game always asks a human before that)."""

RESTORE_LOOKUP_BUDGET = 5.0
"""Seconds a restored table waits for its members' and channel's languages to be read."""

REMATCH_SETTING = "rematch"
"""Key of a channel's setting (scope ``channel:<id>``) holding what a **Rematch** of its last
finished table needs: its id, game, options, buy-in and seats (member id or None for AI,
name, team). Only the channel's last finished table can be rematched."""

_HINTED = frozenset({"over_limit", "not_enough_chips"})
"""Engine refusal codes whose English detail is preceded by a sentence of the catalog
(``refusal.hint.<code>``)."""


class TableRegistry(TableInteractions, HandKeeper, Publisher, Pictures):
    """Every live table of the bot, keyed by channel id and by table id.

    Parameters
    ----------
    bot
        The running bot: ``bot.store`` (chips, tables, results), ``bot.settings``
        (``ai_delay``, ``board_edit_interval``, ``board_edit_budget``), ``bot.clock``,
        ``bot.sleep`` (every timed wait: AI moves, deadlines, board edits) and the Discord
        client methods used to edit boards.
    games
        Adapters by game name (the bot passes :data:`bot.games.GAMES`).
    """

    def __init__(self, bot: Any, games: dict[str, GameAdapter]) -> None:
        self.bot = bot
        self.languages = Languages(bot)
        self.games = dict(games)
        self.by_channel: dict[int, Table] = {}
        self.by_id: dict[str, Table] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._scheduling = False
        self._sleeper: asyncio.Task[None] | None = None
        self._sleeping_until: float | None = None
        self._due: list[tuple[float, str]] = []  # heap of (when, table id), see _track
        self._images: dict[int, bool] = {}
        self._start_publishing()

    # ------------------------------------------------------------------ lifecycle

    async def restore(self) -> None:
        """Bring back every saved table at start-up (DESIGN.md §4 "Restart").

        Each table is registered again, its board is re-rendered (so its buttons match the
        state) and pending AI decisions are resumed. Old components keep working: their
        custom_ids name the table and the decision. A snapshot that cannot be read is
        logged and skipped.
        """
        shards = self.bot.settings.hosted_shards  # a shard process restores its own only
        logs = await self.bot.store.load_table_logs(shards)
        for table_id, _guild, _channel, data in await self.bot.store.load_tables(shards):
            try:
                table = Table.from_snapshot(data, self.games, logs.get(table_id, ()))
            except (ValueError, KeyError, TypeError) as error:
                log.error("table %s could not be restored: %s", table_id, error)
                continue
            self.by_channel[table.channel_id] = table
            self.by_id[table.id] = table
            await self.languages.load(
                [f"channel:{table.channel_id}", f"guild:{table.guild_id}"]
                + [f"user:{seat.member_id}" for seat in table.seats if seat.member_id],
                budget=RESTORE_LOOKUP_BUDGET)
            if table.state is TableState.PLAYING:
                self._spawn(self._resume(table))
            self.schedule_board_edit(table)
            self._track(table)
        self._scheduling = True
        self._reschedule()

    async def _resume(self, table: Table) -> None:
        try:
            async with self._changing(table):
                await self._progress(table)
        except Refusal as refusal:
            log.warning("table %s: could not resume: %s", table.id, refusal)

    async def close(self) -> None:
        """Stop the deadline scheduler, the edit queue and every table's background work."""
        self._scheduling = False
        await self.edits.close()
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

    def _track(self, table: Table) -> None:
        """Note ``table``'s earliest deadline or idle time in the scheduler's heap (when it
        changed): entries it replaces stay behind and are dropped when they come up."""
        times = [when for _decision, when in table.deadlines.values()]
        if table.idle_deadline is not None:
            times.append(table.idle_deadline)
        due = min(times, default=None)
        if due is not None and due != table.due_tracked:
            heapq.heappush(self._due, (due, table.id))
        table.due_tracked = due

    def _next_due(self) -> float | None:
        """The earliest deadline or idle time of any table (POSIX seconds), from the heap:
        O(log N) for N tables."""
        while self._due:
            when, table_id = self._due[0]
            table = self.by_id.get(table_id)
            if table is not None and table.due_tracked == when:
                return when
            heapq.heappop(self._due)  # a table gone, or due at another time now
        return None

    def _reschedule(self, table: Table | None = None) -> None:
        """Track ``table``'s times, then sleep until the earliest deadline (one scheduler
        per bot), replacing the sleep in progress when that deadline moved; the sleep is a
        no-op until :meth:`restore` started scheduling."""
        if table is not None:
            self._track(table)
        if not self._scheduling:
            return
        due = self._next_due()
        if self._sleeper is not None and not self._sleeper.done():
            if due == self._sleeping_until:
                return
            self._sleeper.cancel()
        self._sleeper = None
        self._sleeping_until = due
        if due is not None:
            wait = max(due - self._now(), SCHEDULER_MIN_WAIT)
            self._sleeper = self._spawn(self._sleep_then_fire(wait))

    async def _sleep_then_fire(self, wait: float) -> None:
        await self.bot.sleep(wait)
        self._sleeper = None
        self._sleeping_until = None
        self._spawn(self._fire_and_reschedule())

    async def _fire_and_reschedule(self) -> None:
        try:
            await self.fire_due()
        except Exception:  # the scheduler must survive any one table's failure
            log.exception("the table scheduler failed")
        self._reschedule()

    async def fire_due(self) -> None:
        """Apply every expired decision's timeout action (and every due rule timer), close
        idle lobbies and end tables idle between deals (:data:`NEXT_DEAL_IDLE`).

        Called by the scheduler (started by :meth:`restore`) when the earliest deadline is
        due; reads the time from ``bot.clock``.
        """
        now = self._now()
        due: list[Table] = []
        while self._due and self._due[0][0] <= now:
            when, table_id = heapq.heappop(self._due)
            table = self.by_id.get(table_id)
            if table is not None and table.due_tracked == when:
                table.due_tracked = None  # tracked again after this look
                due.append(table)
        for table in due:
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
            finally:
                self._track(table)

    async def _time_out(self, table: Table, now: float) -> None:
        """The rule-defined default for each expired decision (DESIGN.md §4 "Timers"): a
        member's required decision counts a strike; a rule timer (``SYSTEM``) does not."""
        async with self._changing(table):
            game = table.game
            for seat, (decision, when) in sorted(table.deadlines.items()):
                pending = {(p.seat, p.decision) for p in game.pending()}
                if when > now or (seat, decision) not in pending:
                    continue
                if seat != SYSTEM:  # noted before the default move it causes
                    count = table.timeouts[seat] = table.timeouts.get(seat, 0) + 1
                    name = common.note_name(table.seats[seat].member_id, table.seats[seat].name)
                    member = table.seats[seat].member_id
                    silent = now - table.seen.get(member, 0.0) if member is not None else 0.0
                    if count >= TIMEOUTS_TO_AI and silent >= pace.AWAY_SILENCE:
                        table.seats[seat].ai = True
                        table.note("note.away", name=name)
                    else:
                        table.note("note.timed_out", name=name)
                game.apply(seat, game.timeout_action(seat), decision)
            await self._progress(table)
        self.schedule_board_edit(table)

    async def _close_idle(self, table: Table, now: float) -> None:
        async with self._changing(table):
            if (table.state is not TableState.LOBBY or table.idle_deadline is None
                    or now < table.idle_deadline):
                return
            table.state = TableState.OVER
            table.note("note.lobby_idle")
        self.schedule_board_edit(table)

    async def _end_idle(self, table: Table, now: float) -> None:
        """End a table nobody dealt again on for :data:`NEXT_DEAL_IDLE` seconds (the game's
        own ending follows: Tripoli's leftover round, rules/tripoli.md §2.9 item 59)."""
        async with self._changing(table):
            if (table.state is not TableState.PLAYING or table.idle_deadline is None
                    or now < table.idle_deadline):
                return
            table.idle_deadline = None
            if not table.game.between_deals:  # a deal started meanwhile
                return
            last = self._last_seen(table)
            if last is not None and now - last < pace.ACTIVE_WINDOW:
                table.idle_deadline = last + NEXT_DEAL_IDLE  # a member is still around
                return
            table.ending = True
            table.note("note.deal_idle")
            table.game.end_session(reason=EndReason.PLAYERS)
            await self._progress(table)
        self.schedule_board_edit(table)

    def _last_seen(self, table: Table) -> float | None:
        """POSIX seconds of the latest interaction of a member still seated, if any."""
        times = [table.seen[seat.member_id] for seat in table.seats
                 if seat.member_id is not None and not seat.left and seat.member_id in table.seen]
        return max(times, default=None)

    async def touch(self, table: Table, member_id: int, *, come_back: bool = True) -> bool:
        """Record an interaction of ``member_id`` with ``table`` (any click, modal or table
        command); a seated member the AI plays for (away) is back at once unless
        ``come_back`` is False (the I'm back button does it itself). Returns whether the
        member came back (the board then has changed, whatever the interaction does)."""
        table.seen[member_id] = self._now()
        seat = table.seat_of(member_id)
        if (come_back and seat is not None and table.state is TableState.PLAYING
                and table.seats[seat].ai and not table.seats[seat].leaving):
            await self.back(table, member_id)
            return True
        return False

    # ------------------------------------------------------------------ lookup

    def adapter(self, table: Table) -> GameAdapter:
        """The game adapter of ``table``."""
        return self.games[table.game_name]

    def spec(self, table: Table) -> GameSpec:
        """The game's declaration for ``table``'s options (its seat range, seating …),
        built once per table and options (the adapter builds the game's rules for it)."""
        cached = table.spec_cache
        if cached is None or cached[0] != table.options:
            cached = table.spec_cache = (dict(table.options),
                                         self.adapter(table).spec_for(table.options))
        return cached[1]

    def rules(self, table: Table) -> Any:
        """The engine rules the game's adapter builds from ``table``'s options, once per
        table and options (None before the game starts, or when they cannot be played); the
        snapshot leaves a game's rules out when they are these."""
        if table.game is None:
            return None
        cached = table.rules_cache
        if cached is None or cached[0] != table.options:
            try:
                rules = self.adapter(table).rules(table.options)
            except ValueError:
                rules = None
            cached = table.rules_cache = (dict(table.options), rules)
        return cached[1]

    def stakes(self, table: Table) -> StakesPolicy:
        """The stakes policy of ``table``'s game (:mod:`bot.runtime.stakes`)."""
        return POLICIES[self.spec(table).stakes]

    def get(self, table_id: str) -> Table:
        """The live table ``table_id``.

        Raises
        ------
        Refusal
            ``no_table`` when it is over or never existed.
        """
        table = self.by_id.get(table_id)
        if table is None:
            raise Refusal("no_table", Msg("refusal.closed"))
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
        team: int | None = None,
    ) -> Table:
        """Open a lobby in ``channel_id`` with the host in seat 0 (in ``team`` of a
        partners game, default the first).

        Raises
        ------
        Refusal
            ``busy`` when the channel already has a live table (any game).
        ValueError
            When the guild is on a shard this process does not host (another shard
            process's server: Discord never sends its commands here).
        """
        shards = self.bot.settings.hosted_shards
        if shards is not None and not shards.hosts(guild_id):
            raise ValueError(f"guild {guild_id} is not on this process's shards {shards.ids}")
        self._require_free(channel_id)
        spec = self.games[game_name].spec_for(options)
        table = Table(
            id=new_table_id(set(self.by_id)),
            game_name=game_name,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            buy_in=buy_in,
            options=dict(options),
            seats=[Seat(host_id, host_name, team=_team(spec, team, []))],
            idle_deadline=self._now() + LOBBY_IDLE,
            seen={host_id: self._now()},
            spec_cache=(dict(options), spec),
        )
        self.by_channel[channel_id] = table
        self.by_id[table.id] = table
        self._reschedule(table)
        return table

    def _require_free(self, channel_id: int) -> None:
        existing = self.by_channel.get(channel_id)
        if existing is not None:
            raise Refusal("busy", Msg("refusal.busy", game=Msg(f"game.{existing.game_name}"),
                                      table=existing.id))

    async def rematch(
        self, table_id: str, *, guild_id: int, channel_id: int, member_id: int, name: str
    ) -> Table:
        """Open a lobby for a rematch of the finished table ``table_id``: the same game,
        options and buy-in (or stake), its seats in the same order (AI seats stay AI, teams
        kept), asked by one of its members, who hosts it. Nothing is escrowed before Start.

        Raises
        ------
        Refusal
            ``no_rematch`` (not the channel's last finished table), ``not_player``, ``busy``
            (the channel has a live table), ``chips`` (a member cannot cover the buy-in or
            stake now): nothing is opened then.
        """
        self._require_free(channel_id)
        text = await self.bot.store.get_setting(f"channel:{channel_id}", REMATCH_SETTING)
        saved = json.loads(text) if text is not None else {}
        if saved.get("table") != table_id or saved.get("game") not in self.games:
            raise Refusal("no_rematch", Msg("refusal.no_rematch"))
        seats = [Seat(member, seat_name, ai=member is None, team=team)
                 for member, seat_name, team in saved["seats"]]
        if member_id not in {seat.member_id for seat in seats}:
            raise Refusal("not_player", Msg("refusal.rematch_not_player"))
        spec = self.games[saved["game"]].spec_for(saved["options"])
        buy_in = int(saved["buy_in"])
        if spec.stakes != "none" and all(seat.member_id is not None for seat in seats):
            key = ("refusal.rematch_short_of_stake" if spec.stakes == "stake"
                   else "refusal.rematch_short_of_chips")
            for seat in seats:
                assert seat.member_id is not None
                balance = await self.bot.store.balance(guild_id, seat.member_id)
                if balance < buy_in:
                    raise Refusal("chips", Msg(key, name=common.short_name(seat.name),
                                               count=buy_in, balance=balance))
        table = self.open(saved["game"], guild_id=guild_id, channel_id=channel_id,
                          host_id=member_id, host_name=name, options=saved["options"],
                          buy_in=buy_in)
        table.seats = seats
        table.seat_members()
        table.note("note.rematch", table=table_id)
        return table

    def _require_host(self, table: Table, member_id: int, is_manager: bool, what: str) -> None:
        """Refuse ``not_host`` (message ``refusal.not_host.<what>``) to anyone but the host
        or a member with Manage Channels."""
        if member_id != table.host_id and not is_manager:
            raise Refusal("not_host", Msg(f"refusal.not_host.{what}"))

    async def join(
        self, table: Table, member_id: int, name: str, team: int | None = None
    ) -> None:
        """Sit ``member_id`` down: in the lobby (in ``team`` of a partners game, default the
        smaller team), or between deals of a started table: as a new seat when the game
        allows joins (a ranked chip table escrows the buy-in in the same commit), else in
        an AI seat when the game has substitutes (a staked table escrows the joiner's stake
        in the same commit). A member seated in a partners lobby who asks for another
        ``team`` moves to it (no chips move: stakes are taken at Start).

        Raises
        ------
        Refusal
            ``seated``, ``kicked`` (the host stood the member up at this table:
            :attr:`Table.kicked`), ``full``, ``team_full``, ``mid_deal`` (join between deals),
            ``pace`` (an untimed table is for its one member), ``ending``, ``no_seat``
            (nothing to take), ``chips``.
        """
        spec = self.spec(table)
        async with self._changing(table):
            seat = table.seat_of(member_id)
            if seat is not None:
                self._change_team(table, spec, seat, team)
                return
            if member_id in table.kicked:
                raise Refusal("kicked", Msg("refusal.kicked"))
            table.seen[member_id] = self._now()
            if table.state is TableState.LOBBY:
                if len(table.seats) >= spec.seats.stop - 1:
                    raise Refusal("full", Msg("refusal.full", count=spec.seats.stop - 1))
                if pace.pace_of(table.options) == "untimed":  # one member with AI seats
                    raise Refusal("pace", Msg("refusal.untimed"))
                chosen = _team(spec, team, table.seats)
                table.seats.append(Seat(member_id, name, team=chosen))
                table.seat_members()
                if chosen is None:
                    table.note("note.sat_down", name=common.short_name(name))
                else:
                    table.note("note.sat_down_team", name=common.short_name(name),
                               team=Msg(f"game.{table.game_name}.team.{chosen}"))
                return
            self._require_playing(table)
            if table.ending:
                raise Refusal("ending", Msg("refusal.ending_no_seats"))
            if not table.game.between_deals:
                raise Refusal("mid_deal", Msg("refusal.mid_deal"))
            if pace.pace_of(table.options) == "untimed":
                raise Refusal("pace", Msg("refusal.untimed"))
            if spec.joins_between_deals:
                self._add_seat(table, spec, member_id, name)
            elif spec.substitutes:
                self._take_seat(table, member_id, name)
            else:
                raise Refusal("no_seat", Msg("refusal.seats_fixed"))
            await self._progress(table)

    def _change_team(self, table: Table, spec: GameSpec, seat: int, team: int | None) -> None:
        """Move the lobby seat ``seat`` to ``team`` if it has room (pre-set partnerships,
        rules/troefcall.md §2.1 items 1-2: the partners are chosen in the lobby).

        Raises
        ------
        Refusal
            ``seated`` (not a partners lobby, no team asked, or the seat's own team);
            ``team_full``.
        """
        entry = table.seats[seat]
        if (table.state is not TableState.LOBBY or team is None or entry.team is None
                or team == entry.team):
            raise Refusal("seated", Msg("refusal.seated"))
        entry.team = _team(spec, team, table.seats)
        table.note("note.changed_team", name=common.short_name(entry.name),
                   team=Msg(f"game.{table.game_name}.team.{entry.team}"))

    def _add_seat(self, table: Table, spec: GameSpec, member_id: int, name: str) -> None:
        game = table.game
        if len(table.active_seats()) >= spec.seats.stop - 1:
            raise Refusal("full", Msg("refusal.full", count=spec.seats.stop - 1))
        assert isinstance(game, SeatedForChips), "a game with joins has seats for chips"
        try:
            seat = game.add_seat(table.buy_in)
        except IllegalAction as error:
            raise Refusal.of(error) from error
        assert seat == len(table.seats), "engine seats and table seats must stay aligned"
        table.seats.append(Seat(member_id, name))
        table.moves += self.stakes(table).on_join(table, member_id)
        table.note("note.joined_chips", name=common.short_name(name), count=table.buy_in)

    def _take_seat(self, table: Table, member_id: int, name: str) -> None:
        vacant = next((s for s, entry in enumerate(table.seats) if entry.member_id is None), None)
        if vacant is None:
            raise Refusal("no_seat", Msg("refusal.no_free_seat"))
        entry = table.seats[vacant]
        table.note("note.takes_seat", name=common.short_name(name),
                   seat=common.note_name(entry.member_id, entry.name))
        table.seats[vacant] = Seat(member_id, name, team=entry.team)
        table.timeouts.pop(vacant, None)
        table.moves += self.stakes(table).on_join(table, member_id)

    async def leave(self, table: Table, member_id: int) -> None:
        """Stand ``member_id`` up: at once in the lobby; in a started game the seat's stack
        leaves between deals (settled in the same commit), or the AI plays the seat —
        to the end of the deal, or for good in a game with substitutes.

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
                raise Refusal("not_seated", Msg("refusal.not_seated"))
            if table.seats[seat].leaving:
                raise Refusal("leaving", Msg("refusal.leaving"))
            if (table.state is TableState.LOBBY and member_id == table.host_id
                    and sum(s.member_id is not None for s in table.seats) == 1):
                raise Refusal("host", Msg("refusal.host_leaves"))
            await self._stand_up(table, seat)

    async def kick(
        self, table: Table, member_id: int, is_manager: bool, target_id: int
    ) -> bool:
        """The host (or a Manage Channels member) stands another member up, as :meth:`leave`;
        in the lobby or once the game has started, the member may not take a seat at the
        table again (:attr:`Table.kicked`).

        Returns
        -------
        bool
            True when the member leaves only after this deal (the AI plays their cards until
            then), False when they are no longer seated at once.

        Raises
        ------
        Refusal
            ``not_host``; ``self`` (a member kicking themself: Leave is their way out, which
            "I'm back" can take back); ``not_seated`` (the target); ``leaving`` (the target
            already leaves after this deal: nothing changes); ``host`` (the host of a lobby).
        """
        async with self._changing(table):
            self._require_host(table, member_id, is_manager, "kick")
            if target_id == member_id:
                raise Refusal("self", Msg("refusal.kick_self"))
            seat = table.seat_of(target_id)
            if seat is None:
                raise Refusal("not_seated", Msg("refusal.member_not_seated"))
            if table.seats[seat].leaving:
                name = common.short_name(table.seats[seat].name)
                raise Refusal("leaving", Msg("refusal.member_leaving", name=name))
            if table.state is TableState.LOBBY and target_id == table.host_id:
                raise Refusal("host", Msg("refusal.host_kicked"))
            table.kicked.add(target_id)
            later = await self._stand_up(table, seat, kicked=True)
            if later:
                table.seats[seat].kicked = True  # their I'm back does not take it back
            return later

    async def _stand_up(self, table: Table, seat: int, kicked: bool = False) -> bool:
        """Stand the member of ``seat`` up (``kicked``: by the host or a moderator, which the
        stakes policy may settle otherwise than a leave); True when they leave only after
        this deal."""
        entry = table.seats[seat]
        name = common.short_name(entry.name)
        if table.state is TableState.LOBBY:
            del table.seats[seat]
            table.seat_members()
            table.note("note.removed" if kicked else "note.stood_up", name=name)
            self._pass_host(table, seat)
            return False
        self._require_playing(table)
        spec = self.spec(table)
        if spec.substitutes:
            number = 1 + sum(other.member_id is None for other in table.seats)
            if entry.member_id is not None:  # a leave forfeits the stake, a kick returns it
                moves = self.stakes(table).on_leave(table, entry.member_id, 0, kicked)
                table.moves += moves
                back = sum(move.amount for move in moves if move.kind == "settle")
                if back:
                    table.note("note.stake_back", name=name, count=back)
            table.seats[seat] = Seat(None, f"AI {number}", ai=True, team=entry.team)
            table.substituted = True
            table.note("note.left_ai", name=name, number=number)
        elif table.game.between_deals:
            self._remove_seat(table, seat, kicked)
        else:
            entry.leaving = entry.ai = True
            table.note("note.leaves_after_deal", name=name)
        self._pass_host(table, seat + 1)
        await self._progress(table)
        return entry.leaving

    def _pass_host(self, table: Table, start: int) -> None:
        """Hand the host's powers to the next member clockwise from seat ``start`` who stays
        seated, when the host is no longer seated or leaves after this deal (announced on
        the board). With nobody to take over the host stays: the game then ends at the
        deal's end (:meth:`_cannot_go_on`) or the lobby is closed with Cancel."""
        host = table.seat_of(table.host_id)
        if host is not None and not table.seats[host].leaving:
            return
        count = len(table.seats)
        for step in range(count):
            entry = table.seats[(start + step) % count]
            if entry.member_id is not None and not entry.left and not entry.leaving:
                table.host_id = entry.member_id
                table.note("note.new_host", name=common.short_name(entry.name))
                return

    async def back(self, table: Table, member_id: int) -> None:
        """A member whose seat the AI plays (after timeouts) takes it back; a member who
        pressed Leave mid-deal stays after all (the host's powers, if they passed, stay
        passed).

        Raises
        ------
        Refusal
            ``not_seated``; ``leaving`` (the host stood the member up: they leave after this
            deal); ``not_away`` (the member plays their seat already).
        """
        async with self._changing(table):
            self._require_playing(table)
            seat = table.seat_of(member_id)
            if seat is None:
                raise Refusal("not_seated", Msg("refusal.not_seated"))
            entry = table.seats[seat]
            if entry.kicked:
                raise Refusal("leaving", Msg("refusal.leaving_ai"))
            if not entry.ai:
                raise Refusal("not_away", Msg("refusal.not_away"))
            stays, entry.ai, entry.leaving = entry.leaving, False, False
            table.timeouts.pop(seat, None)
            table.note("note.stays" if stays else "note.back",
                       name=common.short_name(entry.name))
            await self._progress(table)

    async def add_ai(
        self, table: Table, member_id: int, is_manager: bool, team: int | None = None
    ) -> None:
        """Add an AI seat to the lobby (the table becomes casual); in a partners game to
        ``team``, default the smaller team.

        Raises
        ------
        Refusal
            ``not_host``, ``started``, ``full``, ``team_full``.
        """
        spec = self.spec(table)
        async with self._changing(table):
            self._require_host(table, member_id, is_manager, "add_ai")
            if table.state is not TableState.LOBBY:
                raise Refusal("started", Msg("refusal.ai_in_lobby"))
            if len(table.seats) >= spec.seats.stop - 1:
                raise Refusal("full", Msg("refusal.full", count=spec.seats.stop - 1))
            number = 1 + sum(seat.member_id is None for seat in table.seats)
            chosen = _team(spec, team, table.seats)
            table.seats.append(Seat(None, f"AI {number}", ai=True, team=chosen))
            table.seat_members()
            table.note("note.ai_sat_down", number=number)

    async def start(self, table: Table, member_id: int, is_manager: bool) -> None:
        """Start the game: seat the players in the game's order, build the game, deal; the
        stakes of a ranked table are escrowed in the same commit.

        Raises
        ------
        Refusal
            ``not_host``, ``started``, ``few`` (not enough seats), ``teams`` (a partners
            lobby whose teams are not full), ``chips`` (a member cannot pay the buy-in:
            nothing is escrowed), or the game's refusal of the options.
        """
        spec = self.spec(table)
        adapter = self.adapter(table)
        async with self._changing(table):
            self._require_host(table, member_id, is_manager, "start")
            if table.state is not TableState.LOBBY:
                raise Refusal("started", Msg("refusal.started"))
            low, high = spec.seats.start, spec.seats.stop - 1
            if len(table.seats) < low:
                players = low if low == high else Msg("lobby.range", low=low, high=high)
                raise Refusal("few", Msg("refusal.few", game=Msg(f"game.{spec.name}"),
                                         players=players, count=len(table.seats)))
            if pace.untimed_refusal(table.options, [s.member_id for s in table.seats]):
                raise Refusal("pace", Msg("refusal.untimed"))
            seed = secrets.token_bytes(32)
            table.seats = self._seating(table, spec, adapter, seed)
            table.seat_members()
            try:
                game = adapter.new_game(table.options, len(table.seats), seed, table.buy_in)
            except IllegalAction as error:
                raise Refusal.of(error) from error
            table.moves += self.stakes(table).on_start(table)
            table.game, table.seed, table.state = game, seed, TableState.PLAYING
            table.started_at = self._now()
            table.notes.clear()
            await self._progress(table)

    def _seating(
        self, table: Table, spec: GameSpec, adapter: GameAdapter, seed: bytes
    ) -> list[Seat]:
        """The lobby's seats in engine order: the game's own draw when its options ask for one
        (e.g. partners drawn by cards: teams follow the seats), else join order (free
        seating), or for partners chosen in the lobby team ``k`` at seats ``k, k + teams, …``."""
        drawn = adapter.arrange([seat.info() for seat in table.seats], table.options, seed)
        if drawn is not None:
            seats = [table.seats[index] for index in drawn]
            for position, seat in enumerate(seats):
                seat.team = adapter.spec.team_of(position)
            return seats
        if spec.seating == "free":
            return list(table.seats)
        count = len(spec.teams)
        per_team = len(table.seats) // count
        ordered: list[Seat | None] = [None] * len(table.seats)
        for team in range(count):
            members = [seat for seat in table.seats if seat.team == team]
            if len(members) != per_team:
                raise Refusal("teams", Msg("refusal.teams", **{
                    f"team{k}": sum(s.team == k for s in table.seats) for k in range(count)}))
            for index, seat in enumerate(members):
                ordered[team + index * count] = seat
        return [seat for seat in ordered if seat is not None]

    async def cancel(self, table: Table, member_id: int, is_manager: bool) -> None:
        """Close a lobby (nothing is at stake before Start).

        Raises
        ------
        Refusal
            ``not_host``; ``started`` (use the end command).
        """
        async with self._changing(table):
            self._require_host(table, member_id, is_manager, "cancel")
            if table.state is not TableState.LOBBY:
                raise Refusal("started", Msg("refusal.cancel_started"))
            table.state = TableState.OVER
            table.note("note.cancelled")

    # ------------------------------------------------------------------ play

    def _require_playing(self, table: Table) -> None:
        if table.state is TableState.LOBBY:
            raise Refusal("lobby", Msg("refusal.lobby"))
        if table.state is TableState.OVER:
            raise Refusal("no_table", Msg("refusal.closed"))

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
            raise Refusal("not_seated", Msg("refusal.not_seated"))
        if ref.seat is not None and ref.seat != seat:
            info = table.info(self.spec(table))
            owner = common.seat_label(info, ref.seat) if ref.seat < len(table.seats) else "?"
            raise Refusal("not_your_turn", Msg("refusal.not_your_turn", name=owner))
        game = table.game
        if seat not in game.to_act or ref.decision != game.decision_id(seat):
            raise Refusal("stale", STALE)
        return seat

    async def act(
        self,
        table: Table,
        member_id: int,
        ref: Ref,
        values: Sequence[str] = (),
        amount: int | None = None,
    ) -> int:
        """Apply ``member_id``'s answer to the decision ``ref`` (validate → apply → commit,
        under the table's lock).

        Returns
        -------
        int
            The seat that acted.

        Raises
        ------
        Refusal
            As :meth:`decision_seat`, or the engine's refusal (``illegal``, ``over_limit``,
            ``not_enough_chips`` …), or ``store`` (not saved). Nothing changes then.
        """
        adapter = self.adapter(table)
        async with self._changing(table):
            seat = self.decision_seat(table, member_id, ref)
            saved = table.drafts.get(seat)
            draft = saved[1] if saved is not None and saved[0] == ref.decision else None
            if ref.verb in adapter.draft_verbs:
                new = adapter.draft(table.game, seat, draft, ref.verb, ref.arg, values)
                table.drafts[seat] = (ref.decision, new)
                return seat
            action = adapter.action(table.game, seat, ref.verb, ref.arg, values, amount, draft)
            try:
                table.game.apply(seat, action, ref.decision)
            except IllegalAction as error:
                refusal = Refusal.of(error)
                if error.code in _HINTED:
                    refusal = Refusal(error.code, Msg(f"refusal.hint.{error.code}",
                                                      detail=refusal.msg))
                raise refusal from error
            table.timeouts.pop(seat, None)
            await self._progress(table)
        return seat

    async def next_deal(self, table: Table, member_id: int, ref: Ref) -> None:
        """Start the next deal; ``ref.decision`` must be the number of the deal just over.

        Raises
        ------
        Refusal
            ``not_seated``; ``stale`` (that deal already moved on).
        """
        async with self._changing(table):
            self._require_playing(table)
            if table.seat_of(member_id) is None:
                raise Refusal("not_seated", Msg("refusal.not_seated"))
            game = table.game
            if not game.between_deals or ref.decision != game.deal_number:
                raise Refusal("stale", STALE)
            try:
                game.start_deal()
            except IllegalAction as error:
                raise Refusal.of(error) from error
            table.notes.clear()
            await self._progress(table)

    async def end(self, table: Table, member_id: int, is_manager: bool, abandon: bool) -> None:
        """End the game: after the current deal, or abandoning it (``abandon``); then the
        game's own ending, for :attr:`~engine.core.EndReason.HOST` (the game says whether
        that leaves a winner or returns the stakes), or for
        :attr:`~engine.core.EndReason.LENGTH` when the deal under way is the last of the
        table's agreed ``deals`` or its agreed ``minutes`` are up (the host's "after this
        deal" changes nothing then); then the stakes are settled and the result recorded. A
        lobby is simply closed.

        Raises
        ------
        Refusal
            ``not_host``; ``ending`` (already ending after this deal and not abandoning).
        """
        if table.state is TableState.LOBBY:
            await self.cancel(table, member_id, is_manager)
            return
        async with self._changing(table):
            self._require_host(table, member_id, is_manager, "end")
            self._require_playing(table)
            if table.ending and not abandon:
                raise Refusal("ending", Msg("refusal.already_ending"))
            # the deal under way is the last one agreed (or the minutes are up): the game
            # ends by its length, as it would had the host not asked
            length = not abandon and self._length_reached(table) is not None
            logged = table.game.logged  # the note reads before the events of the ending
            try:
                events = table.game.end_session(
                    abandon, reason=EndReason.LENGTH if length else EndReason.HOST)
            except IllegalAction as error:
                raise Refusal.of(error) from error
            table.ending = True
            if abandon and not events:  # nothing to abandon (what is at stake is played for)
                table.note("note.played_for_first", after=logged)
            else:
                table.note("note.abandoned" if abandon else "note.ends_after_deal",
                           after=logged)
            await self._progress(table)

    # ------------------------------------------------------------------ progress (under lock)

    def _ai_seat(self, table: Table) -> int | None:
        """The first AI-played seat with a decision the AI has not declined."""
        for pending in sorted(table.game.pending(), key=lambda p: p.seat):
            seat = pending.seat
            if (seat != SYSTEM and table.seats[seat].ai
                    and (seat, pending.decision) not in table.declined):
                return seat
        return None

    def _apply_ai(self, table: Table, seat: int) -> None:
        game = table.game
        decision = game.decision_id(seat)
        action = self.adapter(table).ai_action(game, seat, table.rng)
        if action is None:
            table.declined.add((seat, decision))
            return
        game.apply(seat, action, decision)

    async def _progress(self, table: Table, *, in_driver: bool = False) -> None:
        """After a change: AI seats act (inline when ``ai_delay`` is 0, else from the table's
        AI driver task), seats leave between deals, a table without members ends, a
        finished game is settled and recorded, and the pending decisions get their
        deadlines. Runs under the table's lock."""
        await self._advance(table, in_driver)
        self._arm(table)
        table.dms_dirty = True
        self._schedule_publish(table)

    def _arm(self, table: Table) -> None:
        """Give every member's new *required* decision a deadline (the game's time for that
        decision at the table's pace, :func:`bot.runtime.pace.decision_seconds`; none when
        untimed) and every rule timer its delay; drop the others, and the AI's declines of
        decisions that are over. Between deals the table's idle time runs
        (:data:`NEXT_DEAL_IDLE` from the deal's end)."""
        game = table.game
        wanted: dict[int, tuple[int, float | None]] = {}
        live: set[tuple[int, int]] = set()
        if table.state is TableState.PLAYING:
            for pending in game.pending():
                live.add((pending.seat, pending.decision))
                if pending.seat == SYSTEM:
                    wanted[SYSTEM] = (pending.decision, pending.after or 0.0)
                elif pending.required and not table.seats[pending.seat].ai:
                    wanted[pending.seat] = (pending.decision, None)
        for seat, (decision, _when) in list(table.deadlines.items()):
            if seat not in wanted or wanted[seat][0] != decision:
                del table.deadlines[seat]
        table.declined &= live  # what the AI let lapse is forgotten once that decision is over
        for seat, (decision, _draft) in list(table.drafts.items()):
            if table.state is not TableState.PLAYING or game.decision_id(seat) != decision:
                del table.drafts[seat]
        if table.state is TableState.PLAYING:
            if not game.between_deals:
                table.idle_deadline = None
            elif table.idle_deadline is None:
                table.idle_deadline = self._now() + NEXT_DEAL_IDLE
        for seat, (decision, after) in wanted.items():
            if seat in table.deadlines:
                continue
            if after is None:
                after = pace.decision_seconds(
                    table.options, self.adapter(table).decision_seconds(game, seat))
                if after is None:  # untimed
                    continue
            table.deadlines[seat] = (decision, self._now() + after)
        self._track(table)

    async def _advance(self, table: Table, in_driver: bool) -> None:
        delay = self.bot.settings.ai_delay
        for _ in range(AI_STEPS_MAX):
            game = table.game
            if game.is_over or game.between_deals:
                self._mark_contested(table)
            if game.is_over:
                self._finish(table)
                return
            if game.between_deals:  # the agreed length first: a session that reached it
                agreed = None if table.ending else self._length_reached(table)  # is whole
                if agreed is not None:
                    table.ending = True
                    table.note(agreed.key, **agreed.params)
                    game.end_session(reason=EndReason.LENGTH)
                    continue
                if not table.ending and self._cannot_go_on(table):
                    table.ending = True
                    table.note("note.too_few")
                    game.end_session(reason=EndReason.PLAYERS)
                    continue
                for seat, entry in enumerate(table.seats):
                    if entry.leaving and not entry.left:
                        self._remove_seat(table, seat)
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

    def _length_reached(self, table: Table) -> Msg | None:
        """The note ending the session at a deal's end when its agreed length is reached
        (the ``deals`` or ``minutes`` option, :mod:`bot.runtime.pace`), else None. A game
        that counts its ``deals`` itself (:attr:`GameSpec.counts_deals`) ends by itself."""
        deals, minutes = table.options.get("deals"), table.options.get("minutes")
        if deals and not self.spec(table).counts_deals and table.game.deal_number >= deals:
            return Msg("note.agreed_deals", count=deals)
        if (minutes and table.started_at is not None
                and self._now() - table.started_at >= minutes * 60):
            return Msg("note.agreed_minutes", count=minutes)
        return None

    def _present(self, table: Table, seat: int) -> bool:
        """Whether the member of ``seat`` (if any) is at the table: seated, staying after
        this deal, and playing their own seat or interacting within
        :data:`~bot.runtime.pace.ACTIVE_WINDOW` while the AI plays it."""
        entry = table.seats[seat]
        return (entry.member_id is not None and not entry.left and not entry.leaving
                and (not entry.ai
                     or self._now() - table.seen.get(entry.member_id, 0.0) < pace.ACTIVE_WINDOW))

    def _mark_contested(self, table: Table) -> None:
        """At the end of a deal (or of the game): the game was played among members once
        two of them or more are present (:attr:`Table.contested`), before the seats that
        leave after this deal are removed."""
        if not table.contested and table.game.deal_number >= 1:
            table.contested = sum(self._present(table, s) for s in range(len(table.seats))) >= 2

    def _cannot_go_on(self, table: Table) -> bool:
        """True at the end of a deal when the game must end: fewer seats than the game's
        minimum stay, or no member who stays is present (every one leaving or away, the AI
        playing their seats, and none interacted within
        :data:`~bot.runtime.pace.ACTIVE_WINDOW`). Leaving seats are then kept for the game's
        own ending, so
        everything at stake is played for and settled (rules/tripoli.md §2.9 item 59)."""
        staying = [s for s in table.active_seats() if not table.seats[s].leaving]
        present = any(self._present(table, s) for s in staying)
        return not present or len(staying) < self.spec(table).seats.start

    async def _drive_ai(self, table: Table, delay: float) -> None:
        """AI moves one at a time, ``delay`` seconds apart, each committed and followed by a
        board edit; a move that cannot be saved is undone and tried again later."""
        while True:
            await self.bot.sleep(delay)
            try:
                async with self._changing(table):
                    if table.state is not TableState.PLAYING:
                        return
                    seat = self._ai_seat(table)
                    if seat is None:
                        return
                    self._apply_ai(table, seat)
                    await self._progress(table, in_driver=True)
            except Refusal as refusal:
                log.warning("table %s: an AI move was not saved: %s", table.id, refusal)
            self.schedule_board_edit(table)

    def _remove_seat(self, table: Table, seat: int, kicked: bool = False) -> None:
        """A seat leaves between deals with its stack (chip games; settled in the commit);
        ``kicked`` (or the seat's own mark) when the host stood its member up."""
        entry = table.seats[seat]
        game = table.game
        assert isinstance(game, SeatedForChips), "only chip games remove seats"
        stack = game.remove_seat(seat)
        if entry.member_id is not None:
            table.moves += self.stakes(table).on_leave(table, entry.member_id, stack,
                                                        kicked or entry.kicked)
        entry.left, entry.leaving = True, False
        table.note("note.left_with", name=common.short_name(entry.name), count=stack)

    def _finish(self, table: Table) -> None:
        """The game is over: its stakes go back and its result is recorded, in the commit
        that closes the table."""
        game = table.game
        stacks = list(game.stacks) if isinstance(game, SeatedForChips) else []
        table.moves += self.stakes(table).on_finish(table, stacks)
        if game.outcome is not None:
            table.result = self._result(table, game.outcome)
        table.state = TableState.OVER

    def _result(self, table: Table, outcome: Outcome) -> GameResult:
        places = {seat: place for place, group in enumerate(outcome.places, 1) for seat in group}
        teams = {seat: index for index, team in enumerate(outcome.teams) for seat in team}
        seats = tuple(
            SeatResult(
                seat=seat,
                user_id=entry.member_id,
                name=entry.name,
                team=teams.get(seat),
                place=places.get(seat, len(outcome.places) + 1),
                score=outcome.scores.get(seat, 0),
                chips=None if outcome.chips is None else outcome.chips.get(seat, 0),
            )
            for seat, entry in enumerate(table.seats)
        )
        ranked = table.ranked and not table.substituted and table.contested
        return GameResult(
            game=table.game_name,
            ranked=ranked,
            complete=outcome.complete,
            options=json.dumps(table.options, sort_keys=True),
            outcome=outcome.model_dump_json(),
            seats=seats,
        )

    @asynccontextmanager
    async def _changing(self, table: Table) -> AsyncIterator[None]:
        """Hold the table's lock for a change and commit it whole (chips, snapshot, result).

        A change that raises, or whose commit fails, is undone in memory: a commit refused
        for chips becomes ``Refusal("chips")`` naming the member, any other store failure
        ``Refusal("store")`` (the member is told to try again). A table that is over is
        forgotten once its last commit succeeded.

        The undo point is the table as its last commit left it (:attr:`Table.saved`) and the
        members' interactions seen until the change began (:meth:`touch` saves none), so a
        change serializes the table once, for its own commit.

        The change counts a new version of the table (:mod:`bot.runtime.renders`) when it
        begins (what is rendered meanwhile shows it unsaved) and another once committed; an
        undone change puts back the version it began at.
        """
        async with table.lock:
            before = table.saved or table.undo_point(self.rules(table))
            seen = dict(table.seen)
            begun, made = table.renders.version, table.renders.changed()
            table.moves.clear()
            table.result = result = None
            try:
                yield
                if table.state is TableState.LOBBY:
                    table.idle_deadline = self._now() + LOBBY_IDLE
                await self._commit(table)
                table.renders.changed()
                result = table.result
            except InsufficientChips as error:
                refusal = self._short_of_chips(table, error)  # named from the seats tried
                self._undo(table, before, seen, (begun, made))
                raise refusal from error
            except StoreError as error:
                log.warning("table %s: saving failed; the change is undone: %s", table.id, error)
                self._undo(table, before, seen, (begun, made))
                raise Refusal("store", Msg("refusal.store")) from error
            except BaseException:
                self._undo(table, before, seen, (begun, made))
                raise
            finally:
                table.moves.clear()
                table.result = None
                self._reschedule(table)
            if table.state is TableState.OVER:
                if result is not None:
                    await self._after_game(table, result)
                    table.renders.changed()  # the final board shows the ratings
                self._forget(table)

    def _undo(self, table: Table, before: Saved, seen: dict[int, float],
              versions: tuple[int, int]) -> None:
        """Put ``table`` back as ``before`` holds it, with the interactions ``seen`` when
        the change began and the version it began at (``versions``: that one and the one
        the change made, :meth:`bot.runtime.renders.Renders.undone`)."""
        table.restore(before, self.games)
        table.seen = seen
        table.renders.undone(*versions)

    async def _after_game(self, table: Table, result: GameResult) -> None:
        """After the commit that finished a game: how it counted for the ratings (for the
        final board) and what a Rematch needs (:data:`REMATCH_SETTING`). A store failure is
        logged: the board then says the ratings could not be read, Rematch is refused."""
        table.rating = RatingNote(unrated="unknown")
        try:
            table.rating = await self._rating_note(table, result)
            seats = [[seat.member_id, seat.name, seat.team] for seat in table.seats
                     if not seat.left]
            await self.bot.store.set_setting(f"channel:{table.channel_id}", REMATCH_SETTING,
                                             json.dumps({"table": table.id,
                                                         "game": table.game_name,
                                                         "options": table.options,
                                                         "buy_in": table.buy_in,
                                                         "seats": seats}))
        except StoreError:
            log.exception("table %s: the ratings or the rematch could not be read or saved",
                          table.id)

    async def _rating_note(self, table: Table, result: GameResult) -> RatingNote:
        """How ``result`` counted: each rated member's change as the store recorded it (the
        newest entry of their rating history), or why it was not rated."""
        if not result.ranked:
            if not table.ranked:
                return RatingNote(unrated="casual")
            return RatingNote(unrated="substituted" if table.substituted else "unplayed")
        if not result.complete:
            return RatingNote(unrated="incomplete")
        if not ratings.rated(result.ranked, result.complete, result.seats):
            return RatingNote(unrated="sides")
        changes = []
        for seat in result.seats:
            assert seat.user_id is not None
            history = await self.bot.store.rating_history(table.guild_id, result.game,
                                                          seat.user_id, 1)
            before, after = history[-1]
            changes.append((seat.seat, before, after))
        return RatingNote(tuple(changes))

    def _short_of_chips(self, table: Table, error: InsufficientChips) -> Refusal:
        name = next((seat.name for seat in table.seats if seat.member_id == error.user_id), "?")
        key = "refusal.short_of_stake" if self.spec(table).stakes == "stake" else (
            "refusal.short_of_chips")
        return Refusal("chips", Msg(key, name=common.short_name(name), count=error.amount,
                                    balance=error.balance))

    async def _commit(self, table: Table) -> None:
        """Commit the table's change: its chip moves, its snapshot and its log's new events
        (deleted once the table is over) and its result, in one store transaction
        (:meth:`Table.write`).

        Raises
        ------
        InsufficientChips, StoreError
            When the store refuses or fails; nothing was committed.
        """
        write, saved = table.write(self.rules(table))
        await self.bot.store.commit_table(write)
        table.committed(saved)

    def _forget(self, table: Table) -> None:
        if self.by_channel.get(table.channel_id) is table:
            del self.by_channel[table.channel_id]
        self.by_id.pop(table.id, None)

    async def _save_quietly(self, table: Table) -> None:
        """Save the table's state (no chips move), logging a failure (the next change saves
        again). Call under the table's lock."""
        if table.state is TableState.OVER:
            return
        try:
            await self._commit(table)
        except StoreError:
            log.exception("table %s: saving failed; the next change saves again", table.id)
            table.saved = None  # what was not saved stays when the next change is undone

    # ------------------------------------------------------------------ rendering

    def render_board(self, table: Table) -> Rendered:
        """The board message of ``table`` as it is now (lobby, game, or final result), in
        the channel's language (rendered once per version: :meth:`shown_board`)."""
        return self.shown_board(table).rendered

    def shown_board(self, table: Table) -> Shown:
        """:meth:`render_board`'s render of the table's current version, shared by every
        message that shows it (:mod:`bot.runtime.renders`)."""
        lang = self.languages.public(table.guild_id, table.channel_id)
        return table.renders.get("board", None, lang, lambda: self._render_board(table, lang))

    def _render_board(self, table: Table, lang: Language) -> Rendered:
        adapter = self.adapter(table)
        info = table.info(self.spec(table), lang)
        if table.state is TableState.LOBBY:
            return common.lobby(info, adapter.describe_options(table.options, info.lang))
        game = table.game
        if game is None:
            reason = table.notes[-1].msg if table.notes else Msg("note.cancelled")
            return common.closed(info, info.lang.t(reason))
        return summary.board(adapter, info, game, table.rating)

    def render_verify(self, table: Table, member_id: int) -> Rendered:
        """The private answer to **Verify** for ``member_id`` (in their language): the
        current shuffle's whole commitment and how to check it
        (:func:`bot.render.common.verify`); no seed is shown."""
        commitment = getattr(table.game, "commitment", None)
        info = table.info(self.spec(table), self.languages.private(member_id))
        return common.verify(info, commitment,
                             _shuffle_number(table.seed, commitment, table.game.deal_number))

    def render_hand(self, table: Table, seat: int) -> Rendered:
        """Seat ``seat``'s private view of ``table`` and its controls, with its draft of
        the current decision, in its member's language (rendered once per version:
        :meth:`shown_hand`)."""
        return self.shown_hand(table, seat).rendered

    def shown_hand(self, table: Table, seat: int) -> Shown:
        """:meth:`render_hand`'s render of the table's current version, shared by every
        message that shows it (:mod:`bot.runtime.renders`)."""
        lang = self.languages.private(table.seats[seat].member_id)
        return table.renders.get("hand", seat, lang,
                                 lambda: self._render_hand(table, seat, lang))

    def _render_hand(self, table: Table, seat: int, lang: Language) -> Rendered:
        saved = table.drafts.get(seat)
        draft = (saved[1] if saved is not None and saved[0] == table.game.decision_id(seat)
                 else None)
        info = table.info(self.spec(table), lang)
        return self.adapter(table).hand(info, table.game, seat, draft)


def _team(spec: GameSpec, wanted: int | None, seats: list[Seat]) -> int | None:
    """The team a new lobby seat sits in: ``wanted`` if it has room, else the smaller team
    (None unless the game seats partners).

    Raises
    ------
    Refusal
        ``team_full`` when ``wanted`` is full.
    """
    if spec.seating != "partners":
        return None
    room = (spec.seats.stop - 1) // len(spec.teams)
    sizes = [sum(seat.team == team for seat in seats) for team in range(len(spec.teams))]
    if wanted is not None and 0 <= wanted < len(spec.teams):
        if sizes[wanted] >= room:
            team = Msg(f"game.{spec.name}.team.{wanted}")
            raise Refusal("team_full", Msg("refusal.team_full", team=team))
        return wanted
    return min(range(len(spec.teams)), key=lambda team: (sizes[team], team))


SHUFFLES_PER_DEAL_MAX = 8
"""Bound on the shuffles a game draws per deal (redeals, void deals), for the search of
:func:`_shuffle_number`."""


def _shuffle_number(seed: bytes, commitment: str | None, deals: int) -> int | None:
    """The number ``n`` of the session's shuffle whose commitment is ``commitment`` (games
    number their shuffles their own way: redeals, void deals), or None (a fixed deck)."""
    if commitment is None:
        return None
    return next((n for n in range(1, SHUFFLES_PER_DEAL_MAX * (deals + 1))
                 if fairness.commitment(seed, n) == commitment), None)


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("table task failed", exc_info=task.exception())
