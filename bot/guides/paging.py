"""A guide page as a message, with Previous/Next buttons that keep working after a restart.

The buttons are :class:`GuidePageButton` dynamic items whose custom_id names the game and the
page they open (``guide:tripoli:2``); a click edits the message it came from (a private
answer to ``/<game> how-to-play``) to show that page, in the clicking member's language
(:meth:`bot.i18n.choice.Languages.for_member`), so a page turned after a restart or after a
change of ``/settings language`` reads as a fresh ``how-to-play`` would. Call
:func:`register_guides` once per bot.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.guides import GUIDES
from bot.i18n import ENGLISH, Language, Msg
from bot.render.common import COLOUR, fit, visible
from bot.runtime.spec import Rendered

PREFIX = "guide"


def page_message(game: str, index: int, lang: Language = ENGLISH) -> Rendered:
    """Page ``index`` of ``game``'s guide (clamped to its pages) and its buttons, in
    ``lang``.

    Raises
    ------
    KeyError
        If ``game`` has no guide.
    """
    pages = GUIDES[game].all_pages(lang)
    index = min(max(index, 0), len(pages) - 1)
    page = pages[index]
    embed = discord.Embed(
        title=lang.t("guide.title", game=Msg(f"game.{game}"), page=page.title),
        description=visible(page.text),
        colour=COLOUR,
    )
    embed.set_footer(text=lang.t("guide.footer", page=index + 1, pages=len(pages)))
    view = discord.ui.View(timeout=None)
    if len(pages) > 1:
        view.add_item(GuidePageButton(game, max(index - 1, 0), label=lang.t("guide.previous"),
                                      disabled=index == 0))
        view.add_item(GuidePageButton(game, min(index + 1, len(pages) - 1),
                                      label=lang.t("guide.next"),
                                      disabled=index == len(pages) - 1))
    return Rendered(fit(embed, lang), view)


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
        languages = interaction.client.languages  # type: ignore[attr-defined]
        lang = await languages.for_member(interaction)
        if self.game not in GUIDES:
            gone = lang.commands(lang.t("guide.gone"))
            await interaction.response.send_message(gone, ephemeral=True)
            return
        rendered = page_message(self.game, self.page, lang)
        await interaction.response.edit_message(embed=rendered.embed, view=rendered.view)


def register_guides(bot: Any) -> None:
    """Make ``bot`` answer guide buttons, also those of messages sent before a restart
    (idempotent)."""
    bot.add_dynamic_items(GuidePageButton)
