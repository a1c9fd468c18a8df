"""Two shard processes over one PostgreSQL database, in simcord (issue 15, item 3).

Two bots of disjoint shard ids (shard 0 and shard 1 of 2), each in its own simulated
Discord with a server on its shard, share one real PostgreSQL database. Like two processes,
each runs on an event loop of its own (a thread: simcord runs one Env per loop), and they
meet only in the database and at two rendezvous. Each plays a ranked Tripoli table by
clicks; while the second's table is live (its buy-ins in escrow), the first plays its own
and restarts: it restores none of the second's tables and returns none of its escrow, and
its registry refuses a table of the second's server. Chips add up on both servers.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack

import pytest
import simcord
from conftest import MEMBER_NAMES, World
from test_tripoli import open_table

from bot.app import ShardedParlourBot, create_bot
from bot.clock import ManualClock
from bot.config import Settings
from bot.runtime.table import TableState
from engine.tripoli.phases import Phase

COUNT = 2
WAIT = 120.0
"""Seconds one process waits for the other at a rendezvous."""


async def shard_world(stack: AsyncExitStack, database: str, clock: ManualClock,
                      shard: int) -> World:
    """A running bot hosting shard ``shard`` of :data:`COUNT`, in a simulated Discord with
    one server on that shard (#tables, alice, bob, carol, dave)."""
    settings = Settings(_env_file=None, discord_token=None, database=database, sync="global",
                        starting_chips=1000, daily_chips=100, buy_in=100, ai_delay=0,
                        board_edit_interval=0, shard_count=COUNT, shards=str(shard))
    built: list[ShardedParlourBot] = []

    def make() -> ShardedParlourBot:
        built.append(create_bot(settings, clock=clock))
        return built[-1]

    async def close_all() -> None:
        # the tables and the store of every bot built (simcord detaches a bot without
        # closing it; an AutoShardedClient it never launched cannot run its own close)
        for bot in built:
            if bot.tables is not None:
                await bot.tables.close()
            if bot.store is not None:
                await bot.store.close()

    stack.push_async_callback(close_all)
    # two simulated Discords share the CPU: give each more real time to settle
    env = await stack.enter_async_context(simcord.run(make(), settle_timeout=30))
    guild = env.create_guild(f"Shard {shard}", shard_id=shard)
    channel = guild.create_text_channel("tables")
    humans = {name: guild.add_member(env.create_user(name, global_name=name.title()))
              for name in MEMBER_NAMES}
    robot = guild.add_member(env.create_user("robot", bot=True))
    return World(env, make, clock, guild, channel, robot=robot, **humans)


async def meet(event: threading.Event) -> None:
    """Wait (without blocking this process's loop) until the other process sets ``event``."""
    assert await asyncio.to_thread(event.wait, WAIT), "the other shard process never came"


def process(script: Callable[[], Awaitable[None]]) -> Awaitable[None]:
    """Run ``script`` on an event loop of its own, like a separate process."""
    return asyncio.to_thread(asyncio.run, script())


async def test_two_shard_processes_over_one_database_play_a_table_each(postgres_url):
    clock = ManualClock()
    second_live, first_restarted = threading.Event(), threading.Event()
    live: dict[str, object] = {}

    async def shard_one() -> None:
        try:
            await play_shard_one()
        finally:
            second_live.set()  # never leave the other process waiting

    async def play_shard_one() -> None:
        async with AsyncExitStack() as stack:
            world = await shard_world(stack, postgres_url, clock, 1)
            assert world.bot.shard_ids == [1] and (world.guild.id >> 22) % COUNT == 1
            theirs = await open_table(world, world.alice, world.bob, world.carol)
            await theirs.click(world.alice, theirs.board, label="Start")
            live.update(id=theirs.table.id, guild=world.guild.id, host=world.alice.id)
            assert await world.store.table_escrow(theirs.table.id) == 300
            second_live.set()
            await meet(first_restarted)
            # its table plays on and pays out
            await theirs.play_until(lambda: theirs.game.phase is Phase.BETWEEN_DEALS)
            await theirs.slash(world.alice, "tripoli end")
            await theirs.play_until(lambda: theirs.table.state is TableState.OVER)
            assert await world.store.table_escrow(theirs.table.id) == 0
            balances, escrow, granted = await world.assert_chips_conserved()
            assert (balances, escrow) == (granted, 0)

    async def shard_zero() -> None:
        try:
            # start once the other process is up: discord.py's load_extension executes each
            # cog module anew in sys.modules, outside the import lock, so two bots of one
            # interpreter must not load their cogs at the same moment (separate processes
            # never share modules)
            await meet(second_live)
            async with AsyncExitStack() as stack:
                world = await shard_world(stack, postgres_url, clock, 0)
                assert world.bot.shard_ids == [0] and (world.guild.id >> 22) % COUNT == 0
                ours = await open_table(world, world.alice, world.bob, world.carol)
                await ours.click(world.alice, ours.board, label="Start")
                await ours.play_until(lambda: ours.game.phase is Phase.BETWEEN_DEALS)
                await ours.slash(world.alice, "tripoli end")
                await ours.play_until(lambda: ours.table.state is TableState.OVER)
                stacks = ours.game.result
                members = (world.alice, world.bob, world.carol)
                assert await world.balances(*members) == [
                    900 + stacks[ours.seat(member)] for member in members]
                # a restart restores only this shard's tables and returns no foreign escrow
                await world.restart()
                assert world.bot.tables.by_id == {}
                assert await world.store.table_escrow(live["id"]) == 300
                assert [t[0] for t in await world.store.load_tables()] == [live["id"]]
                with pytest.raises(ValueError, match="not on this process's shards"):
                    world.bot.tables.open("tripoli", guild_id=live["guild"], channel_id=1,
                                          host_id=live["host"], host_name="Alice",
                                          options={}, buy_in=100)
                balances, escrow, granted = await world.assert_chips_conserved()
                assert (balances, escrow) == (granted, 0)
        finally:
            first_restarted.set()

    await asyncio.gather(process(shard_one), process(shard_zero))
