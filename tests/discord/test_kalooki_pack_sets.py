"""Kalooki's pack sets at a table (rules/kalooki.md §2.14 ``packs`` and ``jokers``):
``/kalooki start`` and ``/kalooki house-rules`` take them, the lobby line and ``/kalooki rules``
name them, a six-seat table deals from 3 packs and 8 jokers, and a set out of range is
refused by Discord before the bot (no table, no house rules)."""

from __future__ import annotations

import json

import discord
import pytest
from simcord import MemberActor, OptionError

HOUSE = "kalooki_rules"


def manager(world) -> MemberActor:
    role = world.guild.create_role("mods", permissions=discord.Permissions(manage_channels=True))
    return world.guild.add_member(world.env.create_user("mona", global_name="Mona"), roles=[role])


def text(message) -> str:
    embed = message.embeds[0]
    return "\n".join([embed.description or "", *(f.value for f in embed.fields)])


async def test_six_seats_deal_from_three_packs_and_eight_jokers(world):
    opened = await world.slash(world.alice, "kalooki start", packs=3, jokers=8)
    assert "3 packs and 8 jokers: 164 cards." in opened.response.embeds[0].description
    shown = await world.slash(world.bob, "kalooki rules")
    assert "164 cards (3 packs of 52 and 8 jokers)" in text(shown.response)
    for _ in range(5):
        await world.click(world.alice, opened.response, label="Add AI")
    await world.click(world.alice, opened.response, label="Start")
    game = world.bot.tables.by_channel[world.channel.id].game
    assert (game.rules.packs, game.rules.jokers, game.seats) == (3, 8, 6)
    every = [c for h in game.hands for c in h] + game.stock + game.discard
    assert sorted(every) == [*range(160), 420, 421, 422, 423]


async def test_house_rules_keep_a_pack_set_and_start_uses_it(world):
    mona = manager(world)
    saved = await world.slash(mona, "kalooki house-rules", jokers=6)
    assert saved.response.ephemeral and "110 cards (2 packs of 52 and 6 jokers)" in text(
        saved.response)
    scope = f"channel:{world.channel.id}"
    assert json.loads(await world.store.get_setting(scope, HOUSE))["jokers"] == 6
    opened = await world.slash(world.alice, "kalooki start")
    assert "2 packs and 6 jokers: 110 cards." in opened.response.embeds[0].description
    table = world.bot.tables.by_channel[world.channel.id]
    assert world.bot.tables.games["kalooki"].rules(table.options).cards == 110


async def test_a_pack_set_out_of_range_never_reaches_the_bot(world):
    for options in ({"jokers": 3}, {"packs": 9}, {"packs": 1}):
        with pytest.raises(OptionError):
            await world.alice.slash(world.channel, "kalooki start", **options)
    mona = manager(world)
    with pytest.raises(OptionError):
        await mona.slash(world.channel, "kalooki house-rules", jokers=25)
    assert world.bot.tables.by_id == {}
    assert await world.store.get_setting(f"channel:{world.channel.id}", HOUSE) is None
