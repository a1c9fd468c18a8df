"""N concurrent Tripoli tables in one process, through the real bot (issue 15 item 5).

Run it from the project's root (it takes a few minutes per store at the default sizes)::

    python -m bench.tables                         # SQLite, N = 10, 100, 1000
    python -m bench.tables --database pgserver     # a PostgreSQL the bench starts itself
    python -m bench.tables --tables 10,100 --rounds 6 --database postgresql://...
    python -m bench.tables --pictures off          # the server's card pictures turned off
    python -m bench.tables --picture-workers 0     # pictures drawn in a thread of the bot

Each N runs in a fresh bot from ``create_bot`` inside simcord (AI delay 0, the default board
edit interval and edit budget) on a fresh store: an SQLite file, a new database on the
``pgserver`` server (:mod:`bench.postgres`, started once for the run), or the
``PARLOUR_DATABASE_URL`` given. The bench opens one table per channel, all in one server
(one member and two AI seats, dealt), 50 at a time: every member sends ``/tripoli start``
at once, then every one presses Add AI, Add AI and Start at once; then the board edits are
sent. A table opened and played before (not measured) has warmed the code up. Then every
table's member makes ``rounds`` decisions in each of two modes:

``one at a time``
    one click on one table, handled, then the next table's (round robin over the N tables);
``all at once``
    every table's member clicks in the same instant, ``rounds`` times.

Every command and click is a real interaction (a click: the button or select the member's
board or private view shows now, with the message it came from; a stale private view is
opened again with My hand, which counts as an interaction), dispatched as the gateway event
``INTERACTION_CREATE`` directly, not through simcord's actors, whose settling after each
interaction looks at every task and waits on the wall clock (minutes per 100 tables). The
bench waits for the bot's handlers to return while the loop runs the bot, and for the
pictures its worker processes are drawing (the bot's process is idle then, not stalled).
The bot's timers (its debounce and edit budget, its deadlines) run on simcord's virtual
clock, which moves only when the bench moves it (:func:`bench_simcord`): by a second at a
time after each mode until every board edit is sent, and should the process stay idle with
interactions unhandled (the count is printed; 0 is expected). So the bot never defers an
answer here: ``late`` counts the answers it would have deferred.

Printed per N and mode (a mode's figures cover its clicks and the edits sent after them):

``dec/s``
    decisions per wall second: engine actions of the members and of the AI seats.
``cpu ms``
    CPU of the whole process per member interaction: the bot, its store and the simulated
    Discord, less the bench's own choosing of clicks (not the picture workers': ``pic ms``).
``bot ms``, ``sim ms``
    ``cpu ms`` split between the bot (bot/, cogs/, engine/, discord.py, aiosqlite, asyncpg,
    the standard library they call, every thread but the main one) and the simulated
    Discord (simcord), by sampling the main thread (:mod:`bench.cpu_split`); the issue's
    target is ``bot ms`` <= 1.5. simcord hands discord.py parsed payloads, so the bot's
    JSON decoding and HTTP client are not in ``bot ms``.
``thr ms``
    the part of ``bot ms`` spent in threads other than the main one: SQLite's worker, the
    pictures drawn by :mod:`bot.images.cache` when it has no worker process
    (``--picture-workers 0``), else the sending of pictures to the workers and back.
``gc ms``
    the main thread's CPU in Python's cyclic garbage collector per interaction, inside
    ``cpu ms`` (mostly charged to ``bot ms``: a collection walks every object of the
    process, the simulated Discord's too, and grows with them).
``pic ms``
    CPU of the picture worker processes per interaction (``PARLOUR_PICTURE_WORKERS``, by
    default 1 on a machine of more cores; ``--picture-workers``), read from
    ``/proc/<pid>/stat``: drawing, outside the bot's process, so in neither ``cpu ms`` nor
    ``bot ms`` (``-`` with no workers: the drawing is in ``thr ms``).
``db ms``
    CPU of the PostgreSQL server's processes per interaction (``-`` on SQLite, whose work
    is in the process, in ``thr ms``).
``p50 ms``, ``p99 ms``
    click handling: the gateway event dispatched to the bot's handler returned (wall).
``late``
    interactions deferred, or handled after ``ACK_BUDGET`` wall seconds.
``own p50``, ``own p99``, ``own late``
    the same on the bot's own time: the wall time less the CPU the simulated Discord spent
    meanwhile (its sampled share, :meth:`bench.cpu_split.CpuSplit.simcord_so_far`). In a
    burst every click waits for the others, so the wall latency holds the simulated
    Discord's work on all of them (at 1,000 tables, about as much as the bot's); Discord
    does that work on its own machines.
``rest/a``, ``chg/a``, ``com/a``
    per member interaction: REST calls (interaction responses included), table changes
    saved (``commit_table``), and the store's transactions that committed them (a group
    commit takes every change queued while the one before ran).
``edits/s``
    bot-token edits (``PATCH /channels/…``) in the busiest virtual second (the budget: 45).
``KB/tbl``
    RSS growth from opening the N tables, per table (KB): the bot's memory and the
    simulated Discord's (its channels, members, messages, interactions, REST log).

Then, per N, the wall seconds opening the tables took, and the memory a table holds, told
apart between the bot and the simulated Discord (:mod:`bench.memory_split`) over
:data:`TRACED` more tables opened after the modes with :mod:`tracemalloc` on (KB; Python's
own blocks, without the allocator's slack that RSS also holds). Last, the growth of CPU per
interaction (process and bot) from the N before the largest to the largest. CPU figures
hold on a loaded machine better than wall ones (latencies, ``dec/s``, ``late``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import resource
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AsyncExitStack, ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import simcord
from simcord import interactions as sim_interactions
from simcord._runtime import _CallbackRecord
from simcord.backend import serializers
from simcord.backend.models.interaction import ResponseKind

from bench import memory_split, postgres
from bench.cpu_split import CpuSplit, processes_cpu
from bot.app import ParlourBot, create_bot
from bot.clock import ManualClock
from bot.config import Settings
from bot.images.cache import PICTURES
from bot.replies import ACK_BUDGET
from bot.runtime.refs import Ref
from bot.runtime.table import Table, TableState
from engine.tripoli.game import TripoliGame
from tests.databases import fresh_database

DEFERRED = (ResponseKind.DEFERRED, ResponseKind.DEFERRED_UPDATE)
MODES = ("one at a time", "all at once")
STALL = 1.0
"""Wall seconds of waiting on interactions after which the bench checks whether the process
is idle (used less than :data:`IDLE` of a core meanwhile): then it moves the clock on."""
IDLE = 0.05
"""Share of a core below which the process counts as idle."""
OPENING = 50
"""Tables opened at a time (the opening is not measured; bursts of a thousand commands
would only make it slower)."""
TRACED = 50
"""Tables opened after the modes, with their memory traced (:mod:`bench.memory_split`)."""
STEP = 1.0
"""Seconds of virtual time the bench moves on at a time while board edits are sent."""
MODAL_VERBS = frozenset({"bid", "bet", "raise"})
"""Verbs that open an amount modal; the bench's member passes, checks or calls instead."""


@dataclass
class Figures:
    """What one mode of one N measured."""

    interactions: int = 0
    decisions: int = 0
    commits: int = 0
    changes: int = 0
    rest: int = 0
    edits: list[float] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    deferred: int = 0
    own_latencies: list[float] = field(default_factory=list)
    own_late: int = 0
    cpu: float = 0.0
    bot: float = 0.0
    threads: float = 0.0
    collecting: float = 0.0
    pictures: float | None = None
    database: float | None = None
    wall: float = 0.0


class Counters:
    """Instruments the running bot: engine actions, table changes saved, the store's
    transactions committing them (a group commit: one for every change queued meanwhile),
    and the moment each interaction's handler (a component's, or an application
    command's) returned."""

    def __init__(self, bot: ParlourBot) -> None:
        self.decisions = 0
        self.changes = 0
        self.commits = 0
        self.done: dict[int, asyncio.Future[tuple[float, float]]] = {}
        self.simulated: Callable[[], float] = lambda: 0.0
        """CPU seconds the simulated Discord has spent so far (set while a mode runs)."""
        apply = TripoliGame.apply
        counters = self

        def counted_apply(game: Any, *args: Any, **kwargs: Any) -> Any:
            counters.decisions += 1
            return apply(game, *args, **kwargs)

        TripoliGame.apply = counted_apply  # type: ignore[method-assign]
        store = bot.store
        commit = store.commit_table

        async def counted_commit(write: Any) -> None:
            counters.changes += 1
            await commit(write)

        store.commit_table = counted_commit  # type: ignore[method-assign]
        group = store._commits
        flush = group._flush

        async def counted_flush(batch: Any) -> Any:
            counters.commits += 1
            return await flush(batch)

        group._flush = counted_flush  # type: ignore[method-assign]
        tables = bot.tables
        on_component = tables.on_component

        async def component(interaction: discord.Interaction, ref: Ref, values: Any) -> None:
            try:
                await on_component(interaction, ref, values)
            finally:
                counters.handled(interaction)

        tables.on_component = component  # type: ignore[method-assign]
        call = bot.tree._call

        async def command(interaction: discord.Interaction) -> None:
            try:
                await call(interaction)
            finally:
                counters.handled(interaction)

        bot.tree._call = command  # type: ignore[method-assign]

    def handled(self, interaction: discord.Interaction) -> None:
        """The bot is done with ``interaction``: resolve its future with :meth:`now`."""
        future = self.done.pop(interaction.id, None)
        if future is not None and not future.done():
            future.set_result(self.now())

    def now(self) -> tuple[float, float]:
        """The wall time, and the bot's own time: the wall time less the CPU the
        simulated Discord spent so far (seconds)."""
        wall = time.perf_counter()
        return wall, wall - self.simulated()


class Driver:
    """Dispatches members' interactions as gateway events and waits for them to be handled."""

    def __init__(self, env: simcord.Env, counters: Counters) -> None:
        self.env = env
        self.counters = counters
        self.stalls = 0

    def dispatch(self, member: Any, channel_id: int, kind: int, data: dict[str, Any],
                 message: Any = None) -> tuple[Any, asyncio.Future[tuple[float, float]]]:
        """Emit ``INTERACTION_CREATE`` of ``kind`` (2: application command, 3: component,
        clicked on the stored ``message``); returns its interaction record and a future
        resolved (with :meth:`Counters.now`) once the bot's handler returned."""
        backend = self.env.backend
        record, payload = sim_interactions.base_payload(
            backend, type=kind, channel_id=channel_id, guild_id=member.guild.id,
            user_id=member.id, data=data,
        )
        if message is not None:
            payload["message"] = dict(serializers.message_payload(backend, message))
            record.source_message_id = message.id
        future: asyncio.Future[tuple[float, float]] = (
            asyncio.get_running_loop().create_future())
        self.counters.done[record.id] = future
        backend.emit("INTERACTION_CREATE", payload)
        return record, future

    def click(self, member: Any, channel_id: int, message_id: int, custom_id: str,
              values: list[str] | None = None
              ) -> tuple[Any, asyncio.Future[tuple[float, float]]]:
        """Dispatch a click on a button, or with ``values`` a choice in a string select,
        of a stored message (see :meth:`dispatch`)."""
        stored = self.env.backend.get_message(channel_id, message_id)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data = {"custom_id": custom_id, "component_type": 3, "values": values}
        return self.dispatch(member, channel_id, 3, data, stored)

    async def answered(self, futures: list[asyncio.Future[tuple[float, float]]]) -> None:
        """Wait until every future is resolved. The loop runs the bot meanwhile (and sleeps
        while the bot waits on its store or its picture workers); only if the process stays
        idle for :data:`STALL` wall seconds with interactions unhandled and no picture
        being drawn does the bench move simcord's clock on by :data:`STEP` (firing the
        bot's timers due by then)."""
        waiting = [future for future in futures if not future.done()]
        while waiting:
            cpu = time.process_time()
            _done, still = await asyncio.wait(waiting, timeout=STALL)
            if still and time.process_time() - cpu < IDLE * STALL and not await _drawn():
                await self.env.advance_time(STEP)
                self.stalls += 1
            waiting = list(still)


@dataclass
class Seat:
    """One bench table: its member, channel, board and the member's private view."""

    member: Any
    channel_id: int
    table: Table
    hand_id: int | None = None


def _components(rendered: Any) -> list[Any]:
    """The view's components (the inner item of a DynamicItem)."""
    if rendered.view is None:
        return []
    return [getattr(item, "item", item) for item in rendered.view.children]


def _shown(env: simcord.Env, seat: Seat, message_id: int) -> set[str]:
    """The custom_ids the stored message shows now (discord.py routes only those)."""
    stored = env.backend.get_message(seat.channel_id, message_id)
    return {component.get("custom_id", "") for row in stored.components
            for component in row.get("components", [])}


def next_click(env: simcord.Env, bot: ParlourBot,
               seat: Seat) -> tuple[int, str, list[str] | None] | None:
    """The message and component the member clicks now: a decision on the board if it
    shows one for them, else one from their private view; None when they have nothing to
    decide (``hand_id`` None: open the private view first, from the board's My hand)."""
    table = bot.tables.by_id.get(seat.table.id)
    if table is None or table.state is not TableState.PLAYING:
        return None
    me = table.seat_of(seat.member.id)
    board = bot.tables.render_board(table)
    on_board = _shown(env, seat, table.board_message_id)
    for item in _components(board):
        ref = Ref.parse(getattr(item, "custom_id", "") or "")
        if item.custom_id not in on_board:
            continue
        if ref is not None and ref.verb == "next":
            return table.board_message_id, item.custom_id, None
        if ref is not None and ref.seat == me and ref.verb not in MODAL_VERBS:
            return table.board_message_id, item.custom_id, None
    if me not in {p.seat for p in table.game.pending()}:
        return None
    my_hand = (table.board_message_id, Ref(table.id, "hand").custom_id(), None)
    if seat.hand_id is None:
        return my_hand
    shown = _shown(env, seat, seat.hand_id)
    hand = bot.tables.render_hand(table, me)
    for item in _components(hand):
        custom_id = getattr(item, "custom_id", "") or ""
        if custom_id not in shown:
            return my_hand  # the private view is out of date: open a fresh one
        if custom_id.startswith("ps:"):
            options = [option.value for option in item.options]
            need = item.min_values
            if options and len(options) >= need:
                return seat.hand_id, custom_id, options[:need]
            continue
        ref = Ref.parse(custom_id)
        if ref is not None and ref.seat == me and ref.verb not in MODAL_VERBS:
            return seat.hand_id, custom_id, None
    return None


def _rss_kb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 1024


def _command(env: simcord.Env, guild: Any, name: str) -> dict[str, Any]:
    """The interaction data of the synced slash command ``name`` (``"tripoli start"``),
    without options, as Discord sends it."""
    root_name, *path = name.split()
    root = env.backend.find_command(root_name, guild.id)
    assert root is not None, f"/{root_name} is not synced"
    _leaf, nesting = sim_interactions.walk_to_subcommand(root, path)
    return {"id": root["id"], "name": root["name"], "type": root.get("type", 1),
            "options": sim_interactions.nest_options(root, nesting, [])}


def _button(env: simcord.Env, channel_id: int, message_id: int, label: str) -> str:
    """The custom_id of the stored message's button labelled ``label``."""
    stored = env.backend.get_message(channel_id, message_id)
    return next(component["custom_id"] for row in stored.components
                for component in row.get("components", []) if component.get("label") == label)


async def open_tables(env: simcord.Env, bot: ParlourBot, driver: Driver, guild: Any,
                      count: int, prefix: str = "t") -> list[Seat]:
    """One channel per table (named ``prefix`` and a number); :data:`OPENING` tables at a
    time, every member sends ``/tripoli start`` at once, then every one presses Add AI,
    Add AI and Start at once (bursts of gateway events, as :func:`play` sends); finally the
    board edits are sent."""
    players = [(guild.create_text_channel(f"{prefix}{index}").id,
                guild.add_member(env.create_user(f"{prefix}{index}",
                                                 global_name=f"{prefix.upper()}{index}")))
               for index in range(count)]
    start = _command(env, guild, "tripoli start")
    for first in range(0, count, OPENING):
        batch = players[first:first + OPENING]
        await driver.answered([driver.dispatch(member, channel_id, 2, start)[1]
                               for channel_id, member in batch])
        for label in ("Add AI", "Add AI", "Start"):
            clicks = []
            for channel_id, member in batch:
                board = bot.tables.by_channel[channel_id].board_message_id
                custom_id = _button(env, channel_id, board, label)
                clicks.append(driver.click(member, channel_id, board, custom_id)[1])
            await driver.answered(clicks)
    await _flushed(env, bot)
    return [Seat(member, channel_id, bot.tables.by_channel[channel_id])
            for channel_id, member in players]


async def play(env: simcord.Env, bot: ParlourBot, driver: Driver, seats: list[Seat],
               mode: str, rounds: int, database: Any = None) -> Figures:
    """``rounds`` clicks of every table's member in ``mode``; returns the figures
    (``database``: the PostgreSQL server whose CPU is read, else None)."""
    counters = driver.counters
    figures = Figures()
    requests_before = len(env.http_requests)
    decisions, changes, commits = counters.decisions, counters.changes, counters.commits
    server_cpu = postgres.cpu_seconds(database) if database is not None else 0.0
    workers_cpu = processes_cpu(PICTURES.processes())
    wall = time.perf_counter()

    async def clicks(batch: list[Seat]) -> None:
        """Every seat of ``batch`` clicks in the same instant (all chosen first, then all
        dispatched); wait for every answer."""
        with split.driving():
            chosen = [(seat, click) for seat in batch
                      if (click := next_click(env, bot, seat)) is not None]
        sent = []
        for seat, (message_id, custom_id, values) in chosen:
            started = counters.now()
            record, future = driver.click(seat.member, seat.channel_id, message_id,
                                          custom_id, values)
            sent.append((seat, custom_id, record, future, started))
        await driver.answered([future for _seat, _id, _record, future, _at in sent])
        for seat, custom_id, record, future, started in sent:
            (wall, own), (wall_started, own_started) = future.result(), started
            figures.latencies.append(wall - wall_started)
            figures.own_latencies.append(own - own_started)
            figures.interactions += 1
            deferred = record.response_kind in DEFERRED
            figures.deferred += deferred or wall - wall_started > ACK_BUDGET
            figures.own_late += deferred or own - own_started > ACK_BUDGET
            if Ref.parse(custom_id) == Ref(seat.table.id, "hand"):
                seat.hand_id = record.message_id

    with CpuSplit() as split:
        counters.simulated = split.simcord_so_far
        for _ in range(rounds):
            if mode == MODES[0]:
                for seat in seats:
                    await clicks([seat])
            else:
                await clicks(seats)
        await _flushed(env, bot)
    figures.wall = time.perf_counter() - wall
    figures.cpu = split.process - split.driver
    figures.bot = split.bot_seconds()
    figures.collecting = split.collecting
    # the two clocks are read one after the other: with no other thread busy the
    # difference can come out a hair below zero
    figures.threads = max(0.0, split.process - split.main)
    if PICTURES.workers:
        figures.pictures = sum(seconds - workers_cpu.get(pid, 0.0) for pid, seconds
                               in processes_cpu(PICTURES.processes()).items())
    if database is not None:
        figures.database = postgres.cpu_seconds(database) - server_cpu
    requests = env.http_requests[requests_before:]
    figures.rest = len(requests)
    times = env.backend.http_requests.times[requests_before:]
    figures.edits = [when for entry, when in zip(requests, times, strict=True)
                     if _bot_token_edit(entry)]
    figures.decisions = counters.decisions - decisions
    figures.changes = counters.changes - changes
    figures.commits = counters.commits - commits
    return figures


def _bot_token_edit(entry: Any) -> bool:
    return entry.method == "PATCH" and entry.path.startswith("/channels/")


async def _flushed(env: simcord.Env, bot: ParlourBot) -> None:
    """Move the virtual clock on by :data:`STEP` until no table has a board edit or DM
    update left to send (the bot's debounce and budget run on simcord's virtual time) and
    no picture is being drawn."""
    await _drawn()
    while bot.tables.publishing():
        await env.advance_time(STEP)
        await _drawn()


async def _drawn() -> bool:
    """Wait for the pictures being drawn (by the worker processes, whose CPU is not the
    bot process's); whether there were any."""
    drawing = PICTURES.pending()
    if drawing:
        await asyncio.wait(drawing)
    return bool(drawing)


def busiest_second(times: list[float]) -> int:
    """Most bot-token edits sent within any one second (less the clock's rounding, as the
    bot's budget counts: edits one second apart are in two seconds)."""
    best, start = 0, 0
    for end, when in enumerate(times):
        while when - times[start] >= 1.0 - 1e-6:
            start += 1
        best = max(best, end - start + 1)
    return best


@dataclass
class Run:
    """What one N measured: the figures of each mode, the RSS per table (KB), the wall
    and CPU seconds opening the tables took, the times the bench found the bot stalled and
    moved the clock on (:data:`STALL`)."""

    modes: dict[str, Figures]
    rss: float
    opening: tuple[float, float]
    stalls: int
    held: dict[str, float]


async def measure(count: int, rounds: int, database: str | None,
                  server: Any = None, pictures: bool = True,
                  picture_workers: int = 0) -> Run:
    """Open ``count`` tables and play both modes on the store ``database`` names (None: a
    fresh SQLite file; with ``server``, a running PostgreSQL, a fresh database on it), with
    the server's card pictures on or off (``/settings images``), drawn by
    ``picture_workers`` processes (``PARLOUR_PICTURE_WORKERS``; 0: a thread of the bot)."""
    async with AsyncExitStack() as stack:
        if server is not None:
            database = await stack.enter_async_context(fresh_database(server))
        elif database is None:
            directory = stack.enter_context(tempfile.TemporaryDirectory())
            database = str(Path(directory) / "parlour.db")
        settings = Settings(
            _env_file=None, discord_token=None, sync="global", ai_delay=0,
            database=database, log_level="WARNING", picture_workers=picture_workers,
        )
        bot = create_bot(settings, clock=ManualClock())
        async with simcord.run(bot, settle_timeout=120) as env:
            with bench_simcord(env):
                _timestamp_requests(env)
                driver = Driver(env, Counters(bot))
                guild = env.create_guild("Bench")
                await bot.tables.set_images(guild.id, pictures)
                warm = await open_tables(env, bot, driver, guild, 1, prefix="w")
                await play(env, bot, driver, warm, MODES[0], rounds)
                gc.collect()
                rss = _rss_kb()
                wall, cpu = time.perf_counter(), time.process_time()
                seats = await open_tables(env, bot, driver, guild, count)
                opening = (time.perf_counter() - wall, time.process_time() - cpu)
                gc.collect()
                per_table = (_rss_kb() - rss) / count
                modes = {mode: await play(env, bot, driver, seats, mode, rounds, server)
                         for mode in MODES}
                traced = min(count, TRACED)
                held = await memory_split.held(
                    open_tables(env, bot, driver, guild, traced, prefix="m"))
            await bot.close()
        return Run(modes, per_table, opening, driver.stalls,
                   {party: size / traced / 1024 for party, size in held.items()})


@contextmanager
def bench_simcord(env: simcord.Env) -> Iterator[None]:
    """While in use, simcord runs as a bench of a thousand tables needs; the bot does not
    change:

    - a timer the bot sets fires only when the bench moves simcord's clock. simcord also
      fires each of them once its delay has passed on the wall clock (moving its clock
      there), and looks at every task each time: in a burst of a thousand clicks the
      ``ACK_BUDGET`` deadline of every click still being handled did so, for minutes. The
      bot therefore never defers an answer here; ``late`` counts those it would have
      deferred (handled after ``ACK_BUDGET`` wall seconds);
    - simcord's records of the bot's callbacks compare by identity, not field by field:
      it removes each from a list of all of them when it runs (the ephemeral views'
      15-minute timeouts, thousands, are at its head).
    """
    runtime = env._runtime
    assert runtime is not None
    arm, equal = runtime.call_at, _CallbackRecord.__eq__

    def unarmed(when: float, callback: Any, *args: Any, context: Any = None) -> Any:
        handle = asyncio.TimerHandle(when, callback, args, asyncio.get_running_loop(),
                                     context=context)
        handle.cancel()
        return handle

    runtime.call_at = unarmed
    _CallbackRecord.__eq__ = object.__eq__  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        runtime.call_at = arm
        _CallbackRecord.__eq__ = equal  # type: ignore[method-assign]


class StampedLog(list):  # type: ignore[type-arg]
    """simcord's REST log, with the virtual time each request was made at (``times``)."""

    def __init__(self, entries: list[Any], clock: Any) -> None:
        super().__init__(entries)
        self.clock = clock
        self.times = [0.0] * len(entries)

    def append(self, entry: Any) -> None:
        self.times.append(self.clock.elapsed)
        super().append(entry)


def _timestamp_requests(env: simcord.Env) -> StampedLog:
    """Stamp each REST request with simcord's virtual time (the bot's loop time)."""
    log = StampedLog(env.backend.http_requests, env.backend.clock)
    env.backend.http_requests = log
    return log


HEADER = ("    N mode            dec/s  cpu ms  bot ms  thr ms   gc ms  pic ms  sim ms   db ms  "
          "p50 ms  p99 ms  late  own p50  own p99  own late  rest/a  chg/a  com/a  edits/s  KB/tbl")


def report(count: int, mode: str, figures: Figures, rss: float) -> str:
    """One printed line of figures (see the module docstring)."""
    actions = max(figures.interactions, 1)
    latencies = sorted(figures.latencies) or [0.0]
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    own = sorted(figures.own_latencies) or [0.0]
    own_p50 = statistics.median(own) * 1000
    own_p99 = own[min(len(own) - 1, int(len(own) * 0.99))] * 1000
    per = 1000 / actions
    database = f"{figures.database * per:>7.2f}" if figures.database is not None else "      -"
    pictures = f"{figures.pictures * per:>7.2f}" if figures.pictures is not None else "      -"
    return (
        f"{count:>5} {mode:<13} {figures.decisions / figures.wall:>7.0f} "
        f"{figures.cpu * per:>7.2f} {figures.bot * per:>7.2f} {figures.threads * per:>7.2f} "
        f"{figures.collecting * per:>7.2f} {pictures} "
        f"{(figures.cpu - figures.bot) * per:>7.2f} {database} {p50:>7.1f} "
        f"{p99:>7.1f} {figures.deferred:>5} {own_p50:>8.1f} {own_p99:>8.1f} "
        f"{figures.own_late:>9} {figures.rest / actions:>7.2f} "
        f"{figures.changes / actions:>6.2f} {figures.commits / actions:>6.3f} "
        f"{busiest_second(figures.edits):>8} {rss:>7.1f}"
    )


def growth(runs: dict[int, Run]) -> list[str]:
    """Lines of the growth of CPU per interaction (process, bot) between the largest N
    and the one before, per mode."""
    if len(runs) < 2:
        return []
    before, last = sorted(runs)[-2:]
    lines = []
    for mode in MODES:
        old, new = runs[before].modes[mode], runs[last].modes[mode]
        ratios = [(new.cpu / max(new.interactions, 1)) / (old.cpu / max(old.interactions, 1)),
                  (new.bot / max(new.interactions, 1)) / (old.bot / max(old.interactions, 1))]
        lines.append(f"growth of CPU per interaction, {last} vs {before} tables, {mode}: "
                     f"{ratios[0]:.2f}x (process), {ratios[1]:.2f}x (bot)")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.tables", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="10,100,1000",
                        help="the numbers of tables, comma-separated (default 10,100,1000)")
    parser.add_argument("--rounds", type=int, default=12,
                        help="clicks of each table's member per mode (default 12)")
    parser.add_argument("--database", default=None,
                        help="PARLOUR_DATABASE_URL value, or pgserver: a PostgreSQL server "
                             "the bench starts (default: a fresh SQLite file per N)")
    parser.add_argument("--pictures", choices=("on", "off"), default="on",
                        help="the server's card pictures, as /settings images sets them "
                             "(default on, as a new server has them)")
    parser.add_argument("--picture-workers", type=int, default=None,
                        help="processes drawing the pictures, as PARLOUR_PICTURE_WORKERS "
                             "sets them (0: a thread of the bot; default: the setting's)")
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.tables.split(",")]
    with ExitStack() as stack:
        server = stack.enter_context(postgres.server()) if args.database == "pgserver" else None
        database = None if server is not None else args.database
        workers = (Settings(_env_file=None).picture_workers if args.picture_workers is None
                   else args.picture_workers)
        print(f"store: {'PostgreSQL (pgserver)' if server is not None else database or 'SQLite'}"
              f", {args.rounds} rounds, pictures {args.pictures} ({workers} picture workers)")
        print(HEADER)
        runs: dict[int, Run] = {}
        for count in counts:
            run = runs[count] = asyncio.run(measure(count, args.rounds, database, server,
                                                    args.pictures == "on", workers))
            for mode in MODES:
                print(report(count, mode, run.modes[mode], run.rss), flush=True)
        for count, run in runs.items():
            print(f"{count} tables opened in {run.opening[0]:.1f} s ({run.opening[1]:.1f} s "
                  f"of CPU); the clock moved on {run.stalls} times for a stalled bot; memory "
                  f"held per table (traced over {min(count, TRACED)} more): the bot "
                  f"{run.held['bot']:.1f} KB, the simulated Discord "
                  f"{run.held['simcord']:.1f} KB")
        for line in growth(runs):
            print(line)


if __name__ == "__main__":
    main()
