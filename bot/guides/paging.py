"""A guide page as a message, with Previous/Next buttons that keep working after a restart.

The buttons are :class:`GuidePageButton` dynamic items whose custom_id names the game and the
page they open (``guide:tripoli:2``); a click edits the message it came from (a private
answer to ``/<game> how-to-play``) to show that page. Call :func:`register_guides` once per
bot.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.guides import GUIDES
from bot.render.common import COLOUR, fit, visible
from bot.runtime.spec import Rendered

PREFIX = "guide"


def page_message(game: str, index: int) -> Rendered:
    """Page ``index`` of ``game``'s guide (clamped to its pages) and its buttons.

    Raises
    ------
    KeyError
        If ``game`` has no guide.
    """
    pages = GUIDES[game].all_pages
    index = min(max(index, 0), len(pages) - 1)
    page = pages[index]
    embed = discord.Embed(
        title=f"How to play {GUIDES[game].title} — {page.title}",
        description=visible(page.text),
        colour=COLOUR,
    )
    embed.set_footer(text=f"Page {index + 1} of {len(pages)} · /help lists every command")
    view = discord.ui.View(timeout=None)
    if len(pages) > 1:
        view.add_item(GuidePageButton(game, max(index - 1, 0), label="◀ Previous",
                                      disabled=index == 0))
        view.add_item(GuidePageButton(game, min(index + 1, len(pages) - 1), label="Next ▶",
                                      disabled=index == len(pages) - 1))
    return Rendered(fit(embed), view)


class GuidePageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:(?P<game>[a-z]+):(?P<page>[0-9]+)",
):
    """A button that turns a guide message to page ``page`` of ``game``'s guide."""

    def __init__(self, game: str, page: int, *, label: str, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            custom_id=f"{PREFIX}:{game}:{page}", label=label, disabled=disabled,
            style=discord.ButtonStyle.secondary,
        ))
        self.game, self.page = game, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> GuidePageButton:
        assert isinstance(item, discord.ui.Button)
        return cls(match["game"], int(match["page"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.game not in GUIDES:
            await interaction.response.send_message(
                "This guide is no longer available; `/help` lists the games.", ephemeral=True)
            return
        rendered = page_message(self.game, self.page)
        await interaction.response.edit_message(embed=rendered.embed, view=rendered.view)


def register_guides(bot: Any) -> None:
    """Make ``bot`` answer guide buttons, also those of messages sent before a restart
    (idempotent)."""
    bot.add_dynamic_items(GuidePageButton)
