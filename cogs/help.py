"""``/help``: what Parlour does and how to use it, in one private message (in the member's
language).

The games listed are those the bot hosts (its table registry), each with its ``start`` and
``how-to-play`` commands, so a new game shows up here without an edit.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import ParlourBot
from bot.i18n import Language, Msg
from bot.render.common import COLOUR, fit

BUTTONS = ("join", "add_ai", "start", "hand", "next_deal", "back", "leave", "verify")
"""The table buttons /help explains (labels ``button.<verb>``, lines ``help.button.<verb>``)."""


def help_embed(lang: Language, games: list[str]) -> discord.Embed:
    """The ``/help`` message in ``lang``.

    Parameters
    ----------
    lang
        The reader's language; the slash commands are named as its client lists them
        (:meth:`bot.i18n.Language.commands`: the member's own, Italian and Dutch ones
        localized).
    games
        Each hosted game's command name, in the order to list them.
    """
    t = lang.t
    start = "\n".join(t("help.start_line", game=Msg(f"game.{name}"), start=f"`/{name} start`",
                         guide=f"`/{name} how-to-play`") for name in games)
    buttons = "\n".join(t(f"help.button.{verb}", button=t(f"button.{verb}")) for verb in BUTTONS)
    embed = discord.Embed(title=t("help.title"), description=t("help.intro"), colour=COLOUR)
    embed.add_field(name=t("help.start_field"), value=start + "\n" + t("help.lobby"),
                    inline=False)
    embed.add_field(name=t("help.buttons_field"), value=buttons, inline=False)
    embed.add_field(name=t("help.commands_field"),
                    value=t("help.commands") + "\n" + t("help.pace"), inline=False)
    embed.add_field(name=t("help.ranked_field"), value=t("help.ranked"), inline=False)
    embed.add_field(name=t("help.fair_field"), value=t("help.fair"), inline=False)
    embed.set_footer(text=t("help.footer"))
    embed.description = lang.commands(embed.description or "")
    for index, field in enumerate(embed.fields):
        embed.set_field_at(index, name=field.name, value=lang.commands(field.value or ""),
                           inline=False)
    return fit(embed, lang)


class Help(commands.Cog):
    """The ``/help`` command of one bot."""

    def __init__(self, bot: ParlourBot) -> None:
        self.bot = bot

    @app_commands.command(name="help")
    async def help(self, interaction: discord.Interaction) -> None:
        """What Parlour does, how to start a table and every command."""
        lang = await self.bot.languages.for_member(interaction)
        embed = help_embed(lang, list(self.bot.tables.games))
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: ParlourBot) -> None:
    """Extension entry point (loaded by ``bot.app``)."""
    await bot.add_cog(Help(bot))
