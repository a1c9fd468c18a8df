"""Pictures drawn by worker processes (``PARLOUR_PICTURE_WORKERS``): the same PNG as in a
thread, one drawing per description, a dead worker replaced without failing a picture, and
no worker outliving the bot's process."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import time

from bot.images.cache import PictureCache
from bot.images.picture import HandPicture, png

START = 30.0
"""Wall seconds a worker may take to start (a loaded machine)."""


async def worker_up(cache: PictureCache) -> int:
    """The process id of ``cache``'s worker, once up (a picture asked for starts it)."""
    deadline = time.monotonic() + START
    while not cache.processes():
        assert time.monotonic() < deadline, "no picture worker started"
        await asyncio.sleep(0.02)
    [worker] = cache.processes()
    return worker


async def test_a_worker_process_draws_the_png_a_thread_draws():
    workers, thread = PictureCache(workers=1), PictureCache(workers=0)
    first = HandPicture(held=(1, 2))
    try:
        assert (await workers.png(first))[1] == png(first)  # in a thread, the worker starting
        worker = await worker_up(workers)
        assert worker != os.getpid()
        picture = HandPicture(held=(3, 5, 8, 40), legal=(5, 40))
        name, data = await workers.png(picture)
        assert (name, data) == await thread.png(picture) and thread.processes() == ()
        assert data == png(picture)
        assert workers.processes() == (worker,)
    finally:
        await workers.close()
    assert workers.processes() == ()


async def test_requests_while_a_worker_draws_share_its_drawing():
    cache = PictureCache(workers=1)
    pictures = [HandPicture(held=(1, 2)), HandPicture(held=(9,))]
    try:
        await cache.png(HandPicture(held=(0,)))
        await worker_up(cache)
        asked = [asyncio.ensure_future(cache.png(pictures[i % 2])) for i in range(6)]
        await asyncio.sleep(0)
        assert len(cache.pending()) == 2  # one drawing per description under way
        results = await asyncio.gather(*asked)
        assert cache.pending() == []
        assert cache.drawn == 3 and len(set(results)) == 2
        assert [data for _name, data in results[:2]] == [png(p) for p in pictures]
    finally:
        await cache.close()


async def test_a_dead_worker_is_replaced_and_its_picture_drawn_again(caplog):
    cache = PictureCache(workers=1)
    try:
        await cache.png(HandPicture(held=(1,)))
        dead = await worker_up(cache)
        os.kill(dead, signal.SIGKILL)
        picture = HandPicture(held=(2, 3))
        with caplog.at_level(logging.WARNING, logger="bot.images.cache"):
            name, data = await cache.png(picture)
        assert data == png(picture) and cache.shown(name) == picture
        assert "drawn again in a thread" in caplog.text
        await cache.png(HandPicture(held=(4,)))  # starts a fresh pool
        assert await worker_up(cache) != dead
    finally:
        await cache.close()


async def test_no_workers_draw_in_a_thread_and_start_no_process():
    cache = PictureCache(workers=0)
    picture = HandPicture(held=(10, 11))
    assert (await cache.png(picture))[1] == png(picture)
    assert cache.processes() == ()


def test_a_worker_ends_with_a_bot_process_that_was_killed(tmp_path):
    script = ("import asyncio, os\n"
              "from bot.images.cache import PictureCache\n"
              "from bot.images.picture import HandPicture\n"
              "from tests.bot.test_picture_workers import worker_up\n"
              "async def main():\n"
              "    cache = PictureCache(workers=1)\n"
              "    await cache.png(HandPicture(held=(1, 2)))\n"
              "    print(await worker_up(cache), flush=True)\n"
              "    os.kill(os.getpid(), 9)\n"
              "if __name__ == '__main__':\n"
              "    asyncio.run(main())\n")
    (tmp_path / "bot_killed.py").write_text(script)
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    killed = subprocess.run([sys.executable, str(tmp_path / "bot_killed.py")], env=env,
                            capture_output=True, text=True, timeout=60)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    worker = int(killed.stdout)
    deadline = time.monotonic() + 10
    while running(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not running(worker)


def running(pid: int) -> bool:
    """Whether process ``pid`` exists and has not ended (a zombie has)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
