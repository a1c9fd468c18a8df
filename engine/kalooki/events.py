"""Kalooki events: what happened (``rules/kalooki.md`` §2).

Public except where :meth:`~engine.core.Event.seen_by` redacts: a stock card drawn
(:class:`Drew`) or taken as a caller's extra card (:class:`CallAllowed`) is seen only by the
seat that took it. Points are penalty points; dicts map seat -> points.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.cards import Card
from engine.core import Event
from engine.kalooki.melds import End, ExchangeTo, Meld
from engine.kalooki.rules import Contract


class DealStarted(Event):
    """A deal began (§2.4): its contract, dealer, upcard and fairness commitment."""

    kind: Literal["deal_started"] = "deal_started"
    deal_number: int
    dealer: int
    contract: Contract
    upcard: Card
    commitment: str | None  # SHA-256 hex of the deal seed; None for a fixed deck
    redeal: bool = False  # the same deal again after a void deal (§2.12 item 61)


class WindowOpened(Event):
    """A discard (or the upcard, K7) may be called for ``seconds`` by ``callers``."""

    kind: Literal["window_opened"] = "window_opened"
    card: Card
    callers: tuple[int, ...]
    seconds: float


class WindowClosed(Event):
    """The call window's time is over; the current player may draw from the stock."""

    kind: Literal["window_closed"] = "window_closed"


class Drew(Event):
    """The current player drew; a stock card is private to him."""

    kind: Literal["drew"] = "drew"
    seat: int
    source: Literal["stock", "discard"]
    card: Card | None

    def seen_by(self, seat: int | None) -> Drew:
        if self.source == "stock" and seat != self.seat:
            return self.model_copy(update={"card": None})
        return self


class Called(Event):
    """``seat`` called ``card``; the current player ``turn`` allows or refuses (§2.7)."""

    kind: Literal["called"] = "called"
    seat: int
    card: Card
    turn: int


class CallAllowed(Event):
    """The caller took the card and one extra stock card (private to him), §2.7 item 31."""

    kind: Literal["call_allowed"] = "call_allowed"
    caller: int
    card: Card
    extra: Card | None
    calls_used: int
    forced: bool = False  # the current player had laid down and had to allow (item 32)

    def seen_by(self, seat: int | None) -> CallAllowed:
        return self if seat == self.caller else self.model_copy(update={"extra": None})


class CallRefused(Event):
    """The current player took the called card as his draw; the call does not count."""

    kind: Literal["call_refused"] = "call_refused"
    seat: int
    caller: int
    card: Card


class ChallengeMade(Event):
    """``challenger`` challenged ``challenged``, who held ``hand_size`` cards against a limit
    of ``limit`` (§2T.6 T19-T21): ``correct`` when more. The loser ``out`` scores ``score``
    for the deal (his hand's penalty + 50), his ``cards`` go face up under the discard
    pile and he sits out the rest of the deal (public: the cards are shown)."""

    kind: Literal["challenge_made"] = "challenge_made"
    challenger: int
    challenged: int
    hand_size: int
    limit: int
    correct: bool
    out: int
    cards: tuple[Card, ...]
    score: int


class LaidDown(Event):
    """``seat`` laid down ``melds``; ``contract``: his first lay-down of the deal (§2.8)."""

    kind: Literal["laid_down"] = "laid_down"
    seat: int
    melds: tuple[Meld, ...]
    contract: bool


class LaidOff(Event):
    """``seat`` added ``card`` to a table combination (now ``meld``), §2.9."""

    kind: Literal["laid_off"] = "laid_off"
    seat: int
    card: Card
    meld: Meld
    end: End


class JokerExchanged(Event):
    """``seat`` put ``card`` in place of ``joker`` in a four (now ``meld``); the joker went
    to ``to`` (an end of the same four, or Trinidad: his hand), §2.9 item 51; T9-T11."""

    kind: Literal["joker_exchanged"] = "joker_exchanged"
    seat: int
    card: Card
    joker: Card
    meld: Meld
    to: ExchangeTo


class Discarded(Event):
    """``seat`` discarded ``card`` (§2.6 item 21c)."""

    kind: Literal["discarded"] = "discarded"
    seat: int
    card: Card


class TurnEnded(Event):
    """``seat`` held only jokers and ended his turn without a discard (K8)."""

    kind: Literal["turn_ended"] = "turn_ended"
    seat: int


class StockReshuffled(Event):
    """First exhaustion: the discard pile under its top card became the stock (§2.12 60)."""

    kind: Literal["stock_reshuffled"] = "stock_reshuffled"
    size: int


class DealVoid(Event):
    """Second exhaustion: no scores; the same dealer deals this deal again (§2.12 item 61),
    or, ``skipped`` after ``rules.void_limit`` void deals in a row, the set moves on to the
    next deal with the next dealer (the void bound of
    :mod:`engine.kalooki.rules`)."""

    kind: Literal["deal_void"] = "deal_void"
    deal_number: int
    dealer: int
    skipped: bool = False


class WentOut(Event):
    """``seat`` went out; ``down_and_out``: in the turn of his first lay-down (§2.10);
    ``last``: every other player sits out after a challenge, so the deal ends with him
    (§2T.6; Parlour's resolution, :mod:`engine.kalooki.rules`)."""

    kind: Literal["went_out"] = "went_out"
    seat: int
    down_and_out: bool
    last: bool = False


class DealScored(Event):
    """The deal's penalties (§2.11): the hands counted (shown), points, new totals."""

    kind: Literal["deal_scored"] = "deal_scored"
    deal_number: int
    hands: dict[int, tuple[Card, ...]]
    penalties: dict[int, int]
    totals: dict[int, int]


class SessionOver(Event):
    """The set is over (or ended early): totals and places, lowest first (§2.11 item 59)."""

    kind: Literal["session_over"] = "session_over"
    totals: dict[int, int]
    places: tuple[tuple[int, ...], ...]
    complete: bool


KalookiEvent = Annotated[
    DealStarted
    | WindowOpened
    | WindowClosed
    | Drew
    | Called
    | CallAllowed
    | CallRefused
    | ChallengeMade
    | LaidDown
    | LaidOff
    | JokerExchanged
    | Discarded
    | TurnEnded
    | StockReshuffled
    | DealVoid
    | WentOut
    | DealScored
    | SessionOver,
    Field(discriminator="kind"),
]

event_adapter: TypeAdapter[KalookiEvent] = TypeAdapter(KalookiEvent)
