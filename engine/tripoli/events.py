"""Tripoli events: what happened, public to every seat (``rules/tripoli.md`` §2.10 item 63).

Events never carry a card a seat may not see: only showdown hands, played cards and the
pay cards revealed by a take (``pay_taken``) are cards made public by the rules.
Chip amounts are in chips; dicts map seat -> chips.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.cards import Card, Suit
from engine.core import Event
from engine.tripoli.auction import AuctionItem


class DealStarted(Event):
    """A deal (or leftover round) began: its dealer, players and fairness commitment."""

    kind: Literal["deal_started"] = "deal_started"
    deal_number: int
    dealer: int
    seats: tuple[int, ...]  # players of this deal, in dealing order
    commitment: str | None  # SHA-256 hex of the deal seed; None for a fixed deck
    leftover: bool = False


class Eliminated(Event):
    """A seat is out and keeps its stack: it could not pay the full ante (item 64), or
    (``elimination = zero_chips``) it had no chip left at the end of a deal (§3.3 item 15)."""

    kind: Literal["eliminated"] = "eliminated"
    seat: int
    stack: int


class AntesPosted(Event):
    """Antes went onto every space (item 6): chips paid per seat and the new board."""

    kind: Literal["antes_posted"] = "antes_posted"
    paid: dict[int, int]
    board: dict[str, int]


class Dealt(Event):
    """Cards were dealt (item 10): hand sizes only, never cards."""

    kind: Literal["dealt"] = "dealt"
    hand_sizes: dict[int, int]
    spare_size: int


class SpareKept(Event):
    """The dealer kept the spare dead (after an exchange: did not auction the old hand)."""

    kind: Literal["spare_kept"] = "spare_kept"
    seat: int


class SpareExchanged(Event):
    """The dealer took the unseen spare; his old hand is now the dead hand (item 14b)."""

    kind: Literal["spare_exchanged"] = "spare_exchanged"
    seat: int


class AuctionStarted(Event):
    """An auction began: the dealer sells the unseen spare or, after an exchange, his old
    hand (``seller`` = the dealer); or everyone bids for the pay suit (§3.6) or the ghost
    hand (§3.3 item 18) and the winning bid goes onto ``space`` (``seller`` None)."""

    kind: Literal["auction_started"] = "auction_started"
    seller: int | None
    item: AuctionItem
    space: str | None = None


class AuctionBid(Event):
    """A bid in an auction (item 17)."""

    kind: Literal["auction_bid"] = "auction_bid"
    seat: int
    amount: int


class AuctionPass(Event):
    """A final pass in an auction (item 17)."""

    kind: Literal["auction_pass"] = "auction_pass"
    seat: int
    forced: bool = False  # True: the seat could not afford the minimum bid


class AuctionSold(Event):
    """The high bidder paid the seller (or put his bid onto ``space``) and swapped his hand
    for the auctioned one (pay-suit auction: he now names the suit)."""

    kind: Literal["auction_sold"] = "auction_sold"
    seat: int
    seller: int | None
    amount: int
    space: str | None = None


class AuctionUnsold(Event):
    """Everybody passed without a bid."""

    kind: Literal["auction_unsold"] = "auction_unsold"


class DialTurned(Event):
    """``cosmo``: the dial set this deal's pay suit and sequence (§3.2), before the antes."""

    kind: Literal["dial_turned"] = "dial_turned"
    pay_suit: Suit
    seq_start: int  # lowest rank of the sequence (2..12)


class PaySuitNamed(Event):
    """The pay suit of this deal (§3.6): named by the auction winner (``seat``), or hearts
    when nobody bid (``seat`` None)."""

    kind: Literal["pay_suit_named"] = "pay_suit_named"
    seat: int | None
    suit: Suit


class PayTaken(Event):
    """A seat took chips from a pay space: in phase 1 (reveals the pay card, item 26), or
    as it played the card(s) in Michigan (``pay_collection = play``, §3.5)."""

    kind: Literal["pay_taken"] = "pay_taken"
    space: str
    seat: int
    chips: int


class Selected(Event):
    """A seat locked its 5 poker cards (the cards stay private, item 28)."""

    kind: Literal["selected"] = "selected"
    seat: int


class BettingStarted(Event):
    """The betting round opened on ``pot`` chips (item 31)."""

    kind: Literal["betting_started"] = "betting_started"
    pot: int
    all_in: tuple[int, ...]  # seats all-in for 0 from the start (item 41)


class Checked(Event):
    """A check (item 32)."""

    kind: Literal["checked"] = "checked"
    seat: int


class BetMade(Event):
    """An opening bet of ``amount`` chips (item 32)."""

    kind: Literal["bet"] = "bet"
    seat: int
    amount: int
    all_in: bool = False


class Called(Event):
    """A call: ``amount`` chips paid (less than owed when all-in, item 41)."""

    kind: Literal["called"] = "called"
    seat: int
    amount: int
    all_in: bool = False


class Raised(Event):
    """A raise by ``amount`` chips over the call (item 34, 40)."""

    kind: Literal["raised"] = "raised"
    seat: int
    amount: int  # the increment r
    paid: int
    total: int  # the seat's total this round (the new highest total B)
    all_in: bool = False


class Folded(Event):
    """A fold; the seat still plays phase 3 (item 43)."""

    kind: Literal["folded"] = "folded"
    seat: int


class BetReturned(Event):
    """A bettor's excess that nobody matched went back to him (item 41)."""

    kind: Literal["bet_returned"] = "bet_returned"
    seat: int
    chips: int


class Showdown(Event):
    """The hands of every seat not folded, with their names (item 37)."""

    kind: Literal["showdown"] = "showdown"
    hands: dict[int, tuple[Card, ...]]
    descriptions: dict[int, str]


class PotWon(Event):
    """A seat won chips from the main pot (0) or a side pot (item 41)."""

    kind: Literal["pot_won"] = "pot_won"
    seat: int
    chips: int
    pot: int = 0  # 0 = main pot, 1.. = side pots
    uncontested: bool = False


class MichiganStarted(Event):
    """Phase 3 began; ``leader`` makes the first lead (item 42)."""

    kind: Literal["michigan_started"] = "michigan_started"
    leader: int


class Led(Event):
    """A lead (items 45, 49)."""

    kind: Literal["lead"] = "lead"
    seat: int
    card: Card


class Played(Event):
    """A forced follow, played automatically (item 46)."""

    kind: Literal["played"] = "played"
    seat: int
    card: Card
    forced: bool = True


class Stopped(Event):
    """The run stopped on ``card``; ``seat`` is the stopper (item 47)."""

    kind: Literal["stop"] = "stop"
    seat: int
    card: Card


class LeadPassed(Event):
    """``seat`` could not lead; the lead passed to ``to`` (item 50)."""

    kind: Literal["lead_passed"] = "lead_passed"
    seat: int  # the seat that could not lead
    to: int


class WentOut(Event):
    """A seat played its last card and collected (items 48, 52, 53)."""

    kind: Literal["went_out"] = "went_out"
    seat: int
    chips: int  # everything the seat won: the space plus the payments
    space: str
    space_chips: int
    payments: dict[int, int]  # seat -> chips paid to the winner (short payments, item 53)


class Blocked(Event):
    """Nobody could lead: each seat paid 1 chip per card onto ``space`` (items 51, 53)."""

    kind: Literal["blocked"] = "blocked"
    space: str
    payments: dict[int, int]


class DealOver(Event):
    """The deal ended (item 56): each player's stack change and the board."""

    kind: Literal["deal_over"] = "deal_over"
    deal_number: int
    deltas: dict[int, int]  # stack change of each seat of the deal
    board: dict[str, int]
    abandoned: bool = False


class LeftoverStarted(Event):
    """A leftover poker round for pot ``pot_index`` of ``pots`` (item 60)."""

    kind: Literal["leftover_started"] = "leftover_started"
    pot_index: int  # 0-based
    pots: tuple[int, ...]  # chips of every leftover pot (§2.9 item 60)


class SessionOver(Event):
    """The session is over: final stacks and places (item 62)."""

    kind: Literal["session_over"] = "session_over"
    stacks: dict[int, int]
    ranking: tuple[tuple[int, ...], ...]  # places; equal stacks share a place (item 62)


TripoliEvent = Annotated[
    DealStarted
    | Eliminated
    | AntesPosted
    | Dealt
    | SpareKept
    | SpareExchanged
    | AuctionStarted
    | AuctionBid
    | AuctionPass
    | AuctionSold
    | AuctionUnsold
    | DialTurned
    | PaySuitNamed
    | PayTaken
    | Selected
    | BettingStarted
    | Checked
    | BetMade
    | Called
    | Raised
    | Folded
    | BetReturned
    | Showdown
    | PotWon
    | MichiganStarted
    | Led
    | Played
    | Stopped
    | LeadPassed
    | WentOut
    | Blocked
    | DealOver
    | LeftoverStarted
    | SessionOver,
    Field(discriminator="kind"),
]

event_adapter: TypeAdapter[TripoliEvent] = TypeAdapter(TripoliEvent)
