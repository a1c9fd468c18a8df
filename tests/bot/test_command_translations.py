"""Slash commands in Italian and Dutch (bot/i18n/commands.py): every name, description, option
and choice has a translation, and each fits Discord's rules for its place."""

from __future__ import annotations

import re

import discord
import pytest
from discord import app_commands

from bot.app import cog_modules, create_bot
from bot.config import Settings
from bot.i18n.catalogs import catalog
from bot.i18n.commands import COMMAND_LANGUAGES, CommandTranslator

NAME = re.compile(r"^[-_\w]{1,32}$")
Location = app_commands.TranslationContextLocation
NAMES = {Location.command_name, Location.group_name, Location.parameter_name}


@pytest.fixture
async def tree(tmp_path):
    bot = create_bot(Settings(_env_file=None, discord_token=None, database=tmp_path / "x.db"))
    for module in cog_modules():
        await bot.load_extension(module)
    return bot.tree


class Recorder(app_commands.Translator):
    """Every string discord.py asks to translate, with where it stands."""

    def __init__(self) -> None:
        self.asked: dict[str, set[Location]] = {}

    async def translate(self, string, locale, context):
        self.asked.setdefault(string.message, set()).add(context.location)
        return None


async def test_every_command_text_has_an_italian_and_a_dutch_translation(tree):
    recorder = Recorder()
    for command in tree.get_commands():
        await command.get_translated_payload(tree, recorder)
    assert len(recorder.asked) > 100
    for code in COMMAND_LANGUAGES.values():
        known = {message.id for message in catalog(code, "commands") if message.id}
        assert sorted(set(recorder.asked) - known) == [], code
        assert sorted(known - set(recorder.asked)) == [], f"{code}: no longer asked"
        for text, places in recorder.asked.items():
            translated = catalog(code, "commands").get(text).string
            assert translated, (code, text)
            if places & NAMES:
                assert NAME.fullmatch(translated) and translated == translated.lower(), translated
            assert len(translated) <= 100, (code, translated)


@pytest.mark.parametrize("locale", list(COMMAND_LANGUAGES))
async def test_translated_commands_have_distinct_names_and_persian_is_left_english(tree, locale):
    translator = CommandTranslator()
    for command in tree.get_commands():
        payload = await command.get_translated_payload(tree, translator)
        assert payload["name_localizations"].get(locale.value) or payload["name"]
        for level in (payload.get("options", []),):
            names = [option.get("name_localizations", {}).get(locale.value, option["name"])
                     for option in level]
            assert len(names) == len(set(names)), names
    assert await translator.translate(app_commands.locale_str("chips"), discord.Locale.italian,
                                      None) == "fiches"
    assert await translator.translate(app_commands.locale_str("chips"),
                                      discord.Locale.brazil_portuguese, None) is None
