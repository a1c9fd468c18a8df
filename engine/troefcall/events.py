"""Troefcall events: what happened, all public (``rules/troefcall.md`` §2).

Cards appear only where the rules make them public: the face-up jack search
(:class:`JackSearched`), a played card (:class:`CardPlayed`) and the hand a caller shows to
claim a redeal (:class:`Redealt`). Points are per team; teams are 0 (seats 0 + 2) and
1 (seats 1 + 3).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.cards import Card, Suit
from engine.core import Event
from engine.troefcall.scoring import HandResult
from engine.troefcall.seating import JackSearch


class JackSearched(Event):
    """The public deal until a jack chose the first trump caller and dealer (§2.2)."""

    kind: Literal["jack_search"] = "jack_search"
    search: JackSearch


class DealStarted(Event):
    """A shuffle was dealt: the caller holds his first 5 cards (§2.4 item 11)."""

    kind: Literal["deal_started"] = "deal_started"
    deal_number: int  # the shuffle's number in ``engine.fairness`` (a redeal has its own)
    hand_number: int  # the hand (a redeal plays the same hand again)
    dealer: int
    caller: int
    commitment: str | None  # SHA-256 hex of the deal seed; None for a fixed deck
    redeal: bool = False


class TrumpNamed(Event):
    """The caller named trumps; the other 47 cards were then dealt (§2.4 items 12-14)."""

    kind: Literal["trump_named"] = "trump_named"
    seat: int
    suit: Suit


class Redealt(Event):
    """The caller showed his 13 cards, none a K, Q or J, and the hand is dealt again by the
    same dealer (§2.5 items 15-18; no score, no rotation)."""

    kind: Literal["redeal"] = "redeal"
    seat: int
    shown: tuple[Card, ...]


class CardPlayed(Event):
    """``seat`` played ``card`` to trick number ``trick`` (1-13)."""

    kind: Literal["card_played"] = "card_played"
    seat: int
    card: Card
    trick: int


class TrickWon(Event):
    """``seat`` won trick number ``trick``; ``tricks`` is the count per team after it."""

    kind: Literal["trick_won"] = "trick_won"
    seat: int
    trick: int
    tricks: tuple[int, int]


class KapOffered(Event):
    """``seat``'s team won tricks 1-7: ``seat`` (the trick-7 winner) may stop or lead to
    trick 8; ``partner`` may stop (§2.7 items 28-35)."""

    kind: Literal["kap_offered"] = "kap_offered"
    seat: int
    partner: int


class KapCalled(Event):
    """``seat`` said "kap partij" (§2.7 items 30-31); ``trick7_winner`` tells which stop."""

    kind: Literal["kap"] = "kap"
    seat: int
    trick7_winner: bool


class BaunieCommitted(Event):
    """The trick-7 winner led to trick 8: his team must win every trick (§2.7 item 33)."""

    kind: Literal["baunie"] = "baunie"
    seat: int
    team: int


class HandScored(Event):
    """A hand ended and one team scored (§2.8; the next dealer and caller, §2.9)."""

    kind: Literal["hand_scored"] = "hand_scored"
    result: HandResult


class TieToBreak(Event):
    """The game's agreed length was reached with the scores tied at ``score`` each: play
    goes on until a hand breaks the tie (rules/troefcall.md §2.10 item 52)."""

    kind: Literal["tie_break"] = "tie_break"
    score: int


class GameOver(Event):
    """The game ended: ``winner`` the team that won (None when ended without a winner)."""

    kind: Literal["game_over"] = "game_over"
    scores: tuple[int, int]
    winner: int | None
    complete: bool


TroefcallEvent = Annotated[
    JackSearched
    | DealStarted
    | TrumpNamed
    | Redealt
    | CardPlayed
    | TrickWon
    | KapOffered
    | KapCalled
    | BaunieCommitted
    | HandScored
    | TieToBreak
    | GameOver,
    Field(discriminator="kind"),
]

event_adapter: TypeAdapter[TroefcallEvent] = TypeAdapter(TroefcallEvent)
