"""What a seat, or any onlooker, may see (``rules/kalooki.md`` §2, §5).

Public: every combination on the table (owner, cards, each run joker's rank), the top of
the discard pile and its size, the stock size, hand sizes, calls used, who has laid down,
the deal's contract, the running totals, the call window, whose turn and the phase, and
the log with private events redacted (:meth:`~engine.core.Event.seen_by`). Private: each
hand (only its owner's view holds it), stock cards drawn by others, the stock order, the
session seed (nobody).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from engine.cards import Card
from engine.core import Frozen, Option
from engine.kalooki.events import KalookiEvent
from engine.kalooki.melds import Meld
from engine.kalooki.phases import Phase
from engine.kalooki.rules import Contract, KalookiRules

if TYPE_CHECKING:
    from engine.kalooki.game import KalookiGame


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


def table_view(game: KalookiGame, viewer: int | None) -> KalookiTableView:
    """The board of ``game`` as ``viewer`` may see it (None: the public board)."""
    in_deal = game.phase not in (Phase.BETWEEN_DEALS, Phase.OVER)
    top = game.discard[-1] if game.discard else None
    return KalookiTableView(
        viewer=viewer,
        rules=game.rules,
        phase=game.phase,
        ending=game.ending,
        deal_number=game.deal_number,
        deals=game.rules.deals,
        contract=game.contract if game.deal_number else None,
        dealer=game.dealer,
        turn=game.turn if in_deal else None,
        to_act=tuple(sorted(game.to_act)),
        melds=tuple(game.melds),
        discard_top=top,
        discard_size=len(game.discard),
        dead_top=game.dead_top,
        stock_size=len(game.stock),
        exhaustions=game.exhaustions,
        hand_sizes=tuple(len(h) for h in game.hands),
        calls_used=tuple(game.calls_used),
        laid_down=tuple(game.laid_down),
        totals=tuple(game.totals),
        window=WindowView(
            card=top if game.phase == Phase.WINDOW else None,
            callers=tuple(game.callers()) if game.phase == Phase.WINDOW else (),
            seconds=game.rules.call_window,
            caller=game.caller,
        ),
        commitment=game.commitment,
        log=tuple(e.seen_by(viewer) for e in game.log),
    )


def seat_view(game: KalookiGame, seat: int) -> KalookiSeatView:
    """What ``seat`` sees of ``game``."""
    return KalookiSeatView(
        seat=seat,
        hand=tuple(sorted(game.hands[seat])),
        options=tuple(game.legal_actions(seat)),
        decision_id=game.decision_id(seat),
        table=table_view(game, seat),
    )
