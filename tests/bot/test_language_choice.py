"""Who sees which language (bot/i18n/choice.py): a member's setting, else their Discord
client's; a channel's setting, else the server's, else the server's Discord locale; English
last. Settings live in the store and are read once."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from bot.i18n.choice import Languages
from bot.store import SqliteStore, StoreError

GUILD, CHANNEL, OTHER_CHANNEL, ANN, BEN = 10, 20, 21, 1, 2


@pytest.fixture
async def store(tmp_path):
    async with SqliteStore(tmp_path / "parlour.db", starting_chips=1000) as store:
        yield store


def interaction(user: int, locale: discord.Locale, guild_locale: discord.Locale | None,
                channel: int = CHANNEL):
    return SimpleNamespace(user=SimpleNamespace(id=user), locale=locale, guild_id=GUILD,
                           channel_id=channel, guild_locale=guild_locale)


async def test_without_settings_private_follows_the_client_and_public_the_server(store):
    languages = Languages(SimpleNamespace(store=store))
    assert (await languages.for_member(interaction(ANN, discord.Locale.italian, None))).code == "it"
    bens = interaction(BEN, discord.Locale.brazil_portuguese, discord.Locale.dutch)
    assert (await languages.for_member(bens)).code == "en"  # a language we do not speak
    assert (await languages.for_channel(bens)).code == "nl"
    assert languages.private(ANN).code == "it" and languages.private(None).code == "en"
    assert languages.public(99, 98).code == "en"


async def test_settings_win_and_channel_beats_server(store):
    languages = Languages(SimpleNamespace(store=store))
    await languages.choose(f"user:{ANN}", "fa")
    await languages.choose(f"guild:{GUILD}", "it")
    await languages.choose(f"channel:{CHANNEL}", "nl")
    fresh = Languages(SimpleNamespace(store=store))  # read back from the store, as after a restart
    anns = interaction(ANN, discord.Locale.italian, discord.Locale.american_english)
    assert (await fresh.for_member(anns)).code == "fa"
    assert (await fresh.for_channel(anns)).code == "nl"
    other = interaction(BEN, discord.Locale.dutch, discord.Locale.american_english, OTHER_CHANNEL)
    assert (await fresh.for_channel(other)).code == "it"
    assert (await fresh.for_member(other)).code == "nl"
    await fresh.choose(f"channel:{CHANNEL}", None)  # automatic again
    assert fresh.public(GUILD, CHANNEL).code == "it"
    assert await store.get_setting(f"channel:{CHANNEL}", "language") is None


async def test_an_unknown_language_is_refused_and_changes_nothing(store):
    languages = Languages(SimpleNamespace(store=store))
    with pytest.raises(ValueError):
        await languages.choose(f"user:{ANN}", "xx")
    assert await store.get_setting(f"user:{ANN}", "language") is None


async def test_a_failing_store_falls_back_and_reads_again_later(store):
    class Failing:
        calls = 0

        async def get_setting(self, scope, key):
            Failing.calls += 1
            if Failing.calls == 1:
                raise StoreError("down")
            return '"fa"'

    languages = Languages(SimpleNamespace(store=Failing()))
    anns = interaction(ANN, discord.Locale.italian, None)
    assert (await languages.for_member(anns)).code == "it"
    assert (await languages.for_member(anns)).code == "fa"
