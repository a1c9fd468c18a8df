"""Whose CPU a benchmark spent: the bot's, or the simulated Discord's (simcord).

The bot runs inside simcord in one process and on one event loop, so the process CPU time
of a bench mixes the bot's work (bot/, cogs/, engine/, discord.py, aiosqlite, asyncpg and
the standard library they call) with the simulated Discord's (simcord's backend, its
serializers, its settling and its bookkeeping of every callback the bot schedules).
:class:`CpuSplit` tells the two apart while the bench runs, at a cost of about 1 % of it:

- the main thread is sampled on a CPU-time signal (``SIGPROF`` every :data:`INTERVAL`
  seconds of process CPU); each sample weighs the main thread's own CPU time since the
  previous sample (``time.thread_time``), so the weights add up to the main thread's CPU
  exactly, and a sample taken while another thread was busy weighs nothing;
- a sample is charged to the innermost frame of its stack that belongs to a known party:
  simcord's package is the simulated Discord; the project (bot/, cogs/, engine/),
  discord.py, aiosqlite and asyncpg are the bot; any other code (the standard library,
  pydantic, …) is charged to the party that called it (``copy.deepcopy`` called by simcord
  is simcord's), and a stack with no party at all (the event loop turning) is the bot's;
- the CPU of every other thread (aiosqlite's worker, executors) is the bot's;
- what the bench itself does between :meth:`CpuSplit.driving` is measured apart;
- other processes (the picture workers, ``PARLOUR_PICTURE_WORKERS``) are not the process's:
  :func:`processes_cpu` reads theirs.

A statistical profile distorts less than a deterministic one (cProfile charges its cost
per call, so code made of many small calls looks heavier) and needs no second, profiled
run; its error is the sampling error, about ``1 / sqrt(samples)`` of each share.
"""

from __future__ import annotations

import functools
import gc
import os
import signal
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import aiosqlite
import asyncpg
import discord
import simcord

INTERVAL = 0.001
"""Seconds of process CPU between two samples."""
BOT, SIMCORD = "bot", "simcord"
"""The parties CPU is charged to."""
CALLBACK = "callback"
"""simcord's wrapper around every callback the bot schedules: its own code is simcord's,
the callback it runs (code of no party, such as asyncio's) the bot's."""

_PROJECT = Path(__file__).resolve().parent.parent
_WRAPPER = (str(Path(simcord.__file__).resolve().parent / "_runtime.py"), "invoke")
_PARTIES = (
    (str(Path(simcord.__file__).resolve().parent), SIMCORD),
    *((str(_PROJECT / folder), BOT) for folder in ("bot", "cogs", "engine")),
    *((str(Path(module.__file__).resolve().parent), BOT)
      for module in (discord, aiosqlite, asyncpg)),
)


def _party(code: CodeType) -> str | None:
    """The party a function's code belongs to, None for code charged to its caller;
    :data:`CALLBACK` for simcord's wrapper of each callback the bot schedules."""
    if code.co_name == _WRAPPER[1] and str(Path(code.co_filename).resolve()) == _WRAPPER[0]:
        return CALLBACK
    return file_party(code.co_filename)


@functools.cache
def file_party(filename: str) -> str | None:
    """The party code in ``filename`` belongs to (:data:`BOT`, :data:`SIMCORD`), None for
    code charged to its caller (the standard library, pydantic, …)."""
    path = str(Path(filename).resolve())
    for folder, party in _PARTIES:
        if path.startswith(folder + "/"):
            return party
    return None


class CpuSplit:
    """Samples the main thread while in use (``with split:``) and adds up who spent what.

    Attributes
    ----------
    main, process, driver : float
        CPU seconds, while in use: of the main thread, of the whole process (every
        thread), of the main thread inside :meth:`driving`.
    charged : dict[str, float]
        The main thread's CPU seconds outside :meth:`driving`, by party (:data:`BOT`,
        :data:`SIMCORD`), as sampled.
    samples : int
        Samples taken outside :meth:`driving`.
    collecting : float
        CPU seconds of the main thread in Python's cyclic garbage collector (whoever's
        objects it walked: it is charged to the frame it interrupted, mostly the bot's).
    """

    def __init__(self) -> None:
        self.main = self.process = self.driver = 0.0
        self.charged = {BOT: 0.0, SIMCORD: 0.0}
        self.samples = 0
        self._parties: dict[CodeType, str | None] = {}
        self._driving = False
        self._last = 0.0
        self._previous: Any = None
        self.collecting = 0.0
        self._collection = 0.0

    def __enter__(self) -> CpuSplit:
        self._previous = signal.signal(signal.SIGPROF, self._sample)
        self._last = time.thread_time()
        self._began = (self._last, time.process_time())
        signal.setitimer(signal.ITIMER_PROF, INTERVAL, INTERVAL)
        gc.callbacks.append(self._collected)
        return self

    def __exit__(self, *exc_info: object) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, self._previous)
        gc.callbacks.remove(self._collected)
        self.main += time.thread_time() - self._began[0]
        self.process += time.process_time() - self._began[1]

    @contextmanager
    def driving(self) -> Iterator[None]:
        """The bench's own work (choosing the clicks): measured exactly, charged to neither
        party. Must not await (the loop would run the bot meanwhile)."""
        began = time.thread_time()
        self._driving = True
        try:
            yield
        finally:
            self._driving = False
            self.driver += time.thread_time() - began

    def _collected(self, phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            self._collection = time.thread_time()
        else:
            self.collecting += time.thread_time() - self._collection

    def bot_seconds(self) -> float:
        """The bot's CPU seconds: its sampled share of the main thread's CPU outside
        :meth:`driving`, plus every other thread's CPU."""
        return self._share(BOT) + (self.process - self.main)

    def simcord_seconds(self) -> float:
        """The simulated Discord's CPU seconds (its sampled share of the main thread's)."""
        return self._share(SIMCORD)

    def simcord_so_far(self) -> float:
        """The simulated Discord's CPU seconds sampled so far (readable while in use, to
        take its share out of a wall time)."""
        return self.charged[SIMCORD]

    def _share(self, party: str) -> float:
        total = sum(self.charged.values())
        return (self.main - self.driver) * self.charged[party] / total if total else 0.0

    def _sample(self, _signum: int, frame: FrameType | None) -> None:
        now = time.thread_time()
        weight, self._last = now - self._last, now
        if self._driving:
            return
        party, innermost = None, True
        while frame is not None and party is None:
            code = frame.f_code
            if code not in self._parties:
                self._parties[code] = _party(code)
            party = self._parties[code]
            if party == CALLBACK:
                party = SIMCORD if innermost else BOT
            frame, innermost = frame.f_back, False
        self.charged[party or BOT] += weight
        self.samples += 1


def processes_cpu(pids: Iterable[int]) -> dict[int, float]:
    """CPU seconds (user and system) each process of ``pids`` has used so far, read from
    ``/proc/<pid>/stat`` (Linux); a process that has ended is left out."""
    seconds = {}
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        seconds[pid] = (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return seconds
