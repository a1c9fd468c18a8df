"""Slash commands in the members' languages where Discord has them (issue 11 §3).

discord.py asks a :class:`discord.app_commands.Translator` for every command name,
description, option and choice, in every locale Discord knows, when the commands are synced.
The English text (the command's name, its docstring) is the message id of
``locales/<code>/commands.po``; a language without a Discord locale (Persian) or a text not
translated yet gives None, and Discord shows the English.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.i18n import catalogs

COMMAND_LANGUAGES = {discord.Locale.italian: "it", discord.Locale.dutch: "nl"}
"""Discord locales that have a commands catalog."""

_COMMAND_SPAN = re.compile(r"`(/[^`\n]+)`")
_COMMAND_WORD = re.compile(r"<[^>]*>|[a-z][a-z0-9_-]*")


def command_name(command: str, locale: discord.Locale | None) -> str:
    """A slash command (``/tripoli how-to-play``, ``/chips history page:<n>``) named as a
    client in ``locale`` lists it (``/tripoli hoe-speel-je`` in Dutch): its command,
    subcommand, option and choice names from the ``commands`` catalog; ``<placeholders>``
    and names without a translation stay. Unchanged for a locale without a catalog."""
    code = COMMAND_LANGUAGES.get(locale) if locale is not None else None
    if code is None:
        return command
    names = catalogs.catalog(code, "commands")

    def word(match: re.Match[str]) -> str:
        message = names.get(match.group(0))
        return message.string if message is not None and message.string else match.group(0)

    return _COMMAND_WORD.sub(word, command)


def board_locale(code: str) -> discord.Locale | None:
    """The client locale a public message in language ``code`` names its commands for (a
    board in Dutch: a Dutch client's names); None (English names) for English and for a
    language without a Discord locale (Persian)."""
    return next((locale for locale, name in COMMAND_LANGUAGES.items() if name == code), None)


def command_text(text: str, locale: discord.Locale | None) -> str:
    """``text`` with each slash command in a code span named by :func:`command_name`."""
    return _COMMAND_SPAN.sub(lambda span: f"`{command_name(span.group(1), locale)}`", text)


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
