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
from bot.i18n.commands import command_text
from bot.render.common import COLOUR, fit

BUTTONS = ("join", "add_ai", "start", "hand", "next_deal", "back", "leave", "verify")
"""The table buttons /help explains (labels ``button.<verb>``, lines ``help.button.<verb>``)."""


def help_embed(lang: Language, games: list[str],
               locale: discord.Locale | None = None) -> discord.Embed:
    """The ``/help`` message in ``lang``.

    Parameters
    ----------
    lang
        The reader's language.
    games
        Each hosted game's command name, in the order to list them.
    locale
        The reader's Discord client locale: the slash commands are named as that client
        lists them (Italian, Dutch; :func:`bot.i18n.commands.command_text`).
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
    embed.description = command_text(embed.description or "", locale)
    for index, field in enumerate(embed.fields):
        embed.set_field_at(index, name=field.name, value=command_text(field.value or "", locale),
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
        embed = help_embed(lang, list(self.bot.tables.games), interaction.locale)
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: ParlourBot) -> None:
    """Extension entry point (loaded by ``bot.app``)."""
    await bot.add_cog(Help(bot))
