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
the cards not staged are split into :func:`pages` of whole suits where possible. So are the
places one picked card may go when they are more than 25 (:func:`play_on_pages`: a joker
fits every combination on a crowded table), each combination's on one page.
Every embed goes through :func:`bot.render.common.fit`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from itertools import groupby
from typing import Any, TypeVar

import discord

from bot.i18n import ENGLISH, Language, Msg
from bot.images import kalooki as images
from bot.images.picture import HandPicture
from bot.render.common import (
    COLOUR,
    SELECT_OPTIONS_MAX,
    board_footer,
    card,
    card_label,
    cards,
    deadline_line,
    fit,
    seat_label,
    suit,
    table_buttons,
    table_kind,
    truncate,
    visible,
)
from bot.render.lines import LINES, board_log
from bot.runtime.components import table_button, table_select
from bot.runtime.refs import Ref
from bot.runtime.spec import DealSummary, Rendered, TableInfo
from engine.cards import CARD_IDS, DOUBLE_DECK_SIZE, Card, Suit
from engine.core import SYSTEM, Option
from engine.kalooki import events as ev
from engine.kalooki import melds as m
from engine.kalooki.events import KalookiEvent
from engine.kalooki.phases import Phase
from engine.kalooki.rules import Contract, KalookiRules
from engine.kalooki.views import KalookiSeatView, KalookiTableView

LOG_LINES = 8
PLAY_ON_ENDS = ("top", "bottom", "hand")
"""Where a ``play_on`` value puts the card (a lay-off's end) or the joker (an exchange)."""

PRESETS = ("jamaican", "trinidad")
"""The presets whose notes are catalog messages (``kalooki.preset.<name>``)."""

ON_PAGE = "on_"
"""The ``page`` verb's argument for a page of the "Play … on" select (``on_<page>``); a bare
number is a page of the hand."""

T = TypeVar("T")


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
    on_page
        The page of the places the one picked card may go (:func:`play_on_pages`).
    """

    picked: tuple[int, ...] = ()
    groups: tuple[tuple[m.MeldKind, tuple[int, ...]], ...] = ()
    page: int = 0
    on_page: int = 0

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
        page, on_page = data.get("page"), data.get("on_page")
        return cls(picked=held(data.get("picked")), groups=tuple(groups),
                   page=page if isinstance(page, int) and page >= 0 else 0,
                   on_page=on_page if isinstance(on_page, int) and on_page >= 0 else 0)

    def dump(self) -> dict[str, Any]:
        """The draft as JSON-ready data."""
        return {"picked": list(self.picked),
                "groups": [{"kind": k, "cards": list(cs)} for k, cs in self.groups],
                "page": self.page, "on_page": self.on_page}

    def replace(self, **changes: Any) -> Draft:
        return replace(self, **changes)

    def mark(self) -> str:
        """A short token of the picked and staged cards, carried by the controls that act on
        them (stage, lay down): a click from a view of an older draft (a newer view of the
        hand picked or staged since) is answered as stale, not applied to the newer draft."""
        shape = repr(([int(c) for c in self.picked],
                      [(kind, [int(c) for c in cards]) for kind, cards in self.groups])).encode()
        return hashlib.blake2s(shape, digest_size=6).hexdigest()

    def staged(self) -> set[int]:
        return {c for _, cs in self.groups for c in cs}

    def free(self, hand: Iterable[int]) -> list[Card]:
        """The cards of ``hand`` not staged, in display order (:func:`sort_key`)."""
        staged = self.staged()
        return sorted((Card(c) for c in hand if c not in staged), key=sort_key)


def sort_key(c: Card) -> tuple[int, int, int, int]:
    """Display order: suits ♣ ♦ ♥ ♠, ranks 2 … A, the two copies together; jokers last
    (worked out once per card: :data:`_SORT_KEYS`)."""
    return _SORT_KEYS[c]


def _sort_key(c: Card) -> tuple[int, int, int, int]:
    """:func:`sort_key` of ``c``, from its suit and rank."""
    if c.is_joker:
        return (1, 0, 0, int(c))
    return (0, int(c.suit), int(c.rank), int(c))


_SORT_KEYS = tuple(_sort_key(Card(card_id)) for card_id in range(CARD_IDS))
"""Every card's :func:`sort_key`, by id."""


def _suit_group(c: Card) -> tuple[int, int]:
    """The group of a card in the hand's pages: its suit, the jokers one group."""
    return sort_key(c)[:2]


def pages(items: Sequence[T], key: Callable[[T], Hashable] = _suit_group) -> list[list[T]]:
    """``items`` (in order) in pages of at most 25, a select's options: whole groups (items
    in a row of one ``key``) while they fit, a group longer than a page cut. The default
    ``key`` is for the cards of a hand (display order): whole suits, jokers as one group."""
    groups: list[list[T]] = []
    for item in items:
        if groups and key(groups[-1][0]) == key(item):
            groups[-1].append(item)
        else:
            groups.append([item])
    out: list[list[T]] = []
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


def preset_note(lang: Language, name: str) -> str:
    """A preset's rules in a few words (``kalooki.preset.<name>``; empty for another)."""
    return lang.t(f"kalooki.preset.{name}") if name in PRESETS else ""


def preset_name(lang: Language, name: str) -> str:
    """A preset's name as players say it (``kalooki.preset_name.<name>``), else as saved."""
    return lang.t(f"kalooki.preset_name.{name}") if name in PRESETS else name


def contract_words(lang: Language, threes: int, fours: int) -> str:
    """``"2 threes and 1 four"`` / ``"nothing"``: counts of threes and fours in words."""
    parts = [lang.t(f"kalooki.{kind}s", count=n)
             for kind, n in (("three", threes), ("four", fours)) if n]
    if len(parts) == 2:
        return lang.t("kalooki.contract.and", threes=parts[0], fours=parts[1])
    return parts[0] if parts else lang.t("kalooki.contract.nothing")


def contract_line(lang: Language, contract: Contract) -> str:
    """``"3 fours (12 cards each)"``."""
    return lang.t("kalooki.contract.line", contract=_words(lang, contract),
                  count=contract.cards)


def _words(lang: Language, contract: Contract) -> str:
    return contract_words(lang, contract.threes, contract.fours)


def rules_line(rules: KalookiRules, lang: Language = ENGLISH) -> str:
    """The lobby's line: the preset, its note, the call window, honour mode (§2T.6) and a
    pack set other than the 108 cards (§2.14)."""
    honour = f" {lang.t('kalooki.rules.honour_line')}" if rules.challenges else ""
    cards = (f" {lang.t(_cards(rules, 'kalooki.rules.cards_line'))}"
             if rules.cards != DOUBLE_DECK_SIZE else "")
    return lang.t("kalooki.options", name=preset_name(lang, rules.name),
                  note=preset_note(lang, rules.name), window=seconds(lang, rules.call_window),
                  honour=honour, cards=cards)


def _cards(rules: KalookiRules, key: str) -> Msg:
    """The pack set (§2.14 ``packs``, ``jokers``) in the words of catalog message ``key``."""
    return Msg(key, cards=rules.cards, packs=rules.packs, jokers=rules.jokers)


def seconds(lang: Language, value: float) -> str:
    """A number of seconds in ``lang``'s digits: ``8`` / ``۸``, ``2.5`` / ``2,5``."""
    return lang.number(int(value)) if float(value).is_integer() else lang.decimal(value)


def meld_text(meld: m.Meld, lang: Language) -> str:
    """A combination in compact notation, in ``lang``'s order (:meth:`Language.join`):
    ``m2 9♦–K♦`` (a four; ``Jkr=J♦`` for each joker) or ``m1 7♣ 7♥ Jkr`` (a three)."""
    if meld.kind == "three":
        return lang.join([f"`{meld.id}`", cards(meld.cards, lang)], " ")
    assert meld.suit is not None
    mark = suit(meld.suit)
    parts = [f"`{meld.id}`", f"**{m.rank_label(meld.low)}{mark}–{m.rank_label(meld.high)}{mark}**"]
    jokers = [m.rank_label(v) + mark
              for c, v in zip(meld.cards, meld.represents(), strict=True) if c.is_joker]
    if jokers:
        parts.append(f"(Jkr={', '.join(jokers)})")
    return lang.join(parts, " ")


def _meld_label(table: TableInfo, meld: m.Meld) -> str:
    """A combination on a component: ``Bob's four 9♦-K♦``."""
    if meld.kind == "three":
        return table.lang.t("kalooki.meld.three", name=seat_label(table, meld.owner),
                            rank=m.rank_label(meld.low))
    assert meld.suit is not None
    mark = visible(meld.suit.symbol)
    return table.lang.t("kalooki.meld.four", name=seat_label(table, meld.owner),
                        low=m.rank_label(meld.low) + mark, high=m.rank_label(meld.high) + mark)


def _event(table: TableInfo, event: KalookiEvent) -> str:
    """One public log line (the view's log is already in its public form)."""
    t = table.lang.t
    name = lambda seat: seat_label(table, seat)  # noqa: E731
    match event:
        case ev.DealStarted(deal_number=n, dealer=dealer, contract=contract, upcard=up, redeal=r):
            return t("kalooki.log.deal_again" if r else "kalooki.log.deal", deal=n,
                     contract=_words(table.lang, contract), dealer=name(dealer), upcard=card(up))
        case ev.Drew(seat=seat, source="stock"):
            return t("kalooki.log.drew", name=name(seat))
        case ev.Drew(seat=seat, card=taken) if taken is not None:
            return t("kalooki.log.took", name=name(seat), card=card(taken))
        case ev.Called(seat=seat, card=called):
            return t("kalooki.log.calls", name=name(seat), card=card(called))
        case ev.CallAllowed(caller=caller, card=called, calls_used=used, forced=forced):
            return t("kalooki.log.call_forced" if forced else "kalooki.log.call_allowed",
                     name=name(caller), card=card(called), calls=used)
        case ev.CallRefused(seat=seat, caller=caller, card=called):
            return t("kalooki.log.call_refused", name=name(seat), caller=name(caller),
                     card=card(called))
        case ev.ChallengeMade(challenger=by, challenged=whom, hand_size=size, limit=limit,
                              correct=correct, score=score):
            key = "kalooki.log.challenge_right" if correct else "kalooki.log.challenge_wrong"
            return t(key, challenger=name(by), challenged=name(whom), size=size,
                     limit=limit, score=score)
        case ev.LaidDown(seat=seat, melds=new, contract=first):
            return t("kalooki.log.laid_contract" if first else "kalooki.log.laid_more",
                     name=name(seat),
                     melds=table.lang.join((meld_text(x, table.lang) for x in new), " · "))
        case ev.LaidOff(seat=seat, card=off, meld=meld):
            return t("kalooki.log.laid_off", name=name(seat), card=card(off),
                     meld=meld_text(meld, table.lang))
        case ev.JokerExchanged(seat=seat, card=put, meld=meld, to=to):
            return t("kalooki.log.exchanged", name=name(seat), card=card(put),
                     where=Msg(f"kalooki.joker_to.{to}"),
                     meld=meld_text(meld, table.lang))
        case ev.Discarded(seat=seat, card=thrown):
            return t("kalooki.log.discards", name=name(seat), card=card(thrown))
        case ev.TurnEnded(seat=seat):
            return t("kalooki.log.turn_ended", name=name(seat))
        case ev.StockReshuffled(size=size):
            return t("kalooki.log.reshuffled", count=size)
        case ev.DealVoid(deal_number=n, skipped=True):
            return t("kalooki.log.void_skipped", deal=n)
        case ev.DealVoid(deal_number=n, dealer=dealer):
            return t("kalooki.log.void", deal=n, dealer=name(dealer))
        case ev.WentOut(seat=seat, last=True):
            return t("kalooki.log.last_left", name=name(seat))
        case ev.WentOut(seat=seat, down_and_out=True):
            return t("kalooki.log.down_and_out", name=name(seat))
        case ev.WentOut(seat=seat):
            return t("kalooki.log.out", name=name(seat))
        case ev.DealScored(deal_number=n, penalties=penalties):
            scored = table.lang.join(
                t("kalooki.log.penalty", name=name(s), points=p)
                for s, p in penalties.items() if p)
            return t("kalooki.log.scored", deal=n,
                     scored=scored or Msg("kalooki.log.nobody_pays"))
        case ev.SessionOver(complete=False):
            return t("kalooki.log.set_ended")
        case ev.SessionOver():
            return t("kalooki.log.set_over")
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
    t = table.lang.t
    over = view.phase is Phase.OVER
    title = t("kalooki.board.title", game=Msg("game.kalooki"), table=table.id,
              deal=view.deal_number, deals=_deals(table, view))
    embed = discord.Embed(title=title, description=_status(table, view), colour=COLOUR)
    embed.add_field(name=t("kalooki.field.players"), value=_players(table, view), inline=False)
    for owner in range(len(view.hand_sizes)):
        own = [meld_text(x, table.lang) for x in view.melds if x.owner == owner]
        if own:
            embed.add_field(name=t("kalooki.field.combinations", name=seat_label(table, owner)),
                            value=truncate("\n".join(own), 1024), inline=False)
    readers = LINES.readers(table)
    lines = board_log(table, _deal_events(view.log),
                      lambda event: "" if _ended_as_agreed(view, event)
                      else LINES.line(readers, event, lambda: _event(table, event)),
                      LOG_LINES)
    if lines:
        embed.add_field(name=t("kalooki.field.log"), value=truncate("\n".join(lines), 1024),
                        inline=False)
    board_footer(embed, table, t("board.deal_number", deal=view.deal_number), view.commitment)
    return Rendered(fit(embed, table.lang), None if over else _board_view(table, view, calls),
                    partial(images.board_picture, view))


def _deal_events(log: Sequence[KalookiEvent]) -> list[KalookiEvent]:
    start = max((i for i, e in enumerate(log) if e.kind == "deal_started"), default=0)
    return list(log[start:])


def _deals(table: TableInfo, view: KalookiTableView) -> int:
    """The deals this table plays: its set's (9 Jamaican, 7 Trinidad), or fewer when the
    table agreed to end sooner (the ``deals`` option: the session ends after that deal)."""
    return min(view.deals, table.deals) if table.deals else view.deals


def _ended_as_agreed(view: KalookiTableView, event: KalookiEvent) -> bool:
    """Whether ``event`` ends a set played out before its own last deal: the table's agreed
    length (its ``deals`` or ``minutes`` option) ended it, and the runtime's note ("1 deal
    played, as agreed: the game ends.") already says so, so the log does not say it again."""
    return isinstance(event, ev.SessionOver) and event.complete and view.deal_number < view.deals


def _complete(view: KalookiTableView) -> bool:
    """Whether the set that is over was complete (its :class:`~ev.SessionOver` says; a set
    ended before its last deal has no winner, rules/kalooki.md item 59)."""
    return next((e.complete for e in reversed(view.log) if isinstance(e, ev.SessionOver)), True)


def _status(table: TableInfo, view: KalookiTableView) -> str:
    t = table.lang.t
    lines = []
    if view.contract is not None and view.phase is not Phase.OVER:
        lines.append(t("kalooki.status.deal", deal=view.deal_number, deals=_deals(table, view),
                       contract=contract_line(table.lang, view.contract)))
    turn = seat_label(table, view.turn) if view.turn is not None else ""
    window = view.window
    match view.phase:
        case Phase.WINDOW if window.card is not None:
            callers = table.lang.join(seat_label(table, s) for s in window.callers)
            lines.append(t("kalooki.status.window", card=card(window.card), callers=callers,
                           name=turn))
            if deadline := deadline_line(table, [SYSTEM]):
                lines.append(deadline)
        case Phase.ANSWER if window.caller is not None:
            lines.append(t("kalooki.status.answer", caller=seat_label(table, window.caller),
                           card=card(view.discard_top) if view.discard_top is not None
                           else "", name=turn))
        case Phase.DRAW:
            lines.append(t("kalooki.status.draw", name=turn))
            if view.rules.challenges:
                lines.append(t("kalooki.board.may_challenge", name=turn))
        case Phase.PLAY:
            lines.append(t("kalooki.status.play", name=turn))
        case Phase.BETWEEN_DEALS:
            lines.append(t("kalooki.status.between", button=Msg("button.next_deal")))
        case Phase.OVER:
            lines.append(t("kalooki.status.over" if _complete(view)
                           else "kalooki.status.over_early"))
    if view.phase not in (Phase.BETWEEN_DEALS, Phase.OVER):
        top = card(view.discard_top) if view.discard_top is not None \
            else t("kalooki.discard.empty")
        if view.dead_top:
            top = t("kalooki.discard.dead", card=top)
        lines.append(t("kalooki.status.discard", top=top,
                       cards=Msg("kalooki.cards", count=view.discard_size),
                       stock=view.stock_size))
        if deadline := deadline_line(table, [s for s in view.to_act if view.phase
                                              is not Phase.WINDOW]):
            lines.append(deadline)
        lines.append(t("kalooki.status.dealer", name=seat_label(table, view.dealer)))
    if view.ending and view.phase is not Phase.OVER:
        lines.append(t("kalooki.status.ending"))
    honour = f" · {t('kalooki.board.honour')}" if view.rules.challenges else ""
    lines.append(t("kalooki.status.kind",
                   kind=table_kind(table, "kalooki.ranked", "kalooki.casual"),
                   rules=preset_name(table.lang, view.rules.name)) + honour)
    return "\n".join(lines)


def _players(table: TableInfo, view: KalookiTableView) -> str:
    t = table.lang.t
    lines = []
    for seat in range(len(view.hand_sizes)):
        name = table.lang.isolate(seat_label(table, seat))
        parts = [f"{'▶ ' if seat == view.turn else ''}**{name}**"]
        if view.phase not in (Phase.BETWEEN_DEALS, Phase.OVER):
            if seat in view.sitting_out:
                parts.append(t("kalooki.board.sits_out", points=view.sitting_out[seat]))
            else:
                parts.append(t("kalooki.cards", count=view.hand_sizes[seat]))
            parts.append(t("kalooki.calls", used=view.calls_used[seat],
                           most=view.rules.max_calls))
            if view.laid_down[seat]:
                parts.append(t("kalooki.laid_down"))
        parts.append(t("kalooki.points", points=view.totals[seat]))
        if seat == view.dealer and view.phase is not Phase.OVER:  # no deal comes
            parts.append(t("kalooki.mark.dealer"))
        if table.seats[seat].leaving:
            parts.append(t("kalooki.mark.leaving"))
        lines.append(table.lang.join(parts, " · "))
    return "\n".join(lines)


def deal_summary(table: TableInfo, view: KalookiTableView) -> DealSummary | None:
    """What the last deal did: who went out (down and out, and that it doubled the others'
    penalties where the rules say so, §2.10 item 56), or that it was void, and each player's
    penalty points with the new totals (§2.11); None until a deal is scored."""
    events = _deal_events(view.log)
    scored = next((e for e in reversed(events) if isinstance(e, ev.DealScored)), None)
    if scored is None:
        return None
    t = table.lang.t
    lines = [_event(table, e) for e in events if isinstance(e, ev.WentOut | ev.DealVoid)]
    if not any(isinstance(e, ev.WentOut) for e in events):
        lines.append(t("kalooki.summary.nobody_out"))
    elif view.rules.down_and_out == "double" and any(
            isinstance(e, ev.WentOut) and e.down_and_out for e in events):
        lines.append(t("kalooki.summary.doubled"))  # §2.10 item 56
    lang = table.lang
    lines.append(t("kalooki.summary.totals", totals=lang.join((
        lang.join([seat_label(table, s), lang.grouped(total)], " ")
        for s, total in sorted(scored.totals.items())), " · ")))
    deltas = tuple((seat_label(table, s), points) for s, points in sorted(scored.penalties.items()))
    return DealSummary(t("kalooki.summary.title", deal=scored.deal_number), tuple(lines),
                       deltas, "penalty_point")


def _board_view(table: TableInfo, view: KalookiTableView, calls: dict[int, int]) -> Any:
    ui = discord.ui.View(timeout=None)
    top = view.window.card
    for seat, decision in sorted(calls.items()):
        if top is None or table.seats[seat].member_id is None or table.seats[seat].ai:
            continue
        ui.add_item(table_button(Ref(table.id, "call", seat, decision),
                                 label=truncate(table.lang.t(
                                     "kalooki.button.call_for", card=card_label(top),
                                     name=seat_label(table, seat)), 80),
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
        ``check``, in the table's language), or None.
    """
    t = table.lang.t
    public = view.table
    staged = draft.staged()
    embed = discord.Embed(
        title=t("kalooki.hand.title", game=Msg("game.kalooki"), table=table.id,
                deal=public.deal_number),
        description=_hand_lines(table.lang, view.hand, staged, set(draft.picked))
        or t("kalooki.hand.no_cards"),
        colour=COLOUR,
    )
    if draft.groups or draft.picked:
        embed.add_field(name=t("kalooki.field.draft"),
                        value=truncate(_draft_text(table.lang, view, draft, problem), 1024),
                        inline=False)
    facts = [t("kalooki.cards", count=len(view.hand)),
             t("kalooki.calls", used=public.calls_used[view.seat], most=public.rules.max_calls),
             t("kalooki.laid_down" if public.laid_down[view.seat] else "kalooki.not_laid_down"),
             t("kalooki.points", points=public.totals[view.seat])]
    if public.contract is not None:
        facts.insert(0, t("kalooki.hand.contract", contract=_words(table.lang, public.contract)))
    embed.add_field(name=t("kalooki.field.you"), value=table.lang.join(facts, " · "),
                    inline=False)
    embed.add_field(name=t("kalooki.field.now"), value=_hand_status(table, view), inline=False)
    embed.set_footer(text=t("kalooki.hand.footer", button=Msg("button.hand")))
    return Rendered(fit(embed, table.lang), _hand_view(table, view, draft),
                    partial(_hand_picture, view, draft))


def _hand_picture(view: KalookiSeatView, draft: Draft) -> HandPicture:
    """The hand's picture with the seat's draft: the cards not staged in the text's order,
    the picked ones raised, the staged combinations below."""
    return images.hand_picture(view, tuple(int(c) for c in draft.free(view.hand)),
                               draft.picked, tuple(cs for _, cs in draft.groups))


def _hand_lines(lang: Language, hand_cards: Sequence[Card], staged: set[int],
                picked: set[int]) -> str:
    """The hand by suit (jokers last); picked cards underlined, staged ones left out."""
    lines = []
    shown = [c for c in sorted(hand_cards, key=sort_key) if c not in staged]
    # in display order each suit's cards (♣ ♦ ♥ ♠), then the jokers, are one run
    for (joker, of), row in groupby(shown, key=lambda c: _SORT_KEYS[c][:2]):
        head = lang.t("kalooki.jokers") if joker else suit(Suit(of))
        lines.append(lang.join(
            [head, *(f"__{card(c)}__" if c in picked else card(c) for c in row)], " "))
    return "\n".join(lines)


def _draft_text(lang: Language, view: KalookiSeatView, draft: Draft,
                problem: str | None) -> str:
    t = lang.t
    lines = []
    if draft.picked:
        lines.append(t("kalooki.draft.picked", cards=cards(draft.picked, lang)))
    for i, (kind, ids) in enumerate(draft.groups, start=1):
        lines.append(t("kalooki.draft.group", number=i, kind=Msg(f"kalooki.kind.{kind}"),
                       cards=cards(ids, lang)))
    contract = view.table.contract
    if draft.groups and contract is not None and not view.table.laid_down[view.seat]:
        threes = sum(k == "three" for k, _ in draft.groups)
        fours = len(draft.groups) - threes
        missing = (max(contract.threes - threes, 0), max(contract.fours - fours, 0))
        still = t("kalooki.draft.nothing_more") if missing == (0, 0) \
            else contract_words(lang, *missing)
        lines.append(t("kalooki.draft.needs", contract=_words(lang, contract), still=still))
    if problem:
        lines.append(t("kalooki.draft.refused", problem=problem))
    elif draft.groups:
        lines.append(t("kalooki.draft.ready", button=Msg("kalooki.button.lay_down_plain")))
    return "\n".join(lines)


def _hand_status(table: TableInfo, view: KalookiSeatView) -> str:
    t = table.lang.t
    public = view.table
    kinds = {o.kind for o in view.options}
    top = card(public.discard_top) if public.discard_top is not None \
        else t("kalooki.discard.the")
    if view.seat in public.sitting_out and public.turn is not None:
        return t("kalooki.hand.sitting_out", points=public.sitting_out[view.seat])
    if not kinds:
        if public.turn is None:
            return t("kalooki.now.nothing")
        return t("kalooki.now.waiting", name=seat_label(table, public.turn))
    if "call" in kinds:
        used, most = public.calls_used[view.seat], public.rules.max_calls
        over = f"\n{t('kalooki.hand.over_call')}" if used >= most else ""
        return t("kalooki.now.may_call", card=top, call=used + 1, most=most) + over
    if public.phase is Phase.WINDOW:
        return t("kalooki.now.window", card=top)
    if "allow" in kinds:
        caller = seat_label(table, public.window.caller) if public.window.caller is not None \
            else t("kalooki.someone")
        return t("kalooki.now.allow_or_refuse" if "refuse" in kinds else "kalooki.now.allow",
                 caller=caller, card=top)
    if "draw" in kinds:
        text = t("kalooki.now.draw")
        if "challenge" in kinds and public.contract is not None:
            limit = public.rules.call_limit_hand(public.contract)
            text += f"\n{t('kalooki.hand.challenge', limit=limit)}"
        return text
    if "end_turn" in kinds:  # no discard to end with (K8)
        return t("kalooki.now.jokers_only", button=Msg("kalooki.button.end_turn"))
    return t("kalooki.now.play", button=Msg("kalooki.button.lay_down_plain"))


_BUTTONS: dict[str, discord.ButtonStyle] = {
    "call": discord.ButtonStyle.success,
    "allow": discord.ButtonStyle.primary,
    "refuse": discord.ButtonStyle.secondary,
    "end_turn": discord.ButtonStyle.secondary,
}
"""The one-click decisions of a hand (label: ``kalooki.button.<kind>``) and their style."""


def _hand_view(table: TableInfo, view: KalookiSeatView, draft: Draft) -> Any:
    t = table.lang.t
    ui = discord.ui.View(timeout=None)
    seat, decision = view.seat, view.decision_id
    ref = lambda verb, arg="": Ref(table.id, verb, seat, decision, arg)  # noqa: E731
    top = view.table.discard_top
    by_kind = {o.kind: o for o in view.options}
    for kind, style in _BUTTONS.items():
        if kind in by_kind:
            label = t(f"kalooki.button.{kind}")
            if kind == "call" and top is not None:
                label = t("kalooki.button.call_card", card=card_label(top))
            # "End turn" (a hand of jokers only, K8) takes the discard's row: row 0 holds
            # the card picker then, and a row with a select has room for nothing else
            row = 2 if kind == "end_turn" else 0
            ui.add_item(table_button(ref(kind), label=label, style=style, row=row))
    if "challenge" in by_kind:
        for target in by_kind["challenge"].targets:
            other = int(target)
            label = t("kalooki.button.challenge", name=seat_label(table, other),
                      count=view.table.hand_sizes[other])
            ui.add_item(table_button(ref("challenge", target), label=truncate(label, 80),
                                     style=discord.ButtonStyle.danger, row=1))
    if "draw" in by_kind:
        sources = by_kind["draw"].targets
        if "stock" in sources:
            ui.add_item(table_button(ref("stock"), label=t("kalooki.button.stock"),
                                     style=discord.ButtonStyle.primary, row=0))
        if "discard" in sources and top is not None:
            ui.add_item(table_button(ref("take"), label=t("kalooki.button.take",
                                                          card=card_label(top)),
                                     style=discord.ButtonStyle.secondary, row=0))
    if view.table.phase is Phase.PLAY and by_kind:
        _play_controls(ui, table, view, draft, by_kind, ref)
    return ui if ui.children else None


def _play_controls(ui: discord.ui.View, table: TableInfo, view: KalookiSeatView, draft: Draft,
                   by_kind: dict[str, Option], ref: Any) -> None:
    """Row 0: the card picker (one page); row 1: stage, lay down, clear, next page; row 2:
    the discard (or :func:`_hand_view`'s End turn); row 3: where the one picked card may go
    (lay-off or joker exchange, one page); row 4: its next page."""
    t = table.lang.t
    free = draft.free(view.hand)
    book = pages(free)
    page = min(draft.page, len(book) - 1) if book else 0
    shown = book[page] if book else []
    picked = set(draft.picked)
    if shown:
        ui.add_item(table_select(
            ref("pick"),
            options=[discord.SelectOption(label=card_label(c), value=str(int(c)),
                                          default=int(c) in picked) for c in shown],
            min_values=0, max_values=len(shown),
            placeholder=t("kalooki.select.pick_page", page=page + 1, pages=len(book))
            if len(book) > 1 else t("kalooki.select.pick"), row=0,
        ))
    if "meld" in by_kind:
        ui.add_item(table_button(ref("three", draft.mark()), label=t("kalooki.button.three"),
                                 row=1))
        ui.add_item(table_button(ref("four", draft.mark()), label=t("kalooki.button.four"),
                                 row=1))
    if draft.groups:
        ui.add_item(table_button(ref("lay_down", draft.mark()), label=t("kalooki.button.lay_down",
                                                           count=len(draft.groups)),
                                 style=discord.ButtonStyle.success, row=1))
    if draft.groups or draft.picked:
        ui.add_item(table_button(ref("clear"), label=t("kalooki.button.clear"), row=1))
    if len(book) > 1:
        ui.add_item(table_button(ref("page", str((page + 1) % len(book))),
                                 label=t("kalooki.button.page", page=(page + 1) % len(book) + 1,
                                         pages=len(book)),
                                 row=1))
    if "discard" in by_kind:
        naturals = [c for c in shown if not c.is_joker]
        if naturals:
            ui.add_item(table_select(
                ref("discard"),
                options=[discord.SelectOption(label=t("kalooki.select.discard_card",
                                                      card=card_label(c)),
                                              value=str(int(c))) for c in naturals],
                placeholder=t("kalooki.select.discard"), row=2,
            ))
    places = play_on_pages(view, draft)
    if places:
        on_page = min(draft.on_page, len(places) - 1)
        name = card_label(draft.picked[0])
        placeholder = t("kalooki.select.play_on_page", card=name, page=on_page + 1,
                        pages=len(places)) if len(places) > 1 \
            else t("kalooki.select.play_on", card=name)
        ui.add_item(table_select(ref("play_on", str(int(draft.picked[0]))),  # the card it names
                                 options=[_play_on_option(table, place)
                                          for place in places[on_page]],
                                 placeholder=truncate(placeholder, 150), row=3))
        if len(places) > 1:
            after = (on_page + 1) % len(places)
            ui.add_item(table_button(ref("page", f"{ON_PAGE}{after}"),
                                     label=t("kalooki.button.play_on_page", page=after + 1,
                                             pages=len(places)),
                                     row=4))


Place = tuple[m.Meld, str, str]
"""Where the one picked card may go: a combination on the table, ``"o"`` (a lay-off, then
its end) or ``"x"`` (a joker exchange, then where the joker goes): a ``play_on`` value."""


def play_on_pages(view: KalookiSeatView, draft: Draft) -> list[list[Place]]:
    """The lay-offs and joker exchanges open to the one picked card (§2.9; T7, T9-T11), in
    the table's order, in :func:`pages` of whole combinations; none unless one card is
    picked."""
    if len(draft.picked) != 1:
        return []
    by_kind = {o.kind: o for o in view.options}
    picked = Card(draft.picked[0])
    rules, seat = view.table.rules, view.seat
    out: list[Place] = []
    for meld in view.table.melds:
        if "lay_off" in by_kind and picked in by_kind["lay_off"].cards:
            out += [(meld, "o", end) for end in m.lay_off_ends(meld, picked, rules)]
        if "exchange" in by_kind and picked in by_kind["exchange"].cards:
            for to in PLAY_ON_ENDS:
                try:
                    m.exchange(meld, picked, to, rules, own=meld.owner == seat)
                except m.MeldError:
                    continue
                out.append((meld, "x", to))
    return pages(out, key=lambda place: place[0].id)


def _play_on_option(table: TableInfo, place: Place) -> discord.SelectOption:
    t = table.lang.t
    meld, what, where = place
    label = _meld_label(table, meld)
    if what == "x":
        text = t("kalooki.select.exchange", meld=label, where=Msg(f"kalooki.joker_to.{where}"))
    elif meld.kind == "three":
        text = t("kalooki.select.lay_off", meld=label)
    else:
        text = t("kalooki.select.lay_off_end", meld=label, end=Msg(f"kalooki.end.{where}"))
    return discord.SelectOption(label=truncate(text, 100), value=f"{what}_{meld.id}_{where}")


# ---------------------------------------------------------------------- the rules


def _challenge_fact(lang: Language, rules: KalookiRules) -> str:
    """The challenge of the rules (§2T.6) in plain words ("" when they have none)."""
    if rules.challenges:
        limit = rules.call_limit_hand(rules.contracts[0])
        return lang.t("kalooki.rules.honour", calls=rules.max_calls, limit=limit)
    if rules.challenge:
        return lang.t("kalooki.rules.no_challenge", calls=rules.max_calls)
    return ""


def rules_card(rules: KalookiRules, source: str, lang: Language = ENGLISH) -> Rendered:
    """``/kalooki rules``: a table's rules in plain words (rules/kalooki.md §2, §2T).

    Parameters
    ----------
    rules
        The rules to show.
    source
        Whose rules they are (a table, the channel's house rules, the default), one sentence.
    lang
        The reader's language.
    """
    t = lang.t
    embed = discord.Embed(title=t("kalooki.rules.title", game=Msg("game.kalooki"),
                                  name=preset_name(lang, rules.name)),
                          description=t("kalooki.rules.description",
                                        note=preset_note(lang, rules.name), source=source),
                          colour=COLOUR)
    deals = "\n".join(t("kalooki.rules.deal", number=i, contract=contract_line(lang, c))
                      for i, c in enumerate(rules.contracts, 1))
    embed.add_field(name=t("kalooki.rules.deals_field", count=rules.deals), value=deals,
                    inline=False)
    facts = [
        t("kalooki.rules.players", low=rules.min_players, high=rules.max_players,
          cards=_cards(rules, "kalooki.rules.cards")),
        t("kalooki.rules.calls_also" if rules.melded_may_call else "kalooki.rules.calls_only",
          count=rules.max_calls, window=seconds(lang, rules.call_window)),
        t("kalooki.rules.penalties"),
        t("kalooki.rules.down_and_out" if rules.down_and_out == "double"
          else "kalooki.rules.no_down_and_out"),
        _challenge_fact(lang, rules),
        t("kalooki.rules.void", count=rules.void_limit),
    ]
    embed.add_field(name=t("kalooki.rules.table_field"),
                    value="\n".join(f"• {visible(f)}" for f in facts if f), inline=False)
    return Rendered(fit(embed, lang), None)
