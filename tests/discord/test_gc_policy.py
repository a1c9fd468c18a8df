"""The garbage collection policy (bot/gc_policy.py) is applied by the bot that ``create_bot``
builds, once its ``setup_hook`` has run: the thresholds set, the freezer installed once per
process, the startup heap frozen; then what survives a full collection is frozen, and cyclic
garbage of frozen objects is freed by the next sweep.

Each check runs in a fresh interpreter: the test process may already have started bots, and
its heap and collector state cannot be told apart from an earlier test's.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from bot.gc_policy import SWEEP_EVERY, THRESHOLDS

STARTED = textwrap.dedent("""
    import asyncio, gc, json, tempfile
    from pathlib import Path

    import simcord

    from bot.app import create_bot
    from bot.clock import ManualClock
    from bot.config import Settings
    from bot.gc_policy import FREEZER

    async def started():
        settings = Settings(_env_file=None, discord_token=None, sync="global",
                            database=Path(tempfile.mkdtemp()) / "parlour.db")
        bot = create_bot(settings, clock=ManualClock())
        async with simcord.run(bot):
            seen = {"threshold": gc.get_threshold(), "frozen": gc.get_freeze_count(),
                    "installed": gc.callbacks.count(FREEZER)}
        await bot.close()
        return seen

    before = {"threshold": gc.get_threshold(), "frozen": gc.get_freeze_count(),
              "installed": gc.callbacks.count(FREEZER)}
    first = asyncio.run(started())
    second = asyncio.run(started())
    print(json.dumps({"before": before, "first": first, "second": second}))
""")

CYCLES = textwrap.dedent("""
    import gc, json, weakref

    from bot.gc_policy import FREEZER, SWEEP_EVERY, apply_gc_policy

    class Node:
        pass

    def cycle():
        node = Node()
        node.me = node
        return node

    apply_gc_policy()
    seen = {}

    young = cycle()
    gone = weakref.ref(young)
    del young
    gc.collect()
    seen["young garbage collected"] = gone() is None

    old = cycle()
    kept = weakref.ref(old)
    frozen = gc.get_freeze_count()
    gc.collect()
    seen["survivor frozen"] = gc.get_freeze_count() > frozen
    if FREEZER.sweeps_next():
        gc.collect()
    del old
    gc.collect()
    seen["frozen garbage kept until a sweep"] = kept() is not None
    collections = 1
    while kept() is not None and collections < 2 * SWEEP_EVERY:
        gc.collect()
        collections += 1
    seen["full collections until freed"] = collections
    seen["freed"] = kept() is None
    print(json.dumps(seen))
""")


def _run(script: str) -> dict:
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120, check=True)
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_create_bot_applies_the_gc_policy_after_setup_and_installs_it_once():
    seen = _run(STARTED)
    assert seen["before"]["frozen"] == 0
    assert seen["before"]["installed"] == 0
    assert tuple(seen["before"]["threshold"]) != THRESHOLDS
    assert tuple(seen["first"]["threshold"]) == THRESHOLDS
    assert seen["first"]["frozen"] > 0
    assert seen["first"]["installed"] == 1
    assert tuple(seen["second"]["threshold"]) == THRESHOLDS
    assert seen["second"]["installed"] == 1


def test_full_collections_freeze_survivors_and_a_sweep_frees_their_cycles():
    seen = _run(CYCLES)
    assert seen["young garbage collected"]
    assert seen["survivor frozen"]
    assert seen["frozen garbage kept until a sweep"]
    assert seen["freed"]
    assert 2 <= seen["full collections until freed"] <= SWEEP_EVERY
