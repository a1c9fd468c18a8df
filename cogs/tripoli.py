"""``/tripoli start`` and ``/tripoli end``: the Tripoli table commands (DESIGN.md §4).

Thin: the table runtime (:mod:`bot.tables`) does the work; the lobby, the board and the
private hands are components handled there. Every refusal is ephemeral and changes nothing.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import ParlourBot
from bot.components import register_components

GAME = "tripoli"


@app_commands.guild_only()
class Tripoli(commands.GroupCog, group_name="tripoli", group_description="Play Tripoli"):
    """The Tripoli commands of one bot."""

    def __init__(self, bot: ParlourBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Register the table components so clicks on any board reach the runtime."""
        register_components(self.bot)

    @app_commands.command(name="start")
    async def start(
        self,
        interaction: discord.Interaction,
        ante: app_commands.Range[int, 0, 10] = 1,
        bet_limit: app_commands.Range[int, 1, 1000] = 10,
        buy_in: app_commands.Range[int, 1, 1_000_000] | None = None,
        turn_seconds: app_commands.Range[int, 15, 3600] | None = None,
    ) -> None:
        """Open a Tripoli table in this channel; you are the host.

        Parameters
        ----------
        ante
            Chips each player puts on every space of the board before each deal (default 1).
        bet_limit
            Largest opening bet and largest raise in the poker phase, in chips (default 10).
        buy_in
            Each player's starting stack in chips (default: the server's buy-in).
        turn_seconds
            Seconds each decision may take before the default move is made for the player
            (default: 45 to 120 seconds, depending on the decision).
        """
        options = {"ante": ante, "bet_limit": bet_limit, "turn_seconds": turn_seconds}
        await self.bot.tables.open_command(
            interaction, GAME, options, buy_in or self.bot.settings.buy_in
        )

    @app_commands.command(name="kick")
    async def kick(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """Remove a member from this channel's Tripoli table (host or Manage Channels).

        Parameters
        ----------
        member
            Who to remove: at once in the lobby or between deals (their stack is paid back),
            else the AI plays their cards to the end of the deal.
        """
        await self.bot.tables.kick_command(interaction, GAME, member)

    @app_commands.command(name="end")
    async def end(self, interaction: discord.Interaction, now: bool = False) -> None:
        """End this channel's Tripoli table (host or Manage Channels); stacks are paid back.

        Parameters
        ----------
        now
            True: abandon the current deal (every chip goes back to where it was when the deal
            started). False (default): end after the current deal.
        """
        await self.bot.tables.end_command(interaction, GAME, now)


async def setup(bot: ParlourBot) -> None:
    """Extension entry point (loaded by ``bot.app``)."""
    await bot.add_cog(Tripoli(bot))
