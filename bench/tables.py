"""N concurrent Tripoli tables in one process, through the real bot (issue 15 item 5).

``python -m bench.tables [--tables 10,100,1000] [--rounds 12] [--database URL]`` starts the
bot from ``create_bot`` inside simcord (AI delay 0, the default board edit interval and edit
budget, the store the ``--database`` setting names: SQLite by default), opens one table per
channel (one member and two AI seats, dealt), then plays ``rounds`` decisions of every
table's member in two modes:

``one at a time``
    one click on one table, answered, then the next table's (round robin over the N tables);
``all at once``
    every table's member clicks in the same instant, ``rounds`` times.

Each click is a real component interaction (the button or select the member's board or
private view shows now, with the message it came from; a stale private view is opened again
with My hand, which counts as an interaction), dispatched as the gateway event
``INTERACTION_CREATE`` directly; the bench turns the loop until every click is answered and
lets simcord settle the bot's work only when that does not suffice (simcord's settling looks
at every task and waits on the wall clock, the bottleneck past a few dozen tables).
The bot's debounce and edit budget run on simcord's virtual clock, which the bench moves on
by 0.1 s at a time after each round until every board edit is sent.

Printed per N and mode: decisions/s (engine actions of members and AI seats per wall
second), CPU ms per interaction (the whole process, bot, store and the simulated Discord,
less the bench's own choosing of clicks), p50/p99 click handling (dispatch to answered, wall
ms), late answers (deferred, or answered after ``ACK_BUDGET`` wall seconds), REST calls per
player action, commits per action, bot-token edits in the busiest virtual second, RSS per
table (KB, after the tables were opened and dealt) and the growth ratio of CPU per
interaction between the largest N and the one before (all at once).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import resource
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import simcord
from simcord import interactions as sim_interactions
from simcord.backend import serializers
from simcord.backend.models.interaction import ResponseKind

from bot.app import ParlourBot, create_bot
from bot.clock import ManualClock
from bot.config import Settings
from bot.replies import ACK_BUDGET
from bot.runtime.refs import Ref
from bot.runtime.table import Table, TableState
from engine.tripoli.game import TripoliGame

DEFERRED = (ResponseKind.DEFERRED, ResponseKind.DEFERRED_UPDATE)
MODES = ("one at a time", "all at once")
SPINS = 100_000
"""Loop turns a click may take before the bench lets simcord settle the bot's work."""
STEP = 0.1
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
    cpu: float = 0.0
    driver: float = 0.0
    wall: float = 0.0


class Counters:
    """Instruments the running bot: engine actions, store commits, click handling times."""

    def __init__(self, bot: ParlourBot) -> None:
        self.decisions = 0
        self.commits = 0
        self.done: dict[int, asyncio.Future[float]] = {}
        apply = TripoliGame.apply
        counters = self

        def counted_apply(game: Any, *args: Any, **kwargs: Any) -> Any:
            counters.decisions += 1
            return apply(game, *args, **kwargs)

        TripoliGame.apply = counted_apply  # type: ignore[method-assign]
        store = bot.store
        commit = store.commit_table

        async def counted_commit(write: Any) -> None:
            counters.commits += 1
            await commit(write)

        store.commit_table = counted_commit  # type: ignore[method-assign]
        tables = bot.tables
        on_component = tables.on_component

        async def timed(interaction: discord.Interaction, ref: Ref, values: Any) -> None:
            try:
                await on_component(interaction, ref, values)
            finally:
                future = counters.done.pop(interaction.id, None)
                if future is not None and not future.done():
                    future.set_result(time.perf_counter())

        tables.on_component = timed  # type: ignore[method-assign]


class Driver:
    """Dispatches component clicks of members as gateway events and waits for answers."""

    def __init__(self, env: simcord.Env, counters: Counters) -> None:
        self.env = env
        self.counters = counters
        self.settles = 0

    def click(self, member: Any, channel_id: int, message_id: int, custom_id: str,
              values: list[str] | None = None) -> tuple[Any, asyncio.Future[float]]:
        """Dispatch one click; returns its interaction record and a future resolved (with
        ``time.perf_counter()``) once it was answered."""
        backend = self.env.backend
        stored = backend.get_message(channel_id, message_id)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data = {"custom_id": custom_id, "component_type": 3, "values": values}
        record, payload = sim_interactions.base_payload(
            backend, type=3, channel_id=channel_id, guild_id=member.guild.id,
            user_id=member.id, data=data,
        )
        payload["message"] = dict(serializers.message_payload(backend, stored))
        record.source_message_id = stored.id
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.counters.done[record.id] = future
        backend.emit("INTERACTION_CREATE", payload)
        return record, future

    async def answered(self, futures: list[asyncio.Future[float]]) -> None:
        """Let the bot run until every future is resolved: the loop turns on its own first;
        simcord settles (runs the work it holds back) only when nothing moves any more."""
        for _ in range(SPINS):
            if all(future.done() for future in futures):
                return
            await asyncio.sleep(0)
        while not all(future.done() for future in futures):
            await self.env._settle_internal(dispatch="INTERACTION_CREATE")
            self.settles += 1


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


async def open_tables(env: simcord.Env, bot: ParlourBot, count: int) -> list[Seat]:
    """One channel per table; its member opens a lobby, adds two AI seats and starts."""
    guild = env.create_guild("Bench")
    seats: list[Seat] = []
    for index in range(count):
        channel = guild.create_text_channel(f"t{index}")
        member = guild.add_member(env.create_user(f"m{index}", global_name=f"M{index}"))
        opened = await member.slash(channel, "tripoli start")
        board = opened.response
        for label in ("Add AI", "Add AI", "Start"):
            await member.click(board, label=label)
        table = bot.tables.by_channel[channel.id]
        seats.append(Seat(member, channel.id, table))
    return seats


async def play(env: simcord.Env, bot: ParlourBot, driver: Driver, seats: list[Seat],
               mode: str, rounds: int) -> Figures:
    """``rounds`` clicks of every table's member in ``mode``; returns the figures."""
    counters = driver.counters
    figures = Figures()
    requests_before = len(env.http_requests)
    decisions, commits = counters.decisions, counters.commits
    cpu, wall = time.process_time(), time.perf_counter()

    async def clicks(batch: list[Seat]) -> None:
        """Every seat of ``batch`` clicks in the same instant; wait for every answer."""
        sent = []
        began = time.process_time()
        for seat in batch:
            click = next_click(env, bot, seat)
            if click is None:
                continue
            message_id, custom_id, values = click
            record, future = driver.click(seat.member, seat.channel_id, message_id,
                                          custom_id, values)
            sent.append((seat, custom_id, record, future, time.perf_counter()))
        figures.driver += time.process_time() - began
        await driver.answered([future for _seat, _id, _record, future, _at in sent])
        for seat, custom_id, record, future, started in sent:
            figures.latencies.append(future.result() - started)
            figures.interactions += 1
            figures.deferred += (record.response_kind in DEFERRED
                                 or future.result() - started > ACK_BUDGET)
            if Ref.parse(custom_id) == Ref(seat.table.id, "hand"):
                seat.hand_id = record.message_id

    for _ in range(rounds):
        if mode == MODES[0]:
            for seat in seats:
                await clicks([seat])
        else:
            await clicks(seats)
    await _flushed(env, bot)
    figures.cpu = time.process_time() - cpu
    figures.wall = time.perf_counter() - wall
    requests = env.http_requests[requests_before:]
    figures.rest = len(requests)
    times = env.backend.http_requests.times[requests_before:]
    figures.edits = [when for entry, when in zip(requests, times, strict=True)
                     if _bot_token_edit(entry)]
    figures.decisions = counters.decisions - decisions
    figures.commits = counters.commits - commits
    return figures


def _bot_token_edit(entry: Any) -> bool:
    return entry.method == "PATCH" and entry.path.startswith("/channels/")


async def _flushed(env: simcord.Env, bot: ParlourBot) -> None:
    """Move the virtual clock on by :data:`STEP` until no table has a board edit or DM
    update left to send (the bot's debounce and budget run on simcord's virtual time)."""
    while _publishing(bot):
        await env.advance_time(STEP)


def _publishing(bot: ParlourBot) -> bool:
    """True while the bot has board edits or DM updates left to send."""
    return bot.tables.publishing()


def busiest_second(times: list[float]) -> int:
    """Most bot-token edits sent within any one second."""
    best, start = 0, 0
    for end, when in enumerate(times):
        while when - times[start] >= 1.0:
            start += 1
        best = max(best, end - start + 1)
    return best


async def measure(count: int, rounds: int, database: str | None) -> dict[str, Figures | float]:
    """Open ``count`` tables and play both modes; returns figures by mode and ``rss``."""
    with tempfile.TemporaryDirectory() as directory:
        settings = Settings(
            _env_file=None, discord_token=None, sync="global", ai_delay=0,
            database=database or Path(directory) / "parlour.db", log_level="WARNING",
        )
        bot = create_bot(settings, clock=ManualClock())
        async with simcord.run(bot, settle_timeout=120) as env:
            _timestamp_requests(env)
            gc.collect()
            rss = _rss_kb()
            driver = Driver(env, Counters(bot))
            seats = await open_tables(env, bot, count)
            gc.collect()
            per_table = (_rss_kb() - rss) / count
            results: dict[str, Figures | float] = {"rss": per_table}
            for mode in MODES:
                results[mode] = await play(env, bot, driver, seats, mode, rounds)
            await bot.close()
        return results


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


def report(count: int, mode: str, figures: Figures, rss: float) -> str:
    """One printed line of figures (see the module docstring)."""
    actions = max(figures.interactions, 1)
    latencies = sorted(figures.latencies) or [0.0]
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    cpu = (figures.cpu - figures.driver) * 1000 / actions
    return (
        f"{count:>5} {mode:<14} {figures.decisions / figures.wall:>9.0f} {cpu:>7.2f} "
        f"{p50:>7.1f} {p99:>7.1f} {figures.deferred:>5} {figures.rest / actions:>7.2f} "
        f"{figures.commits / actions:>6.2f} {busiest_second(figures.edits):>8} {rss:>7.1f}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.tables", description=__doc__)
    parser.add_argument("--tables", default="10,100,1000")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--database", default=None,
                        help="PARLOUR_DATABASE value (default: a fresh SQLite file)")
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.tables.split(",")]
    print("    N mode               dec/s  cpu ms  p50 ms  p99 ms  late  rest/a  com/a  "
          "edits/s  KB/tbl")
    cpu_per: dict[int, float] = {}
    for count in counts:
        results = asyncio.run(measure(count, args.rounds, args.database))
        rss = results["rss"]
        assert isinstance(rss, float)
        for mode in MODES:
            figures = results[mode]
            assert isinstance(figures, Figures)
            print(report(count, mode, figures, rss), flush=True)
            if mode == MODES[1]:
                cpu_per[count] = (figures.cpu - figures.driver) / max(figures.interactions, 1)
    if len(counts) >= 2:
        last, before = counts[-1], counts[-2]
        print(f"growth of CPU per interaction, {last} vs {before} tables: "
              f"{cpu_per[last] / cpu_per[before]:.2f}x")


if __name__ == "__main__":
    main()
