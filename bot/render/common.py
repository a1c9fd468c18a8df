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
from functools import lru_cache
from typing import Any

import discord

from bot.i18n import Language, Msg
from bot.i18n.language import truncate
from bot.runtime.components import table_button
from bot.runtime.refs import Ref
from bot.runtime.spec import Rendered, TableInfo
from engine.cards import CARD_IDS, Card, Suit, format_card

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

HEX_GROUP = 16
SHORT_HASH = 12
"""Hex digits of a commitment the board shows (the whole one is behind **Verify**)."""


TEXT_PRESENTATION = "\ufe0e"
"""Variation selector 15: show the character before it as text, not as an emoji."""

_BLACK_SUIT = re.compile(f"([♣♠])(?!{TEXT_PRESENTATION})")


def visible(text: str) -> str:
    """``text`` with every ♣ and ♠ shown as text, not as a dark emoji (module docstring)."""
    return _BLACK_SUIT.sub(lambda match: match[1] + TEXT_PRESENTATION, text)


def card_label(card_id: int) -> str:
    """A card's name on a component or in an embed: ``10♣`` (♣/♠ as text, see :func:`visible`).

    Raises
    ------
    ValueError
        If there is no card ``card_id``.
    """
    return _LABELS[Card(card_id)]


def card(card_id: int) -> str:
    """A card as shown in embeds: bold, ``**10♣**``.

    Raises
    ------
    ValueError
        If there is no card ``card_id``.
    """
    return _BOLD[Card(card_id)]


_LABELS = tuple(visible(format_card(card_id)) for card_id in range(CARD_IDS))
"""Every card's :func:`card_label`, by id, worked out once."""

_BOLD = tuple(f"**{label}**" for label in _LABELS)
"""Every card's :func:`card`, by id."""


def cards(card_ids: Sequence[int], lang: Language) -> str:
    """Several cards, space-separated, in ``lang``'s order (:meth:`Language.join`: right to
    left in Persian); ``–`` for none."""
    return lang.join((card(c) for c in card_ids), " ") or "–"


def suit(of: Suit) -> str:
    """A suit's symbol as shown (♣/♠ as text)."""
    return visible(of.symbol)


def by_suit(hand_cards: Sequence[int], lang: Language) -> str:
    """A hand as lines, one per suit it holds (♣ ♦ ♥ ♠): the suit, then its cards in order
    (in ``lang``'s order, :meth:`Language.join`); empty for no cards."""
    suits: dict[Suit, list[int]] = {}
    for c in hand_cards:
        suits.setdefault(Card(c).suit, []).append(c)
    return "\n".join(lang.join([suit(of), *(card(c) for c in suits[of])], " ")
                     for of in Suit if of in suits)


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


def fit(embed: discord.Embed, lang: Language) -> discord.Embed:
    """Lay ``embed``'s texts out in ``lang``'s direction (:meth:`Language.directed`: each
    line of a Persian title, description, field and footer reads right to left) and cut
    it to Discord's limits (trailing fields go first), in place; returns it."""
    if embed.title:
        embed.title = truncate(lang.directed(embed.title), TITLE_MAX)
    if embed.description:
        embed.description = truncate(lang.directed(embed.description), DESCRIPTION_MAX)
    footer = embed.footer
    if footer.text:
        text = truncate(lang.directed(footer.text), FOOTER_MAX)
        if text != footer.text:
            embed.set_footer(text=text, icon_url=footer.icon_url)
    fields = embed.fields
    if not fields:
        embed.clear_fields()  # a fitted embed has its list of fields, even an empty one
    for index, field in enumerate(fields[:FIELDS_MAX]):  # in place: most need no change
        name = truncate(lang.directed(field.name or "\u200b"), FIELD_NAME_MAX)
        value = truncate(lang.directed(field.value or "\u200b"), FIELD_VALUE_MAX)
        if name != field.name or value != field.value:
            embed.set_field_at(index, name=name, value=value, inline=field.inline)
    for _ in fields[FIELDS_MAX:]:
        embed.remove_field(FIELDS_MAX)
    size = _embed_size(embed)
    while size > EMBED_TOTAL_MAX and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
        size = _embed_size(embed)
    if size > EMBED_TOTAL_MAX and embed.description:
        over = size - EMBED_TOTAL_MAX
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


def hand_button(table: TableInfo, row: int | None = None) -> discord.ui.Button[Any]:
    """The "My hand" button: no decision id, always answered with a fresh private view."""
    return table_button(Ref(table.id, "hand"), label=table.lang.t("button.hand"),
                        style=discord.ButtonStyle.primary, row=row)


def table_buttons(table: TableInfo, deal_number: int, between_deals: bool
                  ) -> list[discord.ui.Button[Any]]:
    """The board's table-level buttons: My hand; Next deal and Join between deals (naming
    the stake a member who takes an AI seat of a staked table puts in); I'm back when the AI
    plays a member's seat (also to take back one's own Leave mid-deal); Leave; Verify during
    a deal (at most five)."""
    t = table.lang.t
    buttons = [hand_button(table)]
    if between_deals:
        buttons.append(table_button(Ref(table.id, "next", None, deal_number),
                                    label=t(f"button.next_{table.spec.deal_noun}"),
                                    style=discord.ButtonStyle.success))
        staked = table.spec.stakes == "stake" and table.ranked  # an AI seat costs the stake
        join = t("button.join_stake", count=table.buy_in) if staked else t("button.join")
        buttons.append(table_button(Ref(table.id, "join"), label=join))
    if any(seat.ai and seat.member_id is not None and not seat.left and not seat.kicked
           for seat in table.seats):
        buttons.append(table_button(Ref(table.id, "back"), label=t("button.back"),
                                    style=discord.ButtonStyle.success))
    buttons.append(table_button(Ref(table.id, "leave"), label=t("button.leave")))
    if not between_deals:
        buttons.append(verify_button(table))
    return buttons


def leave_prompt(lang: Language, table_id: str, count: int) -> tuple[str, discord.ui.View]:
    """The private question Leave asks a member whom leaving costs ``count`` chips (their
    stake, forfeited to the pot): the sentence and its buttons, Leave (confirmed) and Stay."""
    view = discord.ui.View(timeout=None)
    view.add_item(table_button(Ref(table_id, "leave", arg="sure"),
                               label=lang.t("button.leave_confirm"),
                               style=discord.ButtonStyle.danger))
    view.add_item(table_button(Ref(table_id, "leave", arg="stay"),
                               label=lang.t("button.leave_stay"),
                               style=discord.ButtonStyle.secondary))
    view.stop()  # released at once, as a Rendered view: the DynamicItems answer the clicks
    return lang.t("table.leave_confirm", count=count, amount=lang.grouped(count)), view


def verify_button(table: TableInfo) -> discord.ui.Button[Any]:
    """The board's **Verify** button: the deal's whole commitment and how to check it."""
    return table_button(Ref(table.id, "verify"), label=table.lang.t("button.verify"))


def hex_groups(text: str) -> str:
    """A long hexadecimal string in groups of :data:`HEX_GROUP` characters, one space
    between them, so that it wraps on a phone (remove the spaces to copy it)."""
    return " ".join(text[i : i + HEX_GROUP] for i in range(0, len(text), HEX_GROUP))


def pace_line(table: TableInfo) -> str:
    """The table's pace and agreed length in one line, in the table's language."""
    return table.lang.join((table.lang.t(part) for part in table.pace), " · ")


def board_footer(embed: discord.Embed, table: TableInfo, shuffle: str,
                 commitment: str | None) -> None:
    """Set a board's footer: the pace line and a short fairness line (``shuffle`` names
    the deal, e.g. ``"Deal 3"``; the whole commitment is behind **Verify**); once the game
    is over (``table.seed`` revealed), the session seed in full, in groups that wrap."""
    t = table.lang.t
    if table.seed:
        embed.set_footer(text=t("board.session_seed") + "\n" + hex_groups(table.seed.hex()))
        return
    lines = [pace_line(table)] if table.pace else []
    if commitment:
        lines.append(t("board.fair_shuffle", shuffle=shuffle,
                       short=table.lang.ltr(commitment[:SHORT_HASH])))
    if lines:
        embed.set_footer(text="\n".join(lines))


CHECK_SNIPPET = """```py
import hashlib
seed = bytes.fromhex("…")  # the session seed, without its spaces
deal = hashlib.sha256(seed + ({shuffle}).to_bytes(4, "big")).digest()
print(hashlib.sha256(deal).hexdigest())
```"""
"""Python that recomputes shuffle ``{shuffle}``'s commitment from the session seed."""


def verify(table: TableInfo, commitment: str | None, shuffle: int | None) -> Rendered:
    """The private answer to **Verify**: the current deal's whole commitment, and how to
    check that deal once the session seed is revealed (DESIGN.md §3). No seed is shown:
    the session seed stays secret until the session is over, because every deal to come
    is computed from it.

    Parameters
    ----------
    table
        The table, in the viewer's language.
    commitment
        The current shuffle's commitment (hex SHA-256), None when the deal has none (a
        fixed deck).
    shuffle
        The number ``n`` of the shuffle that commitment belongs to.
    """
    t = table.lang.t
    embed = discord.Embed(title=t("verify.title", table=table.id), colour=COLOUR)
    if commitment is None or shuffle is None:
        embed.description = t("verify.no_shuffle")
        return Rendered(fit(embed, table.lang), None)
    embed.description = t("verify.committed", shuffle=shuffle) + f"\n```\n{commitment}\n```"
    embed.add_field(name=t("verify.how_name"), value=t("verify.how"), inline=False)
    embed.add_field(name=t("verify.check_name"), inline=False, value="\n".join((
        t("verify.check"), CHECK_SNIPPET.format(shuffle=shuffle),
        t("verify.check_deck", code=table.spec.deck_code.format(shuffle=shuffle)))))
    return Rendered(fit(embed, table.lang), None)


def deadline_line(table: TableInfo, seats: Sequence[int]) -> str:
    """``"Time left: <t:…:R>"`` for the earliest deadline of ``seats`` (empty if none), in
    the table's language (Discord writes the time itself in each reader's)."""
    due = [table.deadlines[s] for s in seats if s in table.deadlines]
    return table.lang.t("board.time_left", when=relative_time(min(due))) if due else ""


def relative_time(when: float) -> str:
    """Discord's relative timestamp markup ``<t:…:R>`` for POSIX seconds ``when`` (pass it as
    a str placeholder: its digits must stay Latin)."""
    return f"<t:{int(when)}:R>"


def table_kind(table: TableInfo, ranked: str, casual: str) -> Msg:
    """What the board says the table is: message ``ranked`` or ``casual`` of the game, or
    ``board.not_rated`` once the AI took a member's seat of a ranked table (its result is
    not rated; DESIGN.md §7)."""
    if table.ranked and table.substituted:
        return Msg("board.not_rated")
    return Msg(ranked if table.ranked else casual)


def team_name(table: TableInfo, team: int) -> str:
    """Team ``team``'s name in the table's language (``"Team A"``)."""
    return table.lang.t(f"game.{table.spec.name}.team.{team}")


_AI_NAME = re.compile(r"AI (\d+)")


@lru_cache(maxsize=4096)
def seat_name(lang: Language, name: str) -> str:
    """A seat's name as boards show it (:func:`short_name`); an AI seat's ``"AI 2"`` in the
    viewer's language (``"IA 2"``). Worked out once per language and name (a board names
    each seat several times)."""
    if match := _AI_NAME.fullmatch(name):
        return lang.t("seat.ai", number=int(match[1]))
    return short_name(name)


def note_name(member_id: int | None, name: str) -> Msg | str:
    """A seat's name kept in a board note or a refusal: an AI seat's as a catalog message
    (``"AI 2"`` shown in each reader's language), a member's as boards show it."""
    match = _AI_NAME.fullmatch(name) if member_id is None else None
    return Msg("seat.ai", number=int(match[1])) if match else short_name(name)


def seat_label(table: TableInfo, seat: int) -> str:
    """``"Alice"`` or ``"🤖 AI 2"``: a seat's short name for boards and logs (only AI seats
    carry :data:`AI_MARK`), in the table's language."""
    entry = table.seats[seat]
    if entry.member_id is None:
        return f"{AI_MARK} {seat_name(table.lang, entry.name)}"
    return _short_name(entry.name)


_short_name = lru_cache(maxsize=4096)(short_name)
""":func:`short_name`, worked out once per name (boards name each seat several times)."""


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
    t = table.lang.t
    low, high = spec.seats.start, spec.seats.stop - 1
    if not table.ranked:
        kind = t("lobby.casual_chips" if spec.stakes == "buy_in" else "lobby.casual")
    elif spec.stakes == "buy_in":
        kind = t("lobby.ranked_buy_in", count=table.buy_in)
    elif spec.stakes == "stake":
        kind = t("lobby.ranked_stake", count=table.buy_in)
    else:
        kind = t("lobby.ranked")
    needs = (table.lang.number(low) if low == high
             else t("lobby.range", low=low, high=high))
    embed = discord.Embed(
        title=t("table.title", game=Msg(f"game.{table.spec.name}"), table=table.id),
        description="\n".join((kind, table.lang.commands(rules_line),
                                pace_line(table),
                                t("lobby.who_starts", count=high, seats=needs))),
        colour=COLOUR,
    )
    view = discord.ui.View(timeout=None)
    if spec.seating == "partners":
        room = high // len(spec.teams)
        for team in range(len(spec.teams)):
            members = [i for i, seat in enumerate(table.seats) if seat.team == team]
            names = "\n".join(_lobby_line(table, i) for i in members) or t("lobby.nobody")
            embed.add_field(name=t("lobby.team_field", team=team_name(table, team),
                                   seated=len(members), room=room), value=names)
            view.add_item(table_button(Ref(table.id, "join", arg=str(team)),
                                       label=t("button.join_team", team=team_name(table, team)),
                                       style=discord.ButtonStyle.success))
    else:
        seats = ("\n".join(_lobby_line(table, i) for i in range(len(table.seats)))
                 or t("lobby.nobody"))
        embed.add_field(name=t("lobby.seats_field", seated=len(table.seats), room=high),
                        value=seats, inline=False)
        view.add_item(table_button(Ref(table.id, "join"), label=t("button.join"),
                                   style=discord.ButtonStyle.success))
    if table.notes:
        embed.add_field(name=t("board.latest"), value=notes(table), inline=False)
    for verb, style in (
        ("leave", discord.ButtonStyle.secondary),
        ("add_ai", discord.ButtonStyle.secondary),
        ("start", discord.ButtonStyle.primary),
        ("cancel", discord.ButtonStyle.danger),
    ):
        view.add_item(table_button(Ref(table.id, verb), label=t(f"button.{verb}"), style=style))
    return Rendered(fit(embed, table.lang), view)


def notes(table: TableInfo) -> str:
    """The runtime's latest lines (joins, timeouts …) in the table's language, one a line."""
    return "\n".join(table.lang.t(note.msg) for note in table.notes)


def _lobby_line(table: TableInfo, seat: int) -> str:
    label = seat_label(table, seat)
    if table.seats[seat].member_id == table.host_id:
        return table.lang.t("lobby.host_line", number=seat + 1, name=label)
    return table.lang.t("lobby.line", number=seat + 1, name=label)


def closed(table: TableInfo, text: str) -> Rendered:
    """The message a lobby becomes when it is cancelled: no components (``text`` in the
    table's language)."""
    embed = discord.Embed(title=table.lang.t("table.title", game=Msg(f"game.{table.spec.name}"),
                                             table=table.id),
                          description=text, colour=COLOUR)
    return Rendered(fit(embed, table.lang), None)
