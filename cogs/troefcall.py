"""The Troefcall commands: what is particular to Troefcall (the options of start and
house-rules); rules, kick and end come from the shared game cog (:mod:`cogs._game`).

A table plays to a target score (default 15) or for a number of hands (rules/troefcall.md
§2.10 items 50 and 52), with teams chosen in the lobby or drawn at Start (§2.1 item 2). A
channel's house rules (``/troefcall house-rules``, Manage Channels) are saved as the setting
``channel:<id>`` / ``troefcall_rules`` and used by ``/troefcall start``; a start that names a
target or a number of hands plays that end instead of the house's (a target and a number of
hands together are refused), keeping the house's teams.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.app import ParlourBot
from cogs._game import GameCog, table_options

TEAM_CHOICES = [
    app_commands.Choice(name="choose: members join a team in the lobby", value="choose"),
    app_commands.Choice(name="random: drawn by a card each at Start", value="random"),
]
ENDS = ("target", "deals")
"""The options that say how a game ends: one of them at a time."""


@app_commands.guild_only()
class Troefcall(GameCog, group_name="troefcall", group_description="Play Troefcall"):
    """The Troefcall commands of one bot."""

    GAME = "troefcall"

    def keeps_house(self, house: dict[str, Any], chosen: dict[str, Any]) -> bool:
        """Always True (the house rules are the base), but a start that names how the game
        ends (a target or a number of hands) drops the house's end from ``house`` — this
        start's own copy, read from the store for it — so the two cannot conflict."""
        if any(chosen.get(key) is not None for key in ENDS):
            for key in ENDS:
                house.pop(key, None)
        return True

    @app_commands.command(name="start")
    @app_commands.choices(teams=TEAM_CHOICES)
    @table_options
    async def start(
        self,
        interaction: discord.Interaction,
        target: app_commands.Range[int, 1, 500] | None = None,
        teams: str | None = None,
        turn_seconds: app_commands.Range[int, 15, 3600] | None = None,
        stake: app_commands.Range[int, 1, 1_000_000] | None = None,
        thread: bool = False,
    ) -> None:
        """Open a Troefcall table in this channel; you are the host.

        Parameters
        ----------
        target
            Points that win the game (default: the channel's house rules, else 15).
        teams
            choose (default): members join a team in the lobby; random: drawn at Start.
        turn_seconds
            Seconds each decision may take before the default move is made for the player
            (default: 45 to 60 seconds, depending on the decision).
        stake
            Chips each member puts at stake at Start (a table of members only); the winners
            share them, and a game that ends without a winner gives them back (default: none).
        thread
            True: the table plays in a thread of its own; this channel gets a line pointing there.
        """
        await self.open_table(interaction, {
            "target": target, "teams": teams, "turn_seconds": turn_seconds, "stake": stake,
        }, stake, thread)

    @app_commands.command(name="house-rules")
    @app_commands.choices(teams=TEAM_CHOICES)
    async def house_rules_command(
        self,
        interaction: discord.Interaction,
        target: app_commands.Range[int, 1, 500] | None = None,
        deals: app_commands.Range[int, 1, 100] | None = None,
        teams: str | None = None,
        clear: bool = False,
    ) -> None:
        """Save this channel's default Troefcall rules (Manage Channels).

        Parameters
        ----------
        target
            Points that win the game (default 15).
        deals
            Play this many hands instead of a target; the higher score wins.
        teams
            choose: members join a team in the lobby; random: drawn at Start.
        clear
            True: remove this channel's house rules (tables then start with the defaults).
        """
        await self.save_house_rules(interaction, {
            "target": target, "deals": deals, "teams": teams,
        }, clear)


async def setup(bot: ParlourBot) -> None:
    """Extension entry point (loaded by ``bot.app``)."""
    await bot.add_cog(Troefcall(bot))
