"""Phase 3, Michigan (stops): legal leads and the state between runs (``rules/tripoli.md`` §2.7).

Lead sets (§6): a set with several cards is a player decision; an empty set passes the lead
to the left (item 50); when nobody has a lead the deal is blocked (item 51). Forced follows
are never decisions: the game plays them (item 46).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel

from engine.cards import Card, Rank, Suit
from engine.tripoli.rules import TripoliRules

LeadKind = Literal["lowest_of_suit", "lowest_card", "lowest_of_colour", "lowest_of_longest_suit"]


class Michigan(BaseModel):
    """Where phase 3 stands between runs: who is due to lead and what the lead must be."""

    turn: int  # the seat due to lead (after any passing, item 50)
    first: bool = True  # the first lead of the deal is still to be made (item 45)
    barred: Suit | None = None  # the suit just played (item 49)
    red: bool | None = None  # colour required by colour leads (``colour`` preset, §3.7)
    last_run: list[Card] = []
    stopper: int | None = None


def lowest(cards: Sequence[Card]) -> Card:
    """The lowest card by rank (rank ties ♣ < ♦ < ♥ < ♠; §4 item 33)."""
    return min(cards, key=lambda c: (c.rank, c.suit))


def lead_set(
    hand: Sequence[Card], kind: LeadKind, barred: Suit | None, red: bool | None
) -> list[Card]:
    """The legal lead cards of ``hand``, sorted by (rank, suit).

    Parameters
    ----------
    kind
        ``lowest_of_suit``: the lowest card of every suit held except ``barred``;
        ``lowest_card``: every card of the lowest rank held;
        ``lowest_of_colour``: the cards of the lowest rank among those of colour ``red``;
        ``lowest_of_longest_suit``: the lowest card of every longest suit.
    """
    by_suit: dict[Suit, list[Card]] = {}
    for c in hand:
        by_suit.setdefault(c.suit, []).append(c)
    if kind == "lowest_of_suit":
        out = [min(cs) for s, cs in by_suit.items() if s != barred]
    elif kind == "lowest_of_longest_suit":
        longest = max((len(cs) for cs in by_suit.values()), default=0)
        out = [min(cs) for cs in by_suit.values() if len(cs) == longest]
    else:
        pool = list(hand) if kind == "lowest_card" else [c for c in hand if c.suit.is_red == red]
        low = min((c.rank for c in pool), default=None)
        out = [c for c in pool if c.rank == low]
    return sorted(out, key=lambda c: (c.rank, c.suit))


def lead_rule(rules: TripoliRules, m: Michigan) -> tuple[LeadKind, Suit | None, bool | None]:
    """The lead set that applies now: ``first_lead`` for the first lead, else ``next_lead``."""
    if m.first:
        if rules.first_lead == "lowest_black":
            return "lowest_of_colour", None, False
        return rules.first_lead, None, None
    if rules.next_lead == "opposite_colour":
        return "lowest_of_colour", None, m.red
    if rules.next_lead == "any_suit":
        return "lowest_of_suit", None, None
    return "lowest_of_suit", m.barred, None


def next_card(card: Card) -> Card | None:
    """The card that follows ``card`` in a run (None after an ace, item 47)."""
    if card.rank == Rank.ACE:
        return None
    return Card(card + 1)
