"""What a seat, or any onlooker, may see (``rules/kalooki.md`` §2, §5).

Public: every combination on the table (owner, cards, each run joker's rank), the top of
the discard pile and its size, the stock size, hand sizes, calls used, who has laid down,
who sits out after a challenge, the deal's contract, the running totals, the call window,
whose turn and the phase, and the log with private events redacted
(:meth:`~engine.core.Event.seen_by`). Private: each hand (only its owner's view holds it),
stock cards drawn by others, the stock order, the session seed (nobody).
The game builds its views from its own, already validated state without validating them
again (:meth:`engine.core.Frozen.built`: the values already have the fields' types; the
conformance tests check that each equals its validated dump); a view read from outside
(``model_validate``) is validated as usual.
"""

from __future__ import annotations

from typing import Literal

from engine.cards import Card
from engine.core import Frozen, Option
from engine.kalooki.events import KalookiEvent
from engine.kalooki.melds import Meld
from engine.kalooki.phases import Phase
from engine.kalooki.rules import Contract, KalookiRules


class WindowView(Frozen):
    """The call window (K4): the callable card, who may call, and a call awaiting an answer."""

    card: Card | None  # the card that may be called (None: nothing is callable now)
    callers: tuple[int, ...]  # seats that may call it now
    seconds: float  # how long the window stays open (rules.call_window)
    caller: int | None  # a call waiting for the current player's Allow / Refuse


class KalookiTableView(Frozen):
    """The public board of a Kalooki table (as seen by ``viewer``; None: an onlooker)."""

    game: Literal["kalooki"] = "kalooki"
    viewer: int | None
    rules: KalookiRules
    phase: Phase
    ending: bool  # the session ends after this deal
    deal_number: int
    deals: int  # deals in the set (9 Jamaican, 7 Trinidad)
    contract: Contract | None
    dealer: int
    turn: int | None  # the current player
    to_act: tuple[int, ...]
    melds: tuple[Meld, ...]
    discard_top: Card | None
    discard_size: int
    dead_top: bool  # the top was exposed by a call: nobody may take it this turn (K5)
    stock_size: int
    exhaustions: int  # stock exhaustions this deal (§2.12)
    hand_sizes: tuple[int, ...]
    calls_used: tuple[int, ...]
    laid_down: tuple[bool, ...]
    totals: tuple[int, ...]  # penalty points so far, lower is better
    sitting_out: dict[int, int]  # seat -> deal score of a lost challenge (§2T.6)
    window: WindowView
    commitment: str | None
    log: tuple[KalookiEvent, ...]  # as ``viewer`` may see it


class KalookiSeatView(Frozen):
    """What one seat sees: its own hand, its options and the board."""

    seat: int
    hand: tuple[Card, ...]  # sorted by id
    options: tuple[Option, ...]
    decision_id: int
    table: KalookiTableView
