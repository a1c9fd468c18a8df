"""What a seat, or any onlooker, may see (``rules/troefcall.md`` §2).

Public: trumps once named, the caller and dealer, every card played (the current trick and
the hand's completed tricks, with who played what), the sequence of trick winners and the
tricks per team, scores, the 7-trick decision, the face-up jack search, hand sizes, every
hand result and the fairness commitment. Private: each hand, only in its owner's view (the
caller sees only his first 5 cards until trumps are named; the others hold nothing until
then). The session seed is in no view. Views are frozen snapshots; card fields hold
:class:`engine.cards.Card`.
The game builds its views from its own, already validated state without validating them
again (:meth:`engine.core.Frozen.built`: the values already have the fields' types; the
conformance tests check that each equals its validated dump); a view read from outside
(``model_validate``) is validated as usual.
"""

from __future__ import annotations

from typing import Literal

from engine.cards import Card, Suit
from engine.core import Frozen, Option
from engine.troefcall.events import TroefcallEvent
from engine.troefcall.phases import Phase
from engine.troefcall.rules import TroefcallRules
from engine.troefcall.scoring import HandResult
from engine.troefcall.seating import JackSearch


class PlayedCard(Frozen):
    """One card of a trick and the seat that played it."""

    seat: int
    card: Card


class TrickView(Frozen):
    """A trick of the current hand: number 1-13, plays in order from the leader, winner.

    ``leader`` is None and ``plays`` empty for a trick a built position (``from_position``)
    lists by its winner only.
    """

    number: int
    leader: int | None
    plays: tuple[PlayedCard, ...]
    winner: int | None  # None while the trick is being played


class KapView(Frozen):
    """The 7-trick decision (§2.7 items 28-35): ``seat`` won trick 7 for ``team``, which won
    tricks 1-7. ``seat`` must lead to trick 8 (baunie) or say kap partij (5 points);
    ``partner`` may say kap partij (2 points)."""

    seat: int
    partner: int
    team: int


class TroefcallTableView(Frozen):
    """The public board of a Troefcall table.

    Teams are 0 (seats 0 + 2) and 1 (seats 1 + 3); ``scores`` and ``tricks_won`` are
    indexed by team, in points and tricks.
    """

    game: Literal["troefcall"] = "troefcall"
    rules: TroefcallRules
    phase: Phase
    deal_number: int  # shuffles so far (each shuffle, redeals included, has its own)
    hand_number: int  # hands so far (a redeal replays the same hand)
    dealer: int
    caller: int
    trump: Suit | None  # None until named
    teams: tuple[tuple[int, ...], ...]
    turn: int | None  # who names trumps or plays next; None between hands and when over
    to_act: tuple[int, ...]
    optional: tuple[int, ...]  # seats of to_act whose decision may lapse (the partner's kap)
    hand_sizes: dict[int, int]
    trick: TrickView | None  # the trick in progress (None when no card of it is played)
    tricks: tuple[TrickView, ...]  # completed tricks of this hand, in order
    trick_winners: tuple[int, ...]  # the winner of each completed trick, in order
    tricks_won: tuple[int, int]
    scores: tuple[int, int]
    target: int | None
    deals: int | None
    kap: KapView | None  # the open 7-trick decision, if any
    baunie: int | None  # the team committed to baunie in this hand, if any
    jack_search: JackSearch | None  # how the first caller was chosen (None: seats fixed)
    last_result: HandResult | None
    results: tuple[HandResult, ...]  # every scored hand, in order
    commitment: str | None
    ending: bool  # the game ends after this hand (``end_session``)
    winner: int | None  # the winning team once over (None: ended without a winner)
    log: tuple[TroefcallEvent, ...]


class TroefcallSeatView(Frozen):
    """What one seat sees: its own hand and options, and the public board."""

    seat: int
    team: int
    partner: int
    hand: tuple[Card, ...]  # sorted by card id; the caller's 5 before trumps are named
    options: tuple[Option, ...]
    decision_id: int
    decision_required: bool | None  # None: no decision; False: optional (may lapse)
    table: TroefcallTableView
