"""Cards, ranks, suits, canonical decks and card notation.

Every physical card has a stable id: its index in the canonical deck (DESIGN.md §3).
Suits are ordered ♣ ♦ ♥ ♠ and ranks 2 … 10 J Q K A, so ``2♣`` = 0 … ``A♣`` = 12,
``2♦`` = 13 … ``A♠`` = 51. The 108-card deck (two decks plus four jokers, Kalooki) has
copy 0 (ids 0–51), copy 1 (ids 52–103) and jokers 104–107.

Notation: ``A♥ K♠ 10♣ 2♦`` (unicode) or ``Ah Ks Tc 10c 2d`` (ASCII); a joker is ``Jkr``.
:func:`parse` reads both; :func:`format_card` writes the unicode form.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema


class Suit(IntEnum):
    """A suit, in canonical order (♣ < ♦ < ♥ < ♠ only for ids and tie-breaks)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def letter(self) -> str:
        return "cdhs"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


class Rank(IntEnum):
    """A rank; the value is the rank's pip value with J=11, Q=12, K=13, A=14."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def label(self) -> str:
        return RANK_LABELS[self]


RANK_LABELS = {r: (str(int(r)) if r <= 10 else "JQKA"[r - 11]) for r in Rank}
JOKER_LABEL = "Jkr"
STANDARD_DECK_SIZE = 52
DOUBLE_DECK_SIZE = 108
FIRST_JOKER_ID = 104


class Card(int):
    """A physical card, identified by its canonical id (an ``int`` subclass).

    ``Card(0)`` is 2♣, ``Card(51)`` is A♠, ``Card(52)`` the second 2♣ of a double deck,
    ``Card(104)``–``Card(107)`` the jokers. Pydantic fields typed ``Card`` accept and dump ints.

    Raises
    ------
    ValueError
        If the id is outside 0–107.
    """

    __slots__ = ()

    def __new__(cls, card_id: int) -> Card:
        if not 0 <= card_id < DOUBLE_DECK_SIZE:
            raise ValueError(f"card id {card_id} is outside 0-107")
        return super().__new__(cls, card_id)

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int, copy: int = 0) -> Card:
        """The card of ``rank`` and ``suit`` (``copy`` 1 = the second deck of 108)."""
        return cls(copy * STANDARD_DECK_SIZE + int(suit) * 13 + int(rank) - 2)

    @property
    def is_joker(self) -> bool:
        return self >= FIRST_JOKER_ID

    @property
    def rank(self) -> Rank:
        if self.is_joker:
            raise ValueError("a joker has no rank")
        return Rank(self % 13 + 2)

    @property
    def suit(self) -> Suit:
        if self.is_joker:
            raise ValueError("a joker has no suit")
        return Suit(self % STANDARD_DECK_SIZE // 13)

    @property
    def copy(self) -> int:
        """Which deck of a double deck the card belongs to (0 or 1; jokers: 0)."""
        return 0 if self.is_joker else self // STANDARD_DECK_SIZE

    def __str__(self) -> str:
        return format_card(self)

    def __repr__(self) -> str:
        return f"Card({int(self)}:{format_card(self)})"

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(
            cls,
            core_schema.int_schema(ge=0, lt=DOUBLE_DECK_SIZE),
            serialization=core_schema.plain_serializer_function_ser_schema(int),
        )


def standard_deck() -> list[Card]:
    """The 52 cards in canonical order (ids 0–51)."""
    return [Card(i) for i in range(STANDARD_DECK_SIZE)]


def double_deck() -> list[Card]:
    """The 108 cards (two decks and four jokers) in canonical order (ids 0–107)."""
    return [Card(i) for i in range(DOUBLE_DECK_SIZE)]


def format_card(card: int) -> str:
    """Unicode notation of a card id: ``A♥``, ``10♣``, ``Jkr``."""
    card = Card(card) if not isinstance(card, Card) else card
    if card.is_joker:
        return JOKER_LABEL
    return f"{card.rank.label}{card.suit.symbol}"


_SUIT_CHARS = {"♣": 0, "c": 0, "♦": 1, "d": 1, "♥": 2, "h": 2, "♠": 3, "s": 3}
_RANK_TEXT = {label: int(rank) for rank, label in RANK_LABELS.items()} | {"T": 10}


def parse_card(text: str, copy: int = 0) -> Card:
    """Read one card: ``A♥``, ``Ah``, ``10c``, ``Tc``, ``Jkr`` (case-insensitive letters).

    Raises
    ------
    ValueError
        If the text is not a card.
    """
    t = text.strip()
    if t.lower() in ("jkr", "joker"):
        return Card(FIRST_JOKER_ID + copy)
    if len(t) < 2:
        raise ValueError(f"not a card: {text!r}")
    rank_text, suit_text = t[:-1].upper(), t[-1]
    suit = _SUIT_CHARS.get(suit_text, _SUIT_CHARS.get(suit_text.lower()))
    rank = _RANK_TEXT.get(rank_text)
    if suit is None or rank is None:
        raise ValueError(f"not a card: {text!r}")
    return Card.of(rank, suit, copy)


def parse(text: str) -> list[Card]:
    """Read space- or comma-separated cards, e.g. ``"A♥ K♠ 10♣"`` or ``"Ah,Ks,Tc"``.

    Raises
    ------
    ValueError
        If any token is not a card.
    """
    return [parse_card(tok) for tok in text.replace(",", " ").split()]


def checked_deck(deck: Sequence[int] | None, size: int) -> list[Card] | None:
    """``deck`` as cards if it is the ``size`` cards of the canonical deck, each once (the
    fixed order of a deal, for tests and puzzles); None stays None.

    Raises
    ------
    ValueError
        If ``deck`` is not each card of the ``size``-card deck exactly once.
    """
    if deck is None:
        return None
    cards = [Card(c) for c in deck]
    if sorted(cards) != list(range(size)):
        raise ValueError(f"a deck is the {size} cards, each once")
    return cards
