"""The shared game cog: what every game's slash-command group has, written once.

A game's cog subclasses :class:`GameCog` with ``group_name`` set to its game's name and
declares only what is particular to it: the options of ``/<game> start`` and
``/<game> house-rules`` (discord.py needs each command's parameters written out), which
call :meth:`GameCog.open_table` and :meth:`GameCog.save_house_rules`. ``rules``,
``how-to-play``, ``kick`` and ``end`` are inherited. The table runtime (:mod:`bot.runtime`)
does the work; every refusal is ephemeral and changes nothing. A command that waits on the
store defers when the store is slow (case C04): ``start`` publicly (its board is public),
``rules`` and ``house-rules`` privately (see :mod:`bot.replies`). ``how-to-play`` answers
at once with the game's guide (:mod:`bot.guides`), whose pages turn after a restart too.

House rules: a channel's defaults for one game (Manage Channels), saved as the setting
``channel:<id>`` / ``<game>_rules`` — JSON of the table options plus an optional
``buy_in`` — and used by ``/<game> start``.

Every game's ``start`` has the runtime's table options too, written once here
(:func:`table_options`): ``pace``, ``deals`` and ``minutes`` (:mod:`bot.runtime.pace`).
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable, Coroutine
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import ParlourBot
from bot.guides.paging import page_message, register_guides
from bot.i18n import Language
from bot.replies import reply, within_deadline
from bot.runtime import pace
from bot.runtime.components import register_components
from bot.runtime.refs import unplayable_reason

RUNTIME_OPTIONS = "table_options"
"""The key of :attr:`discord.Interaction.extras` holding the runtime's table options a
``start`` command was given (:func:`table_options`)."""

_RUNTIME_PARAMETERS = {
    "pace": (pace.Pace | None, "Time per decision: relaxed (default), normal, fast, or "
             "untimed (you alone with AI seats)"),
    "deals": (app_commands.Range[int, 1, pace.LENGTH_MAX_DEALS] | None,
              "The session ends after this many deals (default: when the host ends it or "
              "the game is over)"),
    "minutes": (app_commands.Range[int, 1, pace.LENGTH_MAX_MINUTES] | None,
                "The session ends at the end of the deal in progress after this many minutes"),
}


def table_options(
    command: Callable[..., Coroutine[Any, Any, None]],
) -> Callable[..., Coroutine[Any, Any, None]]:
    """Give a game's ``start`` callback the runtime's table options (``pace``, ``deals``,
    ``minutes``) as optional slash-command parameters, after its own; their values reach
    :meth:`GameCog.open_table` through ``interaction.extras`` (:data:`RUNTIME_OPTIONS`).
    Put it below ``@app_commands.command``."""
    signature = inspect.signature(command, eval_str=True)
    added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None,
                               annotation=annotation)
             for name, (annotation, _words) in _RUNTIME_PARAMETERS.items()]

    @functools.wraps(command)
    async def start(self: Any, interaction: discord.Interaction, **given: Any) -> None:
        interaction.extras[RUNTIME_OPTIONS] = {name: given.pop(name, None)
                                               for name in _RUNTIME_PARAMETERS}
        await command(self, interaction, **given)

    start.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[*signature.parameters.values(), *added])
    del start.__wrapped__  # discord.py reads the signature above, not the wrapped one
    return app_commands.describe(
        **{name: words for name, (_annotation, words) in _RUNTIME_PARAMETERS.items()})(start)


class GameCog(commands.GroupCog):
    """The commands every game has (subclasses set ``GAME`` and ``group_name``).

    Adapters used here provide, besides :class:`bot.runtime.spec.GameAdapter`:
    ``check_options(options, stake)`` (raises ValueError with a reason for options that cannot
    be played, or not with a stake or buy-in of ``stake`` chips) and
    ``rules_card(options, source, buy_in, lang)`` (the plain-words rules embed in the reader's
    language).
    """

    GAME: ClassVar[str]

    def __init__(self, bot: ParlourBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Register the table components so clicks on any board reach the runtime, and the
        guide buttons of ``how-to-play``."""
        register_components(self.bot)
        register_guides(self.bot)

    @property
    def adapter(self) -> Any:
        """The game's adapter (:data:`bot.games.GAMES`)."""
        return self.bot.tables.games[self.GAME]

    def title(self, lang: Language) -> str:
        """The game's name in ``lang``."""
        return lang.t(f"game.{self.GAME}")

    async def language(self, interaction: discord.Interaction) -> Language:
        """The language to answer ``interaction``'s member in (privately)."""
        return await self.bot.languages.for_member(interaction)

    def house_key(self) -> str:
        """The setting key of a channel's house rules for this game."""
        return f"{self.GAME}_rules"

    async def house_rules(self, channel_id: int) -> dict[str, Any]:
        """The channel's saved house rules (table options and ``buy_in``), or ``{}``."""
        text = await self.bot.store.get_setting(f"channel:{channel_id}", self.house_key())
        return {} if text is None else dict(json.loads(text))

    def keeps_house(self, house: dict[str, Any], chosen: dict[str, Any]) -> bool:
        """Whether a start with ``chosen`` options builds on the channel's house options
        (the house buy-in applies anyway); a game overrides this (e.g. a named preset that
        is not the house's starts from that preset alone)."""
        return True

    async def open_table(
        self, interaction: discord.Interaction, chosen: dict[str, Any],
        buy_in: int | None = None, thread: bool = False,
    ) -> None:
        """``/<game> start``: the channel's house rules, overridden by what the starter chose
        (None values are left out), checked, then a lobby opens (its board is the answer).

        Parameters
        ----------
        chosen
            Table options the starter gave (with the runtime's, :func:`table_options`).
        buy_in
            The starter's buy-in (chip games), else the house's, else the server's.
        thread
            The starter's ``thread`` option: the table plays in a thread of its own.
        """
        assert interaction.channel_id is not None
        chosen = chosen | interaction.extras.get(RUNTIME_OPTIONS, {})
        house = await within_deadline(
            interaction, self.house_rules(interaction.channel_id), ephemeral=False
        )
        base = house if self.keeps_house(house, chosen) else {}
        options = {key: value for key, value in base.items() if key != "buy_in"}
        options |= {key: value for key, value in chosen.items() if value is not None}
        options.setdefault("turn_seconds", None)
        stake = buy_in or house.get("buy_in") or self.bot.settings.buy_in
        try:
            pace.check(options)
            self.adapter.check_options(options, stake)
        except ValueError as error:
            lang = await self.language(interaction)
            await reply(interaction, ephemeral=True, content=lang.t(
                "house.unplayable_opened", reason=unplayable_reason(error, lang)))
            return
        await self.bot.tables.open_command(interaction, self.GAME, options, stake,
                                           thread=thread)

    async def save_house_rules(
        self, interaction: discord.Interaction, chosen: dict[str, Any], clear: bool
    ) -> None:
        """``/<game> house-rules``: save (or with ``clear`` remove) the channel's defaults;
        Manage Channels only; options that cannot be played are refused and nothing is
        saved."""
        assert interaction.channel_id is not None
        lang = await self.language(interaction)
        if not interaction.permissions.manage_channels:
            await reply(interaction, ephemeral=True, content=lang.t("house.needs_channels"))
            return
        scope = f"channel:{interaction.channel_id}"
        if clear:
            await within_deadline(
                interaction, self.bot.store.set_setting(scope, self.house_key(), None))
            await reply(interaction, ephemeral=True,
                        content=lang.t("house.removed", game=self.title(lang)))
            return
        saved = {key: value for key, value in chosen.items() if value is not None}
        try:
            self.adapter.check_options(saved, saved.get("buy_in") or self.bot.settings.buy_in)
        except ValueError as error:
            await reply(interaction, ephemeral=True, content=lang.t(
                "house.unplayable_saved", reason=unplayable_reason(error, lang)))
            return
        await within_deadline(
            interaction, self.bot.store.set_setting(scope, self.house_key(), json.dumps(saved))
        )
        rendered = self.adapter.rules_card(
            saved, lang.t("house.saved", command=f"/{self.GAME} start"),
            saved.get("buy_in") or self.bot.settings.buy_in, lang,
        )
        await reply(interaction, embed=rendered.embed, ephemeral=True)

    @app_commands.command(name="rules")
    async def rules(self, interaction: discord.Interaction) -> None:
        """Show the rules of this channel's table (or of the next one) in plain words."""
        assert interaction.channel_id is not None
        lang = await self.language(interaction)
        table = self.bot.tables.by_channel.get(interaction.channel_id)
        if table is not None and table.game_name == self.GAME:
            options, buy_in = table.options, table.buy_in
            source = lang.t("house.source_table", table=table.id)
        else:
            options = await within_deadline(interaction, self.house_rules(interaction.channel_id))
            buy_in = options.pop("buy_in", None) or self.bot.settings.buy_in
            source = lang.t("house.source_house" if options else "house.source_default")
        try:
            rendered = self.adapter.rules_card(options, source, buy_in, lang)
        except ValueError as error:  # saved by an older version with other rules
            await reply(interaction, ephemeral=True, content=lang.t(
                "house.unplayable_old", reason=unplayable_reason(error, lang),
                command=f"/{self.GAME} house-rules"))
            return
        await reply(interaction, embed=rendered.embed, ephemeral=True)

    @app_commands.command(name="how-to-play")
    async def how_to_play(self, interaction: discord.Interaction) -> None:
        """Learn this game: a short guide, page by page, and its terms."""
        lang = await self.bot.languages.for_member(interaction)
        rendered = page_message(self.GAME, 0, lang)
        await interaction.response.send_message(
            embed=rendered.embed, view=rendered.view, ephemeral=True)

    @app_commands.command(name="kick")
    async def kick(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """Remove a member from this channel's table (host or Manage Channels).

        Parameters
        ----------
        member
            Who to remove: at once in the lobby or between deals, else the AI plays their
            cards (to the end of the deal, or for good in a game with fixed seats).
        """
        await self.bot.tables.kick_command(interaction, self.GAME, member)

    @app_commands.command(name="end")
    async def end(self, interaction: discord.Interaction, now: bool = False) -> None:
        """End this channel's table (host or Manage Channels); what is at stake goes back.

        Parameters
        ----------
        now
            True: abandon the current deal at once. False (default): end after the current
            deal.
        """
        await self.bot.tables.end_command(interaction, self.GAME, now)

