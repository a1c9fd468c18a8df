"""The Caribbean Kalooki commands: what is particular to Kalooki (the options of start and
house-rules); rules, kick and end come from the shared game cog (:mod:`cogs._game`).

Rules (rules/kalooki.md §2, §2T): a table plays the ``jamaican`` or ``trinidad`` preset of
:data:`engine.kalooki.rules.PRESETS` with its call window (K4) in seconds and, Trinidad only,
calls on honour with the challenge (§2T.6 T23), and its pack set: ``packs`` of 52 and
``jokers`` (§2.14; default 2 and 4, the 108 cards); the rules are
checked when ``/kalooki start`` runs. A channel's house rules (``/kalooki house-rules``,
Manage Channels) are saved as the setting ``channel:<id>`` / ``kalooki_rules`` and used by
``/kalooki start``; a value the starter gives always wins.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app import ParlourBot
from cogs._game import GameCog, table_options
from engine.cards import MAX_JOKERS, MAX_PACKS

PRESET_CHOICES = [
    app_commands.Choice(name="Jamaican (9 deals)", value="jamaican"),
    app_commands.Choice(name="Trinidad & Tobago (7 deals)", value="trinidad"),
]


@app_commands.guild_only()
class Kalooki(GameCog, group_name="kalooki", group_description="Play Caribbean Kalooki"):
    """The Kalooki commands of one bot."""

    GAME = "kalooki"

    @app_commands.command(name="start")
    @app_commands.choices(preset=PRESET_CHOICES)
    @table_options
    async def start(
        self,
        interaction: discord.Interaction,
        preset: str | None = None,
        call_window: app_commands.Range[int, 2, 60] | None = None,
        turn_seconds: app_commands.Range[int, 15, 3600] | None = None,
        stake: app_commands.Range[int, 1, 1_000_000] | None = None,
        honour_calls: bool | None = None,
        packs: app_commands.Range[int, 2, MAX_PACKS] | None = None,
        jokers: app_commands.Range[int, 4, MAX_JOKERS] | None = None,
        thread: bool = False,
    ) -> None:
        """Open a Caribbean Kalooki table in this channel; you are the host.

        Parameters
        ----------
        preset
            The rules to play (default: this channel's house rules, else Jamaican).
        call_window
            Seconds a discard may be called before the next player may draw from the stock
            (default 8).
        turn_seconds
            Seconds each decision may take before the default move is made for the player
            (default: 30 to answer a call, 60 to draw, 180 to play a turn).
        stake
            Chips each member puts at stake at Start (a table of members only); the winners
            share them, and a game that ends without a winner gives them back (default: none).
        honour_calls
            Trinidad only: calls on honour; at your draw you may challenge an over-caller
            (default off).
        packs
            Packs of 52 cards in play (default 2; 3 packs and 8 jokers suit 5-6 players).
        jokers
            Jokers in play (default 4; some groups play 6 with two packs).
        thread
            True: the table plays in a thread of its own; this channel gets a line pointing there.
        """
        await self.open_table(interaction, {
            "preset": preset, "call_window": call_window, "turn_seconds": turn_seconds,
            "stake": stake, "honour_calls": honour_calls, "packs": packs, "jokers": jokers,
        }, stake, thread)

    @app_commands.command(name="house-rules")
    @app_commands.choices(preset=PRESET_CHOICES)
    async def house_rules_command(
        self,
        interaction: discord.Interaction,
        preset: str | None = None,
        call_window: app_commands.Range[int, 2, 60] | None = None,
        turn_seconds: app_commands.Range[int, 15, 3600] | None = None,
        honour_calls: bool | None = None,
        packs: app_commands.Range[int, 2, MAX_PACKS] | None = None,
        jokers: app_commands.Range[int, 4, MAX_JOKERS] | None = None,
        clear: bool = False,
    ) -> None:
        """Save this channel's default Caribbean Kalooki rules (Manage Channels).

        Parameters
        ----------
        preset
            The rules /kalooki start plays here when it names none (default Jamaican).
        call_window
            Seconds a discard may be called.
        turn_seconds
            Seconds each decision may take before the default move is made.
        honour_calls
            Trinidad only: calls on honour, with challenges of over-callers.
        packs
            Packs of 52 cards in play (default 2; 3 packs and 8 jokers suit 5-6 players).
        jokers
            Jokers in play (default 4; some groups play 6 with two packs).
        clear
            True: remove this channel's house rules (tables then start with Jamaican).
        """
        await self.save_house_rules(interaction, {
            "preset": preset or "jamaican", "call_window": call_window,
            "turn_seconds": turn_seconds, "honour_calls": honour_calls, "packs": packs,
            "jokers": jokers,
        }, clear)


async def setup(bot: ParlourBot) -> None:
    """Extension entry point (loaded by ``bot.app``)."""
    await bot.add_cog(Kalooki(bot))
