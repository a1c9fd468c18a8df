"""Caribbean Kalooki's board and private hand views (rules/kalooki.md §2; views.py: what each
may see).

:func:`board` renders the public :class:`~engine.kalooki.views.KalookiTableView`: the deal and
its contract, the discard top and the stock, every combination on the table in compact
notation (a four as its range, ``9♦–K♦``, with its jokers' ranks; a three as its cards), hand
sizes, calls used, who has laid down, running totals, whose turn, the call window with a
**Call** button per member who may call, and the public log. :func:`hand` renders one seat's
:class:`~engine.kalooki.views.KalookiSeatView` with its :class:`Draft`: the cards by suit, the
picked and staged cards, what the contract still needs, and the controls of its decision.

A hand can hold more than a select's 25 options (26 cards and more after calls, case C13):
the cards not staged are split into :func:`pages` of whole suits where possible.
Every embed goes through :func:`bot.render.common.fit`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.i18n import ENGLISH
from bot.images import kalooki as images
from bot.render.common import (
    COLOUR,
    SELECT_OPTIONS_MAX,
    card,
    card_label,
    cards,
    deadline_line,
    fit,
    plural,
    seat_label,
    suit,
    table_buttons,
    truncate,
    visible,
)
from bot.runtime.components import TableButton, TableSelect
from bot.runtime.refs import Ref
from bot.runtime.spec import DealSummary, Rendered, TableInfo
from engine.cards import Card, Suit
from engine.core import SYSTEM, Option
from engine.kalooki import events as ev
from engine.kalooki import melds as m
from engine.kalooki.events import KalookiEvent
from engine.kalooki.phases import Phase
from engine.kalooki.rules import Contract, KalookiRules, contract_words
from engine.kalooki.views import KalookiSeatView, KalookiTableView

LOG_LINES = 8
PLAY_ON_ENDS = ("top", "bottom", "hand")
"""Where a ``play_on`` value puts the card (a lay-off's end) or the joker (an exchange)."""

PRESET_NOTES = {
    "jamaican": "9 deals, jokers never adjacent in a four, lay off at the top first, "
    "down and out doubles the others' penalties",
    "trinidad": "7 deals of 12 cards, jokers freer, lay off at either end, calls after "
    "laying down",
}


# ---------------------------------------------------------------------- the draft


@dataclass(frozen=True)
class Draft:
    """A seat's combinations under construction (JSON: lists of card ids).

    Attributes
    ----------
    picked
        Card ids picked for the next combination (or the one card to play on the table).
    groups
        Staged combinations: ``(kind, card ids)``, a four in table order.
    page
        The page of the hand its card select shows (:func:`pages`).
    """

    picked: tuple[int, ...] = ()
    groups: tuple[tuple[m.MeldKind, tuple[int, ...]], ...] = ()
    page: int = 0

    @classmethod
    def load(cls, data: Any, hand: Collection[int]) -> Draft:
        """The draft saved as ``data`` (None: an empty one), keeping only cards of ``hand``,
        each once (a saved draft is data from the store, never trusted blindly)."""
        if not isinstance(data, dict):
            return cls()
        used: set[int] = set()

        def held(ids: Any) -> tuple[int, ...]:
            out = []
            for c in ids if isinstance(ids, list | tuple) else ():
                if isinstance(c, int) and c in hand and c not in used:
                    used.add(c)
                    out.append(c)
            return tuple(out)

        groups = []
        for group in data.get("groups") or ():
            if isinstance(group, dict) and group.get("kind") in ("three", "four"):
                ids = held(group.get("cards"))
                if ids:
                    groups.append((group["kind"], ids))
        page = data.get("page")
        return cls(picked=held(data.get("picked")), groups=tuple(groups),
                   page=page if isinstance(page, int) and page >= 0 else 0)

    def dump(self) -> dict[str, Any]:
        """The draft as JSON-ready data."""
        return {"picked": list(self.picked),
                "groups": [{"kind": k, "cards": list(cs)} for k, cs in self.groups],
                "page": self.page}

    def replace(self, **changes: Any) -> Draft:
        return replace(self, **changes)

    def staged(self) -> set[int]:
        return {c for _, cs in self.groups for c in cs}

    def free(self, hand: Iterable[int]) -> list[Card]:
        """The cards of ``hand`` not staged, in display order (:func:`sort_key`)."""
        staged = self.staged()
        return sorted((Card(c) for c in hand if c not in staged), key=sort_key)


def sort_key(c: Card) -> tuple[int, int, int, int]:
    """Display order: suits ♣ ♦ ♥ ♠, ranks 2 … A, the two copies together; jokers last."""
    if c.is_joker:
        return (1, 0, 0, int(c))
    return (0, int(c.suit), int(c.rank), int(c))


def pages(free: Sequence[Card]) -> list[list[Card]]:
    """``free`` (display order) in pages of at most 25 cards: whole suits (jokers as one
    group) while they fit, a suit longer than a page cut."""
    groups: list[list[Card]] = []
    for c in free:
        key = sort_key(c)[:2]
        if groups and sort_key(groups[-1][0])[:2] == key:
            groups[-1].append(c)
        else:
            groups.append([c])
    out: list[list[Card]] = []
    for group in groups:
        while group:
            if out and len(out[-1]) + len(group) <= SELECT_OPTIONS_MAX:
                out[-1] += group
                group = []
            elif len(group) <= SELECT_OPTIONS_MAX:
                out.append(group)
                group = []
            else:
                out.append(group[:SELECT_OPTIONS_MAX])
                group = group[SELECT_OPTIONS_MAX:]
    return out


# ---------------------------------------------------------------------- text


def contract_line(contract: Contract) -> str:
    """``"3 fours (12 cards each)"``."""
    return f"{contract.words()} ({contract.cards} cards each)"


def rules_line(rules: KalookiRules) -> str:
    """The lobby's line: the preset, its note, the call window and honour mode (§2T.6)."""
    honour = f" {ENGLISH.t('kalooki.rules.honour_line')}" if rules.challenges else ""
    return (f"Rules: **{rules.name}** — {PRESET_NOTES.get(rules.name, '')}.\n"
            f"Call window {rules.call_window:g} s.{honour} Details: `/kalooki rules`.")


def meld_text(meld: m.Meld) -> str:
    """A combination in compact notation: ``m2 9♦–K♦`` (a four; ``Jkr=J♦`` for each joker)
    or ``m1 7♣ 7♥ Jkr`` (a three)."""
    if meld.kind == "three":
        return f"`{meld.id}` {cards(meld.cards)}"
    assert meld.suit is not None
    mark = suit(meld.suit)
    text = f"`{meld.id}` **{m.rank_label(meld.low)}{mark}–{m.rank_label(meld.high)}{mark}**"
    jokers = [m.rank_label(v) + mark
              for c, v in zip(meld.cards, meld.represents(), strict=True) if c.is_joker]
    return text + (f" (Jkr={', '.join(jokers)})" if jokers else "")


def _meld_label(table: TableInfo, meld: m.Meld) -> str:
    """A combination on a component: ``Bob's four 9♦-K♦``."""
    return f"{seat_label(table, meld.owner)}'s {visible(meld.describe())}"


def _event(table: TableInfo, event: KalookiEvent) -> str:
    """One public log line (the view's log is already in its public form)."""
    name = lambda seat: seat_label(table, seat)  # noqa: E731
    match event:
        case ev.DealStarted(deal_number=n, dealer=dealer, contract=contract, upcard=up, redeal=r):
            again = " again after a void deal" if r else ""
            return (f"Deal {n}{again}: {contract.words()}; {name(dealer)} deals, upcard "
                    f"{card(up)}.")
        case ev.Drew(seat=seat, source="stock"):
            return f"{name(seat)} drew from the stock."
        case ev.Drew(seat=seat, card=taken) if taken is not None:
            return f"{name(seat)} took {card(taken)} from the discard pile."
        case ev.Called(seat=seat, card=called):
            return f"{name(seat)} calls {card(called)}."
        case ev.CallAllowed(caller=caller, card=called, calls_used=used, forced=forced):
            why = "must allow (laid down)" if forced else "allowed"
            return (f"Call {why}: {name(caller)} takes {card(called)} and a stock card "
                    f"(call {used}).")
        case ev.CallRefused(seat=seat, caller=caller, card=called):
            return f"{name(seat)} refuses {name(caller)}'s call and takes {card(called)}."
        case ev.ChallengeMade(challenger=by, challenged=whom, hand_size=size, limit=limit,
                              correct=correct, score=score):
            key = "kalooki.log.challenge_right" if correct else "kalooki.log.challenge_wrong"
            return table.lang.t(key, challenger=name(by), challenged=name(whom), size=size,
                                limit=limit, score=score)
        case ev.LaidDown(seat=seat, melds=new, contract=first):
            what = "the contract" if first else "more"
            return f"{name(seat)} lays down {what}: " + " · ".join(meld_text(x) for x in new)
        case ev.LaidOff(seat=seat, card=off, meld=meld):
            return f"{name(seat)} lays {card(off)} off: {meld_text(meld)}."
        case ev.JokerExchanged(seat=seat, card=put, meld=meld, to=to):
            where = "to hand" if to == "hand" else f"to the {to}"
            return f"{name(seat)} puts {card(put)} in for a joker (moved {where}): " + (
                meld_text(meld))
        case ev.Discarded(seat=seat, card=thrown):
            return f"{name(seat)} discards {card(thrown)}."
        case ev.TurnEnded(seat=seat):
            return f"{name(seat)} holds only jokers and ends the turn."
        case ev.StockReshuffled(size=size):
            return f"The stock ran out: the discards under the top became a new stock of {size}."
        case ev.DealVoid(deal_number=n, skipped=True):
            return f"The stock ran out again: deal {n} was void too often and is skipped."
        case ev.DealVoid(deal_number=n, dealer=dealer):
            return f"The stock ran out again: deal {n} is void; {name(dealer)} deals it again."
        case ev.WentOut(seat=seat, last=True):
            return table.lang.t("kalooki.log.last_left", name=name(seat))
        case ev.WentOut(seat=seat, down_and_out=True):
            return f"{name(seat)} goes down and out!"
        case ev.WentOut(seat=seat):
            return f"{name(seat)} goes out!"
        case ev.DealScored(deal_number=n, penalties=penalties):
            scored = ", ".join(f"{name(s)} {p}" for s, p in penalties.items() if p)
            return f"Deal {n} scored: {scored or 'nobody pays'}."
        case ev.SessionOver():
            return "The set is over."
    return ""


# ---------------------------------------------------------------------- the board


def board(table: TableInfo, view: KalookiTableView, calls: dict[int, int]) -> Rendered:
    """The public board message of a started Kalooki table.

    Parameters
    ----------
    table
        The table (names, AI flags, deadlines, the seed once over).
    view
        ``game.public_view()``.
    calls
        Seat -> decision id of each seat that may call the top discard now; member seats
        get a **Call** button (at most 5: every seat but the current player's).
    """
    over = view.phase is Phase.OVER
    title = f"Caribbean Kalooki — table {table.id} · deal {view.deal_number} of {view.deals}"
    embed = discord.Embed(title=title, description=_status(table, view), colour=COLOUR)
    embed.add_field(name="Players", value=_players(table, view), inline=False)
    for owner in range(len(view.hand_sizes)):
        own = [meld_text(x) for x in view.melds if x.owner == owner]
        if own:
            embed.add_field(name=f"{seat_label(table, owner)}'s combinations",
                            value=truncate("\n".join(own), 1024), inline=False)
    lines = [line for line in (_event(table, e) for e in _deal_events(view.log)) if line]
    lines = lines[-LOG_LINES:] + [table.lang.t(note) for note in table.notes]
    if lines:
        embed.add_field(name="Log", value=truncate("\n".join(lines[-LOG_LINES:]), 1024),
                        inline=False)
    if over:
        embed.set_footer(text=f"Session seed (every deal can be recomputed from it): "
                         f"{table.seed.hex()}")
    elif view.commitment:
        embed.set_footer(text=f"Deal commitment SHA-256: {view.commitment}")
    return Rendered(fit(embed), None if over else _board_view(table, view, calls),
                    images.board_picture(view))


def _deal_events(log: Sequence[KalookiEvent]) -> list[KalookiEvent]:
    start = max((i for i, e in enumerate(log) if e.kind == "deal_started"), default=0)
    return list(log[start:])


def _status(table: TableInfo, view: KalookiTableView) -> str:
    lines = []
    if view.contract is not None and view.phase is not Phase.OVER:
        lines.append(f"**Deal {view.deal_number} of {view.deals}**: "
                     f"{contract_line(view.contract)}")
    turn = seat_label(table, view.turn) if view.turn is not None else ""
    window = view.window
    match view.phase:
        case Phase.WINDOW if window.card is not None:
            callers = ", ".join(seat_label(table, s) for s in window.callers)
            lines.append(f"{card(window.card)} may be called by {callers}; {turn} may take "
                         "it. The stock opens when the call window closes.")
            if deadline := deadline_line(table, [SYSTEM]):
                lines.append(deadline)
        case Phase.ANSWER if window.caller is not None:
            lines.append(f"{seat_label(table, window.caller)} called "
                         f"{card(view.discard_top) if view.discard_top is not None else ''}: "
                         f"{turn} allows or refuses.")
        case Phase.DRAW:
            lines.append(f"{turn} to draw.")
            if view.rules.challenges:
                lines.append(table.lang.t("kalooki.board.may_challenge", name=turn))
        case Phase.PLAY:
            lines.append(f"{turn} is playing: lay down, lay off, discard.")
        case Phase.BETWEEN_DEALS:
            lines.append("Between deals: press **Next deal** to deal again.")
        case Phase.OVER:
            lines.append("**The set is over.** Lowest total wins.")
    if view.phase not in (Phase.BETWEEN_DEALS, Phase.OVER):
        top = card(view.discard_top) if view.discard_top is not None else "empty"
        dead = " (dead after a call)" if view.dead_top else ""
        lines.append(f"Discard: {top}{dead} · {plural(view.discard_size, 'card')} · "
                     f"stock {view.stock_size}")
        if deadline := deadline_line(table, [s for s in view.to_act if view.phase
                                              is not Phase.WINDOW]):
            lines.append(deadline)
        lines.append(f"Dealer: {seat_label(table, view.dealer)}")
    if view.ending and view.phase is not Phase.OVER:
        lines.append("The set ends after this deal.")
    kind = "Ranked" if table.ranked else "Casual"
    honour = f" · {table.lang.t('kalooki.board.honour')}" if view.rules.challenges else ""
    lines.append(f"{kind} · rules: {view.rules.name}{honour}")
    return "\n".join(lines)


def _players(table: TableInfo, view: KalookiTableView) -> str:
    lines = []
    for seat in range(len(view.hand_sizes)):
        parts = [f"{'▶ ' if seat == view.turn else ''}**{seat_label(table, seat)}**"]
        if view.phase not in (Phase.BETWEEN_DEALS, Phase.OVER):
            if seat in view.sitting_out:
                parts.append(table.lang.t("kalooki.board.sits_out",
                                          points=view.sitting_out[seat]))
            else:
                parts.append(plural(view.hand_sizes[seat], "card"))
            parts.append(f"calls {view.calls_used[seat]}/{view.rules.max_calls}")
            if view.laid_down[seat]:
                parts.append("laid down")
        parts.append(f"{view.totals[seat]} pts")
        if seat == view.dealer:
            parts.append("dealer")
        if table.seats[seat].leaving:
            parts.append("leaving")
        lines.append(" · ".join(parts))
    return "\n".join(lines)


def deal_summary(table: TableInfo, view: KalookiTableView) -> DealSummary | None:
    """What the last deal did: who went out (down and out), or that it was void, and each
    player's penalty points with the new totals (§2.11); None until a deal is scored."""
    events = _deal_events(view.log)
    scored = next((e for e in reversed(events) if isinstance(e, ev.DealScored)), None)
    if scored is None:
        return None
    lines = [_event(table, e) for e in events if isinstance(e, ev.WentOut | ev.DealVoid)]
    if not any(isinstance(e, ev.WentOut) for e in events):
        lines.append("Nobody went out.")
    lines.append("Totals: " + " · ".join(f"{seat_label(table, s)} {total}"
                                         for s, total in sorted(scored.totals.items())))
    deltas = tuple((seat_label(table, s), points) for s, points in sorted(scored.penalties.items()))
    return DealSummary(f"Deal {scored.deal_number}", tuple(lines), deltas, "penalty_point")


def _board_view(table: TableInfo, view: KalookiTableView, calls: dict[int, int]) -> Any:
    ui = discord.ui.View(timeout=None)
    top = view.window.card
    for seat, decision in sorted(calls.items()):
        if top is None or table.seats[seat].member_id is None or table.seats[seat].ai:
            continue
        ui.add_item(TableButton(Ref(table.id, "call", seat, decision),
                                label=f"Call {card_label(top)} · {seat_label(table, seat)}",
                                style=discord.ButtonStyle.success, row=0))
    for button in table_buttons(table, view.deal_number, view.phase is Phase.BETWEEN_DEALS):
        button.row = 1
        ui.add_item(button)
    return ui


# ---------------------------------------------------------------------- a private hand


def hand(table: TableInfo, view: KalookiSeatView, draft: Draft, problem: str | None) -> Rendered:
    """Seat ``view.seat``'s private message: its cards by suit, its draft, its controls.

    Parameters
    ----------
    table
        The table.
    view
        ``game.view(seat)``: only what that seat may see.
    draft
        The seat's draft of its current decision (cards of its hand only).
    problem
        Why laying the staged combinations down would be refused now (the engine's
        ``check``), or None.
    """
    public = view.table
    staged = draft.staged()
    embed = discord.Embed(
        title=f"Your hand — Kalooki table {table.id} · deal {public.deal_number}",
        description=_hand_lines(view.hand, staged, set(draft.picked)) or "No cards.",
        colour=COLOUR,
    )
    if draft.groups or draft.picked:
        embed.add_field(name="Your draft", value=truncate(_draft_text(view, draft, problem),
                                                          1024), inline=False)
    facts = [plural(len(view.hand), "card"),
             f"calls {public.calls_used[view.seat]}/{public.rules.max_calls}",
             "laid down" if public.laid_down[view.seat] else "not laid down",
             f"{public.totals[view.seat]} pts"]
    if public.contract is not None:
        facts.insert(0, f"contract: {public.contract.words()}")
    embed.add_field(name="You", value=" · ".join(facts), inline=False)
    embed.add_field(name="Now", value=_hand_status(table, view), inline=False)
    embed.set_footer(text="Only you can see this. Press My hand on the board for a fresh view.")
    picture = images.hand_picture(view, tuple(int(c) for c in draft.free(view.hand)),
                                  draft.picked, tuple(cs for _, cs in draft.groups))
    return Rendered(fit(embed), _hand_view(table, view, draft), picture)


def _hand_lines(hand_cards: Sequence[Card], staged: set[int], picked: set[int]) -> str:
    """The hand by suit (jokers last); picked cards underlined, staged ones left out."""
    lines = []
    shown = [c for c in sorted(hand_cards, key=sort_key) if c not in staged]
    for of in [*Suit, None]:
        row = [c for c in shown if (c.is_joker if of is None else not c.is_joker
                                    and c.suit == of)]
        if row:
            head = suit(of) if of is not None else "Jokers"
            text = " ".join(f"__{card(c)}__" if c in picked else card(c) for c in row)
            lines.append(f"{head} {text}")
    return "\n".join(lines)


def _draft_text(view: KalookiSeatView, draft: Draft, problem: str | None) -> str:
    lines = []
    if draft.picked:
        lines.append(f"Picked: {cards(draft.picked)}")
    for i, (kind, ids) in enumerate(draft.groups, start=1):
        lines.append(f"{i}. {kind}: {cards(ids)}")
    contract = view.table.contract
    if draft.groups and contract is not None and not view.table.laid_down[view.seat]:
        threes = sum(k == "three" for k, _ in draft.groups)
        fours = len(draft.groups) - threes
        missing = (max(contract.threes - threes, 0), max(contract.fours - fours, 0))
        still = "nothing more" if missing == (0, 0) else contract_words(*missing)
        lines.append(f"The contract ({contract.words()}) still needs {still}.")
    if problem:
        lines.append(f"Lay down now: refused — {problem}")
    elif draft.groups:
        lines.append("Ready: press **Lay down**.")
    return "\n".join(lines)


def _hand_status(table: TableInfo, view: KalookiSeatView) -> str:
    public = view.table
    kinds = {o.kind for o in view.options}
    top = card(public.discard_top) if public.discard_top is not None else "the discard"
    if view.seat in public.sitting_out and public.turn is not None:
        return table.lang.t("kalooki.hand.sitting_out", points=public.sitting_out[view.seat])
    if not kinds:
        if public.turn is None:
            return "Nothing to decide now."
        return f"Nothing to decide now; {seat_label(table, public.turn)}'s turn."
    if "call" in kinds:
        used, most = public.calls_used[view.seat], public.rules.max_calls
        over = f"\n{table.lang.t('kalooki.hand.over_call')}" if used >= most else ""
        return (f"You may call {top} (you get it and a stock card; call "
                f"{used + 1} of {most}).{over}")
    if public.phase is Phase.WINDOW:
        return f"Your turn: take {top} now, or draw from the stock when the call window closes."
    if "allow" in kinds:
        caller = seat_label(table, public.window.caller) if public.window.caller is not None \
            else "Someone"
        refuse = ", or refuse and take it yourself" if "refuse" in kinds else ""
        return f"{caller} calls {top}: allow it{refuse}."
    if "draw" in kinds:
        text = "Your turn: draw from the stock or take the discard."
        if "challenge" in kinds and public.contract is not None:
            limit = public.rules.call_limit_hand(public.contract)
            text += f"\n{table.lang.t('kalooki.hand.challenge', limit=limit)}"
        return text
    return ("Pick cards, stage them as a three or a four, then **Lay down**. "
            "To lay off or exchange a joker, pick one card and choose where it goes. "
            "End with a discard.")


_BUTTONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "call": ("Call", discord.ButtonStyle.success),
    "allow": ("Allow", discord.ButtonStyle.primary),
    "refuse": ("Refuse (take it)", discord.ButtonStyle.secondary),
    "end_turn": ("End turn (jokers only)", discord.ButtonStyle.secondary),
}


def _hand_view(table: TableInfo, view: KalookiSeatView, draft: Draft) -> Any:
    ui = discord.ui.View(timeout=None)
    seat, decision = view.seat, view.decision_id
    ref = lambda verb, arg="": Ref(table.id, verb, seat, decision, arg)  # noqa: E731
    top = view.table.discard_top
    by_kind = {o.kind: o for o in view.options}
    for kind, (label, style) in _BUTTONS.items():
        if kind in by_kind:
            if kind == "call" and top is not None:
                label = f"Call {card_label(top)}"
            ui.add_item(TableButton(ref(kind), label=label, style=style, row=0))
    if "challenge" in by_kind:
        for target in by_kind["challenge"].targets:
            other = int(target)
            label = table.lang.t("kalooki.button.challenge", name=seat_label(table, other),
                                 count=view.table.hand_sizes[other])
            ui.add_item(TableButton(ref("challenge", target), label=truncate(label, 80),
                                    style=discord.ButtonStyle.danger, row=1))
    if "draw" in by_kind:
        sources = by_kind["draw"].targets
        if "stock" in sources:
            ui.add_item(TableButton(ref("stock"), label="Draw from the stock",
                                    style=discord.ButtonStyle.primary, row=0))
        if "discard" in sources and top is not None:
            ui.add_item(TableButton(ref("take"), label=f"Take {card_label(top)}",
                                    style=discord.ButtonStyle.secondary, row=0))
    if view.table.phase is Phase.PLAY and by_kind:
        _play_controls(ui, table, view, draft, by_kind, ref)
    return ui if ui.children else None


def _play_controls(ui: discord.ui.View, table: TableInfo, view: KalookiSeatView, draft: Draft,
                   by_kind: dict[str, Option], ref: Any) -> None:
    """Row 0: the card picker (one page); row 1: stage, lay down, clear, next page; row 2:
    the discard; row 3: where the one picked card may go (lay-off or joker exchange)."""
    free = draft.free(view.hand)
    book = pages(free)
    page = min(draft.page, len(book) - 1) if book else 0
    shown = book[page] if book else []
    picked = set(draft.picked)
    if shown:
        ui.add_item(TableSelect(
            ref("pick"),
            options=[discord.SelectOption(label=card_label(c), value=str(int(c)),
                                          default=int(c) in picked) for c in shown],
            min_values=0, max_values=len(shown),
            placeholder=f"Pick cards (page {page + 1} of {len(book)})" if len(book) > 1
            else "Pick cards for a combination", row=0,
        ))
    if "meld" in by_kind:
        ui.add_item(TableButton(ref("three"), label="Stage as three", row=1))
        ui.add_item(TableButton(ref("four"), label="Stage as four", row=1))
    if draft.groups:
        ui.add_item(TableButton(ref("lay_down"), label=f"Lay down ({len(draft.groups)})",
                                style=discord.ButtonStyle.success, row=1))
    if draft.groups or draft.picked:
        ui.add_item(TableButton(ref("clear"), label="Clear", row=1))
    if len(book) > 1:
        ui.add_item(TableButton(ref("page", str((page + 1) % len(book))),
                                label=f"Cards {(page + 1) % len(book) + 1}/{len(book)}",
                                row=1))
    if "discard" in by_kind:
        naturals = [c for c in shown if not c.is_joker]
        if naturals:
            ui.add_item(TableSelect(
                ref("discard"),
                options=[discord.SelectOption(label=f"Discard {card_label(c)}",
                                              value=str(int(c))) for c in naturals],
                placeholder="Discard a card (ends your turn)", row=2,
            ))
    targets = _play_on_options(table, view, draft, by_kind)
    if targets:
        ui.add_item(TableSelect(ref("play_on"), options=targets[:SELECT_OPTIONS_MAX],
                                placeholder=f"Play {card_label(draft.picked[0])} on…", row=3))


def _play_on_options(table: TableInfo, view: KalookiSeatView, draft: Draft,
                     by_kind: dict[str, Option]) -> list[discord.SelectOption]:
    """The lay-offs and joker exchanges open to the one picked card (§2.9; T7, T9-T11)."""
    if len(draft.picked) != 1:
        return []
    picked = Card(draft.picked[0])
    rules, seat = view.table.rules, view.seat
    out = []
    for meld in view.table.melds:
        label = _meld_label(table, meld)
        if "lay_off" in by_kind and picked in by_kind["lay_off"].cards:
            for end in m.lay_off_ends(meld, picked, rules):
                where = "" if meld.kind == "three" else f" ({end})"
                out.append(discord.SelectOption(label=truncate(f"Lay off on {label}{where}", 100),
                                                value=f"o_{meld.id}_{end}"))
        if "exchange" in by_kind and picked in by_kind["exchange"].cards:
            for to in PLAY_ON_ENDS:
                try:
                    m.exchange(meld, picked, to, rules, own=meld.owner == seat)
                except m.MeldError:
                    continue
                text = f"Swap for the joker in {label} (joker to {to})"
                out.append(discord.SelectOption(label=truncate(text, 100),
                                                value=f"x_{meld.id}_{to}"))
    return out


# ---------------------------------------------------------------------- the rules


def _challenge_fact(rules: KalookiRules) -> str:
    """The challenge of the rules (§2T.6) in plain words ("" when they have none)."""
    if rules.challenges:
        limit = rules.call_limit_hand(rules.contracts[0])
        return ENGLISH.t("kalooki.rules.honour", calls=rules.max_calls, limit=limit)
    if rules.challenge:
        return ENGLISH.t("kalooki.rules.no_challenge", calls=rules.max_calls)
    return ""


def rules_card(rules: KalookiRules, source: str) -> Rendered:
    """``/kalooki rules``: a table's rules in plain words (rules/kalooki.md §2, §2T).

    Parameters
    ----------
    rules
        The rules to show.
    source
        Whose rules they are (a table, the channel's house rules, the default), one sentence.
    """
    embed = discord.Embed(title=f"Caribbean Kalooki rules: {rules.name}",
                          description=f"{PRESET_NOTES.get(rules.name, '')}.\n{source}",
                          colour=COLOUR)
    deals = "\n".join(f"{i}. {contract_line(c)}" for i, c in enumerate(rules.contracts, 1))
    embed.add_field(name=f"The {rules.deals} deals and their contracts", value=deals,
                    inline=False)
    facts = [
        f"{rules.min_players}-{rules.max_players} players, 108 cards (two packs, 4 jokers)",
        f"call the top discard out of turn: at most {rules.max_calls} calls a deal, "
        f"{'also' if rules.melded_may_call else 'only'} before laying down; the window "
        f"lasts {rules.call_window:g} s",
        "penalties: joker 50, black ace 15, K Q J 10 = 10, 2-9 face value, red ace 1",
        "down and out doubles the others' penalties" if rules.down_and_out == "double"
        else "no bonus for going down and out",
        _challenge_fact(rules),
        f"a deal void {rules.void_limit} times in a row (the stock ran out twice each "
        "time) is skipped",
    ]
    embed.add_field(name="Table", value="\n".join(f"• {visible(f)}" for f in facts if f),
                    inline=False)
    return Rendered(fit(embed), None)
