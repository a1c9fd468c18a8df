"""How the bot's process runs Python's cyclic garbage collector (issue 15).

A long-running server holds a large, settled heap: the imported modules (discord.py,
pydantic, Pillow, the engine), the language catalogs, the command tree, the restored tables.
With CPython's defaults (thresholds ``(700, 10, 10)``), every full collection walks all of it
again (in the benchmark's process, about 156,000 objects before the first table is
opened), and each young collection promotes the objects of the interactions being handled
at that instant, which soon die in an older generation and make the next full collection
come sooner. :func:`apply_gc_policy`, called once ``setup_hook`` has loaded that startup
state, does what the CPython documentation of :func:`gc.freeze` describes and long-running
servers commonly do:

- :func:`gc.collect` then :func:`gc.freeze`: the startup state moves to the permanent
  generation, which no collection walks again; garbage is collected first so none of it is
  kept. Done once per process (when nothing is frozen yet): the collector never looks at
  a frozen object again (reference counting still frees it), so a frozen object that later
  becomes garbage in a cycle is kept for good; freezing once keeps that to the startup
  state, and a second bot of the same process (tests, the benchmarks) leaves behind only
  the cycles of the first bot's start-up.
- :data:`THRESHOLDS` for :func:`gc.set_threshold`: a young generation of 3,000 objects
  instead of 700 and a middle one collected every 30 young collections instead of 10, so
  an interaction's objects are freed by reference counting, or collected young, before they
  are promoted. Garbage still waits for at most one middle collection (30 x 3,000 new
  objects), so memory stays bounded.

The figures that chose the numbers are ``python -m bench.tables --tables 100 --rounds 4
--pictures off`` run with and without the policy (its ``gc ms`` column).
"""

from __future__ import annotations

import gc

THRESHOLDS = (3000, 30, 10)
"""Thresholds of the collector's three generations (:func:`gc.set_threshold`): new objects
before a young collection, young collections before a middle one, middle collections before
a full one (CPython also waits until a quarter as many objects as a full collection last
left have been promoted since)."""


def apply_gc_policy() -> None:
    """Set :data:`THRESHOLDS`, and freeze the heap as it is if no object is frozen yet
    (the module's note); call it once the startup state is loaded."""
    gc.set_threshold(*THRESHOLDS)
    if gc.get_freeze_count() == 0:
        gc.collect()
        gc.freeze()
