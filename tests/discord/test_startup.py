"""Start-up logs only what applies: building and starting the bot, the playground's simulator
imported after logging is configured (as ``python -m bot playground`` does), writes none of
discord.py's voice and intents warnings, and still writes any other warning."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from bot.logs import NOT_APPLICABLE

SCRIPT = textwrap.dedent("""
    import asyncio, logging, sys, tempfile
    from pathlib import Path

    from bot.logs import configure_logging

    configure_logging("INFO", stream=sys.stdout)
    import simcord  # builds a probe client without the Guilds intent

    from bot.app import create_bot
    from bot.clock import ManualClock
    from bot.config import Settings

    async def main():
        settings = Settings(_env_file=None, discord_token=None, sync="global",
                            database=Path(tempfile.mkdtemp()) / "parlour.db")
        bot = create_bot(settings, clock=ManualClock())
        async with simcord.run(bot):
            logging.getLogger("discord.client").warning("a real warning %d", 1)
            logging.getLogger("discord.state").warning("another real warning")
        await bot.close()

    asyncio.run(main())
""")


def test_building_and_starting_the_bot_logs_no_warning_that_does_not_apply():
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         timeout=120, check=True)
    logged = run.stdout + run.stderr
    for _logger, message in NOT_APPLICABLE:
        assert message not in logged
    assert "a real warning 1" in logged and "another real warning" in logged
    assert "synced" in logged  # the bot started and logged through the handler
