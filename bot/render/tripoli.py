"""Tripoli's board and private hand views (rules/tripoli.md §2.10: what each may see).

:func:`board` renders the public :class:`~engine.tripoli.views.TripoliTableView` (plus the
option *kinds* of the seats to act, which hold no cards); :func:`hand` renders one seat's
:class:`~engine.tripoli.views.TripoliSeatView` for that seat only. Every preset of
rules/tripoli.md §3.2 is rendered from the view alone: the board lists the table's own spaces
with what each pays for this deal, the dial or the named pay suit, and every auction item.

Cards are written in bold (``**Q♥**``), so a scanner can tell a card from a board space's
name (``Q♥ 3``); ♣ and ♠ are shown as text (:func:`bot.render.common.visible`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache, partial
from typing import Any

import discord

from bot.i18n import ENGLISH, Language, Msg
from bot.images import tripoli as images
from bot.render.common import (
    COLOUR,
    FIELD_VALUE_MAX,
    board_footer,
    by_suit,
    card,
    card_label,
    cards,
    deadline_line,
    fit,
    seat_label,
    suit,
    table_buttons,
    table_kind,
    visible,
)
from bot.render.lines import LINES, board_log
from bot.runtime.components import table_button, table_select
from bot.runtime.refs import Ref
from bot.runtime.spec import DealSummary, Rendered, TableInfo
from engine import poker
from engine.cards import Card, Rank, Suit
from engine.core import Option
from engine.poker import hand_value
from engine.tripoli import events as ev
from engine.tripoli.events import TripoliEvent
from engine.tripoli.phases import Phase
from engine.tripoli.rules import PRESETS, Difference, TripoliRules, describe_differences
from engine.tripoli.views import TripoliSeatView, TripoliTableView

LOG_LINES = 8
BUTTON_LEADS_MAX = 5

PHASE_KEYS = {
    Phase.SPARE: "spare",
    Phase.AUCTION: "auction",
    Phase.NAME_SUIT: "name_suit",
    Phase.SELECT: "select",
    Phase.BETTING: "betting",
    Phase.MICHIGAN: "michigan",
    Phase.BETWEEN_DEALS: "between",
    Phase.OVER: "over",
}
"""The catalog key of each phase's title (``tripoli.phase.<key>``)."""

_BUTTONS: dict[str, discord.ButtonStyle] = {
    "keep": discord.ButtonStyle.secondary,
    "exchange": discord.ButtonStyle.primary,
    "auction": discord.ButtonStyle.primary,
    "bid": discord.ButtonStyle.success,
    "pass": discord.ButtonStyle.secondary,
    "check": discord.ButtonStyle.secondary,
    "bet": discord.ButtonStyle.success,
    "call": discord.ButtonStyle.success,
    "raise": discord.ButtonStyle.primary,
    "fold": discord.ButtonStyle.danger,
}
"""The one-click decisions (label: ``tripoli.button.<kind>``) and their style."""

NAMED_SPACES = ("SEQ", "KITTY", "POT", "MONTE", "KQ")
"""The spaces whose names are words (``tripoli.space.<name in lower case>``); the others
are cards."""

SPARE_CHOICES = ("keep", "exchange", "auction")
"""The dealer's spare-hand options, in the order the prompt lists them."""


def space_name(lang: Language, space: str) -> str:
    """A board space's name in ``lang``: ``"POT"`` / ``"Piatto"`` / ``"پات"``; a card-named
    space (``A♥``, ``KQ♥``) as it is (♣/♠ as text)."""
    return lang.t(f"tripoli.space.{space.lower()}") if space in NAMED_SPACES \
        else visible(space)


def preset_note(lang: Language, name: str) -> str:
    """A preset in one sentence (``tripoli.preset.<name>``; empty for an unknown one)."""
    return lang.t(f"tripoli.preset.{name}") if name in PRESETS else ""


def preset_name(lang: Language, name: str) -> str:
    """A preset's name as players say it (``tripoli.preset_name.<name>``: ``"Classica"``,
    ``"Tripoli senza Poker"``; rules/tripoli.md §3.2), else ``name`` as saved."""
    return lang.t(f"tripoli.preset_name.{name}") if name in PRESETS else name


@lru_cache(maxsize=4096)
def chips(lang: Language, amount: int) -> str:
    """``"1 chip"``, ``"3 chips"`` in ``lang`` (worked out once per language and amount: a
    board names a dozen amounts)."""
    return lang.t("tripoli.chips", count=amount)


def sequence(start: int) -> str:
    """The three ranks of a sequence from ``start``: ``"8-9-10"``."""
    return "-".join(Rank(start + i).label for i in range(3))


def space_label(lang: Language, view: TripoliTableView, space: str) -> str:
    """What ``space`` pays for this deal (rules/tripoli.md §2.5, §3.2), in ``lang``."""
    rules = view.rules
    if space == "POT":
        return lang.t("tripoli.pays.poker")
    if space == rules.going_out_space:
        if rules.going_out_space == rules.seq_space:
            return lang.t("tripoli.pays.going_out_seq", seq=_seq_label(lang, view))
        return lang.t("tripoli.pays.going_out")
    if space == rules.block_space:
        return lang.t("tripoli.pays.blocks")
    if space == rules.seq_space:
        return _seq_label(lang, view)
    if space == rules.kq_space:
        played = rules.pay_collection == "play"
        if rules.kq_suit == "any":
            return lang.t("tripoli.pays.kq_any_played" if played else "tripoli.pays.kq_any")
        mark = suit(view.pay_suit)
        return lang.t("tripoli.pays.kq_played" if played else "tripoli.pays.kq",
                      king=f"K{mark}", queen=f"Q{mark}")
    return visible(view.space_labels.get(space, space))


def _seq_label(lang: Language, view: TripoliTableView) -> str:
    played = view.rules.pay_collection == "play"
    return lang.t("tripoli.pays.seq_played" if played else "tripoli.pays.seq",
                  ranks=sequence(view.seq_start))


# ---------------------------------------------------------------------- the board


def board(
    table: TableInfo,
    view: TripoliTableView,
    decisions: dict[int, tuple[int, Sequence[Option]]],
) -> Rendered:
    """The public board message of a started Tripoli table.

    Parameters
    ----------
    table
        The table (names, ids, runtime notes, the session seed once over).
    view
        ``game.public_view()``.
    decisions
        For each seat to act whose decision holds no card (spare hand, auction, betting):
        its decision id and options. These become the board's buttons.
    """
    t = table.lang.t
    over = view.phase is Phase.OVER
    title = t("tripoli.board.title", game=Msg("game.tripoli"), table=table.id,
              deal=view.deal_number)
    if view.leftover and not over:
        title = t("tripoli.board.title_leftover", title=title)
    embed = discord.Embed(title=title, description=_status(table, view), colour=COLOUR)
    embed.add_field(name=_board_title(table.lang, view), value=_board_spaces(table.lang, view),
                    inline=False)
    embed.add_field(name=t("tripoli.field.players"), value=_players(table, view), inline=False)
    shown = showdown(table, view.log)
    if shown:
        embed.add_field(name=t("tripoli.field.showdown"), value=shown, inline=False)
    if view.michigan is not None:
        embed.add_field(name=t("tripoli.field.michigan"), value=_michigan(table, view),
                        inline=False)
    readers = LINES.readers(table)
    lines = board_log(table, _deal_events(view.log)[-LOG_LINES:],
                      lambda event: _log_line(table, readers, view, event), LOG_LINES)
    if lines:
        embed.add_field(name=t("tripoli.field.log"), value="\n".join(lines), inline=False)
    board_footer(embed, table, t("board.deal_number", deal=view.deal_number), view.commitment)
    return Rendered(fit(embed, table.lang), None if over else _board_view(table, view, decisions),
                    partial(images.board_picture, view, _pay_suit_named(view)))


def _status(table: TableInfo, view: TripoliTableView) -> str:
    t, lang = table.lang.t, table.lang
    lines = [f"**{t('tripoli.phase.' + PHASE_KEYS[view.phase])}**"]
    waiting = lang.join(seat_label(table, s) for s in view.to_act)
    match view.phase:
        case Phase.SPARE:
            lines.append(t(f"tripoli.status.spare.{view.spare_stage or 'choose'}",
                           name=seat_label(table, view.dealer)))
        case Phase.AUCTION if view.auction is not None:
            auction = view.auction
            high = (t("tripoli.status.high_bid", chips=chips(lang, auction.high_bid),
                      name=seat_label(table, auction.high_bidder))
                    if auction.high_bidder is not None else t("tripoli.status.no_bid"))
            key = "tripoli.status.auction_onto" if auction.space else "tripoli.status.auction"
            lines.append(t(key, item=Msg(f"tripoli.item.{auction.item}"),
                           space=space_name(lang, auction.space or ""), high=high,
                           names=waiting))
        case Phase.NAME_SUIT if view.namer is not None:
            lines.append(t("tripoli.status.name_suit", name=seat_label(table, view.namer)))
        case Phase.SELECT:
            lines.append(t("tripoli.status.select", names=waiting, button=Msg("button.hand")))
        case Phase.BETTING if view.poker is not None:
            lines.append(t("tripoli.status.betting", names=waiting,
                           bet=chips(lang, view.poker.current_bet),
                           pot=chips(lang, view.board.get('POT', 0))))
        case Phase.MICHIGAN if view.michigan is not None:
            lines.append(t("tripoli.status.michigan", names=waiting, rule=_lead_rule(lang, view),
                           button=Msg("button.hand")))
        case Phase.BETWEEN_DEALS:
            lines.append(t("tripoli.status.between", button=Msg("button.next_deal")))
        case Phase.OVER if table.ranked:
            lines.append(t("tripoli.status.over_ranked"))
        case Phase.OVER:
            lines.append(t("tripoli.status.over_casual"))
    if deadline := deadline_line(table, view.to_act):
        lines.append(deadline)
    if view.phase is not Phase.OVER:
        lines.append(t("tripoli.status.dealer", name=seat_label(table, view.dealer)))
    if view.ending:
        lines.append(t("tripoli.status.ending"))
    lines.append(t("tripoli.status.kind",
                   kind=table_kind(table, "tripoli.ranked", "tripoli.casual"),
                   buy_in=chips(lang, table.buy_in),
                   rules=preset_name(lang, view.rules_name)))
    return "\n".join(lines)


def _lead_rule(lang: Language, view: TripoliTableView) -> str:
    """What the due lead must be besides the lowest card of its suit, when the table's rules
    restrict it (§2.7 items 45 and 49, §3.7): the first lead by ``first_lead``, later leads
    by ``next_lead`` (italian's ``any_suit`` bars no suit)."""
    michigan = view.michigan
    assert michigan is not None
    if michigan.first_lead:
        first = view.rules.first_lead
        return lang.t(f"tripoli.lead_rule.{first}") if first != "lowest_of_suit" else ""
    if michigan.required_red is not None:
        return lang.t("tripoli.lead_rule.red" if michigan.required_red
                      else "tripoli.lead_rule.black")
    if view.rules.next_lead == "other_suit" and michigan.barred_suit is not None:
        return lang.t("tripoli.lead_rule.not_suit", suit=suit(michigan.barred_suit))
    return ""


def _board_title(lang: Language, view: TripoliTableView) -> str:
    """``Board``, with this deal's pay suit when it is dialled or auctioned (§3.2, §3.6)."""
    if view.pay_suit_source == "dial":
        return lang.t("tripoli.board.dial", suit=suit(view.pay_suit),
                      sequence=sequence(view.seq_start))
    if view.pay_suit_source == "auction":
        if not _pay_suit_named(view):
            return lang.t("tripoli.board.suit_to_name")
        return lang.t("tripoli.board.pay_suit", suit=suit(view.pay_suit))
    return lang.t("tripoli.board.spaces")


def _pay_suit_named(view: TripoliTableView) -> bool:
    """False while an auctioned pay suit is still to be named (§3.6)."""
    if view.pay_suit_source != "auction":
        return True
    bidding = view.auction is not None and view.auction.item != "ghost"
    return not (view.phase in (Phase.SPARE, Phase.NAME_SUIT) or bidding)


def _board_spaces(lang: Language, view: TripoliTableView) -> str:
    """The table's spaces in board order with their chips, and what each pays for this deal
    when that is not its printed name (``space_labels``)."""
    singles = set(view.rules.single_spaces)
    line, others = [], []
    for space, amount in view.board.items():
        label = view.space_labels.get(space, space)
        if space in singles:
            name = space if label == space else f"{space}→{label}"
            line.append(lang.join([visible(name), f"**{lang.grouped(amount)}**"], " "))
        else:
            others.append(f"{lang.isolate(space_name(lang, space))} **{lang.grouped(amount)}**"
                          f" — {space_label(lang, view, space)}")
    spaces = "\n".join([lang.join(line, " · "), *others])
    if view.leftover_pots:
        spaces += "\n" + lang.t("tripoli.board.leftover_pots", pots=lang.join(
            lang.grouped(p) for p in view.leftover_pots))
    return spaces


def _players(table: TableInfo, view: TripoliTableView) -> str:
    t, lang = table.lang.t, table.lang
    poker = view.poker if view.phase is Phase.BETTING else None
    lines = []
    for seat in range(min(view.seats, len(table.seats))):
        stack = view.stacks[seat]
        name = seat_label(table, seat)
        if stack is None:
            lines.append(t("tripoli.player.left", name=name))
            continue
        parts = [f"{'▶ ' if seat in view.to_act else ''}**{lang.isolate(name)}**",
                 chips(lang, stack)]
        if seat == view.dealer and view.phase is not Phase.OVER:  # no deal comes
            parts.append(t("tripoli.mark.dealer"))
        if seat in view.hand_sizes:
            parts.append(t("tripoli.cards", count=view.hand_sizes[seat]))
        if poker is not None and seat in poker.bets:
            parts.append(t("tripoli.player.bet", amount=poker.bets[seat]))
            if seat in poker.folded:
                parts.append(t("tripoli.mark.folded"))
            elif seat in poker.all_in:
                parts.append(t("tripoli.mark.all_in"))
        if seat in view.eliminated:
            parts.append(t("tripoli.mark.out"))
        if table.seats[seat].leaving and view.phase is not Phase.OVER:  # all have left
            parts.append(t("tripoli.mark.leaving"))
        lines.append(lang.join(parts, " · "))
    return "\n".join(lines)


def _deal_events(log: Sequence[TripoliEvent]) -> list[TripoliEvent]:
    start = max((i for i, e in enumerate(log) if e.kind == "deal_started"), default=0)
    return list(log[start:])


_TOP_RANKED = (poker.Category.STRAIGHT, poker.Category.FLUSH, poker.Category.STRAIGHT_FLUSH)
"""The categories named by their top card (``tripoli.poker.top.<rank>``: "king high")."""

_TWO_RANKED = (poker.Category.TWO_PAIR, poker.Category.FULL_HOUSE)
"""The categories named by two ranks (``{first}``, ``{second}``: "kings over fours")."""


def poker_hand(lang: Language, shown: Sequence[Card], others: Sequence[Sequence[Card]] = ()
               ) -> str:
    """Five cards' poker hand in ``lang``, with the ranks that decide it (rules/tripoli.md
    §2.6 item 29): ``"Full house, kings over fours"``, ``"Full di re e quattro"``,
    ``"Paar azen"``, ``"فول هاوس، سه شاه و دو ۴"``.

    Parameters
    ----------
    lang
        The reader's language (``tripoli.poker.*`` of its catalog).
    shown
        The 5 cards.
    others
        The other hands of a showdown (5 cards each): the kickers that tell ``shown`` from
        one of them of the same category and ranks are named too (``"Pair of aces, king
        kicker"``; :func:`engine.poker.kickers_deciding`).

    Raises
    ------
    ValueError
        If a hand is not 5 distinct cards.
    """
    value = hand_value([int(c) for c in shown])
    hand = poker.description(value)
    ranks = [Msg(f"tripoli.poker.ranks.{r.name.lower()}") for r in hand.ranks]
    if hand.royal:
        text = lang.t("tripoli.poker.royal_flush")
    elif hand.category in _TOP_RANKED:
        text = lang.t(f"tripoli.poker.{hand.category.name.lower()}",
                      top=Msg(f"tripoli.poker.top.{hand.ranks[0].name.lower()}"))
    elif hand.category in _TWO_RANKED:
        text = lang.t(f"tripoli.poker.{hand.category.name.lower()}", first=ranks[0],
                      second=ranks[1])
    elif hand.category is poker.Category.HIGH_CARD:
        text = lang.t("tripoli.poker.high_card", rank=_rank(lang, hand.ranks[0]))
    else:
        text = lang.t(f"tripoli.poker.{hand.category.name.lower()}", rank=ranks[0])
    count = poker.kickers_deciding(value, [hand_value([int(c) for c in o]) for o in others])
    if count:
        kickers = lang.join(_rank(lang, r) for r in hand.kickers[:count])
        text = lang.t("tripoli.poker.kickers", hand=text, kickers=kickers, count=count)
    return text[:1].upper() + text[1:]  # it starts a sentence ("{rank} high": "Ace high")


def _rank(lang: Language, rank: Rank) -> str:
    """A rank's name on its own (a high card, a kicker): ``"king"``, ``"re"``, ``"شاه"``."""
    return lang.t(f"tripoli.poker.rank.{rank.name.lower()}")


def named_hands(lang: Language, hands: Mapping[int, Sequence[Card]], kickers: bool = True
                ) -> dict[int, str]:
    """The poker hand of each seat of a showdown (:func:`poker_hand`; with ``kickers``, those
    that decide between two of these hands); a seat that showed fewer than 5 cards has
    none. Worked out once per showdown and language (a board shows it until the deal
    ends)."""
    return dict(_named_hands(lang, tuple((seat, tuple(shown)) for seat, shown in hands.items()),
                             kickers))


@lru_cache(maxsize=1024)
def _named_hands(lang: Language, hands: tuple[tuple[int, tuple[Card, ...]], ...],
                 kickers: bool) -> dict[int, str]:
    """:func:`named_hands` of ``hands`` as ``(seat, cards)`` pairs (hashable, for the
    cache); the result is shared: copy it before changing it."""
    five = {seat: shown for seat, shown in hands if len(shown) == poker.HAND_SIZE}
    return {seat: poker_hand(lang, shown, [o for s, o in five.items() if s != seat]
                             if kickers else ())
            for seat, shown in five.items()}


def showdown(table: TableInfo, log: Sequence[TripoliEvent]) -> str:
    """The board's Showdown field: the last showdown of the deal in ``log``, a line per
    seat with its cards and its hand (:func:`named_hands`); empty before one. Kickers are
    left out when the lines would not fit one field (up to 9 hands, long names). Worked out
    once per showdown and table language and seats (:data:`bot.render.lines.LINES`)."""
    showdowns = [e for e in _deal_events(log) if isinstance(e, ev.Showdown)]
    if not showdowns:
        return ""
    last = showdowns[-1]
    return LINES.line(LINES.readers(table), last, lambda: _showdown(table, last), "showdown")


def _showdown(table: TableInfo, event: ev.Showdown) -> str:
    """:func:`showdown`'s field for the showdown ``event``."""
    hands = event.hands
    for kickers in (True, False):
        names = named_hands(table.lang, hands, kickers)
        text = "\n".join(
            table.lang.t("tripoli.showdown.line", name=seat_label(table, seat),
                         cards=cards(shown, table.lang), hand=names.get(seat, ""))
            for seat, shown in hands.items())
        if len(text) <= FIELD_VALUE_MAX:
            break
    return text


def _michigan(table: TableInfo, view: TripoliTableView) -> str:
    michigan = view.michigan
    assert michigan is not None
    lines = [
        f"{table.lang.isolate(seat_label(table, seat))}: {cards(played, table.lang)}"
        for seat, played in michigan.played.items()
        if played
    ]
    if michigan.last_run:
        lines.append(table.lang.t("tripoli.michigan.last_run", cards=cards(michigan.last_run,
                                                                         table.lang)))
    return "\n".join(lines) or table.lang.t("tripoli.michigan.none")


SUMMARY_EVENTS = (ev.Eliminated, ev.AuctionSold, ev.PayTaken, ev.PotWon, ev.WentOut, ev.Blocked)
"""The events a deal's summary names (who took what; the engine's log keeps them for the
whole deal, ``engine.tripoli.game.SUMMARY_KINDS``)."""


def deal_summary(table: TableInfo, view: TripoliTableView) -> DealSummary | None:
    """What the last deal did: the spaces taken, the auctions, the pots won, who went out or
    was blocked, and each player's stack change (§2.9 item 56); None until a deal is over."""
    events = _deal_events(view.log)
    over = next((e for e in reversed(events) if isinstance(e, ev.DealOver)), None)
    if over is None:
        return None
    if over.abandoned:
        lines = [table.lang.t("tripoli.summary.abandoned")]
    else:
        readers = LINES.readers(table)
        lines = [_log_line(table, readers, view, e) for e in events
                 if isinstance(e, SUMMARY_EVENTS)]
    first = events[0]
    leftover = isinstance(first, ev.DealStarted) and first.leftover
    title = table.lang.t("tripoli.summary.leftover" if leftover else "tripoli.summary.deal",
                         deal=over.deal_number)
    deltas = tuple((seat_label(table, seat), delta) for seat, delta in sorted(over.deltas.items()))
    return DealSummary(title, tuple(line for line in lines if line), deltas, "chip")


def _deltas(table: TableInfo, deltas: dict[int, int]) -> str:
    """``"Alice +12 · Bob -7"``: each seat's stack change of a deal."""
    lang = table.lang
    return lang.join((lang.join([seat_label(table, seat), lang.grouped(delta, signed=True)], " ")
                      for seat, delta in sorted(deltas.items())), " · ")


_READ_THE_LOG = (ev.PotWon, ev.AuctionSold)
"""The events whose line also reads the events before them (the showdown a pot was won
at, the auction a sale closed): rendered each time, not kept."""


def _log_line(table: TableInfo, readers: object, view: TripoliTableView,
              event: TripoliEvent) -> str:
    """:func:`_event`'s line, rendered once for a table's language and seats (``readers``,
    their token) and kept in :data:`bot.render.lines.LINES` (with the one rule it reads,
    ``elimination``), but for :data:`_READ_THE_LOG` events."""
    if isinstance(event, _READ_THE_LOG):
        return _event(table, view, event)
    return LINES.line(readers, event, lambda: _event(table, view, event),
                      view.rules.elimination)


def _event(table: TableInfo, view: TripoliTableView, event: TripoliEvent) -> str:
    """One log line for an event; every card in it is public by the rules (§2.10)."""
    t, lang = table.lang.t, table.lang
    name = lambda seat: seat_label(table, seat)  # noqa: E731
    space = lambda of: space_name(lang, of)  # noqa: E731
    match event:
        case ev.Eliminated(seat=seat) if view.rules.elimination == "zero_chips":
            return t("tripoli.log.no_chips", name=name(seat))
        case ev.DealStarted(leftover=True, dealer=dealer):
            return t("tripoli.log.leftover", name=name(dealer))
        case ev.DealStarted(deal_number=number, dealer=dealer):
            return t("tripoli.log.deal", deal=number, name=name(dealer))
        case ev.Eliminated(seat=seat):
            return t("tripoli.log.no_ante", name=name(seat))
        case ev.AntesPosted(paid=paid):
            return t("tripoli.log.antes", chips=chips(lang, sum(paid.values())))
        case ev.SpareKept(seat=seat):
            return t("tripoli.log.spare_kept", name=name(seat))
        case ev.SpareExchanged(seat=seat):
            return t("tripoli.log.spare_taken", name=name(seat))
        case ev.AuctionStarted(seller=None, item=item, space=onto):
            return t("tripoli.log.bidding", item=Msg(f"tripoli.item.{item}"), space=space(onto))
        case ev.AuctionStarted(seller=seller, item=item):
            return t("tripoli.log.auctions_spare" if item == "spare"
                     else "tripoli.log.auctions_old", name=name(seller))
        case ev.AuctionBid(seat=seat, amount=amount):
            return t("tripoli.log.bids", name=name(seat), amount=amount)
        case ev.AuctionPass(seat=seat):
            return t("tripoli.log.passes", name=name(seat))
        case ev.AuctionSold(seat=seat, amount=amount, seller=None, space=onto):
            key = "tripoli.log.wins_pay_suit" if _auction_item(view, event) == "pay_suit" \
                else "tripoli.log.wins_ghost"
            return t(key, name=name(seat), chips=chips(lang, amount), space=space(onto))
        case ev.AuctionSold(seat=seat, amount=amount, seller=seller):
            return t("tripoli.log.buys", name=name(seat), chips=chips(lang, amount),
                     seller=name(seller))
        case ev.AuctionUnsold():
            return t("tripoli.log.no_bids")
        case ev.DialTurned(pay_suit=pay_suit, seq_start=start):
            return t("tripoli.log.dial", suit=suit(pay_suit), sequence=sequence(start))
        case ev.PaySuitNamed(seat=None, suit=named):
            return t("tripoli.log.suit_unbid", suit=suit(named))
        case ev.PaySuitNamed(seat=seat, suit=named):
            return t("tripoli.log.suit_named", name=name(seat), suit=suit(named))
        case ev.PayTaken(seat=seat, space=taken, chips=amount):
            return t("tripoli.log.pay_taken", name=name(seat), space=space(taken),
                     chips=chips(lang, amount))
        case ev.Selected(seat=seat):
            return t("tripoli.log.selected", name=name(seat))
        case ev.Checked(seat=seat):
            return t("tripoli.log.checks", name=name(seat))
        case ev.BetMade(seat=seat, amount=amount, all_in=all_in):
            return t("tripoli.log.bets_all_in" if all_in else "tripoli.log.bets",
                     name=name(seat), amount=amount)
        case ev.Called(seat=seat, amount=amount, all_in=all_in):
            return t("tripoli.log.calls_all_in" if all_in else "tripoli.log.calls",
                     name=name(seat), amount=amount)
        case ev.Raised(seat=seat, amount=amount, total=total):
            return t("tripoli.log.raises", name=name(seat), amount=amount, total=total)
        case ev.Folded(seat=seat):
            return t("tripoli.log.folds", name=name(seat))
        case ev.BetReturned(seat=seat, chips=amount):
            return t("tripoli.log.returned", chips=chips(lang, amount), name=name(seat))
        case ev.Showdown():
            return t("tripoli.log.showdown")
        case ev.PotWon(seat=seat, chips=amount):
            hand = _winning_hand(lang, view.log, event)
            if hand:
                return t("tripoli.log.pot_won_with", name=name(seat), chips=chips(lang, amount),
                         hand=hand)
            return t("tripoli.log.pot_won", name=name(seat), chips=chips(lang, amount))
        case ev.MichiganStarted(leader=leader):
            return t("tripoli.log.michigan", name=name(leader))
        case ev.Led(seat=seat, card=led):
            return t("tripoli.log.leads", name=name(seat), card=card(led))
        case ev.Stopped(seat=seat, card=stop):
            return t("tripoli.log.stops", name=name(seat), card=card(stop))
        case ev.LeadPassed(seat=seat, to=to):
            return t("tripoli.log.lead_passed", name=name(seat), to=name(to))
        case ev.WentOut(seat=seat, space=won_space, space_chips=won, payments=payments):
            return t("tripoli.log.out", name=name(seat), space=space(won_space),
                     chips=chips(lang, won), paid=chips(lang, sum(payments.values())))
        case ev.Blocked(space=onto, payments=payments):
            return t("tripoli.log.blocked", chips=chips(lang, sum(payments.values())),
                     space=space(onto))
        case ev.DealOver(deal_number=number, abandoned=True):
            return t("tripoli.log.abandoned", deal=number)
        case ev.DealOver(deal_number=number, deltas=deltas):
            return t("tripoli.log.deal_over", deal=number, deltas=_deltas(table, deltas))
        case ev.LeftoverStarted(pot_index=index, pots=pots):
            return t("tripoli.log.leftover_pot", pot=index + 1, chips=chips(lang, pots[0]))
        case ev.SessionOver():
            return t("tripoli.log.session_over")
    return ""


def _winning_hand(lang: Language, log: Sequence[TripoliEvent], won: ev.PotWon) -> str:
    """The hand that won the pot of ``won`` at the showdown just before it (with only other
    pots won in between), named as on the Showdown field; empty for a pot won uncontested or
    a showdown the log no longer holds."""
    at = next((i for i, e in enumerate(log) if e is won), None)
    if won.uncontested or at is None:
        return ""
    before = next((e for e in reversed(log[:at]) if not isinstance(e, ev.PotWon)), None)
    if not isinstance(before, ev.Showdown):
        return ""
    return named_hands(lang, before.hands).get(won.seat, "")


def _auction_item(view: TripoliTableView, sold: ev.AuctionSold) -> str:
    """The item of the auction (without a seller) that ``sold`` closed: that of the last
    auction started before it, or (when the log no longer holds that start) the one the
    rules hold."""
    item = "pay_suit" if view.rules.pay_suit == "auction" else "ghost"
    for event in view.log:
        if event is sold:
            break
        if isinstance(event, ev.AuctionStarted):
            item = event.item
    return item


def _board_view(
    table: TableInfo, view: TripoliTableView, decisions: dict[int, tuple[int, Sequence[Option]]]
) -> discord.ui.View:
    ui = discord.ui.View(timeout=None)
    for seat, (decision, options) in sorted(decisions.items())[:1]:
        for option in options:
            for button in _decision_buttons(table, seat, decision, option, _to_call(view, seat)):
                ui.add_item(button)
    for button in table_buttons(table, view.deal_number, view.phase is Phase.BETWEEN_DEALS):
        button.row = 1
        ui.add_item(button)
    return ui


# ---------------------------------------------------------------------- a private hand


def hand(table: TableInfo, view: TripoliSeatView) -> Rendered:
    """Seat ``view.seat``'s private message: its cards, its poker five, its controls.

    Only ``view`` (what that seat may see) is read; send the result ephemerally to the
    seat's member.
    """
    t, lang = table.lang.t, table.lang
    public = view.table
    embed = discord.Embed(
        title=t("tripoli.hand.title", game=Msg("game.tripoli"), table=table.id,
                deal=public.deal_number),
        description=by_suit(view.hand, lang) or t("tripoli.hand.no_cards"),
        colour=COLOUR,
    )
    if view.old_hand is not None:
        embed.add_field(name=t("tripoli.field.old_hand"), value=cards(view.old_hand, lang),
                        inline=False)
    if view.selection is not None and public.phase in (Phase.SELECT, Phase.BETTING):
        embed.add_field(name=t("tripoli.field.poker_five", hand=poker_hand(lang, view.selection)),
                        value=cards(view.selection, lang),
                        inline=False)
    stack = public.stacks[view.seat]
    facts = [t("tripoli.hand.stack", chips=chips(lang, stack or 0))]
    if view.to_call:
        facts.append(t("tripoli.hand.to_call", chips=chips(lang, view.to_call)))
    embed.add_field(name=t("tripoli.field.you"), value=lang.join(facts, " · "), inline=False)
    embed.add_field(name=t("tripoli.field.now"), value=_hand_status(table, view), inline=False)
    embed.set_footer(text=t("tripoli.hand.footer", button=Msg("button.hand")))
    return Rendered(fit(embed, table.lang), _hand_view(table, view),
                    partial(images.hand_picture, view))


QUICK_AMOUNTS = ("bet", "raise", "bid")
"""The verbs with buttons (``tripoli.button.quick_<verb>``) beside ``Bet…``, ``Raise…`` and
``Bid…`` that act at once with an amount shown on them (the runtime reads it from the button:
no modal). Bet and raise get the least and
the most allowed; a bid the least (its most is the whole stack)."""


def _quick_amounts(table: TableInfo, seat: int, decision: int,
                   option: Option) -> list[discord.ui.Button[Any]]:
    """The quick-amount buttons of an amount option (:data:`QUICK_AMOUNTS`)."""
    if option.kind not in QUICK_AMOUNTS or option.min is None or option.max is None:
        return []
    amounts = [option.min] if option.kind == "bid" else sorted({option.min, option.max})
    return [table_button(Ref(table.id, option.kind, seat, decision, str(amount)),
                         label=table.lang.t(f"tripoli.button.quick_{option.kind}",
                                            amount=amount),
                         style=discord.ButtonStyle.success, row=0)
            for amount in amounts]


def _to_call(view: TripoliTableView, seat: int) -> int | None:
    """Chips ``seat`` needs to call in the betting round, from the public view."""
    poker = view.poker
    if poker is None or view.phase is not Phase.BETTING:
        return None
    stack = view.stacks[seat] or 0
    return min(poker.current_bet - poker.bets.get(seat, 0), stack) or None


def _decision_buttons(
    table: TableInfo, seat: int, decision: int, option: Option, to_call: int | None
) -> list[discord.ui.Button[Any]]:
    """The row-0 buttons of one option that needs no card: a verb of :data:`_BUTTONS`
    (``Call N`` shows the amount; an amount verb has its quick amounts beside it), or the
    four suits for ``name_suit`` (§3.6)."""
    if option.kind == "name_suit":
        return [table_button(Ref(table.id, "name_suit", seat, decision, named.letter),
                             label=suit(named),
                             style=discord.ButtonStyle.primary, row=0)
                for named in (Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS)]
    if option.kind not in _BUTTONS:
        return []
    label = table.lang.t(f"tripoli.button.{option.kind}")
    if option.kind == "call" and to_call:
        label = table.lang.t("tripoli.button.call_amount", amount=to_call)
    return [*_quick_amounts(table, seat, decision, option),
            table_button(Ref(table.id, option.kind, seat, decision), label=label,
                         style=_BUTTONS[option.kind], row=0)]


def _hand_status(table: TableInfo, view: TripoliSeatView) -> str:
    t = table.lang.t
    kinds = {option.kind for option in view.options}
    if not kinds:
        waiting = table.lang.join(seat_label(table, s) for s in view.table.to_act)
        return t("tripoli.now.waiting", names=waiting) if waiting else t("tripoli.now.nothing")
    if "select" in kinds:
        return t("tripoli.now.select")
    if "lead" in kinds:
        return t("tripoli.now.lead")
    if kinds & {"keep", "exchange", "auction"}:
        return _spare_prompt(table.lang, view.table.spare_stage or "choose", kinds)
    if "name_suit" in kinds:
        return t("tripoli.now.name_suit")
    auction = view.table.auction
    if kinds & {"bid", "pass"} and auction is not None:
        return t("tripoli.now.bid", item=Msg(f"tripoli.item.{auction.item}"))
    return t("tripoli.now.bet")


def _spare_prompt(lang: Language, stage: str, kinds: set[str]) -> str:
    """The dealer's spare-hand prompt: only the options the stage offers (after an exchange:
    keep or auction the old hand; after an unsold auction: keep or exchange)."""
    choices = [lang.t(f"tripoli.spare.{kind}") for kind in SPARE_CHOICES if kind in kinds]
    if len(choices) == 3:
        listed = lang.t("tripoli.spare.three", first=choices[0], second=choices[1],
                        third=choices[2])
    elif len(choices) == 2:
        listed = lang.t("tripoli.spare.two", first=choices[0], second=choices[1])
    else:
        listed = choices[0]
    return lang.t(f"tripoli.spare.prompt.{stage}", choices=listed)


def _hand_view(table: TableInfo, view: TripoliSeatView) -> discord.ui.View | None:
    t = table.lang.t
    ui = discord.ui.View(timeout=None)
    seat, decision = view.seat, view.decision_id
    for option in view.options:
        ref = Ref(table.id, option.kind, seat, decision)
        buttons = _decision_buttons(table, seat, decision, option, view.to_call)
        for button in buttons:
            ui.add_item(button)
        if buttons:
            continue
        if option.kind == "select":
            ui.add_item(table_select(
                ref,
                options=[discord.SelectOption(label=card_label(c), value=str(int(c)))
                         for c in option.cards],
                min_values=option.count,
                max_values=option.count,
                placeholder=t("tripoli.select.poker", count=option.count),
                row=1,
            ))
            ui.add_item(table_button(Ref(table.id, "best", seat, decision),
                                     label=t("tripoli.button.best"),
                                     style=discord.ButtonStyle.success, row=2))
        elif option.kind == "lead" and len(option.cards) <= BUTTON_LEADS_MAX:
            for lead in option.cards:
                ui.add_item(table_button(Ref(table.id, "lead", seat, decision, str(int(lead))),
                                         label=t("tripoli.button.lead", card=card_label(lead)),
                                         style=discord.ButtonStyle.primary, row=0))
        elif option.kind == "lead":
            ui.add_item(table_select(
                ref,
                options=[discord.SelectOption(label=card_label(c), value=str(int(c)))
                         for c in option.cards[:25]],
                placeholder=t("tripoli.select.lead"),
                row=1,
            ))
    return ui if ui.children else None


# ---------------------------------------------------------------------- the rules


def rules_card(rules: TripoliRules, source: str, buy_in: int,
               lang: Language = ENGLISH) -> Rendered:
    """``/tripoli rules``: a table's rules in full plain words (rules/tripoli.md §2, §3.2):
    the board and what each space pays, the antes, the spare hand, the poker round and its
    limit, Michigan's leads, sequence and stops, and how the session ends; then how they
    differ from classic, and the table's numbers.

    Parameters
    ----------
    rules
        The rules to show.
    source
        Whose rules they are (a table, the channel's house rules, the default), one sentence.
    buy_in
        Each seat's starting stack, in chips.
    lang
        The reader's language.
    """
    t = lang.t
    name = preset_name(lang, rules.name)
    description = t("tripoli.rules.description", name=name,
                    note=preset_note(lang, rules.name), source=source)
    embed = discord.Embed(title=t("tripoli.rules.title", game=Msg("game.tripoli"), name=name),
                          description=description, colour=COLOUR)
    for key, words in (
        ("board", _rules_board(lang, rules)),
        ("spare", _rules_spare(lang, rules)),
        ("poker", _rules_poker(lang, rules)),
        ("michigan", _rules_michigan(lang, rules)),
        ("end", _rules_end(lang, rules)),
    ):
        embed.add_field(name=t(f"tripoli.rules.field.{key}"), value=visible(words),
                        inline=False)
    differences = [difference(lang, found) for found in describe_differences(rules)]
    embed.add_field(
        name=t("tripoli.rules.field.differences"),
        value="\n".join(f"• {visible(line)}" for line in differences)
        or t("tripoli.rules.no_differences"),
        inline=False,
    )
    ante = t("tripoli.rules.ante", chips=chips(lang, rules.ante))
    if rules.dealer_ante != rules.ante:
        ante = t("tripoli.rules.ante_dealer", ante=ante, dealer=rules.dealer_ante)
    facts = [ante, t("tripoli.rules.players", low=rules.min_players, high=rules.max_players),
             t("tripoli.rules.buy_in", chips=chips(lang, buy_in))]
    if rules.poker == "betting":
        facts.insert(1, t("tripoli.rules.bet_limit", limit=rules.bet_limit))
    if rules.pay_suit != "dial":
        facts.append(t("tripoli.rules.sequence", sequence=sequence(rules.seq_ranks)))
    embed.add_field(name=t("tripoli.rules.field.table"), value=lang.join(facts, " · "),
                    inline=False)
    return Rendered(fit(embed, lang), None)


def difference(lang: Language, found: Difference) -> str:
    """One way the rules differ from classic (:func:`engine.tripoli.rules.describe_differences`)
    as a sentence in ``lang``: message ``found.key``, its spaces by their names in ``lang``,
    a sequence's start as its three ranks, the spare-hand options each in words
    (``tripoli.difference.spare.<option>``)."""
    values: dict[str, int | str] = {}
    for name, value in found.values.items():
        if name == "spaces" and isinstance(value, tuple):
            values[name] = lang.join((space_name(lang, space) for space in value), " ")
        elif name == "options" and isinstance(value, tuple):
            values[name] = lang.join((lang.t(f"tripoli.difference.spare.{option}")
                                      for option in value), ", ")
        elif name == "space" and isinstance(value, str):
            values[name] = space_name(lang, value)
        elif name == "start" and isinstance(value, int):
            values[name] = sequence(value)
        elif not isinstance(value, tuple):
            values[name] = value
    return lang.t(found.key, **values)


def _rules_board(lang: Language, rules: TripoliRules) -> str:
    """Every space of the board and what it pays, then the antes."""
    t = lang.t
    if isinstance(rules.pay_suit, Suit):
        pay_suit = rules.pay_suit.symbol
        kq = t("tripoli.rules.kq_suit", king=f"K{pay_suit}", queen=f"Q{pay_suit}")
    else:
        pay_suit = t("tripoli.rules.pay_suit_auction" if rules.pay_suit == "auction"
                     else "tripoli.rules.pay_suit_dial")
        kq = t("tripoli.rules.kq_pay_suit")
    if rules.kq_suit == "any":
        kq = t("tripoli.rules.kq_any")
    if rules.pay_suit == "dial":
        seq = t("tripoli.rules.seq_dial")
    else:
        seq = t("tripoli.rules.seq", sequence=sequence(rules.seq_ranks))
    played = rules.pay_collection == "play"
    if played:
        kq, seq = t("tripoli.rules.in_a_row", what=kq), t("tripoli.rules.in_a_row", what=seq)
    else:
        kq = t("tripoli.rules.kq_held_any" if rules.kq_suit == "any"
               else "tripoli.rules.kq_held", what=kq)
        seq = t("tripoli.rules.seq_held", what=seq)
    if rules.pay_cards == "boodle":
        singles = t("tripoli.rules.singles_boodle_played" if played
                    else "tripoli.rules.singles_boodle")
    elif isinstance(rules.pay_suit, Suit):
        singles = t("tripoli.rules.singles_card_played" if played
                    else "tripoli.rules.singles_card")
    else:
        singles = t("tripoli.rules.singles_suit_played" if played
                    else "tripoli.rules.singles_suit", suit=pay_suit)
    single_names = lang.join((space_name(lang, s) for s in rules.single_spaces), " ")
    spaces = [t("tripoli.rules.space", space=single_names, pays=singles),
              t("tripoli.rules.space", space=space_name(lang, rules.kq_space), pays=kq)]
    going_out = t("tripoli.rules.going_out")
    if rules.going_out_space == rules.seq_space:
        also = t("tripoli.rules.seq_also_once" if rules.monte_once else "tripoli.rules.seq_also",
                 seq=seq, going_out=going_out)
        spaces.append(t("tripoli.rules.space", space=space_name(lang, rules.seq_space),
                        pays=also))
    else:
        spaces.append(t("tripoli.rules.space", space=space_name(lang, rules.seq_space),
                        pays=seq))
        spaces.append(t("tripoli.rules.space", space=space_name(lang, rules.going_out_space),
                        pays=going_out))
    if rules.poker != "none":
        spaces.append(t("tripoli.rules.space", space=space_name(lang, "POT"),
                        pays=Msg("tripoli.rules.pot")))
    ante = t("tripoli.rules.antes", chips=chips(lang, rules.ante))
    if rules.dealer_ante != rules.ante:
        ante = t("tripoli.rules.antes_dealer", ante=ante, chips=chips(lang, rules.dealer_ante))
    return "\n".join([t("tripoli.rules.when_played" if played else "tripoli.rules.when_held"),
                      *spaces, t("tripoli.rules.antes_stay", antes=ante)])


def _rules_spare(lang: Language, rules: TripoliRules) -> str:
    """What the dealer may do with the spare hand, and the ghost-hand auction."""
    t = lang.t
    lines = [t("tripoli.rules.spare_dealt")]
    options = rules.spare_options
    if options:
        choices = [t("tripoli.rules.spare_keep")]
        if "exchange" in options:
            choices.append(t("tripoli.rules.spare_exchange_auction"
                             if "exchange_auction_old" in options
                             else "tripoli.rules.spare_exchange"))
        if "auction" in options:
            choices.append(t("tripoli.rules.spare_auction"))
        lines.append(t("tripoli.rules.spare_may", choices="; ".join(choices)))
        if rules.spare_needs_no_pay_card:
            lines.append(t("tripoli.rules.spare_no_pay_card"))
    elif not rules.ghost_auction:
        lines.append(t("tripoli.rules.spare_nobody"))
    if rules.ghost_auction:
        lines.append(t("tripoli.rules.ghost", space=space_name(lang, rules.going_out_space)))
    return " ".join(lines)


def _rules_poker(lang: Language, rules: TripoliRules) -> str:
    """The poker round: how hands are chosen, the betting and its limit."""
    t = lang.t
    if rules.poker == "none":
        return t("tripoli.rules.poker_none")
    if rules.poker == "auto":
        return t("tripoli.rules.poker_auto")
    limit = t("tripoli.rules.limit_total" if rules.bet_limit_mode == "total"
              else "tripoli.rules.limit_bet", chips=chips(lang, rules.bet_limit))
    return t("tripoli.rules.poker_betting",
             opener=Msg("tripoli.rules.opener_dealer" if rules.bet_opener == "dealer"
                        else "tripoli.rules.opener_left"),
             limit=limit, short=Msg("tripoli.rules.all_in" if rules.all_in
                                    else "tripoli.rules.must_fold"))


def _rules_michigan(lang: Language, rules: TripoliRules) -> str:
    """Who leads, what a lead may be, runs, stops, going out and blocks."""
    t = lang.t
    block = ("" if rules.next_lead == "any_suit" else
             " " + t("tripoli.rules.block", space=space_name(lang, rules.block_space)))
    return t("tripoli.rules.michigan", leader=Msg(f"tripoli.rules.leader.{rules.michigan_leader}"),
             first=Msg(f"tripoli.rules.first.{rules.first_lead}"),
             after=Msg(f"tripoli.rules.after.{rules.next_lead}"),
             space=space_name(lang, rules.going_out_space)) + block


def _rules_end(lang: Language, rules: TripoliRules) -> str:
    """Who is out, the end of the session (``/tripoli end`` named as a client in ``lang``
    lists it) and the leftover chips."""
    t = lang.t
    out = t("tripoli.rules.out_zero" if rules.elimination == "zero_chips"
            else "tripoli.rules.out_ante")
    if not rules.leftover_poker:
        leftover = t("tripoli.rules.leftover_stay")
    else:
        leftover = t("tripoli.rules.leftover_betting" if rules.leftover_betting
                     else "tripoli.rules.leftover_no_betting", count=rules.leftover_pots)
    return lang.commands(t("tripoli.rules.end", out=out, leftover=leftover))
