"""A table registry without Discord, for the tests that drive tables through the runtime.

:func:`registry_of` gives a :class:`~bot.runtime.registry.TableRegistry` over a test's store,
with a manual clock, no AI delay, and whatever else the bot should offer (a partial
messageable for board edits …); :func:`decide` makes a table's next decision as a click
would (committed under the table's lock).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bot.clock import ManualClock
from bot.config import Settings
from bot.runtime.registry import TableRegistry
from bot.runtime.spec import GameAdapter
from bot.runtime.table import Table
from engine.core import SYSTEM


def registry_of(store: Any, games: dict[str, GameAdapter], tmp_path: Path, *,
                board_edit_interval: float = 0, **bot: Any) -> TableRegistry:
    """A registry of ``games`` over ``store``: AI delay 0, board edits every
    ``board_edit_interval`` seconds, a :class:`~bot.clock.ManualClock` (``registry.bot.clock``);
    ``bot`` adds attributes to the bot the registry sees."""
    settings = Settings(_env_file=None, database=tmp_path / "unused.db", ai_delay=0,
                        board_edit_interval=board_edit_interval)
    return TableRegistry(SimpleNamespace(store=store, settings=settings, clock=ManualClock(),
                                         sleep=asyncio.sleep, **bot), games)


async def decide(registry: TableRegistry, table: Table) -> None:
    """One decision of ``table``: a member's required one (as the AI would make it), else a
    rule timer's expiry, else an optional one (taken or let lapse); committed like a click."""
    async with registry._changing(table):
        game = table.game
        pending = [p for p in game.pending() if (p.seat, p.decision) not in table.declined]
        required = [p for p in pending if p.required and p.seat != SYSTEM]
        timers = [p for p in pending if p.seat == SYSTEM]
        if required:
            registry._apply_ai(table, required[0].seat)
        elif timers:
            game.apply(SYSTEM, game.timeout_action(SYSTEM), timers[0].decision)
        else:
            registry._apply_ai(table, pending[0].seat)
        await registry._progress(table)
