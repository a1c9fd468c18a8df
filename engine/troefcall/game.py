"""The Troefcall game: one session of four players at one table (``rules/troefcall.md`` §2).

A session: the public jack search chooses the first caller C and dealer D = C - 1 (§2.2;
:mod:`engine.troefcall.seating`), then hands until a team reaches the target or the agreed
number of hands is played (§2.10). A hand: the caller receives 5 cards and names trumps
(§2.4; nobody else holds a card before that) → the other 47 cards are dealt → the caller may
claim a redeal if he holds no K, Q or J (§2.5; before his opening lead) → tricks, following
suit (§2.6) → after trick 7, if one team won all seven, the trick-7 winner must lead to
trick 8 (baunie) or stop, and his partner may stop (§2.7) → one team scores (§2.8) → the
deal stays or passes left (§2.9) → between hands, ``start_deal`` begins the next.

Dealing order (item 13, ambiguity A4) of a shuffled deck ``deck``: ``deck[0:5]`` to the
caller C; after trumps are named ``deck[5:10]`` to C+1, ``deck[10:15]`` to C+2,
``deck[15:20]`` to C+3 (the dealer), then 4 cards each to C, C+1, C+2, C+3 twice
(``deck[20:36]``, ``deck[36:52]``). Every shuffle, a redeal's included, is deal number
``deal_number`` of :mod:`engine.fairness` (its own commitment); ``hand_number`` counts hands
(a redeal replays the same hand).

The hand ends as soon as its result is fixed (item 45, A3) unless ``play_all_tricks``:
a stop (item 36), a lost trick of a baunie (item 41), all 13 tricks, or the seventh trick
of a team without the first seven.

Seats are fixed ints 0..3 (team 0 = seats 0 + 2, team 1 = seats 1 + 3); dealer and caller
are rotating roles. Every state change goes through :meth:`TroefcallGame.apply` (players),
:meth:`start_deal` or :meth:`end_session` (runtime); each validates fully before changing
anything.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import ClassVar

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
from engine.troefcall.actions import ClaimRedeal, KapPartij, NameTrump, Play
from engine.troefcall.events import (
    BaunieCommitted,
    CardPlayed,
    DealStarted,
    GameOver,
    HandScored,
    JackSearched,
    KapCalled,
    KapOffered,
    Redealt,
    TieToBreak,
    TrickWon,
    TroefcallEvent,
    TrumpNamed,
)
from engine.troefcall.phases import Phase
from engine.troefcall.rules import TroefcallRules
from engine.troefcall.scoring import TEAMS, HandResult, Reason, places, points, rotate, team_of
from engine.troefcall.seating import SEATS, JackSearch, jack_search
from engine.troefcall.tricks import has_court_card, legal_plays, lowest, winning_index
from engine.troefcall.views import (
    KapView,
    PlayedCard,
    TrickView,
    TroefcallSeatView,
    TroefcallTableView,
)

FIRST_PACKET = 5  # cards the caller sees before naming trumps (item 11)
PACKETS = (5, 4, 4)  # item 13
TRICKS = 13
FIRST_SEVEN = 7  # §2.7 item 28
LOG_SIZE = 40


class Trick(BaseModel):
    """A trick: its leader, the cards in play order from him, and its winner once complete.

    A trick of a built position may be known by its winner only (``leader`` None, no cards).
    """

    leader: int | None
    cards: list[Card] = []
    winner: int | None = None


class TroefcallGame(GameState, BaseModel):  # BaseModel named for the linters: GameState is one
    """The whole state of a Troefcall session; mutable, exact JSON snapshot round trip.

    Build with :meth:`new` (a real session) or :meth:`from_position` (tests, puzzles).
    Between hands, ``trump``, ``tricks`` and what is left of the hands are the last hand's,
    while ``dealer`` and ``caller`` are already the next hand's.
    """

    model_config = ConfigDict(ser_json_bytes="base64", val_json_bytes="base64")
    GAME_NAME: ClassVar[str] = "troefcall"
    SCHEMA_VERSION: ClassVar[int] = 1

    rules: TroefcallRules
    seats: int = SEATS
    session_seed: bytes = Field(repr=False)  # secret until the session ends (DESIGN.md §3)
    phase: Phase = Phase.BETWEEN_HANDS
    deal_number: int = 0
    hand_number: int = 0
    dealer: int
    caller: int
    trump: Suit | None = None
    hands: list[list[Card]]
    stock: list[Card] = []  # the shuffle's cards not dealt yet (47 while trumps are named)
    dead: list[Card] = []  # cards a built position leaves out
    tricks: list[Trick] = []  # completed tricks of the hand
    current: Trick | None = None  # the trick being played
    turn: int | None = None  # who names trumps, plays, or (KAP) won trick 7
    baunie: int | None = None  # the team committed to baunie (item 33)
    scores: list[int] = [0, 0]
    results: list[HandResult] = []
    jack_search: JackSearch | None = None
    first_dealer: int = 0  # the dealer of hand 1 (odd chips of a shared stake go from here)
    ending: bool = False
    # why it ends after this hand; None in a game saved before the reason was kept: the
    # host's end (the only end asked during a hand then)
    end_reason: EndReason | None = None
    complete: bool | None = None  # once over: False when ended without a winner
    winner: int | None = None
    next_deck: list[Card] | None = None
    commitment: str | None = None
    decisions: Decisions
    log: list[TroefcallEvent] = []

    @classmethod
    def kept_log(cls, events: list[TroefcallEvent]) -> list[TroefcallEvent]:
        """What the log keeps: the last :data:`LOG_SIZE` events."""
        return events[-LOG_SIZE:]

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(
        cls,
        rules: TroefcallRules,
        players: int,
        seed: bytes,
        deck: Sequence[int] | None = None,
        first_caller: int | None = None,
    ) -> TroefcallGame:
        """A new session: the jack search, then hand 1 starts (the caller names trumps).

        Parameters
        ----------
        rules
            The table's rules.
        players
            Must be 4 (§2.1 item 1); seats 0 + 2 play against 1 + 3.
        seed
            The secret session seed (the runtime draws 32 bytes); never in a view or event.
        deck
            The exact order of the first shuffle (52 distinct cards, dealing order in the
            module docstring); default: shuffled from ``seed``.
        first_caller
            Seat of the first trump caller, skipping the jack search; default: the jack
            search from ``seed`` (§2.2, :func:`engine.troefcall.seating.jack_search`).

        Raises
        ------
        ValueError
            On a player count other than 4, a bad deck or an unknown seat.
        """
        if players != SEATS:
            raise ValueError("Troefcall is for exactly 4 players")
        checked = checked_deck(deck, STANDARD_DECK_SIZE)
        search = None
        if first_caller is None:
            search = jack_search(seed)
            first_caller = search.caller
        if not 0 <= first_caller < SEATS:
            raise ValueError(f"no seat {first_caller}")
        game = cls(
            rules=rules,
            session_seed=seed,
            dealer=(first_caller - 1) % SEATS,
            first_dealer=(first_caller - 1) % SEATS,
            caller=first_caller,
            hands=[[] for _ in range(SEATS)],
            jack_search=search,
            decisions=Decisions.for_seats(SEATS),
        )
        opening: list[TroefcallEvent] = [] if search is None else [JackSearched(search=search)]
        game._track(None, lambda: opening + game._deal(checked, redeal=False))
        return game

    @classmethod
    def from_position(
        cls,
        rules: TroefcallRules | None = None,
        *,
        caller: int,
        trump: Suit,
        hands: dict[int, Sequence[int]],
        history: Sequence[int] = (),
        trick: Sequence[int] = (),
        scores: tuple[int, int] = (0, 0),
        hand_number: int = 1,
        seed: bytes = b"position",
    ) -> TroefcallGame:
        """Build a position during the tricks (tests, puzzles); cards not listed are dead.

        The dealer is ``caller - 1`` (item 7). The seat due to play follows from the
        position: the current trick's leader is the last trick's winner (the caller at
        trick 1), and the seats after him play in turn. When ``history`` holds exactly seven
        tricks of one team and no card of trick 8 is played, the 7-trick decision is open;
        when play went past it, that team is committed to baunie.

        Parameters
        ----------
        caller
            The trump caller of the hand.
        trump
            The trump suit.
        hands
            Seat -> its cards now: 13 minus its cards played (tricks in ``history`` count
            one card each, plus its card in ``trick``). Every seat must be listed.
        history
            The winners of the completed tricks, in order (their cards are dead).
        trick
            The cards of the current trick so far, in play order from its leader.
        scores
            Team points before this hand.

        Raises
        ------
        ValueError
            If a card repeats, a hand has the wrong size, or the position's result is
            already fixed (nothing left to play).
        """
        rules = rules or TroefcallRules()
        cards = {s: [Card(c) for c in cs] for s, cs in hands.items()}
        current = [Card(c) for c in trick]
        listed = [c for cs in cards.values() for c in cs] + current
        if len(set(listed)) != len(listed):
            raise ValueError("a card is listed twice")
        if set(cards) != set(range(SEATS)) or any(not 0 <= s < SEATS for s in history):
            raise ValueError("list a hand for every seat 0-3, and only seats 0-3")
        if len(history) >= TRICKS or len(current) >= SEATS:
            raise ValueError("the current trick has at most 3 cards and the hand 13 tricks")
        leader = history[-1] if history else caller
        for s in range(SEATS):
            played_now = 1 if (s - leader) % SEATS < len(current) else 0
            if len(cards[s]) != TRICKS - len(history) - played_now:
                raise ValueError(f"seat {s} should hold {TRICKS - len(history) - played_now}")
        game = cls(
            rules=rules,
            session_seed=seed,
            phase=Phase.PLAY,
            deal_number=hand_number,
            hand_number=hand_number,
            dealer=(caller - 1) % SEATS,
            caller=caller,
            trump=trump,
            hands=[cards[s] for s in range(SEATS)],
            dead=[Card(i) for i in range(STANDARD_DECK_SIZE) if Card(i) not in set(listed)],
            tricks=[Trick(leader=None, winner=w) for w in history],
            current=Trick(leader=leader, cards=current),
            turn=(leader + len(current)) % SEATS,
            scores=list(scores),
            decisions=Decisions.for_seats(SEATS),
        )
        sweep = {team_of(w) for w in history[:FIRST_SEVEN]}
        if len(history) >= FIRST_SEVEN and len(sweep) == 1:
            if len(history) == FIRST_SEVEN and not current:
                game.phase, game.current = Phase.KAP, None
            else:
                game.baunie = sweep.pop()
        decided = game._decided(len(history)) if game.phase == Phase.PLAY else None
        if game.baunie is None and decided is not None:
            raise ValueError("the hand's result is already fixed")
        return game

    # ------------------------------------------------------------------ protocol

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def between_deals(self) -> bool:
        """True while the next hand waits for :meth:`start_deal`."""
        return self.phase == Phase.BETWEEN_HANDS

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The partnerships ``((0, 2), (1, 3))`` (§2.1 item 1)."""
        return TEAMS

    @property
    def tricks_won(self) -> tuple[int, int]:
        """Tricks of this hand won by team 0 and team 1."""
        won = [0, 0]
        for t in self.tricks:
            if t.winner is not None:
                won[team_of(t.winner)] += 1
        return won[0], won[1]

    @property
    def outcome(self) -> Outcome | None:
        """Once over: each seat's team points, places (the winning team first; equal scores
        share one place), the teams, and whether the game reached its end (§2.10)."""
        if not self.is_over:
            return None
        a, b = self.scores
        return Outcome(
            scores={s: self.scores[team_of(s)] for s in range(SEATS)},
            places=places((a, b)),
            teams=TEAMS,
            complete=bool(self.complete),
        )

    def pending(self) -> tuple[Pending, ...]:
        """The open decisions: the caller naming trumps, the seat to play, or the 7-trick
        decision (the trick-7 winner's, required; his partner's kap, optional, §2.7 35)."""
        if self.turn is None or self.phase not in (Phase.NAMING, Phase.PLAY, Phase.KAP):
            return ()
        out = [Pending.built(seat=self.turn, decision=self.decisions.ids[self.turn])]
        if self.phase == Phase.KAP:
            partner = (self.turn + 2) % SEATS
            out.append(Pending.built(seat=partner, decision=self.decisions.ids[partner],
                                     required=False))
        return tuple(out)

    @property
    def to_act(self) -> frozenset[int]:
        """Seats with a pending decision (two during the 7-trick decision)."""
        return frozenset(p.seat for p in self.pending())

    def decision_id(self, seat: int) -> int:
        """The id of ``seat``'s current decision (bumped whenever it gets or loses one)."""
        return self.decisions.ids[seat]

    def legal_actions(self, seat: int) -> list[Option]:
        """The options of ``seat`` now ([] when it has no decision); the one source of legality.

        ``name_trump`` (any of the four suits); ``play`` with the cards it may play
        (following suit, item 22); ``redeal`` for a caller without K, Q or J before his
        opening lead (§2.5); during the 7-trick decision ``play`` (any card: leading trick 8
        commits to baunie) and ``kap`` for the trick-7 winner, ``kap`` for his partner.
        """
        if seat not in self.to_act:
            return []
        hand = self.hands[seat]
        match self.phase:
            case Phase.NAMING:
                return [Option.built(kind="name_trump")]
            case Phase.KAP if seat != self.turn:
                return [Option.built(kind="kap")]
            case Phase.KAP:
                return [Option.built(kind="play", cards=tuple(sorted(hand)), count=1),
                        Option.built(kind="kap")]
        led = self.current.cards[0].suit if self.current and self.current.cards else None
        out = [Option.built(kind="play", cards=tuple(legal_plays(hand, led)), count=1)]
        if self._may_redeal(seat):
            out.append(Option.built(kind="redeal"))
        return out

    def check(self, seat: int, action: Action, decision: int | None = None) -> None:
        """Validate ``seat``'s ``action`` exactly as :meth:`apply` does, without applying it.

        Raises
        ------
        IllegalAction
            As :meth:`apply`.
        """
        self._check_turn(seat, decision)
        self._validate(seat, action)

    @changes
    def apply(self, seat: int, action: Action, decision: int | None = None) -> list[TroefcallEvent]:
        """Apply ``seat``'s ``action``; returns the events (all public).

        Raises
        ------
        IllegalAction
            ``game_over``, ``between_deals``, ``not_your_turn``, ``stale`` (``decision`` is
            not the seat's current decision id), ``illegal`` (not an option now: another
            kind, a card not held, not following suit, a redeal not allowed). The state is
            unchanged then.
        """
        self.check(seat, action, decision)
        return self._track(seat, lambda: self._do(seat, action))

    def timeout_action(self, seat: int) -> Action:
        """The default when ``seat``'s required decision times out.

        Naming trumps → the suit the caller holds most of among his five (ties: the higher
        cards, compared from the top; then ♠, ♥, ♦, ♣). Playing → the lowest legal card:
        a non-trump if any, lowest rank, then ♣ < ♦ < ♥ < ♠ (:func:`tricks.lowest`). The
        trick-7 winner → kap partij (§2.7 item 35). A redeal is never a default.

        Raises
        ------
        IllegalAction
            ``not_your_turn`` if the seat has no decision; ``optional`` for the partner's
            kap, which simply lapses (DESIGN.md §2).
        """
        if seat not in self.to_act:
            raise IllegalAction("not_your_turn", "You have no decision to make.",
                                reason="no_decision")
        if self.phase == Phase.NAMING:
            return NameTrump(suit=self._strongest_suit(self.hands[seat]))
        if self.phase == Phase.KAP:
            if seat != self.turn:
                raise IllegalAction("optional", "The partner's kap partij lapses by itself.",
                                    reason="troefcall.kap_lapses")
            return KapPartij()
        play = self.legal_actions(seat)[0]
        return Play(card=lowest(play.cards, self.trump))

    # ------------------------------------------------------------------ runtime operations

    @changes
    def start_deal(self, deck: Sequence[int] | None = None) -> list[TroefcallEvent]:
        """Start the next hand (only between hands); ``deck`` fixes its card order.

        Raises
        ------
        IllegalAction
            ``game_over`` when the game is over, ``illegal`` during a hand.
        ValueError
            If ``deck`` is not the 52 cards.
        """
        if self.phase == Phase.OVER:
            raise IllegalAction("game_over", "The game is over.", reason="game_over")
        if self.phase != Phase.BETWEEN_HANDS:
            raise IllegalAction("illegal", "A hand is in progress.",
                                reason="troefcall.hand_in_progress")
        checked = checked_deck(deck, STANDARD_DECK_SIZE)
        return self._track(None, lambda: self._deal(checked, redeal=False))

    @changes
    def end_session(
        self, abandon: bool = False, *, reason: EndReason = EndReason.HOST
    ) -> list[TroefcallEvent]:
        """End the game (DESIGN.md §4 "Ending").

        Between hands: over at once. During a hand: with ``abandon`` False the hand is
        finished first (and scored); with ``abandon`` True it is dropped unscored at once.

        The first team to reach the target wins (rules/troefcall.md §2.10 item 50); a game
        played to a fixed number of hands or to a time limit is won by the higher score
        (item 52). So a game ended by the table's agreed length (``reason``
        :attr:`~engine.core.EndReason.LENGTH`) is complete, won by the higher score; with
        the scores tied it plays on and ends after the next hand that breaks the tie (item
        52's recommendation; only one team scores a hand, item 51), or at once without a
        winner when abandoning. A game the host ends, or the runtime for lack of players,
        before a team reached the target is incomplete: no winner (stakes back, nothing
        rated), places by score.

        Parameters
        ----------
        abandon
            Drop the hand in progress unscored (an abandoned trick stays as it was).
        reason
            Why the game ends (:class:`~engine.core.EndReason`; default the host's end).

        Raises
        ------
        IllegalAction
            ``game_over`` when the game is already over.
        """
        if self.phase == Phase.OVER:
            raise IllegalAction("game_over", "The game is over.", reason="game_over")
        winner = self._agreed_winner(reason)
        if abandon or (self.phase == Phase.BETWEEN_HANDS
                       and (winner is not None or reason is not EndReason.LENGTH)):
            return self._track(None, lambda: self._finish(winner))
        self.ending, self.end_reason = True, reason
        if reason is EndReason.LENGTH and self.phase == Phase.BETWEEN_HANDS:  # tied
            return self._track(None, lambda: [TieToBreak(score=self.scores[0])])
        return []

    def _agreed_winner(self, reason: EndReason | None) -> int | None:
        """The team that wins a game ended for ``reason`` now: the higher score when it
        ended by its agreed length (item 52), else (or tied) None."""
        a, b = self.scores
        if reason is not EndReason.LENGTH or a == b:
            return None
        return 0 if a > b else 1

    @changes
    def fix_next_deck(self, deck: Sequence[int] | None) -> None:
        """Fix the card order of the next shuffle, a redeal's included (tests, puzzles).

        Raises
        ------
        ValueError
            If ``deck`` is not the 52 cards.
        """
        self.next_deck = checked_deck(deck, STANDARD_DECK_SIZE)

    def view(self, seat: int) -> TroefcallSeatView:
        """What ``seat`` may see: its own hand and options, and the public board.

        Raises
        ------
        ValueError
            If there is no such seat.
        """
        if not 0 <= seat < SEATS:
            raise ValueError(f"no seat {seat}")
        return self.viewed(("seat", seat), lambda: _seat_view(self, seat))

    def public_view(self) -> TroefcallTableView:
        """What every onlooker may see: no hand, no seed."""
        return self.viewed("public", lambda: _table_view(self))

    # ------------------------------------------------------------------ validation

    def _check_turn(self, seat: int, decision: int | None) -> None:
        if self.phase == Phase.OVER:
            raise IllegalAction("game_over", "The game is over.", reason="game_over")
        if self.phase == Phase.BETWEEN_HANDS:
            raise IllegalAction("between_deals", "No hand is in progress.",
                                reason="troefcall.no_hand")
        if not 0 <= seat < SEATS:
            raise IllegalAction("not_your_turn", f"There is no seat {seat}.", reason="no_seat",
                                seat=seat)
        if decision is not None:
            self.decisions.check(seat, decision)
        if seat not in self.to_act:
            raise IllegalAction("not_your_turn", "It is not your turn.", reason="not_your_turn")

    def _validate(self, seat: int, action: Action) -> None:
        """Refuse ``action`` unless it matches one of :meth:`legal_actions` exactly."""
        option = next((o for o in self.legal_actions(seat) if o.kind == action.kind), None)
        if option is None or type(action) is not _ACTION_TYPES.get(action.kind):
            raise IllegalAction("illegal", f"You cannot {action.kind} now.",
                                reason=f"troefcall.cannot.{action.kind}")
        if isinstance(action, Play) and action.card not in option.cards:
            if action.card in self.hands[seat]:
                raise IllegalAction("illegal", "You must follow suit.",
                                    reason="troefcall.follow_suit")
            raise IllegalAction("illegal", "That card is not in your hand.",
                                reason="not_in_hand")

    def _may_redeal(self, seat: int) -> bool:
        """The caller, before his opening lead, holding 13 cards and no K, Q or J (§2.5)."""
        return (
            self.phase == Phase.PLAY
            and seat == self.caller
            and not self.tricks
            and self.current is not None
            and not self.current.cards
            and len(self.hands[seat]) == TRICKS
            and not has_court_card(self.hands[seat])
        )

    # ------------------------------------------------------------------ transitions

    def _track(
        self, actor: int | None, step: Callable[[], list[TroefcallEvent]]
    ) -> list[TroefcallEvent]:
        """Run ``step`` and bump the decision ids of seats that gained or lost a decision."""
        before, phase, deal = self.to_act, self.phase, self.deal_number
        events = step()
        moved_on = phase != self.phase or deal != self.deal_number
        self.decisions.after_step(before, self.to_act, moved_on, actor)
        self._logged_events(events)
        return events

    def _do(self, seat: int, action: Action) -> list[TroefcallEvent]:
        match action:
            case NameTrump(suit=suit):
                return self._name_trump(seat, suit)
            case Play(card=card):
                return self._play(seat, card)
            case KapPartij():
                return self._kap(seat)
        return self._redeal(seat)

    def _deal(self, deck: list[Card] | None, redeal: bool) -> list[TroefcallEvent]:
        """Shuffle (or take the fixed deck) and give the caller his first 5 cards (item 11)."""
        if not redeal:
            self.hand_number += 1
        self.deal_number += 1
        cards = self._take_deck(deck)
        self.hands = [[] for _ in range(SEATS)]
        self.hands[self.caller] = cards[:FIRST_PACKET]
        self.stock, self.dead = cards[FIRST_PACKET:], []
        self.trump, self.tricks, self.current, self.baunie = None, [], None, None
        self.phase, self.turn = Phase.NAMING, self.caller
        return [
            DealStarted(
                deal_number=self.deal_number,
                hand_number=self.hand_number,
                dealer=self.dealer,
                caller=self.caller,
                commitment=self.commitment,
                redeal=redeal,
            )
        ]

    def _take_deck(self, deck: list[Card] | None) -> list[Card]:
        """The fixed deck if any (no commitment), else the shuffle of ``deal_number``."""
        deck = deck if deck is not None else self.next_deck
        self.next_deck = None
        if deck is not None:
            self.commitment = None
            return list(deck)
        self.commitment = fairness.commitment(self.session_seed, self.deal_number)
        return fairness.shuffled_deck(self.session_seed, self.deal_number)

    def _name_trump(self, seat: int, suit: Suit) -> list[TroefcallEvent]:
        """Trumps are named; deal the rest 5-5-5, 4-4-4-4, 4-4-4-4 (item 13, A4)."""
        self.trump = suit
        stock = iter(self.stock)
        for size, first in zip(PACKETS, (1, 0, 0), strict=True):
            for k in range(first, SEATS):
                self.hands[(seat + k) % SEATS] += [next(stock) for _ in range(size)]
        self.stock = []
        self.phase, self.current, self.turn = Phase.PLAY, Trick(leader=seat), seat
        return [TrumpNamed(seat=seat, suit=suit)]

    def _play(self, seat: int, card: Card) -> list[TroefcallEvent]:
        events: list[TroefcallEvent] = []
        if self.phase == Phase.KAP:  # the trick-7 winner plays on (item 33)
            self.baunie = team_of(seat)
            self.phase, self.current = Phase.PLAY, Trick(leader=seat)
            events.append(BaunieCommitted(seat=seat, team=self.baunie))
        trick = self.current
        assert trick is not None and trick.leader is not None and self.trump is not None
        self.hands[seat].remove(card)
        trick.cards.append(card)
        events.append(CardPlayed(seat=seat, card=card, trick=len(self.tricks) + 1))
        if len(trick.cards) < SEATS:
            self.turn = (seat + 1) % SEATS
            return events
        trick.winner = (trick.leader + winning_index(trick.cards, self.trump)) % SEATS
        self.tricks.append(trick)
        self.current = None
        events.append(
            TrickWon(seat=trick.winner, trick=len(self.tricks), tricks=self.tricks_won)
        )
        return events + self._after_trick(trick.winner)

    def _after_trick(self, winner: int) -> list[TroefcallEvent]:
        """End the hand if its result is fixed, open the 7-trick decision, or lead on."""
        n, team = len(self.tricks), team_of(winner)
        if self.baunie is not None:
            if team != self.baunie:  # item 41: the hand ends at once
                return self._end_hand(1 - self.baunie, "failed_baunie")
            if n == TRICKS:
                return self._end_hand(team, "baunie")
        elif n == FIRST_SEVEN and self.tricks_won[team] == FIRST_SEVEN:
            self.phase, self.turn = Phase.KAP, winner
            return [KapOffered(seat=winner, partner=(winner + 2) % SEATS)]
        elif (decided := self._decided(n)) is not None:
            return self._end_hand(decided, "seven")
        self.current, self.turn = Trick(leader=winner), winner
        return []

    def _decided(self, n: int) -> int | None:
        """The team that scores "seven" now (item 37, 45), if the hand ends after trick n."""
        if n < TRICKS and self.rules.play_all_tricks:
            return None
        return next((t for t, won in enumerate(self.tricks_won) if won >= FIRST_SEVEN), None)

    def _kap(self, seat: int) -> list[TroefcallEvent]:
        """Kap partij: 5 by the trick-7 winner, 2 by his partner (items 38-39, A1, A2)."""
        by_winner = seat == self.turn
        reason: Reason = "kap" if by_winner else "partner_kap"
        return [
            KapCalled(seat=seat, trick7_winner=by_winner),
            *self._end_hand(team_of(seat), reason, seat),
        ]

    def _redeal(self, seat: int) -> list[TroefcallEvent]:
        """Show the hand; the same dealer deals a new shuffle (items 15-18, A6)."""
        shown = tuple(sorted(self.hands[seat]))
        return [Redealt(seat=seat, shown=shown), *self._deal(None, redeal=True)]

    def _end_hand(
        self, team: int, reason: Reason, seat: int | None = None
    ) -> list[TroefcallEvent]:
        """Score the hand (§2.8), rotate (§2.9) and end the game if it is won (§2.10)."""
        self.scores[team] += points(self.rules, reason)
        next_dealer, next_caller = rotate(self.dealer, self.caller, team)
        result = HandResult(
            hand_number=self.hand_number,
            team=team,
            points=points(self.rules, reason),
            reason=reason,
            seat=seat,
            tricks=self.tricks_won,
            scores=(self.scores[0], self.scores[1]),
            dealer=self.dealer,
            caller=self.caller,
            next_dealer=next_dealer,
            next_caller=next_caller,
        )
        self.results.append(result)
        self.dealer, self.caller = next_dealer, next_caller
        self.phase, self.turn, self.current = Phase.BETWEEN_HANDS, None, None
        events: list[TroefcallEvent] = [HandScored(result=result)]
        target, deals = self.rules.target, self.rules.deals
        a, b = self.scores
        if target is not None and self.scores[team] >= target:
            return events + self._finish(team)
        if deals is not None and len(self.results) >= deals and a != b:  # item 52
            return events + self._finish(0 if a > b else 1)
        if self.ending:
            winner = self._agreed_winner(self.end_reason)
            if winner is not None or self.end_reason is not EndReason.LENGTH:
                return events + self._finish(winner)
        return events

    def _finish(self, winner: int | None) -> list[TroefcallEvent]:
        """Over: won by ``winner``, or (None) ended before the rules' end (an abandoned trick
        stays as it was)."""
        self.phase, self.turn = Phase.OVER, None
        self.winner, self.complete = winner, winner is not None
        scores = (self.scores[0], self.scores[1])
        return [GameOver(scores=scores, winner=winner, complete=self.complete)]

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _strongest_suit(cards: Sequence[Card]) -> Suit:
        """The suit with most cards; ties: higher cards from the top, then ♠ ♥ ♦ ♣."""

        def key(suit: Suit) -> tuple[int, list[int], int]:
            ranks = sorted((int(c.rank) for c in cards if c.suit == suit), reverse=True)
            return len(ranks), ranks, int(suit)

        return max(Suit, key=key)


_ACTION_TYPES: dict[str, type[Action]] = {
    "name_trump": NameTrump,
    "play": Play,
    "kap": KapPartij,
    "redeal": ClaimRedeal,
}



# ------------------------------------------------------------------ projection (views.py)


def _trick(number: int, leader: int | None, cards: Sequence[Card], winner: int | None
           ) -> TrickView:
    plays = tuple(
        PlayedCard.built(seat=(leader + i) % 4, card=c)
        for i, c in enumerate(cards) if leader is not None
    )
    return TrickView.built(number=number, leader=leader, plays=plays, winner=winner)


@lru_cache(maxsize=1024)
def _done_trick(number: int, leader: int | None, cards: tuple[Card, ...], winner: int | None
                ) -> TrickView:
    """The view of a completed trick, made once for its number, leader, cards and winner
    (every view of the hand holds its completed tricks; views are frozen, so one serves
    them all)."""
    return _trick(number, leader, cards, winner)


def _table_view(game: TroefcallGame) -> TroefcallTableView:
    """The public view of ``game``."""
    done = tuple(
        _done_trick(i + 1, t.leader, tuple(t.cards), t.winner) for i, t in enumerate(game.tricks)
    )
    current = None
    if game.current is not None and game.current.cards:
        current = _trick(len(game.tricks) + 1, game.current.leader, game.current.cards, None)
    kap = None
    if game.phase == Phase.KAP and game.turn is not None:
        kap = KapView.built(seat=game.turn, partner=(game.turn + 2) % 4,
                                      team=team_of(game.turn))
    pending = game.pending()
    return TroefcallTableView.built(
        rules=game.rules,
        phase=game.phase,
        deal_number=game.deal_number,
        hand_number=game.hand_number,
        dealer=game.dealer,
        caller=game.caller,
        trump=game.trump,
        teams=TEAMS,
        turn=game.turn,
        to_act=tuple(sorted(game.to_act)),
        optional=tuple(p.seat for p in pending if not p.required),
        hand_sizes={s: len(game.hands[s]) for s in range(game.seats)},
        trick=current,
        tricks=done,
        trick_winners=tuple(t.winner for t in game.tricks if t.winner is not None),
        tricks_won=game.tricks_won,
        scores=(game.scores[0], game.scores[1]),
        target=game.rules.target,
        deals=game.rules.deals,
        kap=kap,
        baunie=game.baunie,
        jack_search=game.jack_search,
        last_result=game.results[-1] if game.results else None,
        results=tuple(game.results),
        commitment=game.commitment,
        ending=game.ending,
        winner=game.winner,
        log=tuple(game.log),
    )


def _seat_view(game: TroefcallGame, seat: int) -> TroefcallSeatView:
    """The view of ``seat``: the public view plus its own hand and options."""
    mine = [p for p in game.pending() if p.seat == seat]
    return TroefcallSeatView.built(
        seat=seat,
        team=team_of(seat),
        partner=(seat + 2) % 4,
        hand=tuple(sorted(game.hands[seat])),
        options=tuple(game.legal_actions(seat)),
        decision_id=game.decision_id(seat),
        decision_required=mine[0].required if mine else None,
        table=game.public_view(),
    )
