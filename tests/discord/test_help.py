"""``/help`` and ``/<game> how-to-play`` in simcord: private answers within Discord's limits,
and guide pages that turn with Previous/Next, also after a restart."""

from __future__ import annotations

import discord
import pytest
from simcord import interactions as simcord_interactions
from test_languages import manager

from bot.games import GAMES
from bot.guides import GUIDES
from bot.i18n import ENGLISH, LANGUAGES
from bot.i18n.commands import command_name
from bot.render import common
from bot.runtime.spec import Rendered
from cogs.help import help_embed


async def test_help_explains_the_bot_to_a_stranger(world):
    result = await world.slash(world.alice, "help")
    answer = result.response
    assert answer.ephemeral
    [embed] = answer.embeds
    assert common.limit_problems(Rendered(embed, None)) == []
    text = "\n".join([embed.description or "", *(f"{f.name}\n{f.value}" for f in embed.fields)])
    for game in world.bot.tables.games:
        assert f"/{game} start" in text and f"/{game} how-to-play" in text
    for button in ("Join", "Add AI", "Start", "My hand", "Next deal", "I'm back", "Leave",
                   "Verify"):
        assert f"**{button}**" in text, button
    for command in ("rules", "how-to-play", "house-rules", "kick", "end"):
        assert f"/<game> {command}" in text, command
    for command in ("/chips balance", "/chips history", "/leaderboard", "/stats",
                    "/settings dm", "/settings images"):
        assert command in text
    assert "ranked" in text and "casual" in text and "SHA-256" in text
    assert "pace:" in text and "minutes:" in text
    assert "`metric`" in text and "nothing is recorded" not in text  # tryout #8


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_help_fits_discord_in_every_language(code):
    embed = help_embed(LANGUAGES[code], list(GAMES))
    assert common.limit_problems(Rendered(embed, None)) == []
    stats = LANGUAGES[code].command("/stats")  # as a client in the language lists it
    assert all(f"`{stats}`" in field.value for field in embed.fields[2:3])


@pytest.mark.parametrize("game", list(GAMES))
async def test_how_to_play_answers_privately_and_pages_after_a_restart(world, game):
    pages = GUIDES[game].all_pages(ENGLISH)
    shown = await world.slash(world.bob, f"{game} how-to-play")
    guide = shown.response
    assert guide.ephemeral and pages[0].title in guide.embeds[0].title
    await world.click(world.bob, guide, label="Next ▶")
    assert pages[1].title in guide.embeds[0].title
    await world.restart()
    await world.click(world.bob, guide, label="Next ▶")
    assert pages[2].title in guide.embeds[0].title
    await world.click(world.bob, guide, label="◀ Previous")
    assert pages[1].title in guide.embeds[0].title


def test_help_names_the_commands_as_the_members_client_lists_them():
    """Tryout #2: a Dutch or Italian client lists /tripoli hoe-speel-je, /ranglijst …, but
    /help named the English commands; names with no translation and <placeholders> stay."""
    games = list(GAMES)

    def text(embed):
        return "\n".join(field.value for field in embed.fields)

    dutch = text(help_embed(LANGUAGES["nl"].for_client(discord.Locale.dutch), games))
    assert "`/tripoli hoe-speel-je`" in dutch and "`/ranglijst`" in dutch
    assert "`/fiches saldo`" in dutch and "`/<game> regels`" in dutch
    assert "how-to-play" not in dutch and "/leaderboard" not in dutch
    italian = text(help_embed(LANGUAGES["en"].for_client(discord.Locale.italian), games))
    assert "/leaderboard" not in italian and "/tripoli how-to-play" not in italian
    assert command_name("/chips history page:<n>", discord.Locale.dutch) == (
        "/fiches geschiedenis pagina:<n>")  # the history's footer
    english_client = text(help_embed(
        LANGUAGES["nl"].for_client(discord.Locale.american_english), games))
    assert "`/tripoli how-to-play`" in english_client and "`/leaderboard`" in english_client


async def test_a_dutch_lobby_names_the_rules_command_as_a_dutch_client_lists_it(world):
    """Tryout #2: the lobby of a Dutch channel said "Details: `/tripoli rules`" (a Dutch
    client lists /tripoli regels); an English channel keeps the English name."""
    opened = await world.slash(world.alice, "tripoli start")
    assert "`/tripoli rules`" in opened.response.embeds[0].description
    await world.slash(world.alice, "tripoli end")
    mona = await manager(world)
    await world.slash(mona, "settings language", language="nl", **{"for": "channel"})
    opened = await world.slash(world.alice, "tripoli start")
    assert "`/tripoli regels`" in opened.response.embeds[0].description


def client_locales(monkeypatch, locales: dict[int, str]) -> None:
    """Members' Discord clients in other locales than simcord's en-US: the interactions of
    each member id in ``locales`` carry that ``locale``."""
    made = simcord_interactions.base_payload

    def payload(backend, *, user_id, **values):
        record, built = made(backend, user_id=user_id, **values)
        if user_id in locales:
            built["locale"] = locales[user_id]
        return record, built

    monkeypatch.setattr(simcord_interactions, "base_payload", payload)


async def test_private_texts_name_commands_as_the_members_client_and_public_ones_as_the_channel(
        world, monkeypatch):
    """A rules card or guide shown privately names the commands as the member's own
    client lists them, whatever language they chose: Dutch on an English client reads
    ``/tripoli end``, Persian on an Italian client ``/tripoli termina``; the channel's lobby
    keeps the names of a client in the channel's language."""
    alice, bob = world.alice, world.bob
    client_locales(monkeypatch, {bob.id: "it"})
    mona = await manager(world)
    await world.slash(mona, "settings language", language="nl", **{"for": "channel"})
    await world.slash(alice, "settings language", language="nl")
    await world.slash(bob, "settings language", language="fa")

    def end_rule(message) -> str:
        return "\n".join(field.value for field in message.embeds[0].fields)

    dutch = (await world.slash(alice, "tripoli rules")).response
    assert dutch.ephemeral and "De sessie eindigt" in end_rule(dutch)
    assert "`/tripoli end`" in end_rule(dutch) and "beëindigen" not in end_rule(dutch)
    persian = (await world.slash(bob, "tripoli rules")).response
    assert persian.ephemeral and "`/tripoli termina`" in end_rule(persian)
    assert "`/tripoli end`" not in end_rule(persian)
    guide = (await world.slash(bob, "tripoli how-to-play")).response
    pages = GUIDES["tripoli"].all_pages(LANGUAGES["fa"].for_client("it"))
    assert guide.embeds[0].description == pages[0].text
    assert any("`/tripoli regole`" in page.text for page in pages)
    assert not any("`/tripoli rules`" in page.text for page in pages)
    lobby = (await world.slash(bob, "tripoli start")).response
    assert "`/tripoli regels`" in lobby.embeds[0].description  # the Dutch channel's
