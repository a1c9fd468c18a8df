"""What a seat, or any onlooker, may see (``rules/tripoli.md`` §2.10 item 63).

Public: stacks, every space, who took which space, all poker actions, the 5 cards of every
player who reaches a showdown, every card played in phase 3, hand sizes, who is due to act.
Private: each hand (only its owner's view holds it), poker selections of players who do not
reach a showdown (only the owner sees his own), the spare/dead hand (nobody), the session
seed (nobody). Views are frozen snapshots; card fields hold :class:`engine.cards.Card`.
:meth:`TripoliGame.view <engine.tripoli.game.TripoliGame.view>` and ``public_view`` build them.
The game builds its views from its own, already validated state without validating them
again (:meth:`engine.core.Frozen.built`: the values already have the fields' types; the
conformance tests check that each equals its validated dump); a view read from outside
(``model_validate``) is validated as usual.
"""

from __future__ import annotations

from typing import Literal

from engine.cards import Card, Suit
from engine.core import Frozen, Option
from engine.tripoli.auction import AuctionItem
from engine.tripoli.events import TripoliEvent
from engine.tripoli.phases import Phase
from engine.tripoli.rules import TripoliRules


class AuctionView(Frozen):
    """A running auction: of the spare or the dealer's old hand (§2.4 item 17; ``seller``
    the dealer), of the pay suit (§3.6) or the ghost hand (§3.3 item 18; ``seller`` None,
    the winning bid goes onto ``space``)."""

    item: AuctionItem
    seller: int | None
    high_bid: int
    high_bidder: int | None
    passed: tuple[int, ...]
    turn: int | None
    space: str | None = None  # where the winning bid goes; None: to the seller


class PokerView(Frozen):
    """The betting round (§2.6): totals c_i, the highest total B, folds, all-ins."""

    selected: tuple[int, ...]  # seats whose selection is locked (never the cards)
    bets: dict[int, int]
    current_bet: int
    folded: tuple[int, ...]
    all_in: tuple[int, ...]
    pot_start: int
    turn: int | None
    showdown: dict[int, tuple[Card, ...]]  # hands shown at the showdown (public)


class MichiganView(Frozen):
    """Phase 3 between runs (§2.7): played cards are public and stay in front of their player."""

    played: dict[int, tuple[Card, ...]]
    last_run: tuple[Card, ...]
    run_suit: Suit | None
    last_card: Card | None
    stopper: int | None
    barred_suit: Suit | None
    required_red: bool | None  # colour leads only
    leader: int  # who is due to lead
    first_lead: bool


class TripoliTableView(Frozen):
    """The public board of a Tripoli table."""

    game: Literal["tripoli"] = "tripoli"
    rules_name: str
    phase: Phase
    leftover: bool
    ending: bool  # the session ends after this deal
    deal_number: int
    dealer: int
    seats: int
    to_act: tuple[int, ...]
    stacks: tuple[int | None, ...]  # None: empty or departed seat
    players: tuple[int, ...]  # seats of the current deal, dealing order
    active: tuple[int, ...]  # seats that play the next deal
    eliminated: tuple[int, ...]
    board: dict[str, int]
    leftover_pots: tuple[int, ...]  # leftover pots still to play after the current one
    hand_sizes: dict[int, int]
    spare_size: int
    commitment: str | None
    spare_stage: Literal["choose", "after_exchange", "after_unsold"] | None
    auction: AuctionView | None
    poker: PokerView | None
    michigan: MichiganView | None
    pay_suit: Suit  # this deal's pay suit (hearts until an auctioned suit is named)
    pay_suit_source: Literal["fixed", "auction", "dial"]  # how the pay suit is chosen
    seq_start: int  # lowest rank of this deal's sequence (dialled under ``cosmo``)
    space_labels: dict[str, str]  # space -> what it pays for this deal, board order
    namer: int | None  # NAME_SUIT: the seat naming the pay suit
    rules: TripoliRules  # the table's rules (``describe_differences`` lists how they differ)
    log: tuple[TripoliEvent, ...]
    result: dict[int, int] | None


class TripoliSeatView(Frozen):
    """What one seat sees: its own hand and selection, its options, and the public board."""

    seat: int
    hand: tuple[Card, ...]  # sorted
    selection: tuple[Card, ...] | None
    old_hand: tuple[Card, ...] | None  # the dealer's own old hand after an exchange, while
    # he decides whether to auction it (§4 item 13); None otherwise
    options: tuple[Option, ...]
    decision_id: int
    to_call: int | None  # chips a call costs now (capped at the stack), None outside betting
    table: TripoliTableView
