"""Table components that survive restarts: DynamicItem buttons and selects, the amount modal.

Every component carries a :class:`~bot.runtime.refs.Ref` in its custom_id; a click is routed
to the bot's table registry (``interaction.client.tables``) with that reference, whatever
message it came from (the board, a fresh or a 16-minute-old private hand view). Call
:func:`register_components` once per bot (each game's cog does; it is idempotent).

Renderers put plain discord.py items in their views (:func:`table_button`,
:func:`table_select`): a rendered view is released at once (:class:`bot.runtime.spec.Rendered`)
and only shows them, and a click on one comes back as the DynamicItem (:class:`TableButton`,
:class:`TableSelect`) whose template its custom_id matches.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n.language import truncate
from bot.runtime.refs import Ref, template

ButtonStyle = discord.ButtonStyle


def table_button(
    ref: Ref,
    *,
    label: str,
    style: ButtonStyle = ButtonStyle.secondary,
    disabled: bool = False,
    row: int | None = None,
) -> discord.ui.Button[Any]:
    """The button a message shows for ``ref``: custom_id ``ref.custom_id("pl")``, the label
    cut to 80 characters; a click on it is a :class:`TableButton`.

    Raises
    ------
    ValueError
        If ``ref`` makes no valid custom_id (:meth:`bot.runtime.refs.Ref.custom_id`).
    """
    return discord.ui.Button(custom_id=ref.custom_id("pl"), label=truncate(label, 80),
                             style=style, disabled=disabled, row=row)


def table_select(
    ref: Ref,
    *,
    options: Sequence[discord.SelectOption],
    min_values: int = 1,
    max_values: int = 1,
    placeholder: str | None = None,
    row: int | None = None,
) -> discord.ui.Select[Any]:
    """The string select a message shows for ``ref``: custom_id ``ref.custom_id("ps")``, the
    placeholder cut to 150 characters; a choice made in it is a :class:`TableSelect`.

    Raises
    ------
    ValueError
        If ``ref`` makes no valid custom_id (:meth:`bot.runtime.refs.Ref.custom_id`).
    """
    return discord.ui.Select(
        custom_id=ref.custom_id("ps"),
        options=list(options),
        min_values=min_values,
        max_values=max_values,
        placeholder=placeholder[:150] if placeholder else None,
        row=row,
    )


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=template("pl")):
    """A button whose custom_id is ``ref.custom_id("pl")``."""

    def __init__(
        self,
        ref: Ref,
        *,
        label: str,
        style: ButtonStyle = ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(table_button(ref, label=label, style=style, disabled=disabled),
                         row=row)
        self.ref = ref

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableButton:
        assert isinstance(item, discord.ui.Button)
        return cls(Ref.from_match(match), label=item.label or "", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.client.tables.on_component(interaction, self.ref, ())  # type: ignore[attr-defined]


class TableSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=template("ps")):
    """A string select whose custom_id is ``ref.custom_id("ps")``; values are passed on."""

    def __init__(
        self,
        ref: Ref,
        *,
        options: Sequence[discord.SelectOption],
        min_values: int = 1,
        max_values: int = 1,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(table_select(ref, options=options, min_values=min_values,
                                      max_values=max_values, placeholder=placeholder),
                         row=row)
        self.ref = ref

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(
            Ref.from_match(match),
            options=item.options,
            min_values=item.min_values,
            max_values=item.max_values,
            placeholder=item.placeholder,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        values = tuple(self.item.values)
        await interaction.client.tables.on_component(interaction, self.ref, values)  # type: ignore[attr-defined]


class AmountModal(discord.ui.Modal):
    """Asks for a whole number of chips (a bet, raise or bid); the text goes to the registry.

    Parameters
    ----------
    ref
        The decision the amount answers (its verb is ``bet``, ``raise``, ``bid`` …).
    title
        The modal's title (at most 45 characters).
    label
        The text input's label, e.g. ``"Bet (1-10 chips)"`` (at most 45 characters).
    """

    def __init__(self, ref: Ref, *, title: str, label: str) -> None:
        super().__init__(title=title[:45], custom_id=ref.custom_id("pm"), timeout=900)
        self.ref = ref
        self.amount: discord.ui.TextInput[AmountModal] = discord.ui.TextInput(
            label=label[:45], custom_id="amount", min_length=1, max_length=20, required=True
        )
        self.add_item(self.amount)



DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (TableButton, TableSelect)


def _text_value(components: list[dict[str, Any]], custom_id: str) -> str:
    """The value of the text input ``custom_id`` in a modal submit's component tree."""
    for component in components:
        if component.get("custom_id") == custom_id and "value" in component:
            return str(component["value"])
        children = component.get("components") or (
            [component["component"]] if "component" in component else []
        )
        found = _text_value(children, custom_id)
        if found:
            return found
    return ""


async def on_table_modal(interaction: discord.Interaction) -> None:
    """Route an amount modal's submit (custom_id ``pm:…``) to the table registry.

    A listener rather than ``Modal.on_submit``, so a modal shown before a restart still
    gets its answer afterwards.
    """
    if interaction.type is not discord.InteractionType.modal_submit or not interaction.data:
        return
    ref = Ref.parse(str(interaction.data.get("custom_id", "")), "pm")
    if ref is None:
        return
    text = _text_value(list(interaction.data.get("components", [])), "amount")  # type: ignore[arg-type]
    await interaction.client.tables.on_amount(interaction, ref, text)  # type: ignore[attr-defined]


def register_components(bot: Any) -> None:
    """Make ``bot`` route every table component and amount modal (idempotent: each game's
    cog calls it)."""
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    if on_table_modal not in bot.extra_events.get("on_interaction", []):
        bot.add_listener(on_table_modal, "on_interaction")
