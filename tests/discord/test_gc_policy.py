"""The garbage collection policy (bot/gc_policy.py) is applied by the bot that ``create_bot``
builds, once its ``setup_hook`` has run: the thresholds set, the startup heap frozen, and
frozen only once per process (a second bot freezes nothing more).

It runs in a fresh interpreter: the test process may already have started bots, and a frozen
heap cannot be told apart from one frozen by an earlier test.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from bot.gc_policy import THRESHOLDS

SCRIPT = textwrap.dedent("""
    import asyncio, gc, json, tempfile
    from pathlib import Path

    import simcord

    from bot.app import create_bot
    from bot.clock import ManualClock
    from bot.config import Settings

    async def started():
        settings = Settings(_env_file=None, discord_token=None, sync="global",
                            database=Path(tempfile.mkdtemp()) / "parlour.db")
        bot = create_bot(settings, clock=ManualClock())
        async with simcord.run(bot):
            seen = {"threshold": gc.get_threshold(), "frozen": gc.get_freeze_count()}
        await bot.close()
        return seen

    before = {"threshold": gc.get_threshold(), "frozen": gc.get_freeze_count()}
    first = asyncio.run(started())
    second = asyncio.run(started())
    print(json.dumps({"before": before, "first": first, "second": second}))
""")


def test_create_bot_applies_the_gc_policy_after_setup_and_freezes_once():
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         timeout=120, check=True)
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["before"]["frozen"] == 0
    assert tuple(seen["before"]["threshold"]) != THRESHOLDS
    assert tuple(seen["first"]["threshold"]) == THRESHOLDS
    assert seen["first"]["frozen"] > 0
    assert tuple(seen["second"]["threshold"]) == THRESHOLDS
    # frozen objects are still freed by reference counting (the first bot's, once closed);
    # a second freeze would have added the second bot's whole startup state
    assert seen["second"]["frozen"] <= seen["first"]["frozen"]
