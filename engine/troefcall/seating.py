"""Who sits where and who calls first (``rules/troefcall.md`` §2.1 item 2, §2.2, A10).

Both draws are public and reproducible from the session seed (DESIGN.md §3), through
:mod:`engine.fairness`:

- **Partnership draw** (§2.1 item 2): the 52 cards shuffled by
  ``fairness.shuffle(deck, SHA-256(b"partner-draw" + seed))``; player ``p`` (0..3, in the
  order the players joined) draws card ``p``. Cards compare by rank (A high, item 4), equal
  ranks by suit ♠ > ♥ > ♦ > ♣ (one pack, so no two draws tie). The highest drawer takes seat
  0, the second highest seat 2 (team A), the third seat 1, the lowest seat 3 (team B).
- **Jack search** (§2.2 items 6-8, A10): the start seat is
  ``fairness.uniform_below(fairness.random_stream(SHA-256(b"jack-search-start" + seed)), 4)``;
  the cards ``fairness.shuffle(deck, SHA-256(b"jack-search" + seed))`` are dealt face up one
  at a time clockwise from the start seat until the first jack; its receiver is the first
  trump caller C and the first dealer is D = C - 1 (item 7).
"""

from __future__ import annotations

import hashlib

from engine import fairness
from engine.cards import Card, Rank, standard_deck
from engine.core import Frozen

SEATS = 4


class PartnerDraw(Frozen):
    """The result of the partnership draw (§2.1 item 2).

    Attributes
    ----------
    cards
        Player (0..3, join order) -> the card he drew (public).
    seating
        Seat (0..3) -> the player who takes it; seats 0 + 2 (the two highest) play
        against seats 1 + 3 (the two lowest).
    """

    cards: tuple[Card, ...]
    seating: tuple[int, ...]


class JackSearch(Frozen):
    """The public deal that chooses the first trump caller (§2.2 items 6-8, A10).

    Attributes
    ----------
    start
        The seat that received the first card.
    cards
        The cards dealt face up, in order: card ``i`` went to seat ``(start + i) % 4``;
        the last one is the first jack.
    caller
        The seat that received the jack: the first trump caller.
    dealer
        The first dealer, on the caller's right: ``(caller - 1) % 4`` (item 7).
    """

    start: int
    cards: tuple[Card, ...]
    caller: int
    dealer: int


def draw_partners(seed: bytes) -> PartnerDraw:
    """Draw partnerships from ``seed`` (the session seed): see the module docstring.

    Returns
    -------
    PartnerDraw
        The 4 drawn cards and the resulting seating.
    """
    deck = fairness.shuffle(standard_deck(), hashlib.sha256(b"partner-draw" + seed).digest())
    drawn = deck[:SEATS]
    order = sorted(range(SEATS), key=lambda p: (drawn[p].rank, drawn[p].suit), reverse=True)
    seating = (order[0], order[2], order[1], order[3])
    return PartnerDraw(cards=tuple(drawn), seating=seating)


def jack_search(seed: bytes) -> JackSearch:
    """Deal face up from ``seed`` (the session seed) until a jack: see the module docstring."""
    stream = fairness.random_stream(hashlib.sha256(b"jack-search-start" + seed).digest())
    start = fairness.uniform_below(stream, SEATS)
    deck = fairness.shuffle(standard_deck(), hashlib.sha256(b"jack-search" + seed).digest())
    n = next(i for i, c in enumerate(deck) if c.rank == Rank.JACK) + 1
    caller = (start + n - 1) % SEATS
    return JackSearch(
        start=start, cards=tuple(deck[:n]), caller=caller, dealer=(caller - 1) % SEATS
    )
