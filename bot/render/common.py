"""Game-neutral rendering: Discord's limits, names, card text, the lobby and the "My hand"
button.

Cards are written in bold in embeds (``**Q♥**``) and plain on components (``Q♥``). ♣ and ♠ are
followed by the text presentation selector U+FE0E: Discord turns a bare ♣ or ♠ into a dark
emoji that is nearly invisible on its dark theme (also inside code spans), but leaves a
character with U+FE0E as text in the message's own colour.

Discord's limits (checked by :func:`limit_problems`, enforced by :func:`fit`): embed title
256, description 4096, 25 fields, field name 256, field value 1024, footer 2048, the whole
embed 6000 characters; at most 5 action rows of at most 5 buttons or 1 select; at most 25
select options; custom_id at most 100 characters.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.runtime.components import TableButton
from bot.runtime.refs import Ref
from bot.runtime.spec import Rendered, TableInfo
from engine.cards import Card, Suit, format_card

TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
EMBED_TOTAL_MAX = 6000
ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
SELECT_OPTIONS_MAX = 25
CUSTOM_ID_MAX = 100
NAME_MAX = 24

COLOUR = discord.Colour.dark_green()


def truncate(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending in ``…`` when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


TEXT_PRESENTATION = "\ufe0e"
"""Variation selector 15: show the character before it as text, not as an emoji."""

_BLACK_SUIT = re.compile(f"([♣♠])(?!{TEXT_PRESENTATION})")


def visible(text: str) -> str:
    """``text`` with every ♣ and ♠ shown as text, not as a dark emoji (module docstring)."""
    return _BLACK_SUIT.sub(lambda match: match[1] + TEXT_PRESENTATION, text)


def card_label(card_id: int) -> str:
    """A card's name on a component or in an embed: ``10♣`` (♣/♠ as text, see :func:`visible`)."""
    return visible(format_card(card_id))


def card(card_id: int) -> str:
    """A card as shown in embeds: bold, ``**10♣**``."""
    return f"**{card_label(card_id)}**"


def cards(card_ids: Sequence[int]) -> str:
    """Several cards, space-separated; ``–`` for none."""
    return " ".join(card(c) for c in card_ids) or "–"


def suit(of: Suit) -> str:
    """A suit's symbol as shown (♣/♠ as text)."""
    return visible(of.symbol)


def by_suit(hand_cards: Sequence[int]) -> str:
    """A hand as lines, one per suit it holds (♣ ♦ ♥ ♠): the suit, then its cards in order;
    empty for no cards."""
    lines = []
    for of in Suit:
        of_suit = [c for c in hand_cards if Card(c).suit == of]
        if of_suit:
            lines.append(f"{suit(of)} " + " ".join(card(c) for c in of_suit))
    return "\n".join(lines)


def plural(count: int, noun: str) -> str:
    """``"1 card"``, ``"2 cards"``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


AI_MARK = "🤖"
"""Marks AI seats (:func:`seat_label`); removed from every name, so no member looks like one."""
_AI_MARKS = re.compile(f"{AI_MARK}[\ufe0e\ufe0f]?")


def short_name(name: str) -> str:
    """A name as boards show it: without :data:`AI_MARK`, whitespace collapsed, cut to
    :data:`NAME_MAX` characters, Markdown escaped and ``<`` escaped (a name cannot show as a
    mention or a custom emoji). ``"?"`` when nothing is left."""
    plain = " ".join(_AI_MARKS.sub(" ", name).split()) or "?"
    return discord.utils.escape_markdown(truncate(plain, NAME_MAX)).replace("<", "\\<")


def _embed_size(embed: discord.Embed) -> int:
    return len(embed)


def fit(embed: discord.Embed) -> discord.Embed:
    """Cut ``embed`` in place to Discord's limits (trailing fields go first); returns it."""
    if embed.title:
        embed.title = truncate(embed.title, TITLE_MAX)
    if embed.description:
        embed.description = truncate(embed.description, DESCRIPTION_MAX)
    if embed.footer.text:
        embed.set_footer(text=truncate(embed.footer.text, FOOTER_MAX))
    fields = [
        (
            truncate(f.name or "\u200b", FIELD_NAME_MAX),
            truncate(f.value or "\u200b", FIELD_VALUE_MAX),
            f.inline,
        )
        for f in embed.fields[:FIELDS_MAX]
    ]
    embed.clear_fields()
    for name, value, inline in fields:
        embed.add_field(name=name, value=value, inline=inline)
    while _embed_size(embed) > EMBED_TOTAL_MAX and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    if _embed_size(embed) > EMBED_TOTAL_MAX and embed.description:
        over = _embed_size(embed) - EMBED_TOTAL_MAX
        embed.description = truncate(embed.description, max(1, len(embed.description) - over))
    return embed


def limit_problems(rendered: Rendered) -> list[str]:
    """Every way ``rendered`` breaks a Discord limit (empty when it fits)."""
    problems: list[str] = []
    embed = rendered.embed
    if len(embed.title or "") > TITLE_MAX:
        problems.append("title")
    if len(embed.description or "") > DESCRIPTION_MAX:
        problems.append("description")
    if len(embed.fields) > FIELDS_MAX:
        problems.append("fields")
    for field in embed.fields:
        if len(field.name or "") > FIELD_NAME_MAX or not field.name:
            problems.append(f"field name {field.name!r}")
        if len(field.value or "") > FIELD_VALUE_MAX or not field.value:
            problems.append(f"field value of {field.name!r}")
    if len(embed.footer.text or "") > FOOTER_MAX:
        problems.append("footer")
    if len(embed) > EMBED_TOTAL_MAX:
        problems.append(f"embed total {len(embed)}")
    if rendered.view is None:
        return problems
    components: list[dict[str, Any]] = rendered.view.to_components()
    if len(components) > ROWS_MAX:
        problems.append(f"{len(components)} rows")
    ids: list[str] = []
    for row in components:
        children = row.get("components", [])
        selects = [c for c in children if c["type"] == 3]
        if len(children) > ROW_BUTTONS_MAX or (selects and len(children) > 1):
            problems.append("row width")
        for child in children:
            ids.append(child.get("custom_id", ""))
            if len(child.get("custom_id", "")) > CUSTOM_ID_MAX:
                problems.append(f"custom_id {child.get('custom_id')!r}")
            if len(child.get("label") or "") > 80:
                problems.append("button label")
            options = child.get("options", [])
            if len(options) > SELECT_OPTIONS_MAX:
                problems.append(f"{len(options)} select options")
            if child["type"] == 3 and not (
                1 <= child.get("max_values", 1) <= max(len(options), 1)
            ):
                problems.append("select max_values")
    if len(ids) != len(set(ids)):
        problems.append("duplicate custom_id")
    return problems


def hand_button(table_id: str, row: int | None = None) -> TableButton:
    """The "My hand" button: no decision id, always answered with a fresh private view."""
    return TableButton(
        Ref(table_id, "hand"), label="My hand", style=discord.ButtonStyle.primary, row=row
    )


def table_buttons(table: TableInfo, deal_number: int, between_deals: bool) -> list[TableButton]:
    """The board's table-level buttons: My hand; Next deal and Join between deals; I'm back
    when the AI plays a member's seat; Leave."""
    buttons = [hand_button(table.id)]
    if between_deals:
        buttons.append(TableButton(Ref(table.id, "next", None, deal_number), label="Next deal",
                                   style=discord.ButtonStyle.success))
        buttons.append(TableButton(Ref(table.id, "join"), label="Join"))
    if any(seat.ai and seat.member_id is not None and not seat.leaving for seat in table.seats):
        buttons.append(TableButton(Ref(table.id, "back"), label="I'm back",
                                   style=discord.ButtonStyle.success))
    buttons.append(TableButton(Ref(table.id, "leave"), label="Leave"))
    return buttons


def deadline_line(table: TableInfo, seats: Sequence[int]) -> str:
    """``"Time left: <t:…:R>"`` for the earliest deadline of ``seats`` (empty if none)."""
    due = [table.deadlines[s] for s in seats if s in table.deadlines]
    return f"Time left: <t:{int(min(due))}:R>" if due else ""


def seat_label(table: TableInfo, seat: int) -> str:
    """``"Alice"`` or ``"🤖 AI 2"``: a seat's short name for boards and logs (only AI seats
    carry :data:`AI_MARK`)."""
    entry = table.seats[seat]
    prefix = f"{AI_MARK} " if entry.member_id is None else ""
    return prefix + short_name(entry.name)


def lobby(table: TableInfo, rules_line: str) -> Rendered:
    """The lobby message: seats (per team for a partners game), kind of table (ranked or
    casual, what is at stake), buttons to sit and start.

    Parameters
    ----------
    table
        The table in its lobby.
    rules_line
        The house rules in one line.
    """
    spec = table.spec
    low, high = spec.seats.start, spec.seats.stop - 1
    if not table.ranked:
        kind = ("**Casual** (AI seats): everyone plays with the table's own play chips; no "
                "server chips move." if spec.stakes == "buy_in"
                else "**Casual** (AI seats): the result is not rated.")
    elif spec.stakes == "buy_in":
        kind = (f"**Ranked**: each member's buy-in of {table.buy_in} chips is taken from their "
                "balance at Start and paid back when they leave or the table ends.")
    elif spec.stakes == "stake":
        kind = (f"**Ranked**, for a stake: each member puts {plural(table.buy_in, 'chip')} at "
                "stake at Start; the winners share them (a game that ends without a winner "
                "gives every stake back; a member who leaves forfeits theirs).")
    else:
        kind = "**Ranked**: members only; the result counts for the leaderboard."
    needs = f"{low}" if low == high else f"{low}–{high}"
    embed = discord.Embed(
        title=f"{spec.title} — table {table.id}",
        description=f"{kind}\n{rules_line}\nThe host or a member with Manage Channels starts "
        f"the game ({needs} seats).",
        colour=COLOUR,
    )
    view = discord.ui.View(timeout=None)
    if spec.seating == "partners":
        room = high // len(spec.teams)
        for team, team_name in enumerate(spec.teams):
            members = [i for i, seat in enumerate(table.seats) if seat.team == team]
            names = "\n".join(_lobby_line(table, i) for i in members) or "Nobody yet."
            embed.add_field(name=f"{team_name} ({len(members)}/{room})", value=names)
            view.add_item(TableButton(Ref(table.id, "join", arg=str(team)),
                                      label=f"Join {team_name}", style=discord.ButtonStyle.success))
    else:
        seats = "\n".join(_lobby_line(table, i) for i in range(len(table.seats))) or "Nobody yet."
        embed.add_field(name=f"Seats ({len(table.seats)}/{high})", value=seats, inline=False)
        view.add_item(TableButton(Ref(table.id, "join"), label="Join",
                                  style=discord.ButtonStyle.success))
    if table.notes:
        embed.add_field(name="Latest", value="\n".join(table.notes), inline=False)
    for verb, label, style in (
        ("leave", "Leave", discord.ButtonStyle.secondary),
        ("add_ai", "Add AI", discord.ButtonStyle.secondary),
        ("start", "Start", discord.ButtonStyle.primary),
        ("cancel", "Cancel", discord.ButtonStyle.danger),
    ):
        view.add_item(TableButton(Ref(table.id, verb), label=label, style=style))
    return Rendered(fit(embed), view)


def _lobby_line(table: TableInfo, seat: int) -> str:
    host = " (host)" if table.seats[seat].member_id == table.host_id else ""
    return f"{seat + 1}. {seat_label(table, seat)}{host}"


def closed(table: TableInfo, text: str) -> Rendered:
    """The message a lobby becomes when it is cancelled: no components."""
    embed = discord.Embed(title=f"{table.spec.title} — table {table.id}", description=text,
                          colour=COLOUR)
    return Rendered(fit(embed), None)
