"""Poker hands for the tests of engine.poker and of how the bot names hands."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement


def one_hand_per_value() -> list[list[int]]:
    """A hand (card ids, ``suit * 13 + rank - 2``) of each of the 7,462 poker hand values:
    every 5 ranks, not all equal, off suit (the n-th card of a rank in the n-th suit; 5
    distinct ranks with the first card in another suit), then every 5 distinct ranks of one
    suit."""
    hands = []
    for ranks in combinations_with_replacement(range(13), 5):
        if ranks[0] == ranks[4]:
            continue
        seen: Counter[int] = Counter()
        hand = []
        for r in ranks:
            hand.append(seen[r] * 13 + r)
            seen[r] += 1
        if len(seen) == 5:
            hand[0] += 13
        hands.append(hand)
    return hands + [list(ranks) for ranks in combinations(range(13), 5)]
