"""``/stats [member] [game]``: a member's ranked record on this server, public.

Per game: games played and won, win rate, net chips (chip games: Tripoli), the conservative
rating with its change over the last 10 rated games, the longest win streak and the best
finish. Ranked games only (members only from start to end: a table with an AI seat is
practice); a win is first place of a game played to its rules' end. Everything is read from
the per-member rows the store keeps as results are committed (no scan of the results).
**My record** on a final board (:class:`RecordButton`) shows the clicking member's stats of
that game, privately.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import ParlourBot
from bot.i18n import Language, Msg
from bot.ratings import Rating
from bot.render.common import short_name
from bot.render.summary import RECORD_TEMPLATE, record_id
from bot.replies import reply, within_deadline
from bot.store import MemberStats, Store
from cogs.chips import seen
from cogs.leaderboard import BOARD_COLOUR, GAMES, GameName, rating_text

HISTORY = 10
"""Rated games the rating change is measured over."""


def record_text(lang: Language, stats: MemberStats) -> str:
    """``"12 games · 5 won (42%)"`` plus streak and best finish lines."""
    t = lang.t
    rate = round(100 * stats.wins / stats.games)
    lines = [
        t("stats.record", count=stats.games, games=lang.grouped(stats.games),
          wins=lang.grouped(stats.wins), rate=rate),
        t("stats.streak", streak=stats.best_streak),
        t("stats.best", place=lang.ordinal(stats.best_place) if stats.best_place else "—"),
    ]
    if stats.net_chips:
        lines.append(t("stats.net", chips=lang.grouped(stats.net_chips, signed=True)))
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
            private = await self.bot.languages.for_member(interaction)
            text = private.t("stats.bot", name=short_name(member.display_name))
            await reply(interaction, content=text, ephemeral=True)
            return
        lang = await self.bot.languages.for_channel(interaction)
        embed = await within_deadline(
            interaction, stats_embed(interaction, member, game, lang), ephemeral=False
        )
        await reply(interaction, embed=embed)


class RecordButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=RECORD_TEMPLATE):
    """**My record** on a final board (:mod:`bot.render.summary`): the clicking member's
    stats of that game, privately, in their language. Its custom_id names the game, so it
    works after a restart."""

    def __init__(self, game: str) -> None:
        super().__init__(discord.ui.Button(custom_id=record_id(game)))
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RecordButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        lang = await interaction.client.languages.for_member(interaction)  # type: ignore[attr-defined]
        game = self.game if self.game in GAMES else None
        embed = await within_deadline(
            interaction, stats_embed(interaction, interaction.user, game, lang))
        await reply(interaction, embed=embed, ephemeral=True)


async def stats_embed(
    interaction: discord.Interaction, member: discord.abc.User, game: str | None,
    lang: Language,
) -> discord.Embed:
    """The stats embed of ``member`` on this server (of ``game``, or every game), in
    ``lang``.

    Raises
    ------
    StoreError
        If the store fails.
    """
    store: Store = interaction.client.store  # type: ignore[attr-defined]
    guild_id = interaction.guild_id
    assert guild_id is not None
    await store.remember_names(guild_id, seen(interaction.user, member))
    rows = await store.member_stats(guild_id, member.id)
    history = {
        row.game: await store.rating_history(guild_id, row.game, member.id, HISTORY)
        for row in rows if row.rating is not None and (game is None or row.game == game)
    }
    name = discord.utils.escape_markdown(member.display_name)
    embed = discord.Embed(title=lang.t("stats.title", name=name), colour=BOARD_COLOUR)
    shown = [row for row in rows if (row.game == game if game else True)]
    if not shown:
        embed.description = (lang.t("stats.none_of", name=name, game=Msg(f"game.{game}"))
                             if game else lang.t("stats.none", name=name))
    for row in shown:
        value = record_text(lang, row)
        if row.rating is not None:
            mu, sigma, rated = row.rating
            changes = history.get(row.game, [])
            change = changes[-1][1] - changes[0][0] if changes else 0.0
            value += "\n" + lang.t(
                "stats.rating", rating=rating_text(lang, Rating(mu, sigma).display),
                change=lang.decimal(change, signed=True), count=min(rated, HISTORY))
        title = (lang.t(f"game.{row.game}") if row.game in GAMES
                 else lang.t("stats.every_game"))
        embed.add_field(name=title, value=value, inline=False)
    return embed


async def setup(bot: ParlourBot) -> None:
    """Extension entry point (loaded by ``bot.app``); registers **My record**."""
    await bot.add_cog(Stats(bot))
    bot.add_dynamic_items(RecordButton)
