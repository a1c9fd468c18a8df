"""Live tables: one game per channel, its lock, seats and board message (DESIGN.md §4).

The bot owns one :class:`TableRegistry` (``bot.tables``), created in ``setup_hook``;
``restore()`` brings back saved tables at start-up and ``close()`` stops their tasks.
"""

from __future__ import annotations

from typing import Any


class TableRegistry:
    """Every live table of the bot, keyed by channel id and by table id.

    Parameters
    ----------
    bot
        The running bot; the registry uses ``bot.store``, ``bot.settings`` and ``bot.clock``.
    """

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.by_channel: dict[int, Any] = {}
        self.by_id: dict[str, Any] = {}

    async def restore(self) -> None:
        """Bring back the tables saved in the store (nothing to restore yet)."""

    async def close(self) -> None:
        """Stop every table's background work before the bot closes."""
