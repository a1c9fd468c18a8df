"""The Kalooki game: one set of deals at one table (``rules/kalooki.md`` §2, §2T, §5).

A deal: the deal and the upcard (§2.4) → turns of draw, lay-down / lay-off / joker
exchange, discard (§2.6-§2.9) with calls between a discard and the next draw (§2.7) →
going out and penalties (§2.10, §2.11), or a void deal after the second stock exhaustion
(§2.12), skipped after ``rules.void_limit`` voids in a row (the void bound of
:mod:`engine.kalooki.rules`). The set has ``rules.deals`` deals; the lowest total wins,
ties share (K18). A set ended before its last deal has no winner (incomplete), unless it
ended by the table's agreed length (:meth:`KalookiGame.end_session`).

**Dealing.** Deal k of the session (k counts every deal dealt, void deals included) uses
``fairness.shuffle(rules.deck(), fairness.deal_seed(session_seed, k))`` (for the 108 cards:
``fairness.shuffled_deck(session_seed, k, 108)``) and shows ``fairness.commitment(seed, k)``.
Card i of the first ``n × cards`` goes to seat ``(dealer + 1 + i) % n`` (one at a time
clockwise from the dealer's left); the next card is the upcard (discard pile); the rest
is the stock, its first card on top. ``deck=`` fixes that order instead (no commitment).

**Reshuffle (§2.12 item 60).** At the first exhaustion the discard pile except its top
card, sorted by card id, becomes the stock in the order
``fairness.shuffle(cards, sha256(b"reshuffle" + fairness.deal_seed(seed, k)))``, so it is
checkable once the seed is revealed. With nothing to reshuffle, or at a second exhaustion,
the deal is void: no scores, the same dealer deals the same contract again (items 61, 62;
K13 when it happens to a caller's extra card).

**Calls (K4).** When a discard lands (and for the upcard with ``upcard_callable``, K7,
as the dealer's discard) and someone may call it, a call window opens: a SYSTEM decision
after ``rules.call_window`` seconds closes it. Meanwhile every eligible seat (§2.7 item 27;
Trinidad T15) has an optional ``call`` and the current player may only *take the
discard* (which ends the window: he has the first right to it, since he could refuse any
call and take it anyway); he may not draw from the stock until the window closes, so that
slower callers in a chat get their few seconds. The first call wins and interrupts him
with a required Allow / Refuse (auto-allow when he has laid down and may not take the
discard, item 32); later calls are refused as ``too_late``. A *late* call
(``CallDiscard(late=True)``, made by seats that answer at once, like AI seats) waits for the
window's end and wins only if nobody called meanwhile; the first late call still legal then
is the call. After an allowed call the
exposed card is dead until covered (item 33, K5) and he draws from the stock.

**The challenge (§2T.6; honour mode, :mod:`engine.kalooki.rules`).** The current player's
draw decision also offers ``challenge`` with the seats he may challenge (every other seat
still in the deal). The loser sits out: his turns are skipped, he may not call and is not
challenged, and when someone goes out his deal score is the one the challenge gave him
(T22). A challenger who loses ends his turn; the next player draws (the old top discard is
no longer callable). No timeout challenges: the draw's default stays a stock draw.

Seats are fixed ints; the dealer is a rotating role. Every state change goes through
:meth:`KalookiGame.apply` (players and SYSTEM), :meth:`start_deal` or :meth:`end_session`;
each validates fully before changing anything (:meth:`check` runs the same validation).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from engine import fairness
from engine.cards import Card, checked_deck
from engine.core import (
    SYSTEM,
    Action,
    Decisions,
    EndReason,
    GameState,
    IllegalAction,
    Option,
    OptionError,
    Outcome,
    Pending,
    changes,
)
from engine.kalooki import melds as m
from engine.kalooki.actions import (
    Allow,
    CallDiscard,
    Challenge,
    CloseWindow,
    Discard,
    Draw,
    EndTurn,
    ExchangeJoker,
    LayDown,
    LayOff,
    Refuse,
)
from engine.kalooki.events import (
    CallAllowed,
    Called,
    CallRefused,
    ChallengeMade,
    DealScored,
    DealStarted,
    DealVoid,
    Discarded,
    Drew,
    JokerExchanged,
    KalookiEvent,
    LaidDown,
    LaidOff,
    SessionOver,
    StockReshuffled,
    TurnEnded,
    WentOut,
    WindowClosed,
    WindowOpened,
)
from engine.kalooki.phases import Phase
from engine.kalooki.rules import Contract, KalookiRules
from engine.kalooki.scoring import card_points, challenge_score, deal_penalty
from engine.kalooki.views import KalookiSeatView, KalookiTableView, WindowView

LOG_SIZE = 60
Step = Callable[[], list[KalookiEvent]]


class KalookiGame(GameState, BaseModel):  # BaseModel named for the linters: GameState is one
    """The whole state of a Kalooki set; mutable, exact JSON snapshot round trip.

    Build with :meth:`new` (a real session) or :meth:`from_position` (tests, puzzles).
    ``stock[0]`` is the top of the stock, ``discard[-1]`` the top of the discard pile.
    """

    model_config = ConfigDict(ser_json_bytes="base64", val_json_bytes="base64")
    GAME_NAME: ClassVar[str] = "kalooki"
    SCHEMA_VERSION: ClassVar[int] = 1

    rules: KalookiRules
    seats: int
    session_seed: bytes = Field(repr=False)  # secret until the session ends (DESIGN.md §3)
    dealer: int
    phase: Phase = Phase.BETWEEN_DEALS
    first_dealer: int = 0  # the dealer of deal 1 (odd chips of a shared stake go from here)
    deal_number: int = 0  # 1..rules.deals: the contract being played
    dealt: int = 0  # deals dealt so far, void deals included (the shuffle index)
    redeal: bool = False  # the last deal was void: the next one repeats its contract
    voids: int = 0  # void deals in a row of the current contract (the void bound)
    hands: list[list[Card]]
    stock: list[Card] = []
    discard: list[Card] = []
    melds: list[m.Meld] = []
    next_meld: int = 1
    laid_down: list[bool]
    calls_used: list[int]
    totals: list[int]
    sitting_out: dict[int, int] = {}  # seat -> deal score of a lost challenge (§2T.6)
    turn: int = 0
    discarder: int | None = None  # who put the top discard there (the dealer: the upcard)
    callable: bool = False  # the top discard landed this turn and may still be called
    dead_top: bool = False  # exposed by an allowed call: untouchable until covered (K5)
    caller: int | None = None  # ANSWER: the first caller
    late_calls: list[int] = []  # WINDOW: seats whose call waits for the window's end
    window_id: int = 0  # the SYSTEM decision id of the current call window
    drawn: Card | None = None  # the card the current player drew this turn
    melded_this_turn: bool = False  # his first lay-down was this turn (down and out)
    exhaustions: int = 0
    ending: bool = False
    # why it ends after this deal; None in a set saved before the reason was kept: the
    # host's end (the only end asked during a deal then)
    end_reason: EndReason | None = None
    complete: bool = True
    next_deck: list[Card] | None = None
    commitment: str | None = None
    decisions: Decisions
    log: list[KalookiEvent] = []

    @classmethod
    def kept_log(cls, events: list[KalookiEvent]) -> list[KalookiEvent]:
        """What the log keeps: the last :data:`LOG_SIZE` events."""
        return events[-LOG_SIZE:]

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(
        cls,
        rules: KalookiRules,
        players: int,
        seed: bytes,
        deck: Sequence[int] | None = None,
        first_dealer: int | None = None,
    ) -> KalookiGame:
        """A new set; deal 1 starts at once.

        Parameters
        ----------
        rules
            The preset (:data:`~engine.kalooki.rules.PRESETS`).
        players
            Number of seats, within ``rules.min_players..max_players`` (the pack set serves
            up to ``max_players``, T2).
        seed
            The secret session seed (the runtime draws 32 bytes); never shown in a view.
        deck
            The exact order of deal 1 (the ids of ``rules.deck()``, 108 by default; dealing
            order in the module doc).
        first_dealer
            Seat of the first dealer; default drawn from ``seed`` (§2.4 item 15).

        Raises
        ------
        OptionError
            (a ``ValueError``) On a bad player count: ``kalooki.option.players``
            (``preset``, ``low``, ``high``), or one the pack set cannot serve (T2,
            :meth:`KalookiRules.capacity_problem`).
        ValueError
            On a bad deck or dealer.
        """
        if not rules.min_players <= players <= rules.max_players:
            raise OptionError("kalooki.option.players", preset=rules.name,
                              low=rules.min_players, high=rules.max_players)
        problem = rules.capacity_problem(players)
        if problem is not None:
            raise problem
        if first_dealer is None:
            stream = fairness.random_stream(hashlib.sha256(b"first-dealer" + seed).digest())
            first_dealer = fairness.uniform_below(stream, players)
        if not 0 <= first_dealer < players:
            raise ValueError(f"no seat {first_dealer}")
        game = cls(
            rules=rules,
            seats=players,
            session_seed=seed,
            dealer=first_dealer,
            first_dealer=first_dealer,
            hands=[[] for _ in range(players)],
            stock=list(rules.deck()),
            laid_down=[False] * players,
            calls_used=[0] * players,
            totals=[0] * players,
            decisions=Decisions.for_seats(players),
        )
        game.start_deal(deck)
        return game

    @classmethod
    def from_position(
        cls,
        rules: KalookiRules | None = None,
        *,
        hands: dict[int, Sequence[int]],
        seats: int | None = None,
        dealer: int = 0,
        turn: int | None = None,
        phase: Phase = Phase.DRAW,
        deal_number: int = 1,
        melds: Sequence[tuple[int, m.MeldKind, Sequence[int]]] = (),
        laid_down: Iterable[int] | None = None,
        discard: Sequence[int] = (),
        discarder: int | None = None,
        stock: Sequence[int] = (),
        calls_used: dict[int, int] | None = None,
        totals: dict[int, int] | None = None,
        seed: bytes = b"position",
    ) -> KalookiGame:
        """Build a position directly (tests, puzzles).

        Parameters
        ----------
        hands
            Seat -> cards.
        seats
            Number of seats (default: one more than the highest seat in ``hands``).
        turn
            The current player (default: left of the dealer).
        phase
            ``DRAW`` (he is to draw), ``PLAY`` (he has drawn) or ``WINDOW`` (``discard``'s
            top was just discarded by ``discarder``, default the seat before ``turn``).
        melds
            ``(owner, kind, cards)`` on the table, in order (ids ``m1``, ``m2`` …).
        laid_down
            Seats that have laid down (default: the owners of ``melds``).
        discard
            The discard pile, bottom first.
        stock
            The top of the stock, top first; every card not listed anywhere goes under it
            in id order.

        Raises
        ------
        ValueError
            If a card repeats, a meld is invalid or the phase is not supported.
        """
        rules = rules or KalookiRules()
        n = seats if seats is not None else max(hands) + 1
        listed = [Card(c) for cs in hands.values() for c in cs] + [Card(c) for c in discard]
        listed += [Card(c) for c in stock] + [Card(c) for _, _, cs in melds for c in cs]
        if len(set(listed)) != len(listed):
            raise ValueError("a card is listed twice")
        if phase not in (Phase.DRAW, Phase.PLAY, Phase.WINDOW):
            raise ValueError(f"from_position does not build phase {phase}")
        built = [
            m.build(f"m{i}", owner, kind, [Card(c) for c in cs], rules)
            for i, (owner, kind, cs) in enumerate(melds, start=1)
        ]
        down = {mm.owner for mm in built} if laid_down is None else set(laid_down)
        rest = sorted(set(rules.deck()) - set(listed))
        turn = (dealer + 1) % n if turn is None else turn
        game = cls(
            rules=rules,
            seats=n,
            session_seed=seed,
            dealer=dealer,
            deal_number=deal_number,
            dealt=deal_number,
            hands=[[Card(c) for c in hands.get(s, ())] for s in range(n)],
            stock=[Card(c) for c in stock] + rest,
            discard=[Card(c) for c in discard],
            melds=built,
            next_meld=len(built) + 1,
            laid_down=[s in down for s in range(n)],
            calls_used=[(calls_used or {}).get(s, 0) for s in range(n)],
            totals=[(totals or {}).get(s, 0) for s in range(n)],
            turn=turn,
            discarder=(turn - 1) % n if discarder is None else discarder,
            decisions=Decisions.for_seats(n),
        )
        if phase == Phase.WINDOW:
            game.callable = True
            game._track(None, game._open_window)
        else:
            game.phase = phase
        return game

    # ------------------------------------------------------------------ protocol

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def between_deals(self) -> bool:
        return self.phase == Phase.BETWEEN_DEALS

    @property
    def contract(self) -> Contract:
        """The contract of the current (or last) deal."""
        return self.rules.contracts[max(self.deal_number, 1) - 1]

    @property
    def outcome(self) -> Outcome | None:
        """When over: penalty totals (points, lower is better), places lowest first (K18)."""
        if not self.is_over:
            return None
        scores = dict(enumerate(self.totals))
        return Outcome(scores=scores, places=_places(scores), complete=self.complete)

    def callers(self) -> list[int]:
        """Seats that may call the top discard now (§2.7 item 27; T15), in seat order."""
        if self.phase != Phase.WINDOW:
            return []
        return [s for s in range(self.seats) if self._call_problem(s) is None]

    def pending(self) -> tuple[Pending, ...]:
        """Every open decision: in the call window the callers' optional calls, the current
        player's optional take of the discard and the SYSTEM timer (K4)."""
        if self.phase in (Phase.BETWEEN_DEALS, Phase.OVER):
            return ()
        if self.phase != Phase.WINDOW:
            return (Pending.built(seat=self.turn, decision=self.decision_id(self.turn)),)
        out = [
            Pending.built(seat=s, decision=self.decision_id(s), required=False)
            for s in sorted(self.to_act)
        ]
        timer = Pending.built(seat=SYSTEM, decision=self.window_id, after=self.rules.call_window)
        return (*out, timer)

    @property
    def to_act(self) -> frozenset[int]:
        """Seats with a decision pending (several in the call window; never SYSTEM)."""
        if self.phase in (Phase.BETWEEN_DEALS, Phase.OVER):
            return frozenset()
        if self.phase != Phase.WINDOW:
            return frozenset((self.turn,))
        seats = set(self.callers())
        if self._may_take_discard(self.turn):
            seats.add(self.turn)
        return frozenset(seats)

    def decision_id(self, seat: int) -> int:
        """The id of ``seat``'s current decision (SYSTEM: the current call window's id)."""
        return self.window_id if seat == SYSTEM else self.decisions.ids[seat]

    def legal_actions(self, seat: int) -> list[Option]:
        """The options of ``seat`` now ([] when it has none); the one source of legality.

        SYSTEM has ``close_window`` while a call window is open.
        """
        if seat == SYSTEM:
            return [Option.built(kind="close_window")] if self.phase == Phase.WINDOW else []
        if seat not in self.to_act:
            return []
        hand = tuple(sorted(self.hands[seat]))
        match self.phase:
            case Phase.WINDOW:
                if seat != self.turn:
                    return [Option.built(kind="call")]
                return [Option.built(kind="draw", targets=("discard",))]
            case Phase.ANSWER:
                out = [Option.built(kind="allow")]
                if self._may_take_discard(seat):
                    out.append(Option.built(kind="refuse"))
                return out
            case Phase.DRAW:
                sources = ("stock", "discard") if self._may_take_discard(seat) else ("stock",)
                return [Option.built(kind="draw", targets=sources), *self._challenge_options(seat)]
        return self._play_options(seat, hand)

    def check(self, seat: int, action: Action, decision: int | None = None) -> None:
        """Validate ``action`` exactly as :meth:`apply` does, without applying it.

        Raises
        ------
        IllegalAction
            As :meth:`apply`.
        """
        self._plan(seat, action, decision)

    @changes
    def apply(self, seat: int, action: Action, decision: int | None = None) -> list[KalookiEvent]:
        """Apply ``seat``'s ``action`` (SYSTEM: ``close_window``); returns the events.

        Raises
        ------
        IllegalAction
            ``game_over``, ``between_deals``, ``not_your_turn``, ``stale`` (``decision`` is
            not the seat's current decision id), ``illegal`` (not an option now);
            for calls ``too_late`` (another player called first), ``laid_down``,
            ``call_limit``, ``own_discard``, ``not_callable``, ``sitting_out`` (after a lost
            challenge); ``window_open`` (a stock
            draw before the call window closed); ``bad_meld`` (with what is wrong or what
            the contract still needs), ``no_contract`` (a lay-off or exchange before one's
            contract), ``joker`` (a joker discard), ``not_in_hand``, ``no_meld``. The
            state is unchanged then.
        """
        step = self._plan(seat, action, decision)
        return self._track(None if seat == SYSTEM else seat, step)

    def timeout_action(self, seat: int) -> Action:
        """The default of a required decision (SYSTEM: closing the call window).

        Allow a call; draw from the stock; in play, discard the card just drawn (a
        natural), else the natural of most penalty points (lowest id first), else end the
        turn (K8).

        Raises
        ------
        IllegalAction
            ``not_your_turn`` if the seat has no required decision.
        """
        if seat == SYSTEM and self.phase == Phase.WINDOW:
            return CloseWindow()
        if seat == SYSTEM or self.phase == Phase.WINDOW or seat not in self.to_act:
            raise IllegalAction("not_your_turn", "You have no decision to make.",
                                reason="no_decision")
        if self.phase == Phase.ANSWER:
            return Allow()
        if self.phase == Phase.DRAW:
            return Draw(source="stock")
        naturals = [c for c in self.hands[seat] if not c.is_joker]
        if not naturals:
            return EndTurn()
        if self.drawn in naturals:
            return Discard(card=self.drawn)
        return Discard(card=max(naturals, key=lambda c: (card_points(c), -c)))

    def view(self, seat: int) -> KalookiSeatView:
        """What ``seat`` may see: its own hand, its options and the board.

        Raises
        ------
        ValueError
            If there is no such seat.
        """
        if not 0 <= seat < self.seats:
            raise ValueError(f"no seat {seat}")
        return self.viewed(("seat", seat), lambda: _seat_view(self, seat))

    def public_view(self) -> KalookiTableView:
        """What every onlooker may see: no hand, no stock card, no seed."""
        return self.viewed("public", lambda: _table_view(self, None))

    # ------------------------------------------------------------------ runtime operations

    @changes
    def start_deal(self, deck: Sequence[int] | None = None) -> list[KalookiEvent]:
        """Deal the next deal (only between deals; after a void deal the same one again).

        Raises
        ------
        IllegalAction
            ``game_over`` when the set is over, ``illegal`` during a deal.
        ValueError
            If ``deck`` is not the cards of ``rules.deck()`` (108 by default).
        """
        if self.phase == Phase.OVER:
            raise IllegalAction("game_over", "The set is over.", reason="kalooki.set_over")
        if self.phase != Phase.BETWEEN_DEALS:
            raise IllegalAction("illegal", "A deal is in progress.",
                                reason="kalooki.deal_in_progress")
        checked = checked_deck(deck, self.rules.deck())
        return self._track(None, lambda: self._deal(checked))

    @changes
    def fix_next_deck(self, deck: Sequence[int] | None) -> None:
        """Fix the card order of the next deal (tests, puzzles).

        Raises
        ------
        ValueError
            If ``deck`` is not the cards of ``rules.deck()`` (108 by default).
        """
        self.next_deck = checked_deck(deck, self.rules.deck())

    @changes
    def end_session(
        self, abandon: bool = False, *, reason: EndReason = EndReason.HOST
    ) -> list[KalookiEvent]:
        """End the set: between deals at once; during a deal after it (its scores count), or
        with ``abandon`` at once without scoring it.

        The lowest total wins after the set's last deal (rules/kalooki.md §2 item 59, T27):
        a set ended before it has no winner. So the outcome is complete when the set reaches
        its last deal, or when it ends by its agreed length (``reason`` is
        :attr:`~engine.core.EndReason.LENGTH`: the players agreed on a shorter set) after a
        deal was over; a set the host ends, or the runtime for lack of players, before its
        last deal is incomplete (no winner: the stakes go back, nothing is rated).

        Parameters
        ----------
        abandon
            Drop the deal in progress unscored (its cards as they lie) and end at once.
        reason
            Why the set ends (:class:`~engine.core.EndReason`; default the host's end).

        Raises
        ------
        IllegalAction
            ``game_over`` when the set is already over.
        """
        if self.phase == Phase.OVER:
            raise IllegalAction("game_over", "The set is over.", reason="kalooki.set_over")
        if self.phase == Phase.BETWEEN_DEALS or abandon:
            played = self.dealt - (self.phase != Phase.BETWEEN_DEALS)  # deals over
            complete = reason is EndReason.LENGTH and played > 0
            return self._track(None, lambda: self._finish(complete))
        self.ending, self.end_reason = True, reason
        return []

    # ------------------------------------------------------------------ validation

    def _plan(self, seat: int, action: Action, decision: int | None) -> Step:
        """Validate ``action`` of ``seat`` and return the step that applies it."""
        if self.phase == Phase.OVER:
            raise IllegalAction("game_over", "The set is over.", reason="kalooki.set_over")
        if self.phase == Phase.BETWEEN_DEALS:
            raise IllegalAction("between_deals", "No deal is in progress.",
                                reason="kalooki.no_deal")
        if not isinstance(action, Action):
            raise IllegalAction("illegal", "That is not a Kalooki action.",
                                reason="kalooki.not_an_action")
        if seat == SYSTEM:
            if decision is not None and decision != self.window_id:
                raise IllegalAction("stale", "That decision is over.", reason="stale")
            if self.phase != Phase.WINDOW or not isinstance(action, CloseWindow):
                raise IllegalAction("illegal", "No call window is open.",
                                    reason="kalooki.no_window")
            return self._close_window
        if not 0 <= seat < self.seats:
            raise IllegalAction("not_your_turn", f"There is no seat {seat}.", reason="no_seat",
                                seat=seat)
        self.decisions.check(seat, decision)
        if isinstance(action, CallDiscard):
            problem = self._call_problem(seat)
            if problem is not None:
                raise problem
            if action.late:
                return lambda: self._late_call(seat)
            return lambda: self._call(seat)
        if isinstance(action, CloseWindow) or (seat != self.turn and seat not in self.to_act):
            raise IllegalAction("not_your_turn", "It is not your turn.", reason="not_your_turn")
        option = next((o for o in self.legal_actions(seat) if o.kind == action.kind), None)
        if option is None:
            raise self._not_now(seat, action)
        match action:
            case Draw(source=source):
                if source not in option.targets:
                    raise self._not_now(seat, action)
                return lambda: self._draw(seat, source)
            case Challenge(seat=target):
                if str(target) not in option.targets:
                    raise IllegalAction("illegal", "You cannot challenge that seat.",
                                        reason="kalooki.cannot_challenge")
                return lambda: self._challenge(seat, target)
            case Allow():
                return self._allow
            case Refuse():
                return self._refuse
            case LayDown():
                return self._plan_lay_down(seat, action)
            case LayOff():
                return self._plan_lay_off(seat, action)
            case ExchangeJoker():
                return self._plan_exchange(seat, action)
            case Discard(card=card):
                self._need_in_hand(seat, [card])
                if card.is_joker:
                    raise IllegalAction("joker", "A joker may never be discarded.",
                                        reason="kalooki.joker_discard")
                return lambda: self._discard(seat, card)
            case EndTurn():
                return lambda: self._end_turn(seat)
        raise IllegalAction("illegal", "That is not a Kalooki action.",
                            reason="kalooki.not_an_action")

    def _not_now(self, seat: int, action: Action) -> IllegalAction:
        """The refusal of an action that is not among ``seat``'s options."""
        if isinstance(action, Draw):
            if self.phase == Phase.WINDOW and action.source == "stock":
                return IllegalAction(
                    "window_open",
                    "The discard may still be called: take it now, or draw from the stock "
                    "when the call window closes.", reason="kalooki.window_open",
                )
            if self.phase == Phase.PLAY:
                return IllegalAction("illegal", "You have drawn already.", reason="kalooki.drawn")
            if self.dead_top:
                return IllegalAction("illegal", "After a call you must draw from the stock.",
                                     reason="kalooki.dead_top")
            return IllegalAction("illegal", "Having laid down, you must draw from the stock.",
                                 reason="kalooki.laid_down_stock")
        if isinstance(action, Discard | LayDown | LayOff | ExchangeJoker) and self.phase != (
            Phase.PLAY
        ):
            return IllegalAction("illegal", "Draw first.", reason="kalooki.draw_first")
        if isinstance(action, LayOff | ExchangeJoker):
            if not self.laid_down[seat]:
                return IllegalAction("no_contract", "Lay down your contract first.",
                                     reason="kalooki.contract_first")
            # nothing in the hand fits anywhere: the plan names what is wrong with this one
            plan = self._plan_lay_off if isinstance(action, LayOff) else self._plan_exchange
            try:
                plan(seat, action)
            except IllegalAction as refusal:
                return refusal
        if isinstance(action, Refuse):
            return IllegalAction("illegal", "Having laid down, you must allow the call.",
                                 reason="kalooki.must_allow")
        return IllegalAction("illegal", f"You cannot {action.kind.replace('_', ' ')} now.",
                             reason=f"kalooki.cannot.{action.kind}")

    def _call_problem(self, seat: int) -> IllegalAction | None:
        """Why ``seat`` may not call now (§2.7 items 27-36; T15), or None."""
        if not 0 <= seat < self.seats or seat == self.turn:
            return IllegalAction("illegal", "You cannot call on your own turn.",
                                 reason="kalooki.call_own_turn")
        if self.phase == Phase.ANSWER:
            return IllegalAction("too_late", "Another player called this card first.",
                                 reason="kalooki.called_first")
        if self.phase != Phase.WINDOW:
            return IllegalAction("not_callable", "There is no discard to call now.",
                                 reason="kalooki.nothing_to_call")
        if seat in self.sitting_out:
            return IllegalAction("sitting_out", "You sit out this deal after a challenge.",
                                 reason="kalooki.sitting_out")
        if self.laid_down[seat] and not self.rules.melded_may_call:
            return IllegalAction("laid_down", "Having laid down, you may not call.",
                                 reason="kalooki.laid_down_call")
        if self.calls_used[seat] >= self.rules.max_calls and not self.rules.honour_calls:
            return IllegalAction(
                "call_limit", f"You have made your {self.rules.max_calls} calls this deal.",
                reason="kalooki.call_limit", count=self.rules.max_calls,
            )
        if seat == self.discarder:
            return IllegalAction("own_discard", "You cannot call your own discard.",
                                 reason="kalooki.own_discard")
        if seat in self.late_calls:
            return IllegalAction("called", "You have called this card already.",
                                 reason="kalooki.called_already")
        return None

    def _challenge_options(self, seat: int) -> list[Option]:
        """The ``challenge`` option of the current player at his draw (§2T.6 T19, T23)."""
        if not self.rules.challenges:
            return []
        targets = tuple(str(s) for s in range(self.seats)
                        if s != seat and s not in self.sitting_out)
        return [Option.built(kind="challenge", targets=targets)]

    def _may_take_discard(self, seat: int) -> bool:
        """Whether ``seat`` (the current player) may take the top discard (item 22; T17)."""
        if not self.discard or self.dead_top:
            return False
        return not self.laid_down[seat] or self.rules.melded_may_take_discard

    def _play_options(self, seat: int, hand: tuple[Card, ...]) -> list[Option]:
        out = []
        need = 3 if self.laid_down[seat] else 3 * self.contract.threes + 4 * self.contract.fours
        if len(hand) >= need:
            out.append(Option.built(kind="meld", cards=hand, count=3, max_count=len(hand)))
        if self.laid_down[seat]:
            for kind, fits in (("lay_off", self._lay_off_fits), ("exchange", self._exchange_fits)):
                pairs = [(c, mm.id) for c in hand for mm in self.melds if fits(seat, mm, c)]
                if pairs:
                    cards = tuple(sorted({c for c, _ in pairs}))
                    targets = tuple(mm.id for mm in self.melds if mm.id in {t for _, t in pairs})
                    out.append(Option.built(kind=kind, cards=cards, count=1, targets=targets))
        naturals = tuple(c for c in hand if not c.is_joker)
        if naturals:
            out.append(Option.built(kind="discard", cards=naturals, count=1))
        else:
            out.append(Option.built(kind="end_turn"))
        return out

    def _lay_off_fits(self, seat: int, meld: m.Meld, card: Card) -> bool:
        return bool(m.lay_off_ends(meld, card, self.rules))

    def _exchange_fits(self, seat: int, meld: m.Meld, card: Card) -> bool:
        """Whether ``card`` may replace a joker of ``meld``: with the joker moved to an end,
        or (Trinidad, one's own four, T10) taken into the hand."""
        if m.joker_at(meld, card) is None:
            return False
        own = meld.owner == seat
        for to in (None, "hand") if own and self.rules.joker_exchange == "take" else (None,):
            try:
                m.exchange(meld, card, to, self.rules, own=own)
            except m.MeldError:
                continue
            return True
        return False

    def _need_in_hand(self, seat: int, cards: Sequence[Card]) -> None:
        if len(set(cards)) != len(cards):
            raise IllegalAction("not_in_hand", "A card is named twice.",
                                reason="kalooki.card_twice")
        missing = [c for c in cards if c not in self.hands[seat]]
        if missing:
            raise IllegalAction("not_in_hand", f"You do not hold {missing[0]}.",
                                reason="kalooki.not_held", card=str(missing[0]))

    def _meld(self, meld_id: str) -> m.Meld:
        found = next((mm for mm in self.melds if mm.id == meld_id), None)
        if found is None:
            raise IllegalAction("no_meld", f"There is no combination {meld_id} on the table.",
                                reason="kalooki.no_meld", meld=meld_id)
        return found

    def _plan_lay_down(self, seat: int, action: LayDown) -> Step:
        self._need_in_hand(seat, [c for g in action.groups for c in g.cards])
        new = []
        for i, group in enumerate(action.groups):
            try:
                new.append(
                    m.build(f"m{self.next_meld + i}", seat, group.kind, group.cards, self.rules)
                )
            except m.MeldError as e:
                cards = " ".join(str(c) for c in group.cards)
                raise IllegalAction("bad_meld", f"{cards}: {e}.", reason=e.reason,
                                    **e.values) from None
        owned = [mm for mm in self.melds if mm.owner == seat]
        contract = None if self.laid_down[seat] else self.contract
        problem = m.lay_down_problem(new, owned, contract, self.rules)
        if problem is not None:
            text = str(problem)
            raise IllegalAction("bad_meld", text[0].upper() + text[1:] + ".",
                                reason=problem.reason, **problem.values)
        return lambda: self._lay_down(seat, new)

    def _plan_lay_off(self, seat: int, action: LayOff) -> Step:
        self._need_in_hand(seat, [action.card])
        meld = self._meld(action.meld)
        try:
            new = m.lay_off(meld, action.card, action.end, self.rules)
        except m.MeldError as e:
            raise IllegalAction("bad_meld", f"{e}.", reason=e.reason, **e.values) from None
        end = "bottom" if new.low < meld.low else "top"
        return lambda: self._lay_off(seat, action.card, new, end)

    def _plan_exchange(self, seat: int, action: ExchangeJoker) -> Step:
        self._need_in_hand(seat, [action.card])
        meld = self._meld(action.meld)
        try:
            new, joker, to = m.exchange(
                meld, action.card, action.to, self.rules, own=meld.owner == seat
            )
        except m.MeldError as e:
            raise IllegalAction("bad_meld", f"{e}.", reason=e.reason, **e.values) from None
        return lambda: self._exchange(seat, action.card, new, joker, to)

    # ------------------------------------------------------------------ transitions

    def _track(self, actor: int | None, step: Step) -> list[KalookiEvent]:
        """Run ``step`` and bump the decision ids of seats that gained or lost a decision."""
        before, phase, deal = self.to_act, self.phase, self.dealt
        events = step()
        moved_on = phase != self.phase or deal != self.dealt
        self.decisions.after_step(before, self.to_act, moved_on, actor)
        self._logged_events(events)
        return events

    def _deal(self, deck: list[Card] | None) -> list[KalookiEvent]:
        redeal = self.redeal
        if not redeal:
            self.deal_number += 1
        self.dealt += 1
        self.redeal = False
        deck = deck if deck is not None else self.next_deck
        self.next_deck = None
        if deck is None:
            self.commitment = fairness.commitment(self.session_seed, self.dealt)
            deck = fairness.shuffle(list(self.rules.deck()),
                                    fairness.deal_seed(self.session_seed, self.dealt))
        else:
            self.commitment = None
        n, size = self.seats, self.contract.cards
        self.hands = [[] for _ in range(n)]
        for i, card in enumerate(deck[: n * size]):
            self.hands[(self.dealer + 1 + i) % n].append(card)
        self.discard = [deck[n * size]]
        self.stock = list(deck[n * size + 1 :])
        self.melds, self.next_meld = [], 1
        self.laid_down, self.calls_used = [False] * n, [0] * n
        self.sitting_out = {}
        self.turn = (self.dealer + 1) % n
        self.discarder, self.caller, self.drawn = self.dealer, None, None
        self.callable, self.dead_top = self.rules.upcard_callable, False
        self.melded_this_turn, self.exhaustions = False, 0
        events: list[KalookiEvent] = [
            DealStarted(
                deal_number=self.deal_number,
                dealer=self.dealer,
                contract=self.contract,
                upcard=self.discard[-1],
                commitment=self.commitment,
                redeal=redeal,
            )
        ]
        return events + self._open_window()

    def _open_window(self) -> list[KalookiEvent]:
        """After a discard: a call window if anyone may call it, else the draw."""
        self.phase, self.late_calls = Phase.WINDOW, []
        if not self.callable or not self.callers():
            self.phase = Phase.DRAW
            return []
        self.window_id += 1
        return [
            WindowOpened(
                card=self.discard[-1],
                callers=tuple(self.callers()),
                seconds=self.rules.call_window,
            )
        ]

    def _close_window(self) -> list[KalookiEvent]:
        """The window's time is over: the first late call (in the order made) that is
        still legal becomes the call; else the current player draws."""
        late, self.late_calls = self.late_calls, []
        caller = next((s for s in late if self._call_problem(s) is None), None)
        if caller is not None:
            return [WindowClosed(), *self._call(caller)]
        self.phase, self.callable = Phase.DRAW, False
        return [WindowClosed()]

    def _late_call(self, seat: int) -> list[KalookiEvent]:
        self.late_calls = [*self.late_calls, seat]
        return []

    def _stock_card(self) -> tuple[Card | None, list[KalookiEvent]]:
        """The top stock card, reshuffling at the first exhaustion (§2.12); None: the deal
        is void (its events are returned)."""
        events: list[KalookiEvent] = []
        if not self.stock:
            if self.exhaustions or len(self.discard) < 2:
                return None, self._void()
            rest, self.discard = sorted(self.discard[:-1]), self.discard[-1:]
            seed = hashlib.sha256(
                b"reshuffle" + fairness.deal_seed(self.session_seed, self.dealt)
            ).digest()
            self.stock = fairness.shuffle(rest, seed)
            self.exhaustions += 1
            events.append(StockReshuffled(size=len(self.stock)))
        return self.stock.pop(0), events

    def _draw(self, seat: int, source: str) -> list[KalookiEvent]:
        events: list[KalookiEvent] = []
        self.late_calls = []
        if source == "discard":
            card = self.discard.pop()
        else:
            got, events = self._stock_card()
            if got is None:
                return events
            card = got
        self.hands[seat].append(card)
        self.drawn, self.phase, self.callable = card, Phase.PLAY, False
        return [*events, Drew(seat=seat, source=source, card=card)]

    def _call(self, seat: int) -> list[KalookiEvent]:
        self.caller, self.phase, self.late_calls = seat, Phase.ANSWER, []
        events: list[KalookiEvent] = [Called(seat=seat, card=self.discard[-1], turn=self.turn)]
        if not self._may_take_discard(self.turn):
            events += self._allow(forced=True)
        return events

    def _allow(self, forced: bool = False) -> list[KalookiEvent]:
        caller = self.caller
        assert caller is not None
        card = self.discard.pop()
        self.hands[caller].append(card)
        self.calls_used[caller] += 1
        self.caller, self.callable, self.dead_top = None, False, True
        extra, events = self._stock_card()
        if extra is None:
            return events
        self.hands[caller].append(extra)
        self.phase = Phase.DRAW
        allowed = CallAllowed(
            caller=caller,
            card=card,
            extra=extra,
            calls_used=self.calls_used[caller],
            forced=forced,
        )
        return [*events, allowed]

    def _refuse(self) -> list[KalookiEvent]:
        caller = self.caller
        assert caller is not None
        card = self.discard.pop()
        self.hands[self.turn].append(card)
        self.caller, self.callable = None, False
        self.drawn, self.phase = card, Phase.PLAY
        return [CallRefused(seat=self.turn, caller=caller, card=card)]

    def _challenge(self, seat: int, target: int) -> list[KalookiEvent]:
        """``seat`` challenges ``target``: the loser's cards go face up under the discard
        pile and he sits out with his hand's penalty + 50 (§2T.6 T20-T22)."""
        limit = self.rules.call_limit_hand(self.contract)
        size = len(self.hands[target])
        out = target if size > limit else seat
        cards = tuple(sorted(self.hands[out]))
        score = challenge_score(cards)
        self.sitting_out = {**self.sitting_out, out: score}
        self.discard = [*cards, *self.discard]
        self.hands[out] = []
        events: list[KalookiEvent] = [ChallengeMade(
            challenger=seat, challenged=target, hand_size=size, limit=limit,
            correct=out == target, out=out, cards=cards, score=score,
        )]
        playing = [s for s in range(self.seats) if s not in self.sitting_out]
        if len(playing) == 1:
            return events + self._go_out(playing[0], last=True)
        if out == seat:
            self.callable = False
            return events + self._next_turn()
        return events

    def _lay_down(self, seat: int, new: list[m.Meld]) -> list[KalookiEvent]:
        first = not self.laid_down[seat]
        for meld in new:
            for c in meld.cards:
                self.hands[seat].remove(c)
        self.melds.extend(new)
        self.next_meld += len(new)
        self.laid_down[seat] = True
        self.melded_this_turn |= first
        events: list[KalookiEvent] = [LaidDown(seat=seat, melds=tuple(new), contract=first)]
        return events + self._maybe_out(seat)

    def _replace(self, new: m.Meld) -> None:
        self.melds = [new if mm.id == new.id else mm for mm in self.melds]

    def _lay_off(self, seat: int, card: Card, new: m.Meld, end: m.End) -> list[KalookiEvent]:
        self.hands[seat].remove(card)
        self._replace(new)
        events: list[KalookiEvent] = [LaidOff(seat=seat, card=card, meld=new, end=end)]
        return events + self._maybe_out(seat)

    def _exchange(
        self, seat: int, card: Card, new: m.Meld, joker: Card, to: m.ExchangeTo
    ) -> list[KalookiEvent]:
        self.hands[seat].remove(card)
        if to == "hand":
            self.hands[seat].append(joker)
        self._replace(new)
        event = JokerExchanged(seat=seat, card=card, joker=joker, meld=new, to=to)
        return [event, *self._maybe_out(seat)]

    def _discard(self, seat: int, card: Card) -> list[KalookiEvent]:
        self.hands[seat].remove(card)
        self.discard.append(card)
        events: list[KalookiEvent] = [Discarded(seat=seat, card=card)]
        if not self.hands[seat]:
            return events + self._go_out(seat)
        self.discarder, self.callable, self.dead_top = seat, True, False
        return events + self._next_turn()

    def _end_turn(self, seat: int) -> list[KalookiEvent]:
        self.callable = False
        return [TurnEnded(seat=seat), *self._next_turn()]

    def _next_turn(self) -> list[KalookiEvent]:
        """The next player to the left who is still in the deal (T22) takes his turn."""
        self.turn = (self.turn + 1) % self.seats
        while self.turn in self.sitting_out:
            self.turn = (self.turn + 1) % self.seats
        self.drawn, self.melded_this_turn = None, False
        return self._open_window()

    def _maybe_out(self, seat: int) -> list[KalookiEvent]:
        return [] if self.hands[seat] else self._go_out(seat)

    def _go_out(self, seat: int, last: bool = False) -> list[KalookiEvent]:
        """``seat`` went out (``last``: everyone else sits out after challenges): the others
        score their hands, those sitting out their challenge scores (§2.10, §2.11; T22; K2)."""
        dao = self.melded_this_turn and not last
        penalties = {
            s: 0 if s == seat else self.sitting_out[s] if s in self.sitting_out
            else deal_penalty(self.hands[s], dao, self.rules)
            for s in range(self.seats)
        }
        for s, points in penalties.items():
            self.totals[s] += points
        events: list[KalookiEvent] = [
            WentOut(seat=seat, down_and_out=dao, last=last),
            DealScored(
                deal_number=self.deal_number,
                hands={s: tuple(h) for s, h in enumerate(self.hands)
                       if s != seat and s not in self.sitting_out},
                penalties=penalties,
                totals=dict(enumerate(self.totals)),
            ),
        ]
        self.dealer = (self.dealer + 1) % self.seats
        self.voids = 0
        return events + self._after_deal(self.deal_number >= self.rules.deals)

    def _void(self) -> list[KalookiEvent]:
        """Second exhaustion: no scores, the same dealer redeals (§2.12 items 61, 62); after
        ``rules.void_limit`` voids in a row the deal is skipped (the void bound)."""
        self.voids += 1
        skipped = self.voids >= self.rules.void_limit
        event = DealVoid(deal_number=self.deal_number, dealer=self.dealer, skipped=skipped)
        if skipped:
            self.dealer = (self.dealer + 1) % self.seats
            self.voids = 0
        self.redeal = not skipped
        return [event, *self._after_deal(skipped and self.deal_number >= self.rules.deals)]

    def _after_deal(self, last: bool) -> list[KalookiEvent]:
        """The deal is over (scored or void): the set ends after its ``last`` deal, or
        after the deal it was asked to end after (:meth:`end_session`)."""
        self.phase, self.caller, self.callable = Phase.BETWEEN_DEALS, None, False
        if last or self.ending:
            return self._finish(last or self.end_reason is EndReason.LENGTH)
        return []

    def _finish(self, complete: bool) -> list[KalookiEvent]:
        """The set is over; ``complete`` False when it ended before its last deal."""
        self.phase, self.complete = Phase.OVER, complete
        totals = dict(enumerate(self.totals))
        return [SessionOver(totals=totals, places=_places(totals), complete=self.complete)]


def _places(scores: dict[int, int]) -> tuple[tuple[int, ...], ...]:
    """Seats grouped by total, lowest first; equal totals share a place (K18)."""
    return tuple(
        tuple(s for s in sorted(scores) if scores[s] == total)
        for total in sorted(set(scores.values()))
    )



# ------------------------------------------------------------------ projection (views.py)


def _table_view(game: KalookiGame, viewer: int | None) -> KalookiTableView:
    """The board of ``game`` as ``viewer`` may see it (None: the public board)."""
    in_deal = game.phase not in (Phase.BETWEEN_DEALS, Phase.OVER)
    top = game.discard[-1] if game.discard else None
    return KalookiTableView.built(
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
        sitting_out=dict(game.sitting_out),
        window=WindowView.built(
            card=top if game.phase == Phase.WINDOW else None,
            callers=tuple(game.callers()) if game.phase == Phase.WINDOW else (),
            seconds=game.rules.call_window,
            caller=game.caller,
        ),
        commitment=game.commitment,
        log=tuple(e.seen_by(viewer) for e in game.log),
    )


def _seat_view(game: KalookiGame, seat: int) -> KalookiSeatView:
    """What ``seat`` sees of ``game``."""
    return KalookiSeatView.built(
        seat=seat,
        hand=tuple(sorted(game.hands[seat])),
        options=tuple(game.legal_actions(seat)),
        decision_id=game.decision_id(seat),
        table=_table_view(game, seat),
    )
