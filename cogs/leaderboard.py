"""``/leaderboard [game] [metric]``: the server's boards, 10 members a page.

Metrics: ``chips`` (balances; the default without a game), ``rating`` (one game's
conservative rating ``mu - 3 sigma``, :mod:`bot.ratings`; the default with a game), ``wins``
and ``games`` (ranked results of one game, or of every game). Members with equal values share
a rank. The board is public; under the page it shows the rank of whoever asked (or turned the
page), even when they are not on it. Members are named by their display name, never by a
mention; a member who left the server by the last name the bot saw (their results or
commands). Previous/Next are :class:`PageButton` DynamicItems whose custom_id holds the board
and the page, so they keep working after a restart.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import ParlourBot
from bot.i18n import ENGLISH
from bot.replies import reply, within_deadline
from bot.store import BoardRow, Metric, Store
from cogs.chips import chips_text

PAGE_SIZE = 10
BOARD_COLOUR = discord.Colour.gold()
GAME_TITLES = {"tripoli": "Tripoli", "troefcall": "Troefcall", "kalooki": "Kalooki"}
"""The games with boards and stats, by their results' name."""
GameName = Literal["tripoli", "troefcall", "kalooki"]
FORMER_MEMBER = "a former member"
METRIC_TITLES: dict[str, str] = {
    "chips": "Chips", "rating": "Rating", "wins": "Wins", "games": "Games played",
}


def rating_text(value: float) -> str:
    """A conservative rating, one decimal (``12.3``)."""
    return f"{value:.1f}"


def value_text(metric: str, value: float | int) -> str:
    """How a board shows a value of ``metric``."""
    match metric:
        case "chips":
            return chips_text(ENGLISH, int(value))
        case "rating":
            return rating_text(float(value))
        case "wins":
            return f"{int(value):,} win{'' if value == 1 else 's'}"
    return f"{int(value):,} game{'' if value == 1 else 's'}"


def member_name(guild: discord.Guild | None, user_id: int, known: str | None) -> str:
    """The name a board shows: the member's display name now, else the last one seen (for
    members who left), markdown escaped; never a mention."""
    member = guild.get_member(user_id) if guild else None
    name = member.display_name if member else known
    return discord.utils.escape_markdown(name) if name else FORMER_MEMBER


def board_problem(metric: str, game: str | None) -> str | None:
    """Why ``metric`` cannot be shown for ``game`` (None when it can)."""
    if metric == "chips" and game is not None:
        return ("Chips are per server, not per game: leave out the game, or pick the rating, "
                "wins or games metric.")
    if metric == "rating" and game is None:
        return "Ratings are per game: pick a game for the rating board."
    return None


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lb:(?P<metric>chips|rating|wins|games):(?P<game>[a-z]*):(?P<page>[0-9]{1,6})",
):
    """Previous or Next: shows page ``page`` of the board ``(metric, game)``."""

    def __init__(self, metric: str, game: str | None, page: int, *, label: str,
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            custom_id=f"lb:{metric}:{game or ''}:{page}", label=label, disabled=disabled,
            style=discord.ButtonStyle.secondary,
        ))
        self.metric, self.game, self.page = metric, game, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PageButton:
        assert isinstance(item, discord.ui.Button)
        return cls(match["metric"], match["game"] or None, int(match["page"]),
                   label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        embed, view = await within_deadline(
            interaction, render_board(interaction, self.metric, self.game, self.page)
        )
        if interaction.response.is_done():
            await interaction.edit_original_response(embed=embed, view=view)
        else:
            await interaction.response.edit_message(embed=embed, view=view)


async def render_board(
    interaction: discord.Interaction, metric: Metric | str, game: str | None, page: int
) -> tuple[discord.Embed, discord.ui.View]:
    """Page ``page`` (0-based, clamped to the board) for the member of ``interaction``.

    Raises
    ------
    StoreError
        If the store fails.
    """
    store: Store = interaction.client.store  # type: ignore[attr-defined]
    guild_id, viewer = interaction.guild_id, interaction.user
    await store.remember_names(guild_id, {viewer.id: viewer.display_name})
    rows, total = await store.board(guild_id, metric, game, page * PAGE_SIZE, PAGE_SIZE)
    pages = max(1, -(-total // PAGE_SIZE))
    if page >= pages:
        page = pages - 1
        rows, total = await store.board(guild_id, metric, game, page * PAGE_SIZE, PAGE_SIZE)
    mine = await store.board_rank(guild_id, metric, game, viewer.id)
    guild = interaction.guild
    embed = discord.Embed(
        title=f"Leaderboard — {guild.name}" if guild else "Leaderboard",
        description="\n".join(line(guild, metric, row) for row in rows)
        or "Nobody is on this board yet.",
        colour=BOARD_COLOUR,
    )
    what = METRIC_TITLES[metric]
    embed.set_author(name=f"{GAME_TITLES[game]} · {what}" if game else what)
    embed.add_field(
        name="Your rank",
        value=f"{mine.rank} of {total} ({value_text(metric, mine.value)})" if mine
        else "Not on this board yet.",
        inline=False,
    )
    embed.set_footer(text=f"Page {page + 1} of {pages}")
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(metric, game, max(page - 1, 0), label="Previous",
                             disabled=page == 0))
    view.add_item(PageButton(metric, game, page + 1, label="Next", disabled=page + 1 >= pages))
    return embed, view


def line(guild: discord.Guild | None, metric: str, row: BoardRow) -> str:
    """``**3.** Alice — 1,200 chips``."""
    return (f"**{row.rank}.** {member_name(guild, row.user_id, row.name)} — "
            f"{value_text(metric, row.value)}")


class Leaderboard(commands.Cog):
    """The ``/leaderboard`` command."""

    def __init__(self, bot: ParlourBot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard")
    @app_commands.guild_only()
    @app_commands.choices(metric=[
        app_commands.Choice(name=title, value=metric) for metric, title in METRIC_TITLES.items()
    ])
    async def leaderboard(
        self, interaction: discord.Interaction, game: GameName | None = None,
        metric: str | None = None,
    ) -> None:
        """Show this server's leaderboard and your rank.

        Parameters
        ----------
        game
            One game's board; every game (or chips) when left out.
        metric
            Chips (balances), rating (per game), wins or games; chips without a game,
            rating with one, when left out.
        """
        metric = metric or ("rating" if game else "chips")
        problem = board_problem(metric, game)
        if problem is not None:
            await reply(interaction, content=problem, ephemeral=True)
            return
        embed, view = await within_deadline(
            interaction, render_board(interaction, metric, game, 0), ephemeral=False
        )
        await reply(interaction, embed=embed, view=view)


async def setup(bot: ParlourBot) -> None:
    """Extension entry point (loaded by ``bot.app``)."""
    bot.add_dynamic_items(PageButton)
    await bot.add_cog(Leaderboard(bot))
