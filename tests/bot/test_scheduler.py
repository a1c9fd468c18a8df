"""The table scheduler's heap: with many tables it names the earliest deadline at once and
fires deadlines in their order, also after tables moved theirs or went away."""

from __future__ import annotations

import random

import pytest
from registries import registry_of

from bot.games import GAMES
from bot.runtime.registry import TableRegistry
from bot.runtime.table import TableState
from bot.store import SqliteStore

GUILD = 10
TABLES = 300


@pytest.fixture
async def registry(tmp_path):
    async with SqliteStore(tmp_path / "parlour.db", starting_chips=1000) as store:
        registry = registry_of(store, GAMES, tmp_path)
        yield registry
        await registry.close()


def earliest(registry: TableRegistry) -> float | None:
    """The earliest time of any table, by looking at every one (what the heap replaces)."""
    times = [table.idle_deadline for table in registry.by_id.values()
             if table.idle_deadline is not None]
    times += [when for table in registry.by_id.values()
              for _decision, when in table.deadlines.values()]
    return min(times, default=None)


async def test_many_lobbies_close_in_the_order_of_their_idle_deadlines(registry):
    rng = random.Random(15)
    clock = registry.bot.clock
    for index in range(TABLES):
        registry.open("tripoli", guild_id=GUILD, channel_id=1000 + index, host_id=index + 1,
                      host_name=f"m{index}", options={}, buy_in=100)
        clock.advance(rng.uniform(0, 2))
    # a third of the lobbies see a member join later: their idle time starts again
    for table in rng.sample(list(registry.by_id.values()), TABLES // 3):
        clock.advance(rng.uniform(0, 1))
        await registry.join(table, 5000 + len(table.seats), "joiner")
    cancelled = rng.sample(list(registry.by_id.values()), 20)
    for table in cancelled:  # gone: their heap entries are dropped when they come up
        await registry.cancel(table, table.host_id, is_manager=False)
    expected = sorted(registry.by_id.values(), key=lambda table: table.idle_deadline)
    closed = []
    while registry.by_id:
        due = registry._next_due()
        assert due == earliest(registry)
        clock.advance(due - registry._now())
        waiting = dict(registry.by_id)
        await registry.fire_due()
        gone = [table for table_id, table in waiting.items() if table_id not in registry.by_id]
        assert gone, "the earliest deadline fired nothing"
        assert all(table.state is TableState.OVER for table in gone)
        closed += sorted(gone, key=lambda table: table.idle_deadline)
    assert [table.id for table in closed] == [table.id for table in expected]
    assert registry._next_due() is None and len(expected) == TABLES - 20
