"""The Tripoli commands: start, rules, house-rules, kick and end (DESIGN.md §4).

Thin: the table runtime (:mod:`bot.runtime.registry`) does the work; the lobby, the board and the
private hands are components handled there. Every refusal is ephemeral and changes nothing.
A command that waits on the store defers when the store is slow (case C04): ``/tripoli start``
publicly (its board is public; a refusal then replaces the "thinking…" message with a private
one), ``rules`` and ``house-rules`` privately (see :mod:`bot.replies`).

Rules (rules/tripoli.md §3): a table plays a preset of :data:`engine.tripoli.rules.PRESETS`
with single parameters overridden (ante, dealer ante, bet limit, sequence start); the rules
are checked when ``/tripoli start`` runs, so a table that opens can be dealt. A channel's
house rules (``/tripoli house-rules``, Manage Channels) are saved as the setting
``channel:<id>`` / :data:`HOUSE_RULES` — JSON of the table options plus an optional
``buy_in`` — and used by ``/tripoli start``: all of them when it names no preset (or names
the house preset itself); only the house ``buy_in`` when it names another preset. The buy-in
is the channel's stake, whatever is played; the other overrides were chosen for the house
preset and may not fit another one (cosmo refuses a sequence start, italian has its own dealer
ante). A value the starter gives (``buy_in`` included) always wins. Preset names are read
without surrounding spaces and capitals (``" CLASSIC"`` is ``classic``).
"""

from __future__ import annotations

import json
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import ParlourBot
from bot.render import common
from bot.render import tripoli as render
from bot.replies import reply, within_deadline
from bot.runtime.components import register_components
from bot.runtime.table import TableState
from engine.tripoli.rules import PRESET_NOTES, TripoliRules

GAME = "tripoli"

HOUSE_RULES = "tripoli_rules"
"""Key of a channel's Tripoli house rules (scope ``channel:<id>``)."""

SEQUENCE_CHOICES = [
    app_commands.Choice(name=render.sequence(start), value=start) for start in range(2, 13)
]
"""The runs of three ranks a sequence may be (§3.2 ``seq-678``): 2-3-4 … Q-K-A."""


def preset_key(typed: str | None) -> str | None:
    """A typed preset name as :data:`engine.tripoli.rules.PRESETS` spells it (stripped,
    lower case); None when nothing but spaces was typed."""
    return (typed or "").strip().lower() or None


async def preset_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete: the presets whose name or note contains what was typed, with their
    one-line description (at most 25, Discord's limit; names cut to 100 characters)."""
    typed = current.strip().lower()
    return [
        app_commands.Choice(name=common.truncate(f"{name} — {note}", 100), value=name)
        for name, note in PRESET_NOTES.items()
        if typed in name or typed in note.lower()
    ][:25]


@app_commands.guild_only()
class Tripoli(commands.GroupCog, group_name="tripoli", group_description="Play Tripoli"):
    """The Tripoli commands of one bot."""

    def __init__(self, bot: ParlourBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Register the table components so clicks on any board reach the runtime."""
        register_components(self.bot)

    @property
    def adapter(self) -> Any:
        """The Tripoli game adapter (:class:`bot.games.tripoli.TripoliAdapter`)."""
        return self.bot.tables.games[GAME]

    async def house_rules(self, channel_id: int) -> dict[str, Any]:
        """The channel's saved house rules (table options and ``buy_in``), or ``{}``."""
        text = await self.bot.store.get_setting(f"channel:{channel_id}", HOUSE_RULES)
        return {} if text is None else dict(json.loads(text))

    @app_commands.command(name="start")
    @app_commands.autocomplete(preset=preset_choices)
    @app_commands.choices(sequence_start=SEQUENCE_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction,
        preset: str | None = None,
        ante: app_commands.Range[int, 1, 10] | None = None,
        dealer_ante: app_commands.Range[int, 1, 20] | None = None,
        bet_limit: app_commands.Range[int, 1, 1000] | None = None,
        sequence_start: int | None = None,
        buy_in: app_commands.Range[int, 1, 1_000_000] | None = None,
        turn_seconds: app_commands.Range[int, 15, 3600] | None = None,
    ) -> None:
        """Open a Tripoli table in this channel; you are the host.

        Parameters
        ----------
        preset
            The rules to play (default: this channel's house rules, else classic); the
            channel's house buy-in applies to any preset.
        ante
            Chips each player puts on every space before each deal (default: the preset's).
        dealer_ante
            Chips the dealer puts on every space (default: the ante; italian: 2).
        bet_limit
            Largest opening bet and largest raise in the poker phase, in chips (default 10).
        sequence_start
            The three ranks of one suit that win the sequence space (default 8-9-10).
        buy_in
            Each player's starting stack in chips (default: the channel's house buy-in,
            else the server's).
        turn_seconds
            Seconds each decision may take before the default move is made for the player
            (default: 30 to 120 seconds, depending on the decision).
        """
        assert interaction.channel_id is not None
        house = await within_deadline(
            interaction, self.house_rules(interaction.channel_id), ephemeral=False
        )
        named = preset_key(preset)
        base = (house if named is None or named == house.get("preset", "classic")
                else {"preset": named})
        chosen = {"ante": ante, "dealer_ante": dealer_ante, "bet_limit": bet_limit,
                  "seq_start": sequence_start}
        options = {key: value for key, value in base.items() if key != "buy_in"}
        options |= {key: value for key, value in chosen.items() if value is not None}
        options["turn_seconds"] = turn_seconds
        try:
            self.adapter.rules(options)
        except ValueError as error:
            await reply(interaction, ephemeral=True,
                        content=f"These rules cannot be played: {error}. Nothing was opened.")
            return
        stake = buy_in or house.get("buy_in") or self.bot.settings.buy_in
        await self.bot.tables.open_command(interaction, GAME, options, stake)

    @app_commands.command(name="rules")
    async def rules(self, interaction: discord.Interaction) -> None:
        """Show the rules of this channel's Tripoli table (or of the next one) in plain words."""
        assert interaction.channel_id is not None
        table = self.bot.tables.by_channel.get(interaction.channel_id)
        buy_in = self.bot.settings.buy_in
        rules: TripoliRules
        if table is not None and table.game_name == GAME:
            buy_in = table.buy_in
            if table.state is TableState.PLAYING and table.game is not None:
                rules = table.game.rules
            else:
                rules = self.adapter.rules(table.options)
            source = f"Table {table.id} in this channel."
        else:
            house = await within_deadline(interaction, self.house_rules(interaction.channel_id))
            buy_in = house.get("buy_in") or buy_in
            try:
                rules = self.adapter.rules(house)
            except ValueError as error:  # saved by an older version with other rules
                await reply(interaction, ephemeral=True, content=(
                    f"This channel's house rules cannot be played ({error}); set them again "
                    "with `/tripoli house-rules`."))
                return
            source = ("No table here now; these are this channel's house rules."
                      if house else "No table and no house rules here: the default rules.")
        rendered = render.rules_card(rules, source, buy_in)
        await reply(interaction, embed=rendered.embed, ephemeral=True)

    @app_commands.command(name="house-rules")
    @app_commands.autocomplete(preset=preset_choices)
    @app_commands.choices(sequence_start=SEQUENCE_CHOICES)
    async def house_rules_command(
        self,
        interaction: discord.Interaction,
        preset: str | None = None,
        ante: app_commands.Range[int, 1, 10] | None = None,
        dealer_ante: app_commands.Range[int, 1, 20] | None = None,
        bet_limit: app_commands.Range[int, 1, 1000] | None = None,
        sequence_start: int | None = None,
        buy_in: app_commands.Range[int, 1, 1_000_000] | None = None,
        clear: bool = False,
    ) -> None:
        """Save this channel's default Tripoli rules (Manage Channels).

        Parameters
        ----------
        preset
            The rules /tripoli start plays here when it names no preset (default classic).
        ante
            Chips each player puts on every space before each deal.
        dealer_ante
            Chips the dealer puts on every space.
        bet_limit
            Largest opening bet and largest raise in the poker phase, in chips.
        sequence_start
            The three ranks of one suit that win the sequence space.
        buy_in
            Each player's starting stack in chips.
        clear
            True: remove this channel's house rules (tables then start with classic).
        """
        assert interaction.channel_id is not None
        if not interaction.permissions.manage_channels:
            await interaction.response.send_message(
                "Only members with Manage Channels can set this channel's house rules.",
                ephemeral=True,
            )
            return
        scope = f"channel:{interaction.channel_id}"
        if clear:
            await within_deadline(interaction, self.bot.store.set_setting(scope, HOUSE_RULES, None))
            await reply(interaction, ephemeral=True, content="This channel's house rules are "
                        "removed: tables start with classic.")
            return
        chosen = {"preset": preset_key(preset) or "classic", "ante": ante,
                  "dealer_ante": dealer_ante, "bet_limit": bet_limit,
                  "seq_start": sequence_start, "buy_in": buy_in}
        saved = {key: value for key, value in chosen.items() if value is not None}
        try:
            rules = self.adapter.rules(saved)
        except ValueError as error:
            await interaction.response.send_message(
                f"These rules cannot be played: {error}. Nothing was saved.", ephemeral=True
            )
            return
        await within_deadline(
            interaction, self.bot.store.set_setting(scope, HOUSE_RULES, json.dumps(saved))
        )
        rendered = render.rules_card(
            rules, "Saved as this channel's house rules: `/tripoli start` without a preset "
            "plays them.", buy_in or self.bot.settings.buy_in,
        )
        await reply(interaction, embed=rendered.embed, ephemeral=True)

    @app_commands.command(name="kick")
    async def kick(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """Remove a member from this channel's Tripoli table (host or Manage Channels).

        Parameters
        ----------
        member
            Who to remove: at once in the lobby or between deals (their stack is paid back),
            else the AI plays their cards to the end of the deal.
        """
        await self.bot.tables.kick_command(interaction, GAME, member)

    @app_commands.command(name="end")
    async def end(self, interaction: discord.Interaction, now: bool = False) -> None:
        """End this channel's Tripoli table (host or Manage Channels); stacks are paid back.

        Parameters
        ----------
        now
            True: abandon the current deal (every chip goes back to where it was when the deal
            started). False (default): end after the current deal.
        """
        await self.bot.tables.end_command(interaction, GAME, now)


async def setup(bot: ParlourBot) -> None:
    """Extension entry point (loaded by ``bot.app``)."""
    await bot.add_cog(Tripoli(bot))

