"""How the bot's process runs Python's cyclic garbage collector (issue 15).

A long-running server holds a large, settled heap: the imported modules (discord.py,
pydantic, Pillow, the engine), the language catalogs, the command tree, the restored tables
and every table opened since. With CPython's defaults (thresholds ``(700, 10, 10)``), every
full collection walks all of it again (in the benchmark's process, about 156,000 objects
before the first table is opened, 750,000 with a thousand tables), and each young
collection promotes the objects of the interactions being handled at that instant, which
soon die in an older generation and make the next full collection come sooner.
:func:`apply_gc_policy`, called once ``setup_hook`` has loaded that startup state, does what
the CPython documentation of :func:`gc.freeze` describes and long-running servers commonly
do, and keeps doing it as the heap grows:

- :data:`THRESHOLDS` for :func:`gc.set_threshold`: a young generation of 3,000 objects
  instead of 700 and a middle one collected every 30 young collections instead of 10, so
  an interaction's objects are freed by reference counting, or collected young, before they
  are promoted.
- :class:`Freezer`, installed once per process in :data:`gc.callbacks`: what survives a full
  collection is frozen (:func:`gc.freeze`) as it ends, so the next full collection walks
  only what was promoted since, not the tables that were already there. The collector never
  looks at a frozen object (reference counting still frees it), so cyclic garbage made of
  objects that were frozen would be kept; every :data:`SWEEP_EVERY`-th full collection
  therefore unfreezes the heap as it starts (:func:`gc.unfreeze`) and walks all of it, which
  frees such garbage after at most that many full collections. A :func:`gc.collect` is a
  full collection too: applying the policy makes one, which freezes the startup state.

The figures that chose the numbers are ``python -m bench.tables --tables 100 --rounds 4
--pictures off`` run with and without the thresholds, and ``--tables 1000 --rounds 2`` with
and without the freezer (its ``gc ms`` column).
"""

from __future__ import annotations

import gc
from typing import Any

THRESHOLDS = (3000, 30, 10)
"""Thresholds of the collector's three generations (:func:`gc.set_threshold`): new objects
before a young collection, young collections before a middle one, middle collections before
a full one (CPython also waits until a quarter as many objects as a full collection last
left have been promoted since)."""

OLDEST = 2
"""The generation a full collection collects (the ``generation`` a callback is told)."""

SWEEP_EVERY = 10
"""Full collections from one that walks the frozen heap too to the next (the rest walk only
what is not frozen)."""


class Freezer:
    """A :data:`gc.callbacks` entry that freezes the survivors of every full collection and
    unfreezes the heap at the start of every :data:`SWEEP_EVERY`-th (the module's note)."""

    def __init__(self) -> None:
        self.full = 0
        """Full collections begun since it was installed."""

    def sweeps_next(self) -> bool:
        """Whether the next full collection walks the frozen heap too."""
        return (self.full + 1) % SWEEP_EVERY == 0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if info["generation"] != OLDEST:
            return
        if phase == "start":
            if self.sweeps_next():
                gc.unfreeze()
            self.full += 1
        else:
            gc.freeze()


FREEZER = Freezer()
"""The process's freezer (installed by :func:`apply_gc_policy`)."""


def apply_gc_policy() -> None:
    """Set :data:`THRESHOLDS` and install :data:`FREEZER` if it is not installed yet, then
    collect once, freezing the heap as it is (the module's note); call it once the startup
    state is loaded (a second call, by another bot of the process, changes nothing)."""
    gc.set_threshold(*THRESHOLDS)
    if FREEZER not in gc.callbacks:
        gc.callbacks.append(FREEZER)
        gc.collect()
