"""Whose memory a table costs: the bot's, or the simulated Discord's (simcord).

The bench's ``KB/tbl`` is the process's RSS growth per table, and simcord keeps in the same
process what Discord keeps on its own machines: every channel, member and message, each
interaction, a log of every REST request. :func:`held` opens tables while
:mod:`tracemalloc` traces the allocations, and charges each block still held afterwards to the
innermost frame of its traceback that belongs to a party (as :mod:`bench.cpu_split` charges
CPU): a block allocated by simcord, or by code simcord called (``copy.deepcopy``), is
simcord's; one allocated by the bot, discord.py or the store, or with no party in its last
:data:`FRAMES` frames, is the bot's.
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Awaitable
from typing import Any

from bench.cpu_split import BOT, SIMCORD, file_party

FRAMES = 16
"""Frames kept per traced block (more find a party for more blocks of deep stacks, and make the
tracing slower; a block whose frames name no party counts as the bot's)."""


async def held(opening: Awaitable[Any]) -> dict[str, int]:
    """Bytes still held after ``opening`` ran, per party (:data:`BOT`, :data:`SIMCORD`)."""
    gc.collect()
    tracemalloc.start(FRAMES)
    try:
        before = tracemalloc.take_snapshot()
        await opening
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    parties = {BOT: 0, SIMCORD: 0}
    for stat in after.compare_to(before, "traceback"):
        party = next((found for frame in reversed(stat.traceback)
                      if (found := file_party(frame.filename)) is not None), BOT)
        parties[party] += stat.size_diff
    return parties
