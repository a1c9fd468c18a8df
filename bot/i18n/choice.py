"""Who sees which language (issue 11 §2).

Private text (a member's hand, DMs, refusals, command answers) is in the member's
``/settings language``, else their Discord client's language (``interaction.locale``), and
names the slash commands as that client lists them, whatever the language. Public text (a
table's board and lobby) is in the channel's setting, else the server's, else the server's
Discord language (``guild_locale``), and names the commands as a client in that language
lists them. English is the fallback of both.

Settings are JSON strings (``"fa"``) under the key :data:`SETTING` of the store's scopes
``user:<id>``, ``channel:<id>`` and ``guild:<id>``. :class:`Languages` keeps what it read
and the locales the interactions brought, so a board edited by a timer (no interaction
behind it) is rendered in the same languages as one answered to a click.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import discord

from bot.i18n.language import LANGUAGES, Language, language
from bot.store import StoreError

log = logging.getLogger("parlour.i18n")

SETTING = "language"
"""The settings key of a chosen language (scopes ``user:``, ``channel:``, ``guild:``)."""

LOOKUP_BUDGET = 0.5
"""Seconds an interaction waits for its language settings to be read the first time; a
slower store answers this one in the fallback language (the read goes on and is kept), so
Discord's 3 seconds are still kept."""


class Languages:
    """The languages chosen in the store and seen in interactions (module docstring).

    Parameters
    ----------
    bot
        Anything with a ``store`` attribute (read when a setting is first needed).
    """

    def __init__(self, bot: Any) -> None:
        self._bot = bot
        self._chosen: dict[str, str | None] = {}
        self._reading: dict[str, asyncio.Task[str | None]] = {}
        self._client: dict[int, str] = {}
        self._server: dict[int, str] = {}

    def private(self, member_id: int | None) -> Language:
        """The language of a member's private text (as far as already known), naming the
        slash commands as the member's own client lists them (the locale of their latest
        interaction: :meth:`Language.for_client`)."""
        if member_id is None:
            return language(None)
        chosen = self._chosen.get(f"user:{member_id}")
        client = self._client.get(member_id)
        return language(chosen or client).for_client(client)

    def public(self, guild_id: int | None, channel_id: int | None) -> Language:
        """The language of a channel's public text (as far as already known)."""
        chosen = self._chosen.get(f"channel:{channel_id}") or self._chosen.get(f"guild:{guild_id}")
        return language(chosen or self._server.get(guild_id or 0))

    def chosen(self, scope: str) -> str | None:
        """The language code set for ``scope`` (``"user:42"``), None if unset or unread."""
        return self._chosen.get(scope)

    async def for_member(self, interaction: discord.Interaction) -> Language:
        """The language to answer ``interaction``'s member in privately."""
        await self.observe(interaction)
        return self.private(interaction.user.id)

    async def for_channel(self, interaction: discord.Interaction) -> Language:
        """The language of public text in ``interaction``'s channel."""
        await self.observe(interaction)
        return self.public(interaction.guild_id, interaction.channel_id)

    async def observe(self, interaction: discord.Interaction) -> None:
        """Note the interaction's locales and read (once) the settings of its member,
        channel and server, waiting at most :data:`LOOKUP_BUDGET` seconds."""
        self._client[interaction.user.id] = str(interaction.locale)
        if interaction.guild_id is not None and interaction.guild_locale is not None:
            self._server[interaction.guild_id] = str(interaction.guild_locale)
        scopes = [f"user:{interaction.user.id}"]
        if interaction.guild_id is not None:
            scopes += [f"channel:{interaction.channel_id}", f"guild:{interaction.guild_id}"]
        await self.load(scopes)

    async def load(self, scopes: list[str], budget: float = LOOKUP_BUDGET) -> None:
        """Read the settings of ``scopes`` not read yet (at most ``budget`` seconds)."""
        tasks = [self._read(scope) for scope in scopes if scope not in self._chosen]
        if tasks:
            await asyncio.wait(tasks, timeout=budget)

    def _read(self, scope: str) -> asyncio.Task[str | None]:
        task = self._reading.get(scope)
        if task is None:
            task = self._reading[scope] = asyncio.ensure_future(self._fetch(scope))
        return task

    async def _fetch(self, scope: str) -> str | None:
        try:
            text = await self._bot.store.get_setting(scope, SETTING)
        except StoreError:
            log.warning("could not read the language of %s; trying again later", scope)
            return None
        finally:
            self._reading.pop(scope, None)
        code = json.loads(text) if text is not None else None
        self._chosen[scope] = code if code in LANGUAGES else None
        return self._chosen[scope]

    async def choose(self, scope: str, code: str | None) -> None:
        """Set (or with None clear) the language of ``scope``.

        Raises
        ------
        ValueError
            For a code the bot does not speak.
        StoreError
            When the setting cannot be saved; nothing changed then.
        """
        if code is not None and code not in LANGUAGES:
            raise ValueError(f"unknown language {code!r}")
        await self._bot.store.set_setting(scope, SETTING,
                                          None if code is None else json.dumps(code))
        self._chosen[scope] = code
