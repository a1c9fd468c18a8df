"""Penalty points (``rules/kalooki.md`` §2.2 item 5, §2.10 item 56, §2.11; T20, T25, T26; K2).

Points; lower is better.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import Card, Rank
from engine.kalooki.rules import KalookiRules

JOKER_POINTS = 50
BLACK_ACE_POINTS = 15
RED_ACE_POINTS = 1
COURT_POINTS = 10  # K Q J and 10
CHALLENGE_POINTS = 50  # added to the hand of a challenge's loser (§2T.6 T20)


def card_points(card: Card) -> int:
    """A card's penalty: Jkr 50, black ace 15, red ace 1, K Q J 10 = 10, 2-9 face value."""
    card = Card(card)
    if card.is_joker:
        return JOKER_POINTS
    if card.rank == Rank.ACE:
        return RED_ACE_POINTS if card.suit.is_red else BLACK_ACE_POINTS
    return min(int(card.rank), COURT_POINTS)


def hand_points(cards: Iterable[Card]) -> int:
    """The penalty of a hand: the sum of :func:`card_points` (§2.11 item 57)."""
    return sum(card_points(c) for c in cards)


def deal_penalty(cards: Iterable[Card], down_and_out: bool, rules: KalookiRules) -> int:
    """What a player holding ``cards`` scores when another goes out (§2.10 item 56, K2).

    Down and out doubles it (``double``), adds 2 (``plus2``) or changes nothing (``none``).
    """
    points = hand_points(cards)
    if not down_and_out or rules.down_and_out == "none":
        return points
    return 2 * points if rules.down_and_out == "double" else points + 2


def challenge_score(cards: Iterable[Card]) -> int:
    """The deal score of a challenge's loser holding ``cards``: their penalty + 50 (T20)."""
    return hand_points(cards) + CHALLENGE_POINTS
