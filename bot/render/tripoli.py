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

from collections.abc import Sequence

import discord

from bot.images import tripoli as images
from bot.render.common import (
    COLOUR,
    board_footer,
    by_suit,
    card,
    card_label,
    cards,
    deadline_line,
    fit,
    plural,
    seat_label,
    suit,
    table_buttons,
    visible,
)
from bot.runtime.components import TableButton, TableSelect
from bot.runtime.refs import Ref
from bot.runtime.spec import DealSummary, Rendered, TableInfo
from engine.cards import Rank, Suit
from engine.core import Option
from engine.poker import describe as describe_hand
from engine.poker import hand_value
from engine.tripoli import events as ev
from engine.tripoli.events import TripoliEvent
from engine.tripoli.phases import Phase
from engine.tripoli.rules import PRESET_NOTES, TripoliRules, describe_differences
from engine.tripoli.views import TripoliSeatView, TripoliTableView

LOG_LINES = 8
BUTTON_LEADS_MAX = 5

PHASE_TITLES = {
    Phase.SPARE: "Spare hand",
    Phase.AUCTION: "Auction",
    Phase.NAME_SUIT: "Naming the pay suit",
    Phase.SELECT: "Poker: choose five cards",
    Phase.BETTING: "Poker: betting",
    Phase.MICHIGAN: "Michigan",
    Phase.BETWEEN_DEALS: "Between deals",
    Phase.OVER: "Session over",
}

_BUTTONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "keep": ("Keep", discord.ButtonStyle.secondary),
    "exchange": ("Exchange", discord.ButtonStyle.primary),
    "auction": ("Auction", discord.ButtonStyle.primary),
    "bid": ("Bid…", discord.ButtonStyle.success),
    "pass": ("Pass", discord.ButtonStyle.secondary),
    "check": ("Check", discord.ButtonStyle.secondary),
    "bet": ("Bet…", discord.ButtonStyle.success),
    "call": ("Call", discord.ButtonStyle.success),
    "raise": ("Raise…", discord.ButtonStyle.primary),
    "fold": ("Fold", discord.ButtonStyle.danger),
}


FIRST_LEAD_RULES = {
    "lowest_card": " (lowest card)",
    "lowest_black": " (lowest black card)",
    "lowest_of_longest_suit": " (lowest card of a longest suit)",
}
"""The board's words for a first Michigan lead the rules restrict (``first_lead``)."""

SPARE_STAGE_BOARD = {
    "choose": "decides on the spare hand.",
    "after_exchange": "took the spare hand and may auction the old one.",
    "after_unsold": "found no buyer for the spare hand and decides again.",
}
"""What the board says the dealer is deciding, by ``TripoliTableView.spare_stage``."""

SPARE_PROMPTS = {
    "choose": "You are the dealer, and the spare hand is unseen: ",
    "after_exchange": "You took the spare hand; your old hand is the spare now: ",
    "after_unsold": "Nobody bought the spare hand: ",
}
SPARE_CHOICES = {
    "keep": "keep it dead",
    "exchange": "exchange your hand for it",
    "auction": "auction it to the others",
}
"""The dealer's private prompt (:func:`hand`): a start by stage, then the options offered."""

AUCTION_ITEMS: dict[str, str] = {
    "spare": "the spare hand",
    "old_hand": "the dealer's old hand",
    "pay_suit": "the right to name the pay suit",
    "ghost": "the ghost hand",
}
"""What is on offer in an auction, by ``AuctionView.item`` (§2.4 item 17, §3.6, §3.3 item 18)."""


def chips(amount: int) -> str:
    """``"1 chip"``, ``"3 chips"``."""
    return plural(amount, "chip")


def sequence(start: int) -> str:
    """The three ranks of a sequence from ``start``: ``"8-9-10"``."""
    return "-".join(Rank(start + i).label for i in range(3))


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
    over = view.phase is Phase.OVER
    title = f"Tripoli — table {table.id} · deal {view.deal_number}"
    if view.leftover and not over:
        title += " · leftover round"
    embed = discord.Embed(title=title, description=_status(table, view), colour=COLOUR)
    embed.add_field(name=_board_title(view), value=_board_spaces(view), inline=False)
    embed.add_field(name="Players", value=_players(table, view), inline=False)
    showdown = _showdown(table, view.log)
    if showdown:
        embed.add_field(name="Showdown", value=showdown, inline=False)
    if view.michigan is not None:
        embed.add_field(name="Michigan", value=_michigan(table, view), inline=False)
    log = [_event(table, view, event) for event in _deal_events(view.log)[-LOG_LINES:]]
    lines = [line for line in log if line] + [table.lang.t(note) for note in table.notes]
    if lines:
        embed.add_field(name="Log", value="\n".join(lines[-LOG_LINES:]), inline=False)
    board_footer(embed, table, table.lang.t("board.deal_number", deal=view.deal_number),
                 view.commitment)
    return Rendered(fit(embed), None if over else _board_view(table, view, decisions),
                    images.board_picture(view, _pay_suit_named(view)))


def _status(table: TableInfo, view: TripoliTableView) -> str:
    name = PHASE_TITLES[view.phase]
    lines = [f"**{name}**"]
    waiting = ", ".join(seat_label(table, s) for s in view.to_act)
    match view.phase:
        case Phase.SPARE:
            lines.append(f"{seat_label(table, view.dealer)} (dealer) "
                         f"{SPARE_STAGE_BOARD[view.spare_stage or 'choose']}")
        case Phase.AUCTION if view.auction is not None:
            auction = view.auction
            high = (f"high bid {chips(auction.high_bid)} by "
                    f"{seat_label(table, auction.high_bidder)}"
                    if auction.high_bidder is not None else "no bid yet")
            to = f"; the winning bid goes onto {auction.space}" if auction.space else ""
            lines.append(f"Auction of {AUCTION_ITEMS[auction.item]}{to}: {high}. "
                         f"{waiting} to bid.")
        case Phase.NAME_SUIT if view.namer is not None:
            lines.append(f"{seat_label(table, view.namer)} won the auction and names the pay "
                         "suit.")
        case Phase.SELECT:
            lines.append(f"Waiting for {waiting}: press **My hand** to choose your five.")
        case Phase.BETTING if view.poker is not None:
            lines.append(f"{waiting} to act · highest bet {chips(view.poker.current_bet)}"
                         f" · pot {chips(view.board.get('POT', 0))}.")
        case Phase.MICHIGAN if view.michigan is not None:
            lines.append(f"{waiting} to lead{_lead_rule(view)}: press **My hand**.")
        case Phase.BETWEEN_DEALS:
            lines.append("Press **Next deal** to deal again; members may join or leave now.")
        case Phase.OVER if table.ranked:
            lines.append("Final stacks are below; each member's stack was paid back to their "
                         "chips.")
        case Phase.OVER:
            lines.append("Final stacks are below (play chips: no server chips moved).")
    if deadline := deadline_line(table, view.to_act):
        lines.append(deadline)
    if view.phase is not Phase.OVER:
        lines.append(f"Dealer: {seat_label(table, view.dealer)}")
    if view.ending:
        lines.append("The session ends after this deal (then the leftover round).")
    kind = "Ranked" if table.ranked else "Casual (play chips)"
    lines.append(f"{kind} · buy-in {chips(table.buy_in)} · rules: {view.rules_name}")
    return "\n".join(lines)


def _lead_rule(view: TripoliTableView) -> str:
    """What the due lead must be besides the lowest card of its suit, when the table's rules
    restrict it (§2.7 items 45 and 49, §3.7): the first lead by ``first_lead``, later leads
    by ``next_lead`` (italian's ``any_suit`` bars no suit)."""
    michigan = view.michigan
    assert michigan is not None
    if michigan.first_lead:
        return FIRST_LEAD_RULES.get(view.rules.first_lead, "")
    if michigan.required_red is not None:
        colour = "red" if michigan.required_red else "black"
        return f" (lowest {colour} card)"
    if view.rules.next_lead == "other_suit" and michigan.barred_suit is not None:
        return f" (not {suit(michigan.barred_suit)})"
    return ""


def _board_title(view: TripoliTableView) -> str:
    """``Board``, with this deal's pay suit when it is dialled or auctioned (§3.2, §3.6)."""
    if view.pay_suit_source == "dial":
        return (f"Board · dial: pay suit {suit(view.pay_suit)}, "
                f"sequence {sequence(view.seq_start)}")
    if view.pay_suit_source == "auction":
        if not _pay_suit_named(view):
            return "Board · pay suit to name"
        return f"Board · pay suit {suit(view.pay_suit)}"
    return "Board"


def _pay_suit_named(view: TripoliTableView) -> bool:
    """False while an auctioned pay suit is still to be named (§3.6)."""
    if view.pay_suit_source != "auction":
        return True
    bidding = view.auction is not None and view.auction.item != "ghost"
    return not (view.phase in (Phase.SPARE, Phase.NAME_SUIT) or bidding)


def _board_spaces(view: TripoliTableView) -> str:
    """The table's spaces in board order with their chips, and what each pays for this deal
    when that is not its printed name (``space_labels``)."""
    singles = set(view.rules.single_spaces)
    line, others = [], []
    for space, amount in view.board.items():
        label = view.space_labels.get(space, space)
        if space in singles:
            name = space if label == space else f"{space}→{label}"
            line.append(f"{visible(name)} **{amount}**")
        else:
            others.append(f"{space} **{amount}** — {visible(label)}")
    spaces = "\n".join([" · ".join(line), *others])
    if view.leftover_pots:
        spaces += f"\nLeftover pots still to play: {', '.join(map(str, view.leftover_pots))}"
    return spaces


def _players(table: TableInfo, view: TripoliTableView) -> str:
    poker = view.poker if view.phase is Phase.BETTING else None
    lines = []
    for seat in range(min(view.seats, len(table.seats))):
        stack = view.stacks[seat]
        name = seat_label(table, seat)
        if stack is None:
            lines.append(f"~~{name}~~ left")
            continue
        parts = [f"{'▶ ' if seat in view.to_act else ''}**{name}**", chips(stack)]
        if seat == view.dealer:
            parts.append("dealer")
        if seat in view.hand_sizes:
            parts.append(plural(view.hand_sizes[seat], "card"))
        if poker is not None and seat in poker.bets:
            parts.append(f"bet {poker.bets[seat]}")
            if seat in poker.folded:
                parts.append("folded")
            elif seat in poker.all_in:
                parts.append("all-in")
        if seat in view.eliminated:
            parts.append("out")
        if table.seats[seat].leaving:
            parts.append("leaving")
        lines.append(" · ".join(parts))
    return "\n".join(lines)


def _deal_events(log: Sequence[TripoliEvent]) -> list[TripoliEvent]:
    start = max((i for i, e in enumerate(log) if e.kind == "deal_started"), default=0)
    return list(log[start:])


def _showdown(table: TableInfo, log: Sequence[TripoliEvent]) -> str:
    showdowns = [e for e in _deal_events(log) if isinstance(e, ev.Showdown)]
    if not showdowns:
        return ""
    event = showdowns[-1]
    return "\n".join(
        f"{seat_label(table, seat)}: {cards(shown)} — {event.descriptions.get(seat, '')}"
        for seat, shown in event.hands.items()
    )


def _michigan(table: TableInfo, view: TripoliTableView) -> str:
    michigan = view.michigan
    assert michigan is not None
    lines = [
        f"{seat_label(table, seat)}: {cards(played)}"
        for seat, played in michigan.played.items()
        if played
    ]
    if michigan.last_run:
        lines.append(f"Last run: {cards(michigan.last_run)}")
    return "\n".join(lines) or "No card played yet."


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
        lines = ["The deal was abandoned: every chip went back."]
    else:
        lines = [_event(table, view, e) for e in events if isinstance(e, SUMMARY_EVENTS)]
    first = events[0]
    leftover = isinstance(first, ev.DealStarted) and first.leftover
    title = "Leftover round" if leftover else f"Deal {over.deal_number}"
    deltas = tuple((seat_label(table, seat), delta) for seat, delta in sorted(over.deltas.items()))
    return DealSummary(title, tuple(line for line in lines if line), deltas, "chip")


def _deltas(table: TableInfo, deltas: dict[int, int]) -> str:
    """``"Alice +12 · Bob -7"``: each seat's stack change of a deal."""
    return " · ".join(f"{seat_label(table, seat)} {delta:+d}"
                      for seat, delta in sorted(deltas.items()))


def _event(table: TableInfo, view: TripoliTableView, event: TripoliEvent) -> str:
    """One log line for an event; every card in it is public by the rules (§2.10)."""
    name = lambda seat: seat_label(table, seat)  # noqa: E731
    match event:
        case ev.Eliminated(seat=seat) if view.rules.elimination == "zero_chips":
            return f"{name(seat)} has no chips left and is out."
        case ev.DealStarted(leftover=True, dealer=dealer):
            return f"Leftover round: {name(dealer)} deals."
        case ev.DealStarted(deal_number=number, dealer=dealer):
            return f"Deal {number}: {name(dealer)} deals."
        case ev.Eliminated(seat=seat):
            return f"{name(seat)} cannot pay the ante and is out."
        case ev.AntesPosted(paid=paid):
            return f"Antes posted: {chips(sum(paid.values()))}."
        case ev.SpareKept(seat=seat):
            return f"{name(seat)} keeps the spare hand dead."
        case ev.SpareExchanged(seat=seat):
            return f"{name(seat)} takes the spare hand."
        case ev.AuctionStarted(seller=None, item=item, space=space):
            return f"Bidding for {AUCTION_ITEMS[item]} (bids go onto {space})."
        case ev.AuctionStarted(seller=seller, item=item):
            what = "the spare hand" if item == "spare" else "his old hand"
            return f"{name(seller)} auctions {what}."
        case ev.AuctionBid(seat=seat, amount=amount):
            return f"{name(seat)} bids {amount}."
        case ev.AuctionPass(seat=seat):
            return f"{name(seat)} passes."
        case ev.AuctionSold(seat=seat, amount=amount, seller=None, space=space):
            what = "the pay suit" if _auction_item(view, event) == "pay_suit" else "the ghost hand"
            return f"{name(seat)} wins {what} for {chips(amount)}, paid onto {space}."
        case ev.AuctionSold(seat=seat, amount=amount, seller=seller):
            return f"{name(seat)} buys the hand for {chips(amount)}, paid to {name(seller)}."
        case ev.AuctionUnsold():
            return "Nobody bids."
        case ev.DialTurned(pay_suit=pay_suit, seq_start=start):
            return (f"The dial turns: pay suit {suit(pay_suit)}, sequence "
                    f"{sequence(start)}.")
        case ev.PaySuitNamed(seat=None, suit=named):
            return f"Nobody bid: the pay suit is {suit(named)}."
        case ev.PaySuitNamed(seat=seat, suit=named):
            return f"{name(seat)} names {suit(named)} as the pay suit."
        case ev.PayTaken(seat=seat, space=space, chips=amount):
            return f"{name(seat)} takes the {visible(space)} space ({chips(amount)})."
        case ev.Selected(seat=seat):
            return f"{name(seat)} has chosen five cards."
        case ev.Checked(seat=seat):
            return f"{name(seat)} checks."
        case ev.BetMade(seat=seat, amount=amount, all_in=all_in):
            return f"{name(seat)} bets {amount}{' (all-in)' if all_in else ''}."
        case ev.Called(seat=seat, amount=amount, all_in=all_in):
            return f"{name(seat)} calls {amount}{' (all-in)' if all_in else ''}."
        case ev.Raised(seat=seat, amount=amount, total=total):
            return f"{name(seat)} raises by {amount} to {total}."
        case ev.Folded(seat=seat):
            return f"{name(seat)} folds."
        case ev.BetReturned(seat=seat, chips=amount):
            return f"{chips(amount)} returned to {name(seat)}."
        case ev.Showdown():
            return "Showdown."
        case ev.PotWon(seat=seat, chips=amount):
            return f"{name(seat)} wins {chips(amount)} from the pot."
        case ev.MichiganStarted(leader=leader):
            return f"Michigan: {name(leader)} leads first."
        case ev.Led(seat=seat, card=led):
            return f"{name(seat)} leads {card(led)}."
        case ev.Stopped(seat=seat, card=stop):
            return f"{name(seat)} stops with {card(stop)}."
        case ev.LeadPassed(seat=seat, to=to):
            return f"{name(seat)} cannot lead; {name(to)} leads."
        case ev.WentOut(seat=seat, space=space, space_chips=won, payments=payments):
            return (f"{name(seat)} goes out: the {space} space ({chips(won)}) and "
                    f"{chips(sum(payments.values()))} from the others.")
        case ev.Blocked(space=space, payments=payments):
            return f"Blocked: {chips(sum(payments.values()))} go to the {space} space."
        case ev.DealOver(deal_number=number, abandoned=True):
            return f"Deal {number} abandoned: every chip went back."
        case ev.DealOver(deal_number=number, deltas=deltas):
            return f"Deal {number} is over: {_deltas(table, deltas)}."
        case ev.LeftoverStarted(pot_index=index, pots=pots):
            return f"Leftover pot {index + 1}: {chips(pots[0])} to win."
        case ev.SessionOver():
            return "The session is over."
    return ""


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
    public = view.table
    embed = discord.Embed(
        title=f"Your hand — Tripoli table {table.id} · deal {public.deal_number}",
        description=by_suit(view.hand) or "No cards.",
        colour=COLOUR,
    )
    if view.old_hand is not None:
        embed.add_field(name="Your old hand (now the spare hand; you may auction it)",
                        value=cards(view.old_hand), inline=False)
    if view.selection is not None and public.phase in (Phase.SELECT, Phase.BETTING):
        named = describe_hand(hand_value(view.selection))
        embed.add_field(name=f"Your poker five: {named}", value=cards(view.selection),
                        inline=False)
    stack = public.stacks[view.seat]
    facts = [f"Stack: {chips(stack or 0)}"]
    if view.to_call:
        facts.append(f"to call: {chips(view.to_call)}")
    embed.add_field(name="You", value=" · ".join(facts), inline=False)
    embed.add_field(name="Now", value=_hand_status(table, view), inline=False)
    embed.set_footer(text="Only you can see this. Press My hand on the board for a fresh view.")
    return Rendered(fit(embed), _hand_view(table, view), images.hand_picture(view))


QUICK_AMOUNTS = {"bet": "Bet {}", "raise": "Raise by {}", "bid": "Bid {}"}
"""Buttons beside ``Bet…``, ``Raise…`` and ``Bid…`` that act at once with an amount shown
on them (the runtime reads it from the button: no modal). Bet and raise get the least and
the most allowed; a bid the least (its most is the whole stack)."""


def _quick_amounts(table: TableInfo, seat: int, decision: int,
                   option: Option) -> list[TableButton]:
    """The quick-amount buttons of an amount option (:data:`QUICK_AMOUNTS`)."""
    if option.kind not in QUICK_AMOUNTS or option.min is None or option.max is None:
        return []
    amounts = [option.min] if option.kind == "bid" else sorted({option.min, option.max})
    return [TableButton(Ref(table.id, option.kind, seat, decision, str(amount)),
                        label=QUICK_AMOUNTS[option.kind].format(amount),
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
) -> list[TableButton]:
    """The row-0 buttons of one option that needs no card: a verb of :data:`_BUTTONS`
    (``Call N`` shows the amount; an amount verb has its quick amounts beside it), or the
    four suits for ``name_suit`` (§3.6)."""
    if option.kind == "name_suit":
        return [TableButton(Ref(table.id, "name_suit", seat, decision, named.letter),
                            label=suit(named),
                            style=discord.ButtonStyle.primary, row=0)
                for named in (Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS)]
    if option.kind not in _BUTTONS:
        return []
    label, style = _BUTTONS[option.kind]
    if option.kind == "call" and to_call:
        label = f"Call {to_call}"
    return [*_quick_amounts(table, seat, decision, option),
            TableButton(Ref(table.id, option.kind, seat, decision), label=label, style=style,
                        row=0)]


def _hand_status(table: TableInfo, view: TripoliSeatView) -> str:
    kinds = {option.kind for option in view.options}
    if not kinds:
        waiting = ", ".join(seat_label(table, s) for s in view.table.to_act)
        return f"Nothing to decide now; waiting for {waiting}." if waiting else "Nothing to do."
    if "select" in kinds:
        return "Choose the five cards you play poker with (they stay secret unless you reach "\
               "the showdown), or take your best five."
    if "lead" in kinds:
        return "Your lead: choose one of the cards below."
    if kinds & {"keep", "exchange", "auction"}:
        return _spare_prompt(view.table.spare_stage or "choose", kinds)
    if "name_suit" in kinds:
        return ("You won the auction: name the pay suit. The spaces A♥ … KQ♥ then pay for "
                "that suit's cards, won by playing them in Michigan.")
    auction = view.table.auction
    if kinds & {"bid", "pass"} and auction is not None:
        return f"Bid for {AUCTION_ITEMS[auction.item]}, or pass (a pass is final)."
    return "Your turn to bet."


def _spare_prompt(stage: str, kinds: set[str]) -> str:
    """The dealer's spare-hand prompt: only the options the stage offers (after an exchange:
    keep or auction the old hand; after an unsold auction: keep or exchange)."""
    choices = [words for kind, words in SPARE_CHOICES.items() if kind in kinds]
    if len(choices) > 1:
        listed = ", ".join(choices[:-1]) + ("," if len(choices) > 2 else "") + f" or {choices[-1]}"
    else:
        listed = choices[0]
    return f"{SPARE_PROMPTS[stage]}{listed}."


def _hand_view(table: TableInfo, view: TripoliSeatView) -> discord.ui.View | None:
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
            ui.add_item(TableSelect(
                ref,
                options=[discord.SelectOption(label=card_label(c), value=str(int(c)))
                         for c in option.cards],
                min_values=option.count,
                max_values=option.count,
                placeholder=f"Choose {option.count} cards for poker",
                row=1,
            ))
            ui.add_item(TableButton(Ref(table.id, "best", seat, decision),
                                    label="Best five", style=discord.ButtonStyle.success, row=2))
        elif option.kind == "lead" and len(option.cards) <= BUTTON_LEADS_MAX:
            for lead in option.cards:
                ui.add_item(TableButton(Ref(table.id, "lead", seat, decision, str(int(lead))),
                                        label=f"Lead {card_label(lead)}",
                                        style=discord.ButtonStyle.primary, row=0))
        elif option.kind == "lead":
            ui.add_item(TableSelect(
                ref,
                options=[discord.SelectOption(label=card_label(c), value=str(int(c)))
                         for c in option.cards[:25]],
                placeholder="Choose your lead",
                row=1,
            ))
    return ui if ui.children else None



# ---------------------------------------------------------------------- the rules


def rules_card(rules: TripoliRules, source: str, buy_in: int) -> Rendered:
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
    """
    lines = [f"**{rules.name}** — {PRESET_NOTES.get(rules.name, '')}", source]
    embed = discord.Embed(title=f"Tripoli rules: {rules.name}", description="\n".join(lines),
                          colour=COLOUR)
    for name, words in (
        ("Board and antes", _rules_board(rules)),
        ("Spare hand", _rules_spare(rules)),
        ("Poker", _rules_poker(rules)),
        ("Michigan", _rules_michigan(rules)),
        ("End of the session", _rules_end(rules)),
    ):
        embed.add_field(name=name, value=visible(words), inline=False)
    differences = describe_differences(rules)
    embed.add_field(
        name="Differences from classic",
        value="\n".join(f"• {visible(line)}" for line in differences)
        or "None: pay cards, poker with betting, Michigan.",
        inline=False,
    )
    ante = f"Ante {chips(rules.ante)} per space"
    if rules.dealer_ante != rules.ante:
        ante += f" (dealer {rules.dealer_ante})"
    facts = [ante, f"{rules.min_players}-{rules.max_players} players",
             f"buy-in {chips(buy_in)}"]
    if rules.poker == "betting":
        facts.insert(1, f"bet limit {rules.bet_limit}")
    if rules.pay_suit != "dial":
        facts.append(f"sequence {sequence(rules.seq_ranks)}")
    embed.add_field(name="Table", value=" · ".join(facts), inline=False)
    return Rendered(fit(embed), None)


def _rules_board(rules: TripoliRules) -> str:
    """Every space of the board and what it pays, then the antes."""
    if isinstance(rules.pay_suit, Suit):
        pay_suit = rules.pay_suit.symbol
        kq = f"K{pay_suit} and Q{pay_suit}"
    else:
        pay_suit = ("the pay suit, named every deal by the highest bidder"
                    if rules.pay_suit == "auction" else "the pay suit the dial draws every deal")
        kq = "K and Q of the pay suit"
    if rules.kq_suit == "any":
        kq = "K and Q of any one suit"
    if rules.pay_suit == "dial":
        seq = "three ranks in a row of one suit, drawn by the dial every deal"
    else:
        seq = f"{sequence(rules.seq_ranks)} of one suit"
    if rules.pay_collection == "play":
        when = "won in Michigan by playing their cards"
        who = "whoever plays"
        kq, seq = f"{kq} played by one player in a row", f"{seq} played by one player in a row"
    else:
        when = "paid from the hands held once the spare hand is settled, before poker"
        who = "whoever holds"
        kq += " in one hand (several pairs split it)" if rules.kq_suit == "any" else " in one hand"
        seq += " (several holders split it; odd chips stay)"
    if rules.pay_cards == "boodle":
        singles = f"each pays {who} its own card"
    elif isinstance(rules.pay_suit, Suit):
        singles = f"each pays {who} that card"
    else:
        singles = f"pay {who} the A, K, Q, J and 10 of {pay_suit}"
    spaces = [f"**{' '.join(rules.single_spaces)}**: {singles}.",
              f"**{rules.kq_space}**: {kq}.", f"**{rules.seq_space}**: {seq}."]
    going_out = ("going out first in Michigan, plus 1 chip for every card each other player "
                 "still holds")
    if rules.going_out_space == rules.seq_space:
        once = " (only if nobody took it with the sequence)" if rules.monte_once else ""
        spaces[-1] = f"{spaces[-1][:-1]}; also {going_out}{once}."
    else:
        spaces.append(f"**{rules.going_out_space}**: {going_out}.")
    if rules.poker != "none":
        spaces.append("**POT**: the poker round's winner.")
    ante = f"Before every deal each player puts {chips(rules.ante)} on every space"
    if rules.dealer_ante != rules.ante:
        ante += f", the dealer {chips(rules.dealer_ante)}"
    return "\n".join([f"Pay spaces are {when}.", *spaces,
                      f"{ante}; chips nobody wins stay for later deals."])


def _rules_spare(rules: TripoliRules) -> str:
    """What the dealer may do with the spare hand, and the ghost-hand auction."""
    lines = ["The deck is dealt into one hand per player and a spare hand that belongs to "
             "nobody; its cards are never played and win nothing."]
    options = rules.spare_options
    if options:
        choices = ["**Keep** it dead"]
        if "exchange" in options:
            choices.append("**Exchange** it, unseen, for their own hand"
                           + (" (and then auction the old hand to the others)"
                              if "exchange_auction_old" in options else ""))
        if "auction" in options:
            choices.append("**Auction** it, unseen, to the others: the highest bidder pays the "
                           "dealer and swaps their hand for it")
        lines.append("After looking at their own hand the dealer may " + "; ".join(choices)
                     + ". Nobody swaps back.")
        if rules.spare_needs_no_pay_card:
            lines.append("Only players holding no pay card may take it or bid for it.")
    elif not rules.ghost_auction:
        lines.append("Nobody may take it.")
    if rules.ghost_auction:
        lines.append("Before Michigan everyone may bid to swap their hand for it (the ghost "
                     f"hand); the winning bid goes onto {rules.going_out_space}.")
    return " ".join(lines)


def _rules_poker(rules: TripoliRules) -> str:
    """The poker round: how hands are chosen, the betting and its limit."""
    if rules.poker == "none":
        return "No poker round: Michigan follows the pay cards."
    if rules.poker == "auto":
        return ("Everyone's best five cards are compared, with no betting; the best hand takes "
                "the POT (equal hands split it).")
    opener = "the dealer" if rules.bet_opener == "dealer" else "the player left of the dealer"
    limit = (f"a player's total bet is at most {chips(rules.bet_limit)}"
             if rules.bet_limit_mode == "total"
             else f"an opening bet or a raise is at most {chips(rules.bet_limit)}")
    short = ("a player short of chips may call all-in" if rules.all_in
             else "a player who cannot call in full must fold")
    return (f"Everyone chooses five cards (not necessarily their best). One betting round onto "
            f"the POT, starting with {opener}: check or bet while nobody has bet, then fold, "
            f"call or raise; {limit}; {short}. The last player who has not folded, or the "
            "best hand at the showdown, takes the POT (equal hands split it). Everyone takes "
            "all their cards back for Michigan.")


def _rules_michigan(rules: TripoliRules) -> str:
    """Who leads, what a lead may be, runs, stops, going out and blocks."""
    leader = {
        "poker_winner": "The poker winner",
        "dealer": "The dealer",
        "left": "The player left of the dealer",
    }[rules.michigan_leader]
    first = {
        "lowest_of_suit": "the lowest card they hold of any suit they choose",
        "lowest_card": "their lowest card",
        "lowest_black": "their lowest black card",
        "lowest_of_longest_suit": "the lowest card of one of their longest suits",
    }[rules.first_lead]
    after = {
        "other_suit": "leads again: the lowest card they hold of another suit than the one "
                      "just played (holding only that suit, the lead passes to the left)",
        "opposite_colour": "leads again: their lowest card of the other colour (holding none, "
                           "the lead passes to the left)",
        "any_suit": "leads again: the lowest card they hold of any suit, even the one just "
                    "played",
    }[rules.next_lead]
    block = ("" if rules.next_lead == "any_suit" else
             f" If nobody can lead, the deal is blocked: everyone pays 1 chip per card held "
             f"onto {rules.block_space}.")
    return (f"{leader} leads first: {first}. Whoever holds the next higher card of that suit "
            "plays it (the bot plays it for them), and so on. The run stops at an ace or when "
            "the next card is in the spare hand or already played; whoever played the stop "
            f"card {after}. The first player "
            f"to play their last card goes out and wins {rules.going_out_space} plus 1 chip "
            f"for every card each other player still holds.{block}")


def _rules_end(rules: TripoliRules) -> str:
    """Who is out, the end of the session and the leftover chips."""
    out = ("A player with no chips left is out (a short player antes what they have)."
           if rules.elimination == "zero_chips"
           else "A player who cannot pay the full ante is out.")
    if not rules.leftover_poker:
        leftover = "Chips left on the board stay there."
    else:
        rounds = ("one poker round" if rules.leftover_pots == 1
                  else f"{rules.leftover_pots} poker rounds, one per share")
        betting = "with betting" if rules.leftover_betting else "without betting"
        leftover = (f"Chips left on the board are played for in {rounds} of five cards each, "
                    f"{betting}, with no antes.")
    return (f"{out} The session ends when the host or a member with Manage Channels uses "
            "`/tripoli end` (after the current deal, or at once with now:True: that deal is "
            f"abandoned and its chips go back), or when fewer than two players remain. "
            f"{leftover} The most chips wins.")
