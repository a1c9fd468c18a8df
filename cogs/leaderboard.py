"""``/leaderboard [game] [metric]``: the server's boards, 10 members a page.

Metrics: ``chips`` (balances; the default without a game), ``rating`` (one game's
conservative rating ``mu - 3 sigma``, :mod:`bot.ratings`; the default with a game), ``wins``
and ``games`` (ranked results of one game, or of every game). Members with equal values share
a rank. The board is public; under the page it shows the rank of the member who asked for it,
by name ("Alice's rank"), even when they are not on it. Members are named by their display
name, never by a mention; a member who left the server by the last name the bot saw (their
results or commands). Previous/Next are :class:`PageButton` DynamicItems whose custom_id holds
the board, the page and the member who asked, so they keep working after a restart.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import ParlourBot
from bot.i18n import ENGLISH, Language, Msg
from bot.replies import reply, within_deadline
from bot.store import BoardRow, Metric, Store
from cogs.chips import chips_text

PAGE_SIZE = 10
BOARD_COLOUR = discord.Colour.gold()
GAMES = ("tripoli", "troefcall", "kalooki")
"""The games with boards and stats, by their results' name (titles: ``game.<name>``)."""
GameName = Literal["tripoli", "troefcall", "kalooki"]
METRICS = ("chips", "rating", "wins", "games")
"""The boards' metrics (titles: ``board.metric.<metric>``)."""


def rating_text(lang: Language, value: float) -> str:
    """A conservative rating, one decimal (``12.3``, ``12,3``)."""
    return lang.decimal(value)


def value_text(lang: Language, metric: str, value: float | int) -> str:
    """How a board shows a value of ``metric``."""
    match metric:
        case "chips":
            return chips_text(lang, int(value))
        case "rating":
            return rating_text(lang, float(value))
        case "wins":
            return lang.t("board.wins", count=int(value), amount=lang.grouped(int(value)))
    return lang.t("board.games", count=int(value), amount=lang.grouped(int(value)))


def member_name(lang: Language, guild: discord.Guild | None, user_id: int,
                known: str | None) -> str:
    """The name a board shows: the member's display name now, else the last one seen (for
    members who left), markdown escaped; never a mention."""
    member = guild.get_member(user_id) if guild else None
    name = member.display_name if member else known
    return discord.utils.escape_markdown(name) if name else lang.t("board.former_member")


def board_problem(metric: str, game: str | None) -> str | None:
    """Why ``metric`` cannot be shown for ``game`` (a message id; None when it can)."""
    if metric == "chips" and game is not None:
        return "board.chips_per_server"
    if metric == "rating" and game is None:
        return "board.rating_per_game"
    return None


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lb:(?P<metric>chips|rating|wins|games):(?P<game>[a-z]*):(?P<page>[0-9]{1,6})"
             r"(?::(?P<author>[0-9]{1,20}))?",
):
    """Previous or Next: shows page ``page`` of the board ``(metric, game)`` that member
    ``author`` asked for.

    Whoever presses it turns the page of the public message for everyone reading it, and the
    rank under the page stays its author's, named: the message answers the author's
    ``/leaderboard``, and a line that changed to the last clicker's rank would tell the
    channel about someone else under the same words. A member who wants their own rank asks
    for their own board. A button posted before the author was kept (no ``author``) shows the
    clicker's rank, named too.
    """

    def __init__(self, metric: str, game: str | None, page: int, author: int | None, *,
                 label: str, disabled: bool = False) -> None:
        asked = "" if author is None else f":{author}"
        super().__init__(discord.ui.Button(
            custom_id=f"lb:{metric}:{game or ''}:{page}{asked}", label=label, disabled=disabled,
            style=discord.ButtonStyle.secondary,
        ))
        self.metric, self.game, self.page, self.author = metric, game, page, author

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PageButton:
        assert isinstance(item, discord.ui.Button)
        author = int(match["author"]) if match["author"] else None
        return cls(match["metric"], match["game"] or None, int(match["page"]), author,
                   label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        author = interaction.user.id if self.author is None else self.author
        embed, view = await within_deadline(
            interaction, render_board(interaction, self.metric, self.game, self.page, author)
        )
        if interaction.response.is_done():
            await interaction.edit_original_response(embed=embed, view=view)
        else:
            await interaction.response.edit_message(embed=embed, view=view)


async def render_board(
    interaction: discord.Interaction, metric: Metric | str, game: str | None, page: int,
    author: int,
) -> tuple[discord.Embed, discord.ui.View]:
    """Page ``page`` (0-based, clamped to the board) of the board member ``author`` asked
    for, with their rank under it, named (whoever of the server turns the page).

    Raises
    ------
    StoreError
        If the store fails.
    """
    store: Store = interaction.client.store  # type: ignore[attr-defined]
    lang = await interaction.client.languages.for_channel(interaction)  # type: ignore[attr-defined]
    t = lang.t
    guild_id, viewer = interaction.guild_id, interaction.user
    await store.remember_names(guild_id, {viewer.id: viewer.display_name})
    rows, total = await store.board(guild_id, metric, game, page * PAGE_SIZE, PAGE_SIZE)
    pages = max(1, -(-total // PAGE_SIZE))
    if page >= pages:
        page = pages - 1
        rows, total = await store.board(guild_id, metric, game, page * PAGE_SIZE, PAGE_SIZE)
    mine = await store.board_rank(guild_id, metric, game, author)
    guild = interaction.guild
    known = viewer.display_name if author == viewer.id else mine.name if mine else None
    embed = discord.Embed(
        title=t("board.title", server=guild.name) if guild else t("board.title_plain"),
        description="\n".join(line(lang, guild, metric, row) for row in rows)
        or t("board.empty"),
        colour=BOARD_COLOUR,
    )
    what = Msg(f"board.metric.{metric}")
    embed.set_author(name=t("board.author", game=Msg(f"game.{game}"), metric=what) if game
                     else t(what))
    embed.add_field(
        name=t("board.rank_of_member", name=member_name(lang, guild, author, known)),
        value=t("board.rank_of", rank=mine.rank, total=total,
                value=value_text(lang, metric, mine.value)) if mine else t("board.not_on"),
        inline=False,
    )
    embed.set_footer(text=t("board.page", page=page + 1, pages=pages))
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(metric, game, max(page - 1, 0), author, label=t("board.previous"),
                             disabled=page == 0))
    view.add_item(PageButton(metric, game, page + 1, author, label=t("board.next"),
                             disabled=page + 1 >= pages))
    return embed, view


def line(lang: Language, guild: discord.Guild | None, metric: str, row: BoardRow) -> str:
    """``**3.** Alice — 1,200 chips``."""
    return lang.t("board.line", rank=row.rank, name=member_name(lang, guild, row.user_id, row.name),
                  value=value_text(lang, metric, row.value))


class Leaderboard(commands.Cog):
    """The ``/leaderboard`` command."""

    def __init__(self, bot: ParlourBot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard")
    @app_commands.guild_only()
    @app_commands.choices(metric=[
        app_commands.Choice(name=ENGLISH.t(f"board.metric.{metric}"), value=metric)
        for metric in METRICS
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
            lang = await self.bot.languages.for_member(interaction)
            await reply(interaction, content=lang.t(problem), ephemeral=True)
            return
        embed, view = await within_deadline(
            interaction, render_board(interaction, metric, game, 0, interaction.user.id),
            ephemeral=False
        )
        await reply(interaction, embed=embed, view=view)


async def setup(bot: ParlourBot) -> None:
    """Extension entry point (loaded by ``bot.app``)."""
    bot.add_dynamic_items(PageButton)
    await bot.add_cog(Leaderboard(bot))
