"""The settings cache beside the store: reads come from memory, a write replaces the cached
value at once, a write by another process shows once the entry is older than the TTL."""

from __future__ import annotations

import pytest

from bot.settings_cache import SETTINGS_TTL, SettingsCache
from bot.store import SqliteStore


class Counting:
    """The store, counting its settings reads."""

    def __init__(self, store: SqliteStore) -> None:
        self.store = store
        self.reads = 0

    async def get_setting(self, scope: str, key: str) -> str | None:
        self.reads += 1
        return await self.store.get_setting(scope, key)

    async def set_setting(self, scope: str, key: str, value: str | None) -> None:
        await self.store.set_setting(scope, key, value)

    async def balance(self, guild_id: int, user_id: int) -> int:
        return await self.store.balance(guild_id, user_id)


@pytest.fixture
async def store(tmp_path):
    async with SqliteStore(tmp_path / "parlour.db", starting_chips=1000) as store:
        yield store


async def test_reads_come_from_memory_and_a_write_invalidates_them(store):
    now = [0.0]
    counting = Counting(store)
    cache = SettingsCache(counting, clock=lambda: now[0])
    assert await cache.get_setting("user:1", "dm") is None
    assert await cache.get_setting("user:1", "dm") is None
    assert counting.reads == 1  # an unset setting is remembered too
    await cache.set_setting("user:1", "dm", "true")
    assert await cache.get_setting("user:1", "dm") == "true"
    assert await store.get_setting("user:1", "dm") == "true"  # written through
    await cache.set_setting("user:1", "dm", None)
    assert await cache.get_setting("user:1", "dm") is None
    assert counting.reads == 1
    assert await cache.balance(5, 6) == 1000  # everything else is the store's


async def test_another_process_write_shows_after_the_ttl(store):
    now = [0.0]
    counting = Counting(store)
    cache = SettingsCache(counting, clock=lambda: now[0])
    assert await cache.get_setting("channel:9", "tripoli_rules") is None
    await store.set_setting("channel:9", "tripoli_rules", '{"ante": 2}')  # another shard
    now[0] = SETTINGS_TTL - 1
    assert await cache.get_setting("channel:9", "tripoli_rules") is None
    now[0] = SETTINGS_TTL + 1
    assert await cache.get_setting("channel:9", "tripoli_rules") == '{"ante": 2}'
    assert counting.reads == 2


async def test_a_failed_write_forgets_the_setting(store):
    counting = Counting(store)
    cache = SettingsCache(counting)
    assert await cache.get_setting("user:2", "dm") is None

    async def broken(scope: str, key: str, value: str | None) -> None:
        raise RuntimeError("disk full")

    counting.set_setting = broken  # type: ignore[method-assign]
    with pytest.raises(RuntimeError):
        await cache.set_setting("user:2", "dm", "true")
    await store.set_setting("user:2", "dm", "false")
    assert await cache.get_setting("user:2", "dm") == "false"  # read again, not stale
