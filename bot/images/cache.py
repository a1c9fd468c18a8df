"""The PNGs of the pictures, kept by what they show and drawn off the event loop.

One process-wide least-recently-used cache (:data:`PICTURES`): a picture is drawn once per
description (a board edit that changes only the log finds its picture here); requests for a
picture being drawn wait for that one drawing. Drawing never delays another table's
interaction: it runs in :attr:`PictureCache.workers` worker processes
(``PARLOUR_PICTURE_WORKERS``), so it takes none of the bot process's CPU (nor its GIL), or
with none in a worker thread (:func:`asyncio.to_thread`).

The first picture starts the workers, in a thread (no interaction waits for them: pictures
asked for before they are up are drawn in a thread), from a fresh interpreter ("forkserver",
else "spawn": they inherit none of the bot's sockets, its event loop or its threads) that
has imported the drawing modules once, so a worker starts ready to draw. A picture is a pure
function of its small frozen description, which is all a worker receives. A worker that dies
(the pool is broken) is replaced by a fresh pool at the next picture, and the picture it was
drawing is drawn again in a thread: a message never fails because of the workers. A worker
ends with the bot's process, however that ends (killed, it never closes the pool).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pkgutil
import select
import threading
import time
from collections import OrderedDict
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor

import bot.images
from bot.images.picture import Picture, filename, png

log = logging.getLogger(__name__)

CAPACITY = 512
"""Pictures kept (a board or hand PNG is 10-40 KB: at most ~20 MB)."""

ATTACHMENT_MAX = 8 * 1024 * 1024
"""Bytes of the largest attachment every Discord server accepts (8 MiB, without boosts)."""


class PictureCache:
    """PNGs by attachment name (:func:`bot.images.picture.filename`), least recently used
    dropped first; the description of each is kept too (what an attachment shows).

    Attributes
    ----------
    capacity : int
        Pictures kept.
    workers : int
        Worker processes drawing the pictures (the bot sets ``PARLOUR_PICTURE_WORKERS``);
        0: a thread of this process draws them. Read when the pool starts.
    drawn : int
        Pictures drawn so far (misses).
    """

    def __init__(self, capacity: int = CAPACITY, workers: int = 0) -> None:
        self.capacity = capacity
        self.workers = workers
        self._entries: OrderedDict[str, tuple[Picture, bytes]] = OrderedDict()
        self._drawing: dict[str, asyncio.Future[bytes]] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._pool_lock = threading.Lock()  # held while the pool starts or stops
        self._starter: threading.Thread | None = None
        self.drawn = 0

    async def png(self, picture: Picture) -> tuple[str, bytes]:
        """The attachment name and PNG of ``picture``, drawn by a worker if new (one drawing
        however many ask for it meanwhile).

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

    def pending(self) -> list[asyncio.Future[bytes]]:
        """The drawings under way on the running event loop (each resolves to its PNG)."""
        loop = asyncio.get_running_loop()
        return [drawing for drawing in self._drawing.values() if drawing.get_loop() is loop]

    def processes(self) -> tuple[int, ...]:
        """Process ids of the worker processes running now (none before the first picture,
        after :meth:`close`, or with no workers)."""
        pool = self._pool
        if pool is None:
            return ()
        workers = pool._processes or {}  # the executor's own table, pid -> process
        return tuple(pid for pid, process in list(workers.items()) if process.is_alive())

    async def close(self) -> None:
        """Stop the worker processes once their drawings are done (the bot closing); a
        picture asked for later starts them again."""
        await asyncio.to_thread(self._stop)

    def _stop(self) -> None:
        starter = self._starter
        if starter is not None:
            starter.join()  # a start under way ends first
        with self._pool_lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown()

    async def _draw(self, name: str, picture: Picture) -> bytes:
        data = await self._drawn(name, picture)
        if len(data) > ATTACHMENT_MAX:
            raise ValueError(f"picture {name} is {len(data)} bytes, above Discord's limit")
        self._entries[name] = (picture, data)
        self.drawn += 1
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)
        return data

    async def _drawn(self, name: str, picture: Picture) -> bytes:
        """The PNG of ``picture``, drawn by a worker, or in a thread if there is none (yet)
        or the worker failed (a drawing that fails there fails the same way in the
        thread)."""
        pool = self._started_pool()
        if pool is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, png, picture)
            except BrokenExecutor:
                self._discard(pool)
                log.warning("a picture worker died; %s is drawn again in a thread", name)
            except Exception:
                log.warning("a picture worker failed to draw %s; it is drawn again in a "
                            "thread", name, exc_info=True)
        return await asyncio.to_thread(png, picture)

    def _started_pool(self) -> ProcessPoolExecutor | None:
        """The worker pool if it is up; else None, and it starts meanwhile (in a thread of
        its own: the first start in a process waits about a second for the fork server to
        import the drawing modules, which no interaction should wait for)."""
        if self._pool is None and self.workers and not (self._starter
                                                        and self._starter.is_alive()):
            self._starter = threading.Thread(target=self._start, daemon=True,
                                             name="picture-workers")
            self._starter.start()
        return self._pool

    def _start(self) -> None:
        """Start the pool and its first worker (a thread of its own); a pool that cannot
        start leaves the drawing in this process until the next picture tries again."""
        with self._pool_lock:
            if self._pool is not None or not self.workers:
                return
            pool = None
            try:
                pool = ProcessPoolExecutor(self.workers, mp_context=_context(),
                                           initializer=_follow, initargs=(os.getpid(),))
                pool.submit(os.getpid).result()  # its first worker is up
            except (OSError, BrokenExecutor):
                log.warning("no picture worker could be started", exc_info=True)
                if pool is not None:
                    pool.shutdown(wait=False)
                return
            self._pool = pool

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        """Forget the broken ``pool`` (unless already replaced) and let it end (every
        drawing it held failed as broken, and is drawn again in a thread)."""
        if self._pool is pool:
            self._pool = None
        pool.shutdown(wait=False)


def _context() -> multiprocessing.context.BaseContext:
    """Where workers come from: a fork server that has imported the drawing modules (each
    worker, and any replacement, starts with them), else fresh interpreters ("spawn")."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([f"{bot.images.__name__}.{module.name}"
                                    for module in pkgutil.iter_modules(bot.images.__path__)])
    return context


def _follow(bot: int) -> None:
    """Each worker's start: a thread that ends the worker once the bot's process ``bot``
    has ended (the pool's queues then never close, and the worker would wait forever)."""

    def watch() -> None:
        try:
            ended = os.pidfd_open(bot)  # Linux: readable once the process has ended
        except ProcessLookupError:
            pass
        except (AttributeError, OSError):
            while _alive(bot):
                time.sleep(1.0)
        else:
            select.select([ended], [], [])
        os._exit(0)

    threading.Thread(target=watch, name="follow-bot", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):  # ended; or the id is another user's now
        return False
    return True


PICTURES = PictureCache()
"""The bot's pictures (pure functions of their descriptions, so one cache serves all)."""
