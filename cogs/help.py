"""``/help``: what Parlour does and how to use it, in one private message.

The games listed are those the bot hosts (its table registry), each with its ``start`` and
``how-to-play`` commands, so a new game shows up here without an edit.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import ParlourBot
from bot.render.common import COLOUR, fit

TABLE_BUTTONS = (
    "**Join** — take a seat (in the lobby, or between deals)\n"
    "**Add AI** — seat a computer player\n"
    "**Start** — deal the first hand (the host or Manage Channels)\n"
    "**My hand** — your cards and your choices, in a message only you see; it stays up "
    "to date while you play\n"
    "**Next deal** — deal again once a deal is over\n"
    "**I'm back** — take your seat back after the AI played it while you were away\n"
    "**Leave** — stand up (at once in the lobby or between deals; otherwise the AI plays "
    "your cards)"
)

COMMANDS = (
    "`/<game> rules` — the rules of this channel's table in plain words\n"
    "`/<game> how-to-play` — a short guide to the game and its terms\n"
    "`/<game> house-rules` — this channel's default rules (Manage Channels)\n"
    "`/<game> kick` · `/<game> end` — remove a player · end the table (host or Manage "
    "Channels)\n"
    "`/chips balance` · `/chips daily` · `/chips give` — your chips on this server\n"
    "`/leaderboard` — the richest members of this server\n"
    "`/settings dm on|off` — also get your hand in a direct message"
)

RANKED = (
    "A table of members only is **ranked**: its result counts for the leaderboard, and "
    "in a chip game each member's buy-in comes from their server chips and goes back "
    "with what they won when they leave or the table ends. A table with any AI seat is "
    "**casual**: it plays with its own play chips and nothing is recorded."
)

FAIR = (
    "Every table draws a secret seed. Before each deal the board shows the deal's SHA-256 "
    "fingerprint; when the session ends the seed is revealed, so anyone can recompute "
    "every shuffle and check it against the fingerprints shown before the cards were "
    "dealt."
)


def help_embed(games: dict[str, str]) -> discord.Embed:
    """The ``/help`` message.

    Parameters
    ----------
    games
        Each hosted game's command name and its title, in the order to list them.
    """
    start = "\n".join(
        f"**{title}** — `/{name} start`, then `/{name} how-to-play` to learn it"
        for name, title in games.items()
    )
    embed = discord.Embed(
        title="Parlour — card tables in your channels",
        description=(
            "Parlour deals card games at a table in a channel: one public board everyone "
            "sees, and your own hand in a message only you see. Sit down with friends, "
            "fill empty seats with AI players, and play for chips."
        ),
        colour=COLOUR,
    )
    embed.add_field(name="Start a table", value=start + (
        "\nThe lobby lists the seats; whoever started it is the host."), inline=False)
    embed.add_field(name="Buttons at the table", value=TABLE_BUTTONS, inline=False)
    embed.add_field(name="Commands", value=COMMANDS, inline=False)
    embed.add_field(name="Ranked or casual", value=RANKED, inline=False)
    embed.add_field(name="Provably fair shuffles", value=FAIR, inline=False)
    embed.set_footer(text="Only you can see this message.")
    return fit(embed)


class Help(commands.Cog):
    """The ``/help`` command of one bot."""

    def __init__(self, bot: ParlourBot) -> None:
        self.bot = bot

    @app_commands.command(name="help")
    async def help(self, interaction: discord.Interaction) -> None:
        """What Parlour does, how to start a table and every command."""
        games = {name: adapter.spec.title for name, adapter in self.bot.tables.games.items()}
        await interaction.response.send_message(embed=help_embed(games), ephemeral=True)


async def setup(bot: ParlourBot) -> None:
    """Extension entry point (loaded by ``bot.app``)."""
    await bot.add_cog(Help(bot))
