"""The PNGs of the pictures, kept by what they show and drawn off the event loop.

One process-wide least-recently-used cache (:data:`PICTURES`): a picture is drawn once per
description (a board edit that changes only the log finds its picture here), in a worker
thread (:func:`asyncio.to_thread`), so drawing never delays another table's interaction;
requests for a picture being drawn wait for that one drawing.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from bot.images.picture import Picture, filename, png

CAPACITY = 512
"""Pictures kept (a board or hand PNG is 10-40 KB: at most ~20 MB)."""

ATTACHMENT_MAX = 8 * 1024 * 1024
"""Bytes of the largest attachment every Discord server accepts (8 MiB, without boosts)."""


class PictureCache:
    """PNGs by attachment name (:func:`bot.images.picture.filename`), least recently used
    dropped first; the description of each is kept too (what an attachment shows)."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[str, tuple[Picture, bytes]] = OrderedDict()
        self._drawing: dict[str, asyncio.Future[bytes]] = {}
        self.drawn = 0
        """Pictures drawn so far (misses)."""

    async def png(self, picture: Picture) -> tuple[str, bytes]:
        """The attachment name and PNG of ``picture``, drawn in a worker thread if new (one
        drawing however many ask for it meanwhile).

        Raises
        ------
        ValueError
            If the PNG is larger than :data:`ATTACHMENT_MAX` (no picture of ours is).
        """
        name = filename(picture)
        entry = self._entries.get(name)
        if entry is not None:
            self._entries.move_to_end(name)
            return name, entry[1]
        drawing = self._drawing.get(name)
        if drawing is None or drawing.get_loop() is not asyncio.get_running_loop():
            drawing = asyncio.ensure_future(self._draw(name, picture))
            self._drawing[name] = drawing
            drawing.add_done_callback(lambda _done: self._drawing.pop(name, None))
        return name, await asyncio.shield(drawing)  # a waiter cancelled leaves it to others

    def shown(self, name: str) -> Picture | None:
        """The description of the picture attached as ``name``, if still kept."""
        entry = self._entries.get(name)
        return entry[0] if entry is not None else None

    async def _draw(self, name: str, picture: Picture) -> bytes:
        data = await asyncio.to_thread(png, picture)
        if len(data) > ATTACHMENT_MAX:
            raise ValueError(f"picture {name} is {len(data)} bytes, above Discord's limit")
        self._entries[name] = (picture, data)
        self.drawn += 1
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)
        return data


PICTURES = PictureCache()
"""The bot's pictures (pure functions of their descriptions, so one cache serves all)."""
