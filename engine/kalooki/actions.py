"""Kalooki actions: frozen models discriminated on ``kind`` (``rules/kalooki.md`` §2.6-§2.10).

Actions name physical card ids, so exactly the named card moves (the two 7♥ differ).
``action_adapter.validate_python(...)`` / ``validate_json(...)`` reads any of them.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.cards import Card
from engine.core import Action, Frozen
from engine.kalooki.melds import End, ExchangeTo, MeldKind


class Draw(Action):
    """The current player's draw: the top of the stock or of the discard pile (§2.6 item 21)."""

    kind: Literal["draw"] = "draw"
    source: Literal["stock", "discard"]


class CallDiscard(Action):
    """Call the top discard out of turn (§2.7 items 27-30).

    ``late``: the call takes effect only when the call window closes, and only if nobody
    called before (K4): a seat that answers at once (an AI seat) calls no faster than a
    member who needs the window's seconds.
    """

    kind: Literal["call"] = "call"
    late: bool = False


class Allow(Action):
    """The current player lets the caller have the called card (§2.7 item 31)."""

    kind: Literal["allow"] = "allow"


class Refuse(Action):
    """The current player takes the called card himself as his draw (§2.7 item 31, K16)."""

    kind: Literal["refuse"] = "refuse"


class Challenge(Action):
    """Challenge ``seat`` for over-calling, on one's own turn before the draw (§2T.6 T19;
    honour mode only, :mod:`engine.kalooki.rules`)."""

    kind: Literal["challenge"] = "challenge"
    seat: int


class Group(Frozen):
    """One combination of a lay-down: its kind and its cards (a four in table order)."""

    kind: MeldKind
    cards: tuple[Card, ...]


class LayDown(Action):
    """Lay down combinations; the first lay-down of a deal holds the contract (§2.8)."""

    kind: Literal["meld"] = "meld"
    groups: tuple[Group, ...]


class LayOff(Action):
    """Add ``card`` to the table combination ``meld`` (§2.9 items 46-50; T7).

    ``end``: where on a four (None: the top if allowed, else the bottom); ignored on a three.
    """

    kind: Literal["lay_off"] = "lay_off"
    meld: str
    card: Card
    end: End | None = None


class ExchangeJoker(Action):
    """Put natural ``card`` in the place of the joker it represents in four ``meld``
    (§2.9 item 51; Trinidad T9-T11: ``to`` = ``hand`` on one's own four, or an end)."""

    kind: Literal["exchange"] = "exchange"
    meld: str
    card: Card
    to: ExchangeTo | None = None


class Discard(Action):
    """Discard a natural card, ending the turn (§2.6 items 21c, 23, 24)."""

    kind: Literal["discard"] = "discard"
    card: Card


class EndTurn(Action):
    """End the turn without a discard: only when every card held is a joker (K8)."""

    kind: Literal["end_turn"] = "end_turn"


class CloseWindow(Action):
    """The :data:`~engine.core.SYSTEM` step: the call window's time is over (K4)."""

    kind: Literal["close_window"] = "close_window"


KalookiAction = Annotated[
    Draw
    | CallDiscard
    | Allow
    | Refuse
    | Challenge
    | LayDown
    | LayOff
    | ExchangeJoker
    | Discard
    | EndTurn
    | CloseWindow,
    Field(discriminator="kind"),
]

action_adapter: TypeAdapter[KalookiAction] = TypeAdapter(KalookiAction)
