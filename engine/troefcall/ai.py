"""A Troefcall partner that sees only its own view and options (``rules/troefcall.md`` §2).

It plays like a decent human partner: it names the strongest suit as trumps, leads its
masters (cards no unseen card of their suit beats), wins a trick with its cheapest card that
wins (a master when a later opponent could still beat a cheaper one), does not overtake a
partner who is winning, trumps only when void and an opponent is winning, discards low,
stops at seven (kap partij) unless all thirteen tricks are certain from what it can see, and
claims a redeal when it holds no court card and its hand is weak. Randomness comes only from
the ``rng`` the caller passes (seed it for reproducible tables and tests).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import Card, Rank, Suit
from engine.core import Action, Option
from engine.troefcall.actions import ClaimRedeal, KapPartij, NameTrump, Play
from engine.troefcall.tricks import beats, lowest, winning_index
from engine.troefcall.views import TroefcallSeatView

HONOURS = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}  # trump-choice points
KEEP_ACES, KEEP_TRUMPS = 2, 4  # a court-less hand is kept with at least 2 aces and 4 trumps


def choose(
    view: TroefcallSeatView, options: Sequence[Option], rng: random.Random
) -> Action | None:
    """One action for ``view.seat`` from ``options`` (its ``legal_actions``), or None.

    None only for an optional decision the AI lets lapse: the partner's kap partij (2
    points), left to the trick-7 winner (5 points, or baunie when it is certain).

    Raises
    ------
    ValueError
        If ``options`` is empty (the seat has no decision).
    """
    if not options:
        raise ValueError("no decision to make")
    by_kind = {o.kind: o for o in options}
    if "name_trump" in by_kind:
        return NameTrump(suit=_trump_choice(view.hand, rng))
    if "play" not in by_kind:  # the partner's optional kap
        return None
    play = by_kind["play"]
    if "kap" in by_kind and not _thirteen_certain(view):
        return KapPartij()
    if "redeal" in by_kind and _weak(view):
        return ClaimRedeal()
    return Play(card=_card(view, play.cards))


def random_legal(options: Sequence[Option], rng: random.Random) -> Action:
    """A uniformly random option, then a random card or suit for it (baselines, tests).

    Raises
    ------
    ValueError
        If ``options`` is empty.
    """
    if not options:
        raise ValueError("no decision to make")
    o = rng.choice(list(options))
    if o.kind == "play":
        return Play(card=rng.choice(o.cards))
    if o.kind == "name_trump":
        return NameTrump(suit=rng.choice(list(Suit)))
    return KapPartij() if o.kind == "kap" else ClaimRedeal()


def _trump_choice(hand: Sequence[Card], rng: random.Random) -> Suit:
    """The suit with most length and honours among the five cards (3 per card + A4 K3 Q2
    J1); ties by ``rng``."""

    def strength(suit: Suit) -> int:
        return sum(3 + HONOURS.get(c.rank, 0) for c in hand if c.suit == suit)

    best = max(strength(s) for s in Suit)
    return rng.choice([s for s in Suit if strength(s) == best])


def _weak(view: TroefcallSeatView) -> bool:
    """A court-less hand worth a redeal: fewer than 2 aces or fewer than 4 trumps."""
    aces = sum(c.rank == Rank.ACE for c in view.hand)
    trumps = sum(c.suit == view.table.trump for c in view.hand)
    return aces < KEEP_ACES or trumps < KEEP_TRUMPS


def _unseen(view: TroefcallSeatView) -> set[Card]:
    """Cards neither in the seat's hand nor played in this hand (as far as it can see)."""
    table = view.table
    seen = set(view.hand) | {p.card for t in table.tricks for p in t.plays}
    if table.trick is not None:
        seen |= {p.card for p in table.trick.plays}
    return {Card(i) for i in range(52)} - seen


def _is_master(card: Card, unseen: set[Card]) -> bool:
    return not any(u.suit == card.suit and u.rank > card.rank for u in unseen)


def _thirteen_certain(view: TroefcallSeatView) -> bool:
    """Leading every remaining trick wins it: no trump unseen, and in every suit the seat
    holds, each of its cards beats every unseen card of that suit."""
    unseen, trump = _unseen(view), view.table.trump
    if any(u.suit == trump for u in unseen):
        return False
    for suit in {c.suit for c in view.hand}:
        mine = min(c.rank for c in view.hand if c.suit == suit)
        if any(u.suit == suit and u.rank > mine for u in unseen):
            return False
    return True


def _card(view: TroefcallSeatView, legal: Sequence[Card]) -> Card:
    table = view.table
    trump = table.trump
    assert trump is not None
    unseen = _unseen(view)
    plays = table.trick.plays if table.trick is not None else ()
    if not plays:
        return _lead(legal, trump, unseen)
    cards = [p.card for p in plays]
    best = winning_index(cards, trump)
    if plays[best].seat == view.partner:  # do not overtake a winning partner
        return lowest(legal, trump)
    led = cards[0].suit
    winners = [c for c in legal if beats(c, cards[best], led, trump)]
    if not winners:
        return lowest(legal, trump)
    cheapest = min(winners, key=lambda c: (c.suit == trump, c.rank))
    last = len(plays) == 3
    if last or cheapest.suit == trump or _is_master(cheapest, unseen):
        return cheapest
    masters = [c for c in winners if c.suit == led and _is_master(c, unseen)]
    return min(masters, key=lambda c: c.rank) if masters else cheapest


def _lead(legal: Sequence[Card], trump: Suit, unseen: set[Card]) -> Card:
    """A master (trumps first while opponents may still hold trumps), else the lowest card
    of the longest plain suit."""
    masters = [c for c in legal if _is_master(c, unseen)]
    trumps_out = any(u.suit == trump for u in unseen)
    for pick in (
        [c for c in masters if c.suit == trump and trumps_out],
        [c for c in masters if c.suit != trump],
        masters,
    ):
        if pick:
            return max(pick, key=lambda c: c.rank)
    plain = [c for c in legal if c.suit != trump] or list(legal)
    length = {s: sum(c.suit == s for c in plain) for s in Suit}
    return min(plain, key=lambda c: (-length[c.suit], c.rank, c.suit))
