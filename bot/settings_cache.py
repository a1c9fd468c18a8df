"""Settings read from memory: a thin cache beside the store (issue 15 item 4).

Every publish of a table asks whether each member wants DM hand views, every lobby reads its
channel's house rules: reads that went to the database each time. :class:`SettingsCache`
stands in for the store (everything but the settings passes straight through) and keeps each
setting it read or wrote; a write through it replaces the cached value at once. Another
process writing the same database (a shard) is seen once the entry is older than
:data:`SETTINGS_TTL`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

SETTINGS_TTL = 30.0
"""Seconds a cached setting is trusted; a write by another process shows after that."""


class SettingsCache:
    """The store with its settings cached (see the module docstring).

    Parameters
    ----------
    store
        The opened store (:class:`bot.store.Store`); every other attribute is its own.
    clock
        Monotonic seconds (tests inject one).
    """

    def __init__(self, store: Any, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self._clock = clock
        self._values: dict[tuple[str, str], tuple[float, str | None]] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    async def get_setting(self, scope: str, key: str) -> str | None:
        """The setting's JSON text (None if unset), from memory when read within
        :data:`SETTINGS_TTL` seconds."""
        cached = self._values.get((scope, key))
        now = self._clock()
        if cached is not None and now - cached[0] < SETTINGS_TTL:
            return cached[1]
        value = await self.store.get_setting(scope, key)
        self._values[(scope, key)] = (now, value)
        return value

    async def set_setting(self, scope: str, key: str, value: str | None) -> None:
        """Write the setting (None removes it) and keep the new value.

        Raises
        ------
        StoreError
            When it cannot be saved; the cache then forgets the setting.
        """
        self._values.pop((scope, key), None)
        await self.store.set_setting(scope, key, value)
        self._values[(scope, key)] = (self._clock(), value)
