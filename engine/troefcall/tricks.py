"""Tricks: following suit and who wins (``rules/troefcall.md`` §2.6 items 22-24).

Cards rank A K Q J 10 9 … 2 in every suit (§2.1 item 4): a higher :class:`Rank` value is
a higher card. A trick's cards are listed in play order from its leader, clockwise.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, Rank, Suit

COURT_RANKS = frozenset((Rank.KING, Rank.QUEEN, Rank.JACK))  # aces are not court cards


def legal_plays(hand: Sequence[Card], led: Suit | None) -> list[Card]:
    """The cards of ``hand`` that may be played to a trick whose led suit is ``led``.

    A seat holding the led suit must play one of it (any rank, item 22); a seat without it,
    or the leader (``led`` None), may play any card (items 20, 23, 25). Sorted by card id.
    """
    following = [c for c in hand if c.suit == led]
    return sorted(following or hand)


def winning_index(cards: Sequence[Card], trump: Suit) -> int:
    """Index in ``cards`` (play order, leader first) of the card that wins so far (item 24).

    The highest trump if any trump was played, else the highest card of the led suit.

    Raises
    ------
    ValueError
        If ``cards`` is empty.
    """
    if not cards:
        raise ValueError("an empty trick has no winner")
    led = cards[0].suit

    def strength(i: int) -> tuple[int, int]:
        c = cards[i]
        return (2 if c.suit == trump else 1 if c.suit == led else 0, int(c.rank))

    return max(range(len(cards)), key=strength)


def beats(card: Card, best: Card, led: Suit, trump: Suit) -> bool:
    """Whether ``card`` played now would win a trick that ``best`` is winning (item 24)."""
    if card.suit == best.suit:
        return card.rank > best.rank
    return card.suit == trump or (card.suit == led and best.suit not in (trump, led))


def has_court_card(hand: Sequence[Card]) -> bool:
    """Whether ``hand`` holds a K, Q or J (the redeal test of §2.5 items 15-16)."""
    return any(c.rank in COURT_RANKS for c in hand)


def lowest(cards: Sequence[Card], trump: Suit | None) -> Card:
    """The lowest card of ``cards``: a non-trump if any, lowest rank, then suit ♣ < ♦ < ♥ < ♠.

    Raises
    ------
    ValueError
        If ``cards`` is empty.
    """
    return min(cards, key=lambda c: (c.suit == trump, int(c.rank), int(c.suit)))
