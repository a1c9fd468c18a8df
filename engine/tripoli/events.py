"""Tripoli events: what happened, public to every seat (``rules/tripoli.md`` §2.10 item 63).

Events never carry a card a seat may not see: only showdown hands, played cards and the
pay cards revealed by a take (``pay_taken``) are cards made public by the rules.
Chip amounts are in chips; dicts map seat -> chips.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.cards import Card
from engine.core import Event


class DealStarted(Event):
    kind: Literal["deal_started"] = "deal_started"
    deal_number: int
    dealer: int
    seats: tuple[int, ...]  # players of this deal, in dealing order
    commitment: str | None  # SHA-256 hex of the deal seed; None for a fixed deck
    leftover: bool = False


class Eliminated(Event):
    kind: Literal["eliminated"] = "eliminated"
    seat: int
    stack: int


class AntesPosted(Event):
    kind: Literal["antes_posted"] = "antes_posted"
    paid: dict[int, int]
    board: dict[str, int]


class Dealt(Event):
    kind: Literal["dealt"] = "dealt"
    hand_sizes: dict[int, int]
    spare_size: int


class SpareKept(Event):
    kind: Literal["spare_kept"] = "spare_kept"
    seat: int


class SpareExchanged(Event):
    kind: Literal["spare_exchanged"] = "spare_exchanged"
    seat: int


class AuctionStarted(Event):
    kind: Literal["auction_started"] = "auction_started"
    seller: int
    item: Literal["spare", "old_hand"]


class AuctionBid(Event):
    kind: Literal["auction_bid"] = "auction_bid"
    seat: int
    amount: int


class AuctionPass(Event):
    kind: Literal["auction_pass"] = "auction_pass"
    seat: int
    forced: bool = False  # True: the seat could not afford the minimum bid


class AuctionSold(Event):
    kind: Literal["auction_sold"] = "auction_sold"
    seat: int
    seller: int
    amount: int


class AuctionUnsold(Event):
    kind: Literal["auction_unsold"] = "auction_unsold"


class PayTaken(Event):
    kind: Literal["pay_taken"] = "pay_taken"
    space: str
    seat: int
    chips: int


class Selected(Event):
    kind: Literal["selected"] = "selected"
    seat: int


class BettingStarted(Event):
    kind: Literal["betting_started"] = "betting_started"
    pot: int
    all_in: tuple[int, ...]  # seats all-in for 0 from the start (item 41)


class Checked(Event):
    kind: Literal["checked"] = "checked"
    seat: int


class BetMade(Event):
    kind: Literal["bet"] = "bet"
    seat: int
    amount: int
    all_in: bool = False


class Called(Event):
    kind: Literal["called"] = "called"
    seat: int
    amount: int
    all_in: bool = False


class Raised(Event):
    kind: Literal["raised"] = "raised"
    seat: int
    amount: int  # the increment r
    paid: int
    total: int  # the seat's total this round (the new highest total B)
    all_in: bool = False


class Folded(Event):
    kind: Literal["folded"] = "folded"
    seat: int


class BetReturned(Event):
    kind: Literal["bet_returned"] = "bet_returned"
    seat: int
    chips: int


class Showdown(Event):
    kind: Literal["showdown"] = "showdown"
    hands: dict[int, tuple[Card, ...]]
    descriptions: dict[int, str]


class PotWon(Event):
    kind: Literal["pot_won"] = "pot_won"
    seat: int
    chips: int
    pot: int = 0  # 0 = main pot, 1.. = side pots
    uncontested: bool = False


class MichiganStarted(Event):
    kind: Literal["michigan_started"] = "michigan_started"
    leader: int


class Led(Event):
    kind: Literal["lead"] = "lead"
    seat: int
    card: Card


class Played(Event):
    kind: Literal["played"] = "played"
    seat: int
    card: Card
    forced: bool = True


class Stopped(Event):
    kind: Literal["stop"] = "stop"
    seat: int
    card: Card


class LeadPassed(Event):
    kind: Literal["lead_passed"] = "lead_passed"
    seat: int  # the seat that could not lead
    to: int


class WentOut(Event):
    kind: Literal["went_out"] = "went_out"
    seat: int
    chips: int  # everything the seat won: the space plus the payments
    space: str
    space_chips: int
    payments: dict[int, int]  # seat -> chips paid to the winner (short payments, item 53)


class Blocked(Event):
    kind: Literal["blocked"] = "blocked"
    space: str
    payments: dict[int, int]


class DealOver(Event):
    kind: Literal["deal_over"] = "deal_over"
    deal_number: int
    deltas: dict[int, int]  # stack change of each seat of the deal
    board: dict[str, int]
    abandoned: bool = False


class LeftoverStarted(Event):
    kind: Literal["leftover_started"] = "leftover_started"
    pot_index: int  # 0-based
    pots: tuple[int, ...]  # chips of every leftover pot (§2.9 item 60)


class OddChips(Event):
    kind: Literal["odd_chips"] = "odd_chips"
    payments: dict[int, int]  # seat -> chips (§2.9 item 61)


class SessionOver(Event):
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
    | OddChips
    | SessionOver,
    Field(discriminator="kind"),
]

event_adapter: TypeAdapter[TripoliEvent] = TypeAdapter(TripoliEvent)
