"""Tripoli actions: frozen models discriminated on ``kind`` (``rules/tripoli.md`` §6).

``action_adapter.validate_python(...)`` / ``validate_json(...)`` reads any of them.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.cards import Card, Suit
from engine.core import Action


class Keep(Action):
    """Dealer: keep the spare hand dead; after an exchange: do not auction the old hand."""

    kind: Literal["keep"] = "keep"


class Exchange(Action):
    """Dealer: take the unseen spare hand; the old hand becomes the dead hand (§2.4 item 14b)."""

    kind: Literal["exchange"] = "exchange"


class Auction(Action):
    """Dealer: auction the unseen spare (item 14c), or after an exchange the old hand (14b')."""

    kind: Literal["auction"] = "auction"


class Bid(Action):
    """Auction bid in chips: above the high bid, at most the bidder's stack (§2.4 item 17)."""

    kind: Literal["bid"] = "bid"
    amount: int


class Pass(Action):
    """Auction pass; final for that auction (§2.4 item 17)."""

    kind: Literal["pass"] = "pass"


class NameSuit(Action):
    """Name the pay suit (``auction-pay-suit`` preset, §3.6)."""

    kind: Literal["name_suit"] = "name_suit"
    suit: Suit


class Select(Action):
    """Poker selection: exactly 5 of the seat's own cards (§2.6 item 27)."""

    kind: Literal["select"] = "select"
    cards: tuple[Card, ...]


class Check(Action):
    """Poker: check while nobody has bet (§2.6 item 32)."""

    kind: Literal["check"] = "check"


class Bet(Action):
    """Poker: open the betting with ``amount`` chips (1 ≤ amount ≤ min(L, stack), item 40)."""

    kind: Literal["bet"] = "bet"
    amount: int


class Call(Action):
    """Poker: match the highest total (or put in the whole stack: all-in, item 41)."""

    kind: Literal["call"] = "call"


class Raise(Action):
    """Poker: call and add ``amount`` chips more (the increment r of item 40, 1 ≤ r ≤ L)."""

    kind: Literal["raise"] = "raise"
    amount: int


class Fold(Action):
    """Poker: drop out of the betting; the seat still plays phase 3 (§2.6 item 34)."""

    kind: Literal["fold"] = "fold"


class Lead(Action):
    """Michigan: lead ``card`` (one of the legal leads, §2.7 items 45, 49)."""

    kind: Literal["lead"] = "lead"
    card: Card


TripoliAction = Annotated[
    Keep
    | Exchange
    | Auction
    | Bid
    | Pass
    | NameSuit
    | Select
    | Check
    | Bet
    | Call
    | Raise
    | Fold
    | Lead,
    Field(discriminator="kind"),
]

action_adapter: TypeAdapter[TripoliAction] = TypeAdapter(TripoliAction)
