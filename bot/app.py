"""The bot factory: ``create_bot`` builds the one :class:`ParlourBot` that production, the
playground, the tests and the benchmarks all run (DESIGN.md §1).

``setup_hook`` opens the store, loads every cog module of the ``cogs`` package, restores live
tables, returns escrow held by tables that no longer exist (DESIGN.md §5), syncs the slash
commands as ``PARLOUR_SYNC`` says, then sets the process's garbage collection policy
(:mod:`bot.gc_policy`).
"""

from __future__ import annotations

import asyncio
import logging
import pkgutil
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import cogs
from bot.clock import Clock, Sleep, SystemClock
from bot.config import Settings, load_settings
from bot.games import GAMES
from bot.gc_policy import apply_gc_policy
from bot.i18n.choice import Languages
from bot.i18n.commands import CommandTranslator
from bot.images.cache import PICTURES
from bot.replies import answer_failure
from bot.runtime.registry import TableRegistry
from bot.settings_cache import SettingsCache
from bot.store import Store, open_store
from bot.unread import edit_message, lazy_callback_responses, lean_parsers

log = logging.getLogger("parlour")

class ParlourBot(commands.Bot):
    """Parlour's Discord client.

    Needs no privileged intent: slash commands and components arrive as interactions, with the
    invoking member and any member options resolved inside them; the Guild Messages intent
    (without message content) lets a table count the messages posted after its board.
    discord.py's message cache is off (``max_messages=None``): the bot edits and deletes its
    messages by id and reads a message only from the event or interaction that carries it,
    so a kept copy of the last thousand messages would only cost memory (issue 15). Of what
    discord.py parses, only what the bot reads is parsed (:mod:`bot.unread`).

    Attributes
    ----------
    settings : Settings
    clock : Clock
        Where deadlines and daily claims read the time (``now()`` -> aware UTC datetime).
    sleep : Sleep
        How the bot's timed waits wait (``await sleep(seconds)``): the pause between AI
        moves, the sleep until the next deadline or rule timer, the board edits' debounce.
        :func:`asyncio.sleep`; the playground's own waits (:meth:`bot.playground.Playground.sleep`).
    store : Store
        The chip bank and table storage, its settings cached in memory
        (:class:`bot.settings_cache.SettingsCache`); set by ``setup_hook``.
    tables : TableRegistry
        Every live table, keyed by channel; set by ``setup_hook``.
    """

    @property
    def languages(self) -> Languages:
        """Who sees which language (:mod:`bot.i18n.choice`); kept by the table registry."""
        assert self.tables is not None, "set by setup_hook"
        return self.tables.languages

    def __init__(self, settings: Settings, clock: Clock, sleep: Sleep = asyncio.sleep,
                 **client: Any) -> None:
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False  # no voice here
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True, guild_messages=True),
            help_command=None,
            max_messages=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **client,
        )
        lean_parsers(self)
        lazy_callback_responses()
        self.settings = settings
        self.clock = clock
        self.sleep = sleep
        self.store: Store | None = None
        self.tables: TableRegistry | None = None
        self.tree.on_error = self.on_app_command_error

    async def setup_hook(self) -> None:
        """Open the store, load the cogs (with the commands' translator), restore tables,
        return orphan escrow, sync commands; the pictures are drawn by
        ``PARLOUR_PICTURE_WORKERS`` worker processes (:mod:`bot.images.cache`). Last, with
        that startup state loaded, apply the garbage collection policy
        (:func:`bot.gc_policy.apply_gc_policy`: thresholds; the heap frozen after each full
        collection)."""
        PICTURES.workers = self.settings.picture_workers
        self.store = SettingsCache(await open_store(
            self.settings.database,
            starting_chips=self.settings.starting_chips,
            pool_size=self.settings.database_pool,
            clock=self.clock.now,
        ))
        await self.tree.set_translator(CommandTranslator())
        for module in cog_modules():
            await self.load_extension(module)
        self.tables = TableRegistry(self, GAMES)
        self.add_listener(self.tables.on_channel_message, "on_message")
        await self.tables.restore()
        shards = self.settings.hosted_shards  # None: every server is this process's
        live = {table_id for table_id, *_rest in await self.store.load_tables(shards)}
        for table_id, chips in (await self.store.return_orphan_escrow(live, shards)).items():
            log.warning("returned %d escrowed chips of table %s, which no longer exists",
                        chips, table_id)
        await self.sync_commands()
        apply_gc_policy()

    async def sync_commands(self) -> None:
        """Register the slash commands with Discord as ``settings.sync`` says."""
        sync = self.settings.sync
        if sync == "off":
            return
        if sync == "global":
            synced = await self.tree.sync()
        else:
            guild = discord.Object(id=sync)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        log.info("synced %d slash commands (%s)", len(synced), sync)

    async def edit_message(self, channel_id: int, message_id: int, **fields: Any) -> None:
        """Edit a message with the bot's token, as :meth:`discord.PartialMessage.edit` does,
        without building a :class:`discord.Message` of Discord's answer (the board edits:
        :func:`bot.unread.edit_message`).

        Raises
        ------
        discord.HTTPException
            As :meth:`discord.PartialMessage.edit`.
        """
        await edit_message(self, channel_id, message_id, **fields)

    async def close(self) -> None:
        """Stop the tables, close the store, disconnect, then stop the picture workers."""
        try:
            if self.tables is not None:
                await self.tables.close()
        finally:
            try:
                if self.store is not None:
                    await self.store.close()
            finally:
                try:
                    await super().close()
                finally:
                    await PICTURES.close()

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Answer a failed slash command once, ephemerally and kindly, and log the cause."""
        await answer_failure(interaction, error)


class ShardedParlourBot(ParlourBot, commands.AutoShardedBot):
    """Parlour as one of several shard processes: discord.py's :class:`AutoShardedBot`
    connecting only ``settings.hosted_shards`` (``shard_ids`` of ``shard_count``).

    The process hosts the tables of its shards' servers only: it restores only those, gives
    back only their orphaned escrow, and its registry refuses a table of another shard's
    server (DESIGN.md §5).
    """


def cog_modules() -> list[str]:
    """The import names of every cog module in the ``cogs`` package, sorted.

    Each non-underscore module of ``cogs/`` is an extension with ``async def setup(bot)``, so a
    new cog file needs no edit here.
    """
    return sorted(
        f"{cogs.__name__}.{module.name}"
        for module in pkgutil.iter_modules(cogs.__path__)
        if not module.name.startswith("_")
    )


def create_bot(settings: Settings | None = None, *, clock: Clock | None = None,
               sleep: Sleep = asyncio.sleep) -> ParlourBot:
    """Build the bot (not yet started): a :class:`ShardedParlourBot` when the settings name
    shards (``PARLOUR_SHARD_COUNT``, ``PARLOUR_SHARDS``), else a :class:`ParlourBot`.

    Parameters
    ----------
    settings
        Defaults to :func:`bot.config.load_settings` (environment and ``.env``).
    clock
        Defaults to the wall clock; tests pass a :class:`bot.clock.ManualClock`.
    sleep
        The bot's timed waits (:attr:`ParlourBot.sleep`); :func:`asyncio.sleep` but in the
        playground.

    Raises
    ------
    bot.config.ConfigError
        When ``settings`` is omitted and the environment holds an invalid value.
    """
    settings = settings or load_settings()
    clock = clock or SystemClock()
    shards = settings.hosted_shards
    if shards is None:
        return ParlourBot(settings, clock, sleep)
    return ShardedParlourBot(settings, clock, sleep, shard_ids=list(shards.ids),
                             shard_count=shards.count)
