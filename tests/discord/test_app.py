"""The bot factory inside simcord: intents, command sync, start-up escrow return, error answers."""

from __future__ import annotations

import discord
import pytest
import simcord

from bot.app import cog_modules, create_bot
from bot.replies import GENERIC_FAILURE
from bot.store import StoreError, open_store

GUILD_ID = 1_234_567_890_123_456


def test_every_cog_module_is_discovered():
    assert "cogs.chips" in cog_modules()
    assert all(not name.split(".")[-1].startswith("_") for name in cog_modules())


@pytest.mark.simcord(approved_intents=discord.Intents.default())
async def test_needs_no_privileged_intent(simcord_env):
    """Started with only the non-privileged intents approved: no PrivilegedIntentsRequired."""
    intents = simcord_env.bot.intents
    assert not (intents.members or intents.presences or intents.message_content)
    assert simcord_env.bot.is_ready()


async def test_commands_sync_to_one_guild_when_asked(settings, clock):
    bot = create_bot(settings.model_copy(update={"sync": GUILD_ID}), clock=clock)
    env = simcord.Env(bot)
    dev = env.create_guild("Dev", id=GUILD_ID)
    other = env.create_guild("Elsewhere")
    await env.start()
    try:
        with env.time_context():
            tester = dev.add_member(env.create_user("tester"))
            stranger = other.add_member(env.create_user("stranger"))
            assert "leaderboard" in tester.available_commands(dev.create_text_channel("dev"))
            assert "leaderboard" not in stranger.available_commands(other.create_text_channel("x"))
    finally:
        await env.shutdown()
        await bot.close()


async def test_sync_off_registers_nothing(settings, clock):
    bot = create_bot(settings.model_copy(update={"sync": "off"}), clock=clock)
    async with simcord.run(bot, strict_sync=True) as env:
        guild = env.create_guild()
        member = guild.add_member(env.create_user("someone"))
        assert member.available_commands(guild.create_text_channel("general")) == ()
        assert not any(request.path.endswith("/commands") for request in env.http_requests)
    await bot.close()


async def test_escrow_of_vanished_tables_is_returned_at_start_up(settings, clock):
    store = await open_store(settings.database, starting_chips=settings.starting_chips)
    await store.balance(GUILD_ID, 7)
    await store.escrow(GUILD_ID, 7, "gone", 300)
    await store.close()

    bot = create_bot(settings, clock=clock)
    async with simcord.run(bot):
        assert await bot.store.table_escrow("gone") == 0
        assert await bot.store.balance(GUILD_ID, 7) == settings.starting_chips
        assert await bot.store.audit(GUILD_ID) == (settings.starting_chips, 0, 1000)
    await bot.close()


async def test_a_failing_command_is_answered_once_ephemerally(world, monkeypatch):
    async def broken(*_args, **_kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(world.store, "board", broken)
    result = await world.alice.slash(world.channel, "leaderboard")
    assert result.acknowledged and result.response.ephemeral
    assert result.response.content == GENERIC_FAILURE
    [error] = world.env.errors
    assert "boom" in repr(error)


async def test_a_store_failure_asks_the_member_to_retry(world, monkeypatch):
    async def busy(*_args):
        raise StoreError("database is locked")

    monkeypatch.setattr(world.store, "claim_daily", busy)
    result = await world.alice.slash(world.channel, "chips daily")
    assert result.response.ephemeral
    assert "nothing was changed" in result.response.content
    assert len(world.env.errors) == 1
    assert await world.balances(world.alice) == [world.bot.settings.starting_chips]
