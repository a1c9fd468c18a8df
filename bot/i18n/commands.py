"""Slash commands in the members' languages where Discord has them (issue 11 §3).

discord.py asks a :class:`discord.app_commands.Translator` for every command name,
description, option and choice, in every locale Discord knows, when the commands are synced.
The English text (the command's name, its docstring) is the message id of
``locales/<code>/commands.po``; a language without a Discord locale (Persian) or a text not
translated yet gives None, and Discord shows the English.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import catalogs

COMMAND_LANGUAGES = {discord.Locale.italian: "it", discord.Locale.dutch: "nl"}
"""Discord locales that have a commands catalog."""


class CommandTranslator(app_commands.Translator):
    """Reads command names and descriptions from the ``commands`` catalogs."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The text of ``string`` in ``locale``, or None to keep the English."""
        code = COMMAND_LANGUAGES.get(locale)
        if code is None:
            return None
        message = catalogs.catalog(code, "commands").get(string.message)
        return message.string or None if message is not None else None
