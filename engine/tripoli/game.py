"""The Tripoli game: one session at one table (``rules/tripoli.md`` §2, flow in §6).

A deal: eliminations, [``cosmo``: the dial] and antes (§2.2, §2.11) → the deal → the
dealer's spare-hand options and auctions (§2.4) → [``auction-pay-suit``: the pay-suit
auction, §3.6] → phase 1, pay cards (§2.5; not with ``pay_collection = play``) → phase 2,
simultaneous private poker selections then one betting round (§2.6; automatic or none in
``italian``) → [``ghost-auction``, §3.3 item 18] → phase 3, Michigan (§2.7; pay cards taken
as played with ``pay_collection = play``, §3.5) → settlement, [``zero_chips`` elimination],
dealer rotation (§2.8). Ending the session plays the leftover poker round(s) (§2.9). The
flow is §6 of the rules file; every preset is a :class:`TripoliRules` value read here.

A session that never really started ranks nobody: its first deal abandoned, or too few
players able to pay the first deal's antes (:meth:`TripoliGame.end_session`). Its outcome is
incomplete, like a Troefcall game or a
Kalooki set ended early (no winner, not rated); the stacks are settled as always.

The dial (``pay_suit = dial``, §3.2 ``cosmo``): before the antes of deal d, a stream
``fairness.random_stream(sha256(b"dial" + fairness.deal_seed(seed, d)))`` draws the pay suit
``uniform_below(4)`` (♣ ♦ ♥ ♠) and then the sequence start ``2 + uniform_below(11)`` (2..Q);
so the dial is fixed by the session seed and checkable once the seed is revealed.

Dealing order (item 10): the shuffled deck is dealt one card at a time into n + 1 hands in
the order spare, dealer+1, dealer+2, …, dealer (seats of the deal clockwise, skipping
eliminated and departed seats), repeated; ``deck[0]`` goes to the spare hand, ``deck[1]`` to
the seat left of the dealer. Leftover rounds deal 5 cards each in the order dealer+1, …,
dealer (no spare hand); the other cards are unused.

Seats are fixed ints ``0..seats-1``; the dealer is a rotating role. Every state change goes
through :meth:`TripoliGame.apply` (players), :meth:`start_deal`, :meth:`end_session`,
:meth:`add_seat` or :meth:`remove_seat` (runtime); each validates fully before changing
anything. Chips are conserved: :meth:`total_chips` changes only with seats joining or leaving.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterable, Sequence
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine import fairness
from engine.cards import STANDARD_DECK_SIZE, Card, Suit, checked_deck
from engine.core import (
    Action,
    Decisions,
    EndReason,
    GameState,
    IllegalAction,
    Option,
    Outcome,
    Pending,
    changes,
)
from engine.poker import best_five, describe, hand_value
from engine.tripoli.actions import (
    Auction,
    Bet,
    Bid,
    Call,
    Check,
    Exchange,
    Fold,
    Keep,
    Lead,
    NameSuit,
    Pass,
    Raise,
    Select,
)
from engine.tripoli.auction import AuctionItem, AuctionState
from engine.tripoli.betting import Betting
from engine.tripoli.events import (
    AntesPosted,
    AuctionBid,
    AuctionPass,
    AuctionSold,
    AuctionStarted,
    AuctionUnsold,
    BetMade,
    BetReturned,
    BettingStarted,
    Blocked,
    Called,
    Checked,
    DealOver,
    DealStarted,
    Dealt,
    DialTurned,
    Eliminated,
    Folded,
    LeadPassed,
    Led,
    LeftoverStarted,
    MichiganStarted,
    PaySuitNamed,
    PayTaken,
    Played,
    PotWon,
    Raised,
    Selected,
    SessionOver,
    Showdown,
    SpareExchanged,
    SpareKept,
    Stopped,
    TripoliEvent,
    WentOut,
)
from engine.tripoli.michigan import Michigan, lead_rule, lead_set, lowest, next_card
from engine.tripoli.pay_cards import (
    pay_card_spaces,
    phase_one_winners,
    play_takes,
    space_labels,
)
from engine.tripoli.phases import Phase
from engine.tripoli.rules import POT, TripoliRules
from engine.tripoli.views import (
    AuctionView,
    MichiganView,
    PokerView,
    TripoliSeatView,
    TripoliTableView,
)

POKER_CARDS = 5
LOG_SIZE = 40

SUMMARY_KINDS = frozenset({
    "deal_started", "eliminated", "auction_sold", "pay_taken", "showdown", "pot_won", "went_out",
    "blocked",
})
"""Events of the current deal the log keeps beyond its last :data:`LOG_SIZE`: who took what
this deal, and the hands shown that won the pot (the board's deal summary and its Showdown
field read them; all public, §2.10)."""


SpareStage = Literal["choose", "after_exchange", "after_unsold"]


class TripoliGame(GameState, BaseModel):  # BaseModel named for the linters: GameState is one
    """The whole state of a Tripoli session; mutable, exact JSON snapshot round trip.

    Build with :meth:`new` (a real session) or :meth:`from_position` (tests, puzzles).
    """

    model_config = ConfigDict(ser_json_bytes="base64", val_json_bytes="base64")
    GAME_NAME: ClassVar[str] = "tripoli"
    SCHEMA_VERSION: ClassVar[int] = 1

    rules: TripoliRules
    seats: int
    session_seed: bytes = Field(repr=False)  # secret until the session ends (DESIGN.md §3)
    stacks: list[int | None]  # None: departed seat
    buy_ins: list[int]  # chips each seat brought to the table
    eliminated: list[int] = []
    dealer: int
    phase: Phase = Phase.BETWEEN_DEALS
    deal_number: int = 0
    players: list[int] = []  # seats of the current deal in dealing order (dealer last)
    board: dict[str, int]
    hands: list[list[Card]]
    spare: list[Card] = []
    played: list[list[Card]]
    unused: list[Card] = []
    spare_stage: SpareStage | None = None
    auction: AuctionState | None = None
    auction_held: bool = False
    pay_suit: Suit = Suit.HEARTS  # this deal's pay suit (fixed, auctioned or dialled)
    seq_start: int = 8  # this deal's lowest sequence rank
    namer: int | None = None  # NAME_SUIT: the pay-suit auction winner
    claimed: list[str] = []  # spaces taken in phase 1 of this deal (``monte_once``)
    poker_winners: list[int] = []  # kept across the ghost auction for the Michigan leader
    selections: dict[int, list[Card]] = {}
    betting: Betting | None = None
    revealed: dict[int, list[Card]] = {}
    michigan: Michigan | None = None
    leftover: bool = False
    leftover_pots: list[int] = []  # chips of the leftover pots not yet played
    leftover_index: int = 0
    ending: bool = False
    start_stacks: list[int | None] = []
    start_board: dict[str, int] = {}
    next_deck: list[Card] | None = None
    commitment: str | None = None
    decisions: Decisions
    log: list[TripoliEvent] = []
    result: dict[int, int] | None = None
    complete: bool = True  # False: no deal was played out (the first abandoned or never dealt)

    @classmethod
    def kept_log(cls, events: list[TripoliEvent]) -> list[TripoliEvent]:
        """What the log keeps: the last :data:`LOG_SIZE` events, and before them the
        current deal's :data:`SUMMARY_KINDS` events (§2.10)."""
        return _trimmed(events)

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(
        cls,
        rules: TripoliRules,
        players: int,
        seed: bytes,
        stacks: list[int] | None = None,
        deck: list[Card] | None = None,
        first_dealer: int | None = None,
    ) -> TripoliGame:
        """A new session; deal 1 starts at once (antes, deal, spare-hand decision pending).

        Parameters
        ----------
        rules
            The preset.
        players
            Number of seats, within ``rules.min_players..max_players``.
        seed
            The secret session seed (the runtime draws 32 bytes); never shown in a view.
        stacks
            Starting stacks in chips (default ``rules.starting_stack`` each).
        deck
            The exact order of deal 1 (52 distinct cards); default: shuffled from ``seed``.
        first_dealer
            Seat of the first dealer; default drawn from ``seed`` (§2.1 item 5).

        Raises
        ------
        ValueError
            On a bad player count, stacks, deck or dealer.
        """
        if not rules.min_players <= players <= rules.max_players:
            raise ValueError(f"{rules.name} needs {rules.min_players}-{rules.max_players} players")
        stacks = [rules.starting_stack] * players if stacks is None else list(stacks)
        if len(stacks) != players or any(s < 0 for s in stacks):
            raise ValueError("one non-negative stack per player is needed")
        if first_dealer is None:
            stream = fairness.random_stream(hashlib.sha256(b"first-dealer" + seed).digest())
            first_dealer = fairness.uniform_below(stream, players)
        if not 0 <= first_dealer < players:
            raise ValueError(f"no seat {first_dealer}")
        game = cls(
            rules=rules,
            seats=players,
            session_seed=seed,
            stacks=stacks,
            buy_ins=list(stacks),
            dealer=first_dealer,
            board=dict.fromkeys(rules.spaces, 0),
            hands=[[] for _ in range(players)],
            played=[[] for _ in range(players)],
            unused=[Card(i) for i in range(STANDARD_DECK_SIZE)],
            decisions=Decisions.for_seats(players),
        )
        game.start_deal(deck)
        return game

    @classmethod
    def from_position(
        cls,
        rules: TripoliRules | None = None,
        *,
        phase: Phase,
        stacks: list[int | None],
        hands: dict[int, Sequence[int]] | None = None,
        dealer: int = 0,
        board: dict[str, int] | None = None,
        spare: Sequence[int] = (),
        played: dict[int, Sequence[int]] | None = None,
        leader: int | None = None,
        barred: Suit | None = None,
        first_lead: bool | None = None,
        selections: dict[int, Sequence[int]] | None = None,
        eliminated: Iterable[int] = (),
        seed: bytes = b"position",
        deal_number: int = 1,
        pay_suit: Suit | None = None,
    ) -> TripoliGame:
        """Build a position directly (tests, puzzles); cards not listed are dead (unused).

        Parameters
        ----------
        phase
            ``SPARE`` (dealer's decision; phase 1 follows), ``SELECT``, ``BETTING`` (a fresh
            betting round on the board's ``POT``; ``selections`` for every player),
            ``MICHIGAN`` (``leader`` due to lead, ``barred`` suit just played, ``first_lead``
            default: nothing barred and nothing played) or ``BETWEEN_DEALS``.
        stacks
            Chips per seat (``None``: an empty seat); the position's stacks and board are
            also the start of the deal for :meth:`end_session` with ``abandon``.
        hands
            Seat -> cards; the seats with a hand play this deal.
        board
            Space -> chips (missing spaces 0).
        pay_suit
            The deal's pay suit (default: the rules' fixed suit, else hearts).

        Raises
        ------
        ValueError
            If a card repeats, a seat or space is unknown, or the phase is not supported.
        """
        rules = rules or TripoliRules()
        n = len(stacks)
        hands = {s: [Card(c) for c in cs] for s, cs in (hands or {}).items()}
        played_cards = {s: [Card(c) for c in cs] for s, cs in (played or {}).items()}
        listed = [c for cs in hands.values() for c in cs] + [Card(c) for c in spare]
        listed += [c for cs in played_cards.values() for c in cs]
        if len(set(listed)) != len(listed):
            raise ValueError("a card is listed twice")
        if any(not 0 <= s < n for s in [*hands, *played_cards, dealer]):
            raise ValueError("unknown seat")
        board = dict.fromkeys(rules.spaces, 0) | dict(board or {})
        if set(board) != set(rules.spaces):
            raise ValueError("unknown space")
        chosen = {s: sorted(Card(c) for c in cs) for s, cs in (selections or {}).items()}
        for s, cs in chosen.items():
            if len(set(cs)) != POKER_CARDS or not set(cs) <= set(hands.get(s, ())):
                raise ValueError(f"seat {s}'s selection is not 5 cards of its hand")
        if leader is not None and leader not in hands:
            raise ValueError(f"the leader {leader} has no hand")
        dead = set(listed)
        game = cls(
            rules=rules,
            seats=n,
            session_seed=seed,
            stacks=list(stacks),
            buy_ins=[s or 0 for s in stacks],
            eliminated=sorted(eliminated),
            dealer=dealer,
            phase=Phase.BETWEEN_DEALS,
            deal_number=deal_number if phase != Phase.BETWEEN_DEALS else deal_number - 1,
            board=board,
            hands=[hands.get(s, []) for s in range(n)],
            spare=[Card(c) for c in spare],
            played=[played_cards.get(s, []) for s in range(n)],
            unused=[Card(i) for i in range(STANDARD_DECK_SIZE) if i not in dead],
            decisions=Decisions.for_seats(n),
            start_stacks=list(stacks),
            start_board=dict(board),
            seq_start=rules.seq_ranks,
        )
        fixed = rules.pay_suit if isinstance(rules.pay_suit, Suit) else Suit.HEARTS
        game.pay_suit = fixed if pay_suit is None else pay_suit
        if phase == Phase.BETWEEN_DEALS:
            return game
        game.players = game._clockwise_from(dealer + 1, [s for s in range(n) if s in hands])
        if phase == Phase.SPARE:
            game.phase, game.spare_stage = Phase.SPARE, "choose"
        elif phase == Phase.SELECT:
            game.selections = chosen
            game.phase = Phase.SELECT
        elif phase == Phase.BETTING:
            game.selections = chosen
            if set(game.selections) != set(game.players):
                raise ValueError("a betting position needs every player's selection")
            game._track(None, game._start_betting)
        elif phase == Phase.MICHIGAN:
            first = first_lead
            if first is None:
                first = barred is None and not any(played_cards.values())
            game.phase = Phase.MICHIGAN
            game.michigan = Michigan(
                turn=game.players[0] if leader is None else leader,
                first=first,
                barred=barred,
                red=None if barred is None else not barred.is_red,
            )
            game._track(None, game._resolve_lead)
        else:
            raise ValueError(f"from_position does not build phase {phase}")
        return game

    # ------------------------------------------------------------------ protocol

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def between_deals(self) -> bool:
        """Whether the next deal waits for :meth:`start_deal` (seats may join or leave)."""
        return self.phase == Phase.BETWEEN_DEALS

    def pending(self) -> tuple[Pending, ...]:
        """The open decisions, by seat: all required (a timeout plays
        :meth:`timeout_action`); several at once during the poker selection (§2.6 item 28)."""
        return tuple(Pending.built(seat=s, decision=self.decision_id(s))
                     for s in sorted(self.to_act))

    @property
    def to_act(self) -> frozenset[int]:
        """Seats with a decision pending (several during the poker selection)."""
        match self.phase:
            case Phase.SPARE:
                return frozenset((self.dealer,))
            case Phase.AUCTION:
                assert self.auction is not None and self.auction.turn is not None
                return frozenset((self.auction.turn,))
            case Phase.NAME_SUIT:
                assert self.namer is not None
                return frozenset((self.namer,))
            case Phase.SELECT:
                return frozenset(s for s in self.players if s not in self.selections)
            case Phase.BETTING:
                assert self.betting is not None
                turn = self.betting.turn
                return frozenset(() if turn is None else (turn,))
            case Phase.MICHIGAN:
                assert self.michigan is not None
                return frozenset((self.michigan.turn,))
        return frozenset()

    def decision_id(self, seat: int) -> int:
        """The id of ``seat``'s current decision (bumped whenever it gets or loses one)."""
        return self.decisions.ids[seat]

    def total_chips(self) -> int:
        """Stacks + board + leftover pots still to play (constant except seats joining/leaving)."""
        return sum(s or 0 for s in self.stacks) + sum(self.board.values()) + sum(self.leftover_pots)

    @property
    def active(self) -> list[int]:
        """Seated, non-eliminated seats (they play the next deal)."""
        return [
            s for s in range(self.seats) if self.stacks[s] is not None and s not in self.eliminated
        ]

    @property
    def deltas(self) -> dict[int, int] | None:
        """When over: each seated player's final stack minus the chips he brought."""
        if self.result is None:
            return None
        return {s: chips - self.buy_ins[s] for s, chips in self.result.items()}

    @property
    def outcome(self) -> Outcome | None:
        """When over: the final stacks of the seated players (chips), ranked best first with
        equal stacks sharing a place (item 62), and each one's chips won or lost; incomplete
        (no winner) when the first deal was abandoned (:meth:`end_session`)."""
        if self.result is None or self.deltas is None:
            return None
        return Outcome(scores=dict(self.result), places=_places(self.result), chips=self.deltas,
                       complete=self.complete)

    def legal_actions(self, seat: int) -> list[Option]:
        """The options of ``seat`` now ([] when it has no decision); the one source of legality."""
        if seat not in self.to_act:
            return []
        stack = self.stacks[seat] or 0
        match self.phase:
            case Phase.SPARE:
                return [Option.built(kind=k) for k in self._spare_choices()]
            case Phase.AUCTION:
                assert self.auction is not None
                out = [Option.built(kind="pass")]
                if stack > self.auction.high_bid:
                    bid = Option.built(kind="bid", min=self.auction.high_bid + 1, max=stack)
                    out.insert(0, bid)
                return out
            case Phase.NAME_SUIT:
                return [Option.built(kind="name_suit")]  # any of the four suits (§3.6)
            case Phase.SELECT:
                hand = tuple(sorted(self.hands[seat]))
                return [Option.built(kind="select", cards=hand, count=POKER_CARDS)]
            case Phase.BETTING:
                assert self.betting is not None
                return self.betting.options(seat, stack, self.rules)
            case Phase.MICHIGAN:
                return [Option.built(kind="lead", cards=tuple(self._leads(seat)), count=1)]
        return []

    @changes
    def apply(self, seat: int, action: Action, decision: int | None = None) -> list[TripoliEvent]:
        """Apply ``seat``'s ``action``; returns the events (all public).

        Raises
        ------
        IllegalAction
            ``game_over``, ``between_deals``, ``not_your_turn``, ``stale`` (``decision`` is
            not the seat's current decision id), ``illegal`` (not an option now),
            ``over_limit`` (above the bet limit L, item 39), ``not_enough_chips``,
            ``bad_selection`` (not 5 distinct cards of the seat's hand). The state is
            unchanged then.
        """
        self.check(seat, action, decision)
        return self._track(seat, lambda: self._do(seat, action))

    def check(self, seat: int, action: Action, decision: int | None = None) -> None:
        """Validate ``seat``'s ``action`` exactly as :meth:`apply` does, changing nothing.

        Raises
        ------
        IllegalAction
            With the code :meth:`apply` would raise.
        """
        self._check_turn(seat, decision)
        if not isinstance(action, Action):
            raise IllegalAction("illegal", "That is not a Tripoli action.",
                                reason="tripoli.not_an_action")
        self._validate(seat, action)

    def timeout_action(self, seat: int) -> Action:
        """The default when ``seat`` times out (§4 item 33).

        Spare decision → keep; bidder → pass; naming the pay suit → the suit of which the
        seat holds most pay cards (ties: ♥, then ♠ ♦ ♣); selection → best 5; betting → check
        if allowed, else fold; lead → the lowest legal lead (rank, then ♣ < ♦ < ♥ < ♠).

        Raises
        ------
        IllegalAction
            ``not_your_turn`` if the seat has no decision.
        """
        options = {o.kind: o for o in self.legal_actions(seat)}
        if not options:
            raise IllegalAction("not_your_turn", "You have no decision to make.",
                                reason="no_decision")
        if "keep" in options:
            return Keep()
        if "pass" in options:
            return Pass()
        if "name_suit" in options:
            return NameSuit(suit=self._best_pay_suit(seat))
        if "select" in options:
            return Select(cards=best_five(self.hands[seat]))
        if "check" in options:
            return Check()
        if "fold" in options:
            return Fold()
        return Lead(card=lowest(options["lead"].cards))

    # ------------------------------------------------------------------ runtime operations

    @changes
    def start_deal(self, deck: Sequence[int] | None = None) -> list[TripoliEvent]:
        """Start the next deal (only between deals); ``deck`` fixes its card order.

        Players who cannot pay the full ante are eliminated first (§2.11 item 64); with
        fewer than 2 players left the session ends: the leftover round(s) of §2.9, played
        by the players left and (``full_ante``) those eliminated by this very ante (see
        :meth:`_start_leftover`), then OVER.

        Raises
        ------
        IllegalAction
            ``game_over`` when the session is over, ``illegal`` during a deal.
        ValueError
            If ``deck`` is not the 52 cards.
        """
        if self.phase == Phase.OVER:
            raise IllegalAction("game_over", "The session is over.",
                                reason="tripoli.session_over")
        if self.phase != Phase.BETWEEN_DEALS:
            raise IllegalAction("illegal", "A deal is in progress.",
                                reason="tripoli.deal_in_progress")
        checked = checked_deck(deck, STANDARD_DECK_SIZE)
        return self._track(None, lambda: self._start_deal(checked))

    @changes
    def end_session(
        self, abandon: bool = False, *, reason: EndReason = EndReason.HOST
    ) -> list[TripoliEvent]:
        """End the session (§2.9, DESIGN.md §4 "Ending").

        Between deals: the leftover round(s) at once (or OVER). During a deal: with
        ``abandon`` False the deal is finished first; with ``abandon`` True every chip goes
        back to where it was at the start of the deal (before antes) at once. During the
        leftover rounds this does nothing.

        The session lasts as long as the players wish (item 58): the host's end, the agreed
        length and too few players are all its natural end, so ``reason`` changes nothing
        and the players are ranked by their stacks (item 62). Only abandoning the first
        deal, before any deal was over, ends a session that never really started: its
        outcome is incomplete (nothing was played to rank them by).

        Parameters
        ----------
        abandon
            Put the deal in progress back as it started and end at once.
        reason
            Why the session ends (:class:`~engine.core.EndReason`); the same end for all.

        Raises
        ------
        IllegalAction
            ``game_over`` when the session is already over.
        """
        if self.phase == Phase.OVER:
            raise IllegalAction("game_over", "The session is over.",
                                reason="tripoli.session_over")
        if self.leftover:
            return []
        if self.phase == Phase.BETWEEN_DEALS:
            return self._track(None, self._start_leftover)
        if not abandon:
            self.ending = True
            return []
        return self._track(None, self._abandon)

    @changes
    def fix_next_deck(self, deck: Sequence[int] | None) -> None:
        """Fix the card order of the next deal or leftover round (tests, puzzles).

        Raises
        ------
        ValueError
            If ``deck`` is not the 52 cards.
        """
        self.next_deck = checked_deck(deck, STANDARD_DECK_SIZE)

    @changes
    def add_seat(self, stack: int) -> int:
        """Seat a new player with ``stack`` chips (between deals); returns the new seat.

        Raises
        ------
        IllegalAction
            ``illegal`` outside BETWEEN_DEALS or when the table is full.
        ValueError
            If ``stack`` is negative.
        """
        if stack < 0:
            raise ValueError("a stack is never negative")
        if self.phase != Phase.BETWEEN_DEALS:
            raise IllegalAction("illegal", "Players join between deals.",
                                reason="tripoli.join_between")
        if len(self.active) >= self.rules.max_players:
            raise IllegalAction("illegal", "The table is full.", reason="tripoli.full")
        self.seats += 1
        self.stacks.append(stack)
        self.buy_ins.append(stack)
        self.hands.append([])
        self.played.append([])
        self.decisions.ids.append(0)
        return self.seats - 1

    @changes
    def remove_seat(self, seat: int) -> int:
        """Remove ``seat`` (between deals or when over); returns its stack, in chips, to settle.

        The seat keeps its number and is skipped from now on. When the session is over,
        ``result`` (the final stacks and ranking, item 62) stays as it was: leaving a finished
        table pays out the stack but does not rewrite the result.

        Raises
        ------
        IllegalAction
            ``illegal`` during a deal (leftover rounds included) or for an empty seat.
        """
        if self.phase not in (Phase.BETWEEN_DEALS, Phase.OVER):
            raise IllegalAction("illegal", "Players leave between deals.",
                                reason="tripoli.leave_between")
        if not 0 <= seat < self.seats or self.stacks[seat] is None:
            raise IllegalAction("illegal", f"Seat {seat} is empty.", reason="tripoli.seat_empty",
                                seat=seat)
        stack = self.stacks[seat] or 0
        self.stacks[seat] = None
        self.unused.extend(self.hands[seat])
        self.hands[seat] = []
        return stack

    # ------------------------------------------------------------------ validation

    def _check_turn(self, seat: int, decision: int | None) -> None:
        if self.phase == Phase.OVER:
            raise IllegalAction("game_over", "The session is over.",
                                reason="tripoli.session_over")
        if self.phase == Phase.BETWEEN_DEALS:
            raise IllegalAction("between_deals", "No deal is in progress.",
                                reason="tripoli.no_deal")
        if not 0 <= seat < self.seats:
            raise IllegalAction("not_your_turn", f"There is no seat {seat}.", reason="no_seat",
                                seat=seat)
        if decision is not None:
            self.decisions.check(seat, decision)
        if seat not in self.to_act:
            raise IllegalAction("not_your_turn", "It is not your turn.", reason="not_your_turn")

    def _validate(self, seat: int, action: Action) -> None:
        """Refuse ``action`` unless it matches one of :meth:`legal_actions` exactly."""
        option = next((o for o in self.legal_actions(seat) if o.kind == action.kind), None)
        if option is None or type(action) not in _ACTION_TYPES.get(action.kind, ()):
            raise IllegalAction("illegal", f"You cannot {action.kind} now.",
                                reason=f"tripoli.cannot.{action.kind}")
        if isinstance(action, Select):
            cards = action.cards
            if len(cards) != option.count or len(set(cards)) != len(cards):
                raise IllegalAction("bad_selection", "Choose exactly 5 different cards.",
                                    reason="tripoli.five_different")
            if not set(cards) <= set(option.cards):
                raise IllegalAction("bad_selection", "Choose 5 cards from your own hand.",
                                    reason="tripoli.five_own")
        elif isinstance(action, Lead):
            if action.card not in option.cards:
                raise IllegalAction("illegal", "That card is not a legal lead.",
                                    reason="tripoli.not_a_lead")
        elif isinstance(action, Bid | Bet | Raise):
            assert option.min is not None and option.max is not None
            if action.amount < option.min:
                raise IllegalAction("illegal", f"The least you may {action.kind} is {option.min}.",
                                    reason=f"tripoli.least.{action.kind}", amount=option.min)
            if action.amount > option.max:
                raise IllegalAction(self._excess_code(seat, action), f"The most is {option.max}.",
                                    reason="tripoli.most", amount=option.max)

    def _excess_code(self, seat: int, action: Bid | Bet | Raise) -> str:
        need = action.amount
        if isinstance(action, Raise):
            assert self.betting is not None
            need += self.betting.high - self.betting.contrib[seat]
        return "not_enough_chips" if need > (self.stacks[seat] or 0) else "over_limit"

    # ------------------------------------------------------------------ transitions

    def _track(
        self, actor: int | None, step: Callable[[], list[TripoliEvent]]
    ) -> list[TripoliEvent]:
        """Run ``step`` and bump the decision ids of seats that gained or lost a decision."""
        before, phase, deal = self.to_act, self.phase, self.deal_number
        events = step()
        moved_on = phase != self.phase or deal != self.deal_number
        self.decisions.after_step(before, self.to_act, moved_on, actor)
        self._logged_events(events)
        return events

    def _do(self, seat: int, action: Action) -> list[TripoliEvent]:
        match action:
            case Keep():
                return self._keep(seat)
            case Exchange():
                return self._exchange(seat)
            case Auction():
                return self._start_auction()
            case Bid(amount=amount):
                return self._bid(seat, amount)
            case Pass():
                return self._pass(seat)
            case NameSuit(suit=suit):
                return self._name_suit(seat, suit)
            case Select(cards=cards):
                return self._select(seat, cards)
            case Lead(card=card):
                return self._lead(seat, card)
        return self._bet_action(seat, action)

    def _start_deal(self, deck: list[Card] | None) -> list[TripoliEvent]:
        before = set(self.eliminated)
        events: list[TripoliEvent] = self._eliminate()
        if len(self.active) < 2:
            self.complete = self.complete and self.deal_number > 0  # nothing was ever dealt
            return events + self._start_leftover(set(self.eliminated) - before)
        self.deal_number += 1
        self.players = self._clockwise_from(self.dealer + 1, self.active)
        self.start_stacks, self.start_board = list(self.stacks), dict(self.board)
        deck = self._take_deck(deck)
        events.append(
            DealStarted(
                deal_number=self.deal_number,
                dealer=self.dealer,
                seats=tuple(self.players),
                commitment=self.commitment,
            )
        )
        self._reset_cards()
        events += self._set_pay_suit()
        events.append(self._post_antes())
        hands: list[list[Card]] = [self.spare] + [self.hands[s] for s in self.players]
        for i, card in enumerate(deck):
            hands[i % len(hands)].append(card)
        events.append(
            Dealt(
                hand_sizes={s: len(self.hands[s]) for s in self.players},
                spare_size=len(self.spare),
            )
        )
        self.spare_stage = "choose"
        if self._spare_choices() != ["keep"]:  # a real choice for the dealer
            self.phase = Phase.SPARE
            return events
        return events + self._after_spare()

    def _set_pay_suit(self) -> list[TripoliEvent]:
        """This deal's pay suit and sequence: fixed, hearts until auctioned (§3.6), or drawn
        by the dial before the antes (§3.2 ``cosmo``; draw in the module docstring)."""
        self.seq_start = self.rules.seq_ranks
        if isinstance(self.rules.pay_suit, Suit):
            self.pay_suit = self.rules.pay_suit
            return []
        self.pay_suit = Suit.HEARTS
        if self.rules.pay_suit == "auction":
            return []
        seed = fairness.deal_seed(self.session_seed, self.deal_number)
        stream = fairness.random_stream(hashlib.sha256(b"dial" + seed).digest())
        self.pay_suit = Suit(fairness.uniform_below(stream, 4))
        self.seq_start = 2 + fairness.uniform_below(stream, 11)
        return [DialTurned(pay_suit=self.pay_suit, seq_start=self.seq_start)]

    def _eliminate(self) -> list[TripoliEvent]:
        """Eliminate seats that cannot pay the full ante (§2.11 item 64), or with
        ``zero_chips`` seats without a chip (§3.3 item 15); move the dealer on."""
        events: list[TripoliEvent] = []
        while self.active:
            if self.dealer not in self.active:
                self.dealer = self._clockwise_from(self.dealer, self.active)[0]
            out = [s for s in self.active if (self.stacks[s] or 0) < self._ante_needed(s)]
            if not out:
                break
            for s in out:
                self.eliminated.append(s)
                events.append(Eliminated(seat=s, stack=self.stacks[s] or 0))
        self.eliminated.sort()
        return events

    def _ante_per_space(self, seat: int) -> int:
        """Chips ``seat`` puts on each space this deal (``ante`` / ``dealer_ante``, item 6)."""
        return self.rules.dealer_ante if seat == self.dealer else self.rules.ante

    def _ante_due(self, seat: int) -> int:
        """The full ante of ``seat``: one ante on every space (items 6, 64)."""
        return self._ante_per_space(seat) * len(self.rules.spaces)

    def _ante_needed(self, seat: int) -> int:
        """Chips a seat needs to stay in: the full ante, or 1 with ``zero_chips``."""
        return 1 if self.rules.elimination == "zero_chips" else self._ante_due(seat)

    def _post_antes(self) -> AntesPosted:
        """Every player antes on every space (item 6); a player short of his ante (only
        possible with ``zero_chips``) puts one chip per space in board order, round after
        round, until his chips run out (§3.3 item 15)."""
        paid = {}
        for s in self.players:
            paid[s] = min(self._ante_due(s), self.stacks[s] or 0)
            self.stacks[s] = (self.stacks[s] or 0) - paid[s]
            spaces = self.rules.spaces * self._ante_per_space(s)
            for space in spaces[: paid[s]]:
                self.board[space] += 1
        return AntesPosted(paid=paid, board=dict(self.board))

    def _take_deck(self, deck: list[Card] | None) -> list[Card]:
        """The fixed deck if any (no commitment), else the deal's provably-fair shuffle."""
        deck = deck if deck is not None else self.next_deck
        self.next_deck = None
        if deck is not None:
            self.commitment = None
            return list(deck)
        self.commitment = fairness.commitment(self.session_seed, self.deal_number)
        return fairness.shuffled_deck(self.session_seed, self.deal_number)

    def _reset_cards(self) -> None:
        self.hands = [[] for _ in range(self.seats)]
        self.played = [[] for _ in range(self.seats)]
        self.spare, self.unused = [], []
        self.selections, self.revealed = {}, {}
        self.betting = self.michigan = self.auction = None
        self.spare_stage, self.auction_held = None, False
        self.namer, self.claimed, self.poker_winners = None, [], []

    # ------------------------------------------------------------------ spare hand (§2.4)

    def _spare_choices(self) -> list[str]:
        """The dealer's options at this stage (item 14, ambiguity 12; ``spare_options``).

        With ``spare_needs_no_pay_card`` (§3.8) a dealer holding a pay card may not exchange.
        """
        allowed = self.rules.spare_options
        if self.rules.spare_needs_no_pay_card and self._holds_pay_card(self.dealer):
            allowed = tuple(o for o in allowed if o not in ("exchange", "exchange_auction_old"))
        match self.spare_stage:
            case "choose":
                return [k for k in ("keep", "exchange", "auction") if k in allowed] or ["keep"]
            case "after_exchange":
                return ["keep", "auction"]
            case _:
                return ["keep", "exchange"] if "exchange" in allowed else ["keep"]

    def _keep(self, seat: int) -> list[TripoliEvent]:
        return [SpareKept(seat=seat), *self._after_spare()]

    def _exchange(self, seat: int) -> list[TripoliEvent]:
        self.hands[seat], self.spare = self.spare, self.hands[seat]
        events: list[TripoliEvent] = [SpareExchanged(seat=seat)]
        may_auction = "exchange_auction_old" in self.rules.spare_options and not self.auction_held
        if may_auction:
            self.spare_stage = "after_exchange"
            return events
        return events + self._after_spare()

    def _holds_pay_card(self, seat: int) -> bool:
        """Whether ``seat`` holds one of the single pay cards of this deal (§3.8)."""
        return any(c in self.hands[seat] for _, c in pay_card_spaces(self.rules, self.pay_suit))

    def _start_auction(self) -> list[TripoliEvent]:
        """The dealer auctions the spare or his old hand to the other players (item 17);
        with ``spare_needs_no_pay_card`` only players holding no pay card bid (§3.8)."""
        item: AuctionItem = "old_hand" if self.spare_stage == "after_exchange" else "spare"
        self.auction_held = True
        bidders = [s for s in self.players if s != self.dealer]
        if self.rules.spare_needs_no_pay_card:
            bidders = [s for s in bidders if not self._holds_pay_card(s)]
        return self._open_auction(item, bidders, None)

    def _open_auction(
        self, item: AuctionItem, bidders: list[int], space: str | None
    ) -> list[TripoliEvent]:
        """Start an auction among ``bidders`` (in bidding order); bids go to the dealer
        (``space`` None) or onto ``space``."""
        self.auction = AuctionState(item=item, order=bidders, space=space)
        self.phase = Phase.AUCTION
        seller = self.dealer if space is None else None
        events: list[TripoliEvent] = [AuctionStarted(seller=seller, item=item, space=space)]
        return events + self._next_bidder(None)

    def _bid(self, seat: int, amount: int) -> list[TripoliEvent]:
        assert self.auction is not None
        self.auction.bid(seat, amount)
        return [AuctionBid(seat=seat, amount=amount), *self._next_bidder(seat)]

    def _pass(self, seat: int) -> list[TripoliEvent]:
        assert self.auction is not None
        self.auction.pass_(seat)
        return [AuctionPass(seat=seat), *self._next_bidder(seat)]

    def _next_bidder(self, after: int | None) -> list[TripoliEvent]:
        """The next bidder's turn, or the close of the auction (item 17)."""
        assert self.auction is not None
        forced = self.auction.advance(after, self.stacks)
        events: list[TripoliEvent] = [AuctionPass(seat=s, forced=True) for s in forced]
        if self.auction.turn is None:
            events += self._close_auction()
        return events

    def _close_auction(self) -> list[TripoliEvent]:
        """Sell to the high bidder or close unsold, then go on with the deal."""
        a = self.auction
        assert a is not None
        self.auction = None
        events: list[TripoliEvent] = []
        buyer = a.high_bidder
        if buyer is None:
            events.append(AuctionUnsold())
        else:
            self.stacks[buyer] = (self.stacks[buyer] or 0) - a.high_bid
            if a.space is None:
                self.stacks[self.dealer] = (self.stacks[self.dealer] or 0) + a.high_bid
            else:
                self.board[a.space] += a.high_bid
            if a.item != "pay_suit":
                self.hands[buyer], self.spare = self.spare, self.hands[buyer]
                # after the ghost auction his poker five came from the hand he gave away:
                # it is void; the poker result stands (§3.3 item 18)
                self.selections.pop(buyer, None)
            seller = self.dealer if a.space is None else None
            events.append(AuctionSold(seat=buyer, seller=seller, amount=a.high_bid, space=a.space))
        match a.item:
            case "pay_suit" if buyer is not None:
                self.phase, self.namer = Phase.NAME_SUIT, buyer
                return events
            case "pay_suit":
                return [*events, PaySuitNamed(seat=None, suit=Suit.HEARTS), *self._after_pay_suit()]
            case "ghost":
                return events + self._start_michigan(self.poker_winners)
            case "spare" if buyer is None:
                self.phase, self.spare_stage = Phase.SPARE, "after_unsold"
                return events
        return events + self._after_spare()

    def _after_spare(self) -> list[TripoliEvent]:
        """The pay-suit auction (``pay_suit = auction``, §3.6: from the dealer, clockwise,
        everyone; the bid goes onto the going-out space, KITTY), else straight on."""
        self.spare_stage = None
        if self.rules.pay_suit == "auction":
            bidders = self._clockwise_from(self.dealer, self.players)
            return self._open_auction("pay_suit", bidders, self.rules.going_out_space)
        return self._after_pay_suit()

    def _name_suit(self, seat: int, suit: Suit) -> list[TripoliEvent]:
        self.pay_suit, self.namer = suit, None
        return [PaySuitNamed(seat=seat, suit=suit), *self._after_pay_suit()]

    def _best_pay_suit(self, seat: int) -> Suit:
        """The suit of which ``seat`` holds most pay cards (ties: ♥, then ♠ ♦ ♣)."""
        prefer = (Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS)

        def held(suit: Suit) -> int:
            return sum(c in self.hands[seat] for _, c in pay_card_spaces(self.rules, suit))

        return max(prefer, key=lambda suit: (held(suit), -prefer.index(suit)))

    def _after_pay_suit(self) -> list[TripoliEvent]:
        """Phase 1 (``pay_collection = hold``), then phase 2: private selections, or
        (``poker = auto``) everyone's best five at once and a showdown without betting
        (italian §3.3 item 9), or (``poker = none``) straight on (§3.3 item 17)."""
        events = self._phase_one() if self.rules.pay_collection == "hold" else []
        match self.rules.poker:
            case "auto":
                self.selections = {s: sorted(best_five(self.hands[s])) for s in self.players}
                return events + self._start_betting()
            case "none":
                return events + self._before_michigan([])
        self.phase = Phase.SELECT
        return events

    # ------------------------------------------------------------------ phase 1 (§2.5)

    def _phase_one(self) -> list[TripoliEvent]:
        """Pay cards on the final hands: single cards, K-Q, the sequence (items 20-24)."""
        events: list[TripoliEvent] = []
        hands = {s: self.hands[s] for s in self.players}
        for space, seats in phase_one_winners(self.rules, hands, self.pay_suit, self.seq_start):
            if seats:
                self.claimed.append(space)
            events += self._split(space, seats)
        return events

    def _split(self, space: str, seats: list[int]) -> list[TripoliEvent]:
        """Share ``space`` among ``seats``; the remainder stays on it (item 22)."""
        if not seats:
            return []
        share = self.board[space] // len(seats)
        events: list[TripoliEvent] = []
        for s in self._clockwise_from(self.dealer + 1, seats):
            self.board[space] -= share
            self.stacks[s] = (self.stacks[s] or 0) + share
            events.append(PayTaken(space=space, seat=s, chips=share))
        return events

    # ------------------------------------------------------------------ phase 2 (§2.6)

    def _select(self, seat: int, cards: tuple[Card, ...]) -> list[TripoliEvent]:
        self.selections[seat] = sorted(cards)
        events: list[TripoliEvent] = [Selected(seat=seat)]
        if len(self.selections) == len(self.players):
            events += self._start_betting()
        return events

    def _start_betting(self) -> list[TripoliEvent]:
        opener = self.dealer if self.rules.bet_opener == "dealer" else self.dealer + 1
        order = self._clockwise_from(opener, self.players)
        self.betting = Betting.start(order, self.stacks, self.board[POT], self.rules.all_in)
        self.phase = Phase.BETTING
        events: list[TripoliEvent] = [
            BettingStarted(pot=self.board[POT], all_in=tuple(self.betting.all_in))
        ]
        if not self._with_betting():
            self.betting.acted = list(order)
            self.betting.turn = None
        if self.betting.turn is None:
            events += self._finish_betting()
        return events

    def _with_betting(self) -> bool:
        """Whether this poker round has betting (``poker``; ``leftover_betting``, item 60)."""
        return self.rules.leftover_betting if self.leftover else self.rules.poker == "betting"

    def _bet_action(self, seat: int, action: Action) -> list[TripoliEvent]:
        b = self.betting
        assert b is not None
        stack = self.stacks[seat] or 0
        to_call = b.high - b.contrib[seat]
        event: TripoliEvent
        match action:
            case Check():
                event = Checked(seat=seat)
            case Fold():
                b.folded.append(seat)
                event = Folded(seat=seat)
            case Bet(amount=amount):
                self._put_in(seat, amount)
                b.acted = []
                event = BetMade(seat=seat, amount=amount, all_in=seat in b.all_in)
            case Call():
                pay = min(to_call, stack)
                self._put_in(seat, pay)
                event = Called(seat=seat, amount=pay, all_in=seat in b.all_in)
            case Raise(amount=amount):
                self._put_in(seat, to_call + amount)
                b.acted = []
                event = Raised(
                    seat=seat,
                    amount=amount,
                    paid=to_call + amount,
                    total=b.contrib[seat],
                    all_in=seat in b.all_in,
                )
            case _:
                raise AssertionError(action)
        b.acted.append(seat)
        b.turn = b.next_to_act(seat)
        if b.turn is None:
            return [event, *self._finish_betting()]
        return [event]

    def _put_in(self, seat: int, chips: int) -> None:
        assert self.betting is not None
        self.stacks[seat] = (self.stacks[seat] or 0) - chips
        self.board[POT] += chips
        self.betting.put_in(seat, chips, self.stacks[seat] or 0)

    def _finish_betting(self) -> list[TripoliEvent]:
        """Award the POT space: uncontested, or showdown with side pots (items 35-38, 41)."""
        b = self.betting
        assert b is not None
        b.turn = None
        live = b.live
        final = self.leftover and not self.leftover_pots
        events: list[TripoliEvent] = []
        if len(live) == 1:
            chips = self.board[POT]
            self.board[POT] = 0
            self.stacks[live[0]] = (self.stacks[live[0]] or 0) + chips
            events.append(PotWon(seat=live[0], chips=chips, uncontested=True))
            winners = live
        else:
            top, excess = b.unmatched()
            if top is not None:
                b.contrib[top] -= excess
                self.board[POT] -= excess
                self.stacks[top] = (self.stacks[top] or 0) + excess
                events.append(BetReturned(seat=top, chips=excess))
            self.revealed = {s: list(self.selections[s]) for s in live}
            values = {s: hand_value(self.selections[s]) for s in live}
            events.append(
                Showdown(
                    hands={s: tuple(self.revealed[s]) for s in live},
                    descriptions={s: describe(values[s]) for s in live},
                )
            )
            winners = []
            for k, (chips, eligible) in enumerate(b.pots()):
                won, pot_events = self._award(chips, eligible, values, k, final)
                events += pot_events
                winners = winners or won
        if self.leftover:
            return events + self._leftover_round_over()
        return events + self._before_michigan(winners)

    def _before_michigan(self, winners: list[int]) -> list[TripoliEvent]:
        """The ghost auction (``ghost_auction``, §3.3 item 18: everyone from the dealer's
        left, the dealer included; the bid goes onto MONTE), then Michigan."""
        self.poker_winners = winners
        if self.rules.ghost_auction:
            return self._open_auction("ghost", list(self.players), self.rules.going_out_space)
        return self._start_michigan(winners)

    def _award(
        self, chips: int, eligible: list[int], values: dict[int, int], pot: int, final: bool
    ) -> tuple[list[int], list[TripoliEvent]]:
        """Pay one pot to its best eligible hand(s); odd chips stay on POT (item 38),
        or in the last leftover round go one by one from the dealer's left (item 61)."""
        if not eligible:
            return [], []
        best = max(values[s] for s in eligible)
        winners = self._clockwise_from(self.dealer + 1, [s for s in eligible if values[s] == best])
        share, odd = divmod(chips, len(winners))
        pay = {w: share + (1 if final and i < odd else 0) for i, w in enumerate(winners)}
        events: list[TripoliEvent] = []
        for w in winners:
            self.board[POT] -= pay[w]
            self.stacks[w] = (self.stacks[w] or 0) + pay[w]
            events.append(PotWon(seat=w, chips=pay[w], pot=pot))
        return winners, events

    # ------------------------------------------------------------------ phase 3 (§2.7)

    def _start_michigan(self, winners: list[int]) -> list[TripoliEvent]:
        """The first leader (item 42; ``michigan_leader``) and the first lead."""
        match self.rules.michigan_leader:
            case "dealer":
                leader = self.dealer
            case "left":
                leader = self.players[0]
            case _:
                leader = self._clockwise_from(self.dealer + 1, winners or self.players)[0]
        self.phase = Phase.MICHIGAN
        self.michigan = Michigan(turn=leader)
        return [MichiganStarted(leader=leader), *self._resolve_lead()]

    def _leads(self, seat: int) -> list[Card]:
        assert self.michigan is not None
        kind, barred, red = lead_rule(self.rules, self.michigan)
        return lead_set(self.hands[seat], kind, barred, red)

    def _resolve_lead(self) -> list[TripoliEvent]:
        """Pass the lead left until someone can lead (item 50); nobody: block (item 51)."""
        m = self.michigan
        assert m is not None
        events: list[TripoliEvent] = []
        order = self._clockwise_from(m.turn, self.players)
        for prev, s in itertools.pairwise(order):
            if self._leads(prev):
                return events
            m.turn = s
            events.append(LeadPassed(seat=prev, to=s))
        if self._leads(m.turn):
            return events
        return events + self._block()

    def _lead(self, seat: int, card: Card) -> list[TripoliEvent]:
        """Lead ``card``; forced follows play themselves until a stop or going out."""
        m = self.michigan
        assert m is not None
        m.first = False
        events: list[TripoliEvent] = [Led(seat=seat, card=card)]
        holder = {c: s for s in self.players for c in self.hands[s]}
        run, by, player = [card], [seat], seat
        while True:
            self.hands[player].remove(run[-1])
            self.played[player].append(run[-1])
            if self.rules.pay_collection == "play":  # §3.5, before the going-out check
                for space in play_takes(self.rules, self.pay_suit, self.seq_start, run, by):
                    events += self._split(space, [player])
            if not self.hands[player]:
                return events + self._went_out(player)
            nxt = next_card(run[-1])
            holder_of_next = None if nxt is None else holder.get(nxt)
            if nxt is None or holder_of_next is None:
                break
            player = holder_of_next
            run.append(nxt)
            by.append(player)
            events.append(Played(seat=player, card=nxt))
        events.append(Stopped(seat=player, card=run[-1]))
        m.barred, m.red, m.turn = run[-1].suit, not run[-1].suit.is_red, player
        m.last_run, m.stopper = run, player
        return events + self._resolve_lead()

    def _went_out(self, seat: int) -> list[TripoliEvent]:
        """Going out: the space plus 1 chip per card from each opponent (items 52, 53); with
        ``monte_once`` not the space if it was taken in phase 1 (§3.3 item 13)."""
        space = self.rules.going_out_space
        chips = 0 if self.rules.monte_once and space in self.claimed else self.board[space]
        self.board[space] -= chips
        payments = self._card_payments(skip=seat)
        won = chips + sum(payments.values())
        self.stacks[seat] = (self.stacks[seat] or 0) + won
        out = WentOut(seat=seat, chips=won, space=space, space_chips=chips, payments=payments)
        return [out, *self._end_deal()]

    def _block(self) -> list[TripoliEvent]:
        """Nobody can lead: 1 chip per card held onto the block space (items 51, 53)."""
        space = self.rules.block_space
        payments = self._card_payments(skip=None)
        self.board[space] += sum(payments.values())
        return [Blocked(space=space, payments=payments), *self._end_deal()]

    def _card_payments(self, skip: int | None) -> dict[int, int]:
        """Each player's 1 chip per card held, capped at his stack (item 53); deducted."""
        payments = {}
        for s in self.players:
            if s != skip:
                payments[s] = min(len(self.hands[s]), self.stacks[s] or 0)
                self.stacks[s] = (self.stacks[s] or 0) - payments[s]
        return payments

    # ------------------------------------------------------------------ end of deal / session

    def _end_deal(self, abandoned: bool = False) -> list[TripoliEvent]:
        deltas = {s: (self.stacks[s] or 0) - (self.start_stacks[s] or 0) for s in self.players}
        events: list[TripoliEvent] = [
            DealOver(
                deal_number=self.deal_number,
                deltas=deltas,
                board=dict(self.board),
                abandoned=abandoned,
            )
        ]
        self.phase = Phase.BETWEEN_DEALS
        self.spare_stage = self.auction = self.namer = None
        self._rotate()
        just_out: set[int] = set()
        if self.rules.elimination == "zero_chips":  # checked at the end of a deal (§3.3 15)
            before = set(self.eliminated)
            events += self._eliminate()
            if len(self.active) < 2:  # item 58: the session ends at once
                self.ending, just_out = True, set(self.eliminated) - before
        if self.ending:
            events += self._start_leftover(just_out)
        return events

    def _rotate(self) -> None:
        """The deal passes to the left (item 5), skipping eliminated and departed seats."""
        if active := self.active:
            self.dealer = self._clockwise_from(self.dealer + 1, active)[0]

    def _abandon(self) -> list[TripoliEvent]:
        """Every chip back to where it was at the start of the deal (before antes); in the
        first deal the session is then incomplete."""
        self.complete = self.deal_number > 1
        self.stacks = [
            None if now is None else start
            for now, start in zip(self.stacks, self.start_stacks, strict=True)
        ]
        self.board = dict(self.start_board)
        self.ending = True
        return self._end_deal(abandoned=True)

    def _start_leftover(self, just_out: Iterable[int] = ()) -> list[TripoliEvent]:
        """Split the board into K leftover pots and play the first (items 59-60).

        The leftover rounds are played by the non-eliminated players (item 60). With
        ``elimination = full_ante`` also by ``just_out``: the seats eliminated by the very
        ante check that ends the session because fewer than 2 players can pay the ante
        (items 58, 64); they were in the session until that moment. With ``zero_chips`` a
        player eliminated at zero chips takes no further part (§3.3 item 15; [S001]: the
        session goes on "until one player has brought the opponents to zero"), so the last
        player with chips takes the board uncontested; only when one check knocks out
        everybody at once do ``just_out`` play for it (nobody else is left to). A single
        player takes the board uncontested. Thus at OVER the board is empty and the final
        stacks hold every chip (§4 item 35), unless ``leftover_poker`` is off or no player
        is seated.
        """
        self.ending, self.leftover = False, True
        total = sum(self.board.values())
        seats = self.active
        if self.rules.elimination == "full_ante" or not seats:
            seats = sorted({*seats, *just_out})
        if not self.rules.leftover_poker or total == 0 or not seats:
            return self._finish_session()
        self.players = seats
        self.dealer = self._clockwise_from(self.dealer, seats)[0]  # the next dealer in turn
        k = min(self.rules.leftover_pots, total)
        self.leftover_pots = [total // k + (1 if i < total % k else 0) for i in range(k)]
        self.board = dict.fromkeys(self.board, 0) | {POT: 0}  # no-poker boards too (§3.3 17)
        self.leftover_index = -1
        return self._leftover_round()

    def _leftover_round(self) -> list[TripoliEvent]:
        """Deal 5 cards to every remaining player and play poker for the next pot."""
        self.leftover_index += 1
        pots = (*self.leftover_pots,)
        self.board[POT] += self.leftover_pots.pop(0)
        self.deal_number += 1
        self.players = self._clockwise_from(self.dealer + 1, self.players)
        self.start_stacks, self.start_board = list(self.stacks), dict(self.board)
        deck = self._take_deck(None)
        self._reset_cards()
        for i, card in enumerate(deck):
            if i < POKER_CARDS * len(self.players):
                self.hands[self.players[i % len(self.players)]].append(card)
            else:
                self.unused.append(card)
        self.selections = {s: sorted(self.hands[s]) for s in self.players}
        events: list[TripoliEvent] = [
            LeftoverStarted(pot_index=self.leftover_index, pots=pots),
            DealStarted(
                deal_number=self.deal_number,
                dealer=self.dealer,
                seats=tuple(self.players),
                commitment=self.commitment,
                leftover=True,
            ),
            Dealt(hand_sizes={s: POKER_CARDS for s in self.players}, spare_size=0),
        ]
        return events + self._start_betting()

    def _leftover_round_over(self) -> list[TripoliEvent]:
        if self.leftover_pots:
            self.dealer = self._clockwise_from(self.dealer + 1, self.players)[0]
            return self._leftover_round()
        return self._finish_session()

    def _finish_session(self) -> list[TripoliEvent]:
        """Over: rank the seated players by stack (item 62)."""
        self.phase = Phase.OVER
        self.betting = self.michigan = None
        if POT not in self.rules.spaces and not self.board.get(POT):
            self.board.pop(POT, None)
        self.result = {
            s: self.stacks[s] or 0 for s in range(self.seats) if self.stacks[s] is not None
        }
        return [SessionOver(stacks=dict(self.result), ranking=_places(self.result))]

    # ------------------------------------------------------------------ helpers

    def _clockwise_from(self, start: int, seats: Iterable[int]) -> list[int]:
        """``seats`` ordered clockwise starting at seat ``start`` (mod the seat count)."""
        return sorted(seats, key=lambda s: (s - start) % self.seats)

    # ------------------------------------------------------------------ views (§2.10)

    def view(self, seat: int) -> TripoliSeatView:
        """What ``seat`` may see (§2.10 item 63): the public view plus its own hand, its
        selection, its options and, while he decides to auction it, the dealer's old hand.

        Raises
        ------
        ValueError
            If there is no such seat.
        """
        if not 0 <= seat < self.seats:
            raise ValueError(f"no seat {seat}")
        return self.viewed(("seat", seat), lambda: self._seat_view(seat))

    def public_view(self) -> TripoliTableView:
        """What every onlooker may see (§2.10 item 63): no hand, no spare, no seed."""
        return self.viewed("public", self._table_view)

    def _seat_view(self, seat: int) -> TripoliSeatView:
        selection = self.selections.get(seat)
        b = self.betting
        to_call = None
        if self.phase == Phase.BETTING and b is not None and seat in b.contrib:
            to_call = min(b.high - b.contrib[seat], self.stacks[seat] or 0)
        old_hand = None
        if self.spare_stage == "after_exchange" and seat == self.dealer:
            old_hand = tuple(sorted(self.spare))
        return TripoliSeatView.built(
            seat=seat,
            hand=tuple(sorted(self.hands[seat])),
            selection=None if selection is None else tuple(selection),
            old_hand=old_hand,
            options=tuple(self.legal_actions(seat)),
            decision_id=self.decision_id(seat),
            to_call=to_call,
            table=self.public_view(),
        )

    def _table_view(self) -> TripoliTableView:
        b, m, a = self.betting, self.michigan, self.auction
        poker = None
        if self.phase in (Phase.SELECT, Phase.BETTING) or b is not None:
            poker = PokerView.built(
                selected=tuple(sorted(self.selections)),
                bets=dict(b.contrib) if b else {},
                current_bet=b.high if b else 0,
                folded=tuple(b.folded) if b else (),
                all_in=tuple(b.all_in) if b else (),
                pot_start=b.pot_start if b else self.board.get(POT, 0),
                turn=b.turn if b else None,
                showdown={s: tuple(cs) for s, cs in self.revealed.items()},
            )
        michigan = None
        if m is not None:
            last = m.last_run[-1] if m.last_run else None
            michigan = MichiganView.built(
                played={s: tuple(self.played[s]) for s in self.players},
                last_run=tuple(m.last_run),
                run_suit=None if last is None else last.suit,
                last_card=last,
                stopper=m.stopper,
                barred_suit=m.barred,
                required_red=m.red if self.rules.next_lead == "opposite_colour" else None,
                leader=m.turn,
                first_lead=m.first,
            )
        auction = None
        if a is not None:
            auction = AuctionView.built(
                item=a.item,
                seller=self.dealer if a.space is None else None,
                high_bid=a.high_bid,
                high_bidder=a.high_bidder,
                passed=tuple(a.passed),
                turn=a.turn,
                space=a.space,
            )
        source = self.rules.pay_suit if isinstance(self.rules.pay_suit, str) else "fixed"
        return TripoliTableView.built(
            rules_name=self.rules.name,
            phase=self.phase,
            leftover=self.leftover,
            ending=self.ending,
            deal_number=self.deal_number,
            dealer=self.dealer,
            seats=self.seats,
            to_act=tuple(sorted(self.to_act)),
            stacks=tuple(self.stacks),
            players=tuple(self.players),
            active=tuple(self.active),
            eliminated=tuple(self.eliminated),
            board=dict(self.board),
            leftover_pots=tuple(self.leftover_pots),
            hand_sizes={s: len(self.hands[s]) for s in self.players},
            spare_size=len(self.spare),
            commitment=self.commitment,
            spare_stage=self.spare_stage,
            auction=auction,
            poker=poker,
            michigan=michigan,
            pay_suit=self.pay_suit,
            pay_suit_source=source,
            seq_start=self.seq_start,
            space_labels=space_labels(self.rules, self.pay_suit, self.seq_start),
            namer=self.namer,
            rules=self.rules,
            log=tuple(self.log),
            result=None if self.result is None else dict(self.result),
        )


_ACTION_TYPES: dict[str, tuple[type, ...]] = {
    "keep": (Keep,),
    "exchange": (Exchange,),
    "auction": (Auction,),
    "bid": (Bid,),
    "pass": (Pass,),
    "name_suit": (NameSuit,),
    "select": (Select,),
    "check": (Check,),
    "bet": (Bet,),
    "call": (Call,),
    "raise": (Raise,),
    "fold": (Fold,),
    "lead": (Lead,),
}


def _places(stacks: dict[int, int]) -> tuple[tuple[int, ...], ...]:
    """Seats by final stack, most chips first; equal stacks share a place (item 62)."""
    levels = sorted(set(stacks.values()), reverse=True)
    return tuple(tuple(s for s, v in stacks.items() if v == lv) for lv in levels)


def _trimmed(log: list[TripoliEvent]) -> list[TripoliEvent]:
    """The last :data:`LOG_SIZE` events, and before them the current deal's
    :data:`SUMMARY_KINDS` events (a deal has more events than the log holds)."""
    if len(log) <= LOG_SIZE:
        return log
    cut = len(log) - LOG_SIZE
    start = max((i for i, e in enumerate(log) if e.kind == "deal_started"), default=cut)
    return [e for e in log[start:cut] if e.kind in SUMMARY_KINDS] + log[cut:]
