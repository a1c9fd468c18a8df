"""A simple Tripoli player that sees only its own view and options.

It never stalls: :func:`choose` always returns one of the options given. Randomness comes
only from the ``rng`` the caller passes (seed it for reproducible tables and tests).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import Card, Rank, Suit
from engine.core import Action, Option
from engine.poker import Category, best_five, category, hand_value
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
from engine.tripoli.pay_cards import pay_card_spaces
from engine.tripoli.views import TripoliSeatView

WEAK = Category.ONE_PAIR  # a hand no better than this is "weak"


def choose(view: TripoliSeatView, options: Sequence[Option], rng: random.Random) -> Action:
    """One legal action for ``view.seat``, chosen from ``options`` (its ``legal_actions``).

    Spare: keep unless the hand is weak (then exchange, sometimes auction); after an
    exchange, sometimes auction the old hand. Auctions of a hand: a small bid now and then,
    else pass. Pay-suit auction: bid up to 2 chips per pay card it holds in its best suit,
    then name that suit. Poker: select the best five; bet, call, raise or fold by hand
    category, with some randomness. Michigan: lead a card that runs to an ace in its own
    hand if any (it keeps the lead), else the lead that sheds most of its own cards, lowest
    first.

    Raises
    ------
    ValueError
        If ``options`` is empty (the seat has no decision).
    """
    if not options:
        raise ValueError("no decision to make")
    by_kind = {o.kind: o for o in options}
    if "select" in by_kind:
        return Select(cards=best_five(by_kind["select"].cards))
    if "lead" in by_kind:
        return Lead(card=_lead(view.hand, by_kind["lead"].cards))
    if "name_suit" in by_kind:
        return NameSuit(suit=_best_suit(view)[0])
    if "bid" in by_kind or "pass" in by_kind:
        return _bid(view, by_kind.get("bid"), rng)
    if "keep" in by_kind:
        return _spare(view, by_kind, rng)
    return _bet(view, by_kind, rng)


def _strength(cards: Sequence[Card]) -> Category:
    if len(cards) < 5:
        return Category.HIGH_CARD
    return category(hand_value(best_five(cards)))


def _spare(view: TripoliSeatView, by_kind: dict[str, Option], rng: random.Random) -> Action:
    if "exchange" not in by_kind:  # after an exchange (auction the old hand?) or none left
        return Auction() if "auction" in by_kind and rng.random() < 0.3 else Keep()
    pay_cards = {c for _, c in pay_card_spaces(view.table.rules, view.table.pay_suit)}
    weak = _strength(view.hand) <= WEAK and not pay_cards & set(view.hand)
    if not weak:
        return Keep()
    if "auction" in by_kind and rng.random() < 0.25:
        return Auction()
    return Exchange()


def _best_suit(view: TripoliSeatView) -> tuple[Suit, int]:
    """The suit whose pay cards the seat holds most of (ties: ♥ first), and how many."""
    held = set(view.hand)
    counts = {
        suit: sum(c in held for _, c in pay_card_spaces(view.table.rules, suit))
        for suit in (Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS)
    }
    best = max(counts, key=lambda suit: counts[suit])
    return best, counts[best]


def _bid(view: TripoliSeatView, bid: Option | None, rng: random.Random) -> Action:
    if bid is None or bid.min is None or bid.max is None:
        return Pass()
    auction = view.table.auction
    if auction is not None and auction.item == "pay_suit":
        worth = 2 * _best_suit(view)[1] - 1
        return Bid(amount=bid.min) if bid.min <= min(worth, bid.max) else Pass()
    affordable = bid.min <= 3 and bid.max >= bid.min + 10
    if affordable and rng.random() < 0.3:
        return Bid(amount=bid.min)
    return Pass()


def _bet(view: TripoliSeatView, by_kind: dict[str, Option], rng: random.Random) -> Action:
    cards = view.selection or view.hand
    cat = int(_strength(cards))
    noise = rng.random()
    if "check" in by_kind:
        bet = by_kind.get("bet")
        if bet and bet.min is not None and bet.max is not None and cat >= 2 and noise < 0.7:
            return Bet(amount=min(bet.max, max(bet.min, rng.randint(1, 2 + cat))))
        return Check()
    to_call = view.to_call or 0
    raise_ = by_kind.get("raise")
    if raise_ and raise_.min is not None and raise_.max is not None and cat >= 3 and noise < 0.4:
        return Raise(amount=min(raise_.max, rng.randint(raise_.min, 1 + cat)))
    threshold = 2 + 4 * cat + (3 if noise < 0.3 else 0)
    if "call" in by_kind and to_call <= threshold:
        return Call()
    return Fold()


def _lead(hand: Sequence[Card], leads: Sequence[Card]) -> Card:
    """Prefer a lead whose run reaches an ace in our own hand, then the longest own run."""
    own = set(hand)

    def score(card: Card) -> tuple[bool, int, int, int]:
        run = card
        length = 1
        while run.rank < Rank.ACE and Card(run + 1) in own:
            run = Card(run + 1)
            length += 1
        return (run.rank == Rank.ACE, length, -int(card.rank), -int(card.suit))

    return max(leads, key=score)


def random_legal(options: Sequence[Option], rng: random.Random) -> Action:
    """A uniformly random legal action: an option, then a uniform amount or cards in it.

    Used by random-legal players in tests and benchmarks.

    Raises
    ------
    ValueError
        If ``options`` is empty.
    """
    if not options:
        raise ValueError("no decision to make")
    o = rng.choice(list(options))
    if o.kind in _AMOUNT_ACTIONS:
        assert o.min is not None and o.max is not None
        return _AMOUNT_ACTIONS[o.kind](amount=rng.randint(o.min, o.max))
    if o.kind == "select":
        return Select(cards=tuple(rng.sample(list(o.cards), o.count)))
    if o.kind == "lead":
        return Lead(card=rng.choice(o.cards))
    if o.kind == "name_suit":
        return NameSuit(suit=rng.choice(list(Suit)))
    return _PLAIN_ACTIONS[o.kind]()


_AMOUNT_ACTIONS: dict[str, type[Bid] | type[Bet] | type[Raise]] = {
    "bid": Bid,
    "bet": Bet,
    "raise": Raise,
}
_PLAIN_ACTIONS: dict[str, type[Action]] = {
    "keep": Keep,
    "exchange": Exchange,
    "auction": Auction,
    "pass": Pass,
    "check": Check,
    "call": Call,
    "fold": Fold,
}
