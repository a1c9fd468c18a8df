"""A store that answers late (case C04), for simcord tests of the 3 s deadline.

The delay is an ``asyncio.sleep``, which simcord's virtual clock moves past only through
``advance_time``: a bot that waited for the store instead of deferring misses the deadline.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

STORE_DELAY = 3.5
"""Seconds the slow store takes (C04)."""


@asynccontextmanager
async def slow_store(world: Any, method: str) -> AsyncIterator[None]:
    """Make ``world.store.<method>`` answer :data:`STORE_DELAY` seconds late while inside;
    on leaving, move simcord's clock past the delay and restore the method."""
    store = world.store
    original = getattr(store, method)

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(STORE_DELAY)
        return await original(*args, **kwargs)

    setattr(store, method, slow)
    try:
        yield
        await world.env.advance_time(STORE_DELAY + 1)
    finally:
        setattr(store, method, original)
