"""The Tripoli commands: what is particular to Tripoli (the options of start and house-rules);
rules, kick and end come from the shared game cog (:mod:`cogs._game`).

Rules (rules/tripoli.md §3): a table plays a preset of :data:`engine.tripoli.rules.PRESETS`
with single parameters overridden (ante, dealer ante, bet limit, sequence start); the rules
are checked when ``/tripoli start`` runs, so a table that opens can be dealt. A channel's
house rules (``/tripoli house-rules``, Manage Channels) are saved as the setting
``channel:<id>`` / ``tripoli_rules`` — JSON of the table options plus an optional
``buy_in`` — and used by ``/tripoli start``: all of them when it names no preset (or names
the house preset itself); only the house ``buy_in`` when it names another preset. The buy-in
is the channel's stake, whatever is played; the other overrides were chosen for the house
preset and may not fit another one (cosmo refuses a sequence start, italian has its own dealer
ante). A value the starter gives (``buy_in`` included) always wins. Preset names are read
without surrounding spaces and capitals (``" CLASSIC"`` is ``classic``).
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Any, cast

import discord
from discord import app_commands

from bot.app import ParlourBot
from bot.i18n import LANGUAGES
from bot.render import common
from bot.render import tripoli as render
from cogs._game import GameCog, table_options
from engine.tripoli.rules import PRESETS

SEQUENCE_CHOICES = [
    app_commands.Choice(name=render.sequence(start), value=start) for start in range(2, 13)
]
"""The runs of three ranks a sequence may be (§3.2 ``seq-678``): 2-3-4 … Q-K-A."""


def _plain(text: str) -> str:
    """``text`` stripped, in lower case, without invisible format characters (the
    direction isolates of a Persian name)."""
    return "".join(char for char in text if unicodedata.category(char) != "Cf").strip().casefold()


@functools.cache
def _preset_names() -> dict[str, str]:
    """Every preset's name in every language (:func:`bot.render.tripoli.preset_name`),
    plain, to the preset's id."""
    return {_plain(render.preset_name(lang, key)): key
            for lang in LANGUAGES.values() for key in PRESETS}


def preset_key(typed: str | None) -> str | None:
    """A typed preset as :data:`engine.tripoli.rules.PRESETS` spells it: its id, or its
    name in any language as boards and the autocomplete show it (``Classica``,
    ``Tripoli senza Poker``, ``رامولی``), any case; anything else stripped and in lower case
    (refused by the rules with the list of presets); None when nothing but spaces was typed."""
    plain = _plain(typed or "")
    return plain if plain in PRESETS else _preset_names().get(plain, plain) or None


async def preset_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete: the presets whose id, name or note contains what was typed, labelled
    with their name and one-line description in the member's language
    (``tripoli.preset_name.<id>``, ``tripoli.preset.<id>``) and valued by their id (at most
    25, Discord's limit; labels cut to 100 characters)."""
    lang = await cast(ParlourBot, interaction.client).languages.for_member(interaction)
    typed = current.strip().lower()
    labels = {key: f"{render.preset_name(lang, key)} — {render.preset_note(lang, key)}"
              for key in PRESETS}
    return [
        app_commands.Choice(name=common.truncate(label, 100), value=key)
        for key, label in labels.items()
        if typed in key or typed in label.lower()
    ][:25]


@app_commands.guild_only()
class Tripoli(GameCog, group_name="tripoli", group_description="Play Tripoli"):
    """The Tripoli commands of one bot."""

    GAME = "tripoli"

    def keeps_house(self, house: dict[str, Any], chosen: dict[str, Any]) -> bool:
        """A named preset other than the house's starts from that preset (the house buy-in
        still applies); naming the house preset, or none, keeps every house override."""
        named = chosen.get("preset")
        return named is None or named == house.get("preset", "classic")

    @app_commands.command(name="start")
    @app_commands.autocomplete(preset=preset_choices)
    @app_commands.choices(sequence_start=SEQUENCE_CHOICES)
    @table_options
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
        thread: bool = False,
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
        thread
            True: the table plays in a thread of its own; this channel gets a line pointing there.
        """
        await self.open_table(interaction, {
            "preset": preset_key(preset), "ante": ante, "dealer_ante": dealer_ante,
            "bet_limit": bet_limit, "seq_start": sequence_start, "turn_seconds": turn_seconds,
        }, buy_in, thread)

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
        await self.save_house_rules(interaction, {
            "preset": preset_key(preset) or "classic", "ante": ante, "dealer_ante": dealer_ante,
            "bet_limit": bet_limit, "seq_start": sequence_start, "buy_in": buy_in,
        }, clear)


async def setup(bot: ParlourBot) -> None:
    """Extension entry point (loaded by ``bot.app``)."""
    await bot.add_cog(Tripoli(bot))
