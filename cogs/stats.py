"""``/stats [member] [game]``: a member's ranked record on this server, public.

Per game: games played and won, win rate, net chips (chip games: Tripoli), the conservative
rating with its change over the last 10 rated games, the longest win streak and the best
finish. Ranked games only (members only from start to end: a table with an AI seat is
practice); a win is first place of a game played to its rules' end. Everything is read from
the per-member rows the store keeps as results are committed (no scan of the results).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import ParlourBot
from bot.ratings import Rating
from bot.replies import reply, within_deadline
from bot.store import MemberStats
from cogs.chips import seen
from cogs.leaderboard import BOARD_COLOUR, GAME_TITLES, GameName, rating_text

HISTORY = 10
"""Rated games the rating change is measured over."""


def ordinal(place: int) -> str:
    """``1`` -> ``"1st"``, ``12`` -> ``"12th"``, ``23`` -> ``"23rd"``."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def record_text(stats: MemberStats) -> str:
    """``"12 games · 5 won (42%)"`` plus streak and best finish lines."""
    rate = round(100 * stats.wins / stats.games)
    lines = [
        f"{stats.games:,} game{'' if stats.games == 1 else 's'} · {stats.wins:,} won ({rate}%)",
        f"Longest win streak: {stats.best_streak}",
        f"Best finish: {ordinal(stats.best_place) if stats.best_place else '—'}",
    ]
    if stats.net_chips:
        lines.append(f"Net chips: {stats.net_chips:+,}")
    return "\n".join(lines)


class Stats(commands.Cog):
    """The ``/stats`` command."""

    def __init__(self, bot: ParlourBot) -> None:
        self.bot = bot

    @app_commands.command(name="stats")
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, member: discord.Member | None = None,
        game: GameName | None = None,
    ) -> None:
        """Show a member's ranked games, wins, rating and streaks on this server.

        Parameters
        ----------
        member
            Whose stats; yours when left out.
        game
            Only this game; every game when left out.
        """
        member = member or interaction.user
        if member.bot:
            await reply(interaction, content=f"{member.display_name} is a bot; bots don't play "
                        "ranked games.", ephemeral=True)
            return
        rows, history = await within_deadline(
            interaction, self._read(interaction, member, game), ephemeral=False
        )
        name = discord.utils.escape_markdown(member.display_name)
        embed = discord.Embed(title=f"Stats — {name}", colour=BOARD_COLOUR)
        shown = [row for row in rows if (row.game == game if game else True)]
        if not shown:
            where = f" of {GAME_TITLES[game]}" if game else ""
            embed.description = f"{name} has no ranked games{where} on this server yet."
        for row in shown:
            value = record_text(row)
            if row.rating is not None:
                mu, sigma, rated = row.rating
                changes = history.get(row.game, [])
                change = changes[-1][1] - changes[0][0] if changes else 0.0
                value += (f"\nRating: **{rating_text(Rating(mu, sigma).display)}** "
                          f"({change:+.1f} over the last {min(rated, HISTORY)} rated)")
            embed.add_field(name=GAME_TITLES.get(row.game, "Every game"), value=value,
                            inline=False)
        await reply(interaction, embed=embed)

    async def _read(
        self, interaction: discord.Interaction, member: discord.abc.User, game: str | None
    ) -> tuple[list[MemberStats], dict[str, list[tuple[float, float]]]]:
        """The member's stats rows and, per rated game shown, its last rating changes."""
        store, guild_id = self.bot.store, interaction.guild_id
        await store.remember_names(guild_id, seen(interaction.user, member))
        rows = await store.member_stats(guild_id, member.id)
        history = {
            row.game: await store.rating_history(guild_id, row.game, member.id, HISTORY)
            for row in rows if row.rating is not None and (game is None or row.game == game)
        }
        return rows, history


async def setup(bot: ParlourBot) -> None:
    """Extension entry point (loaded by ``bot.app``)."""
    await bot.add_cog(Stats(bot))
