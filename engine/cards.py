"""Cards, ranks, suits, canonical decks and card notation.

Every physical card has a stable id: its index in the canonical deck (DESIGN.md §3).
Suits are ordered ♣ ♦ ♥ ♠ and ranks 2 … 10 J Q K A, so ``2♣`` = 0 … ``A♣`` = 12,
``2♦`` = 13 … ``A♠`` = 51. The 108-card deck (two decks plus four jokers, Kalooki) has
copy 0 (ids 0–51), copy 1 (ids 52–103) and jokers 104–107.

Larger pack sets (Kalooki's ``packs`` and ``jokers``, ``rules/kalooki.md`` §2.14, T1) extend
those ids without changing any: copy 2 … 7 of the pack (up to :data:`MAX_PACKS`) are ids
108–159 … 368–419 (copy ``p`` starts at ``52 p + 4``), and jokers 5 … 24 (up to
:data:`MAX_JOKERS`) are ids 420–439. :func:`pack_set` lists the ids of one set, e.g. 3 packs
and 8 jokers = ids 0–159 and 420–423 (164 cards). Every id keeps one meaning in every set.

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
MAX_PACKS = 8
"""Packs of 52 a pack set may hold (ids for copies 0 … 7)."""
MAX_JOKERS = 24
"""Jokers a pack set may hold (the first four are ids 104–107)."""
FIRST_EXTRA_JOKER_ID = MAX_PACKS * STANDARD_DECK_SIZE + 4  # 420: the fifth joker
CARD_IDS = FIRST_EXTRA_JOKER_ID + MAX_JOKERS - 4  # 440: ids are 0 … 439


class Card(int):
    """A physical card, identified by its canonical id (an ``int`` subclass).

    ``Card(0)`` is 2♣, ``Card(51)`` is A♠, ``Card(52)`` the second 2♣ of a double deck,
    ``Card(104)``–``Card(107)`` the jokers, ``Card(108)`` the third 2♣ and ``Card(420)`` the
    fifth joker of a larger set (module doc). Pydantic fields typed ``Card`` accept and dump
    ints.

    There is one instance per id (made once, :data:`_CARDS`): ``Card(5) is Card(5)``, also
    after a copy, a pickle round trip or reading JSON. Equality, hashing and JSON are the
    int's.

    Raises
    ------
    ValueError
        If the id is outside 0–439.
    """

    __slots__ = ()

    def __new__(cls, card_id: int) -> Card:
        if not 0 <= card_id < CARD_IDS:
            raise ValueError(f"card id {card_id} is outside 0-{CARD_IDS - 1}")
        try:
            return _CARDS[card_id]
        except TypeError:  # not an integer: the id it rounds down to, as int() does
            return _CARDS[int(card_id)]

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int, copy: int = 0) -> Card:
        """The card of ``rank`` and ``suit`` in pack ``copy`` (1 = the second pack of 108).

        Raises
        ------
        ValueError
            If ``copy`` is outside 0 … ``MAX_PACKS - 1``.
        """
        if not 0 <= copy < MAX_PACKS:
            raise ValueError(f"there is no pack {copy} (0-{MAX_PACKS - 1})")
        return cls(_pack_start(copy) + int(suit) * 13 + int(rank) - 2)

    @property
    def is_joker(self) -> bool:
        return FIRST_JOKER_ID <= self < DOUBLE_DECK_SIZE or self >= FIRST_EXTRA_JOKER_ID

    @property
    def rank(self) -> Rank:
        rank = _FACES[self][0]
        if rank is None:
            raise ValueError("a joker has no rank")
        return rank

    @property
    def suit(self) -> Suit:
        suit = _FACES[self][1]
        if suit is None:
            raise ValueError("a joker has no suit")
        return suit

    @property
    def copy(self) -> int:
        """Which pack of a pack set the card belongs to (0 … 7; jokers: 0, they belong to no
        pack)."""
        return 0 if self.is_joker else self._in_packs // STANDARD_DECK_SIZE

    @property
    def _in_packs(self) -> int:
        """The card's place among the packs' cards alone (jokers 104–107 left out)."""
        return self - 4 if self >= DOUBLE_DECK_SIZE else int(self)

    def __str__(self) -> str:
        return format_card(self)

    def __repr__(self) -> str:
        return f"Card({int(self)}:{format_card(self)})"

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(
            _CARDS.__getitem__,  # the id's instance, without a Python call
            core_schema.int_schema(ge=0, lt=CARD_IDS),
            serialization=core_schema.plain_serializer_function_ser_schema(int),
        )


_CARDS = tuple(int.__new__(Card, card_id) for card_id in range(CARD_IDS))
"""The one :class:`Card` of each id, by id (``Card(i)`` returns ``_CARDS[i]``)."""


def _face(card: Card) -> tuple[Rank | None, Suit | None, str]:
    """A card's rank, suit (None for a joker) and notation, from its id."""
    if card.is_joker:
        return None, None, JOKER_LABEL
    rank = Rank(card._in_packs % 13 + 2)
    suit = Suit(card._in_packs % STANDARD_DECK_SIZE // 13)
    return rank, suit, f"{rank.label}{suit.symbol}"


_FACES = tuple(_face(Card(card_id)) for card_id in range(CARD_IDS))
"""Every card id's :func:`_face`, worked out once (games and boards ask for them all the
time)."""


def standard_deck() -> list[Card]:
    """The 52 cards in canonical order (ids 0–51)."""
    return [Card(i) for i in range(STANDARD_DECK_SIZE)]


def double_deck() -> list[Card]:
    """The 108 cards (two decks and four jokers) in canonical order (ids 0–107)."""
    return [Card(i) for i in range(DOUBLE_DECK_SIZE)]


def joker(n: int) -> Card:
    """The ``n``-th joker (0 … ``MAX_JOKERS - 1``): ids 104–107, then 420 on.

    Raises
    ------
    ValueError
        If there is no such joker.
    """
    if not 0 <= n < MAX_JOKERS:
        raise ValueError(f"there is no joker {n} (0-{MAX_JOKERS - 1})")
    return Card(FIRST_JOKER_ID + n if n < 4 else FIRST_EXTRA_JOKER_ID + n - 4)


def pack_set(packs: int, jokers: int) -> list[Card]:
    """The cards of ``packs`` packs of 52 and ``jokers`` jokers in canonical (id) order:
    ``pack_set(2, 4)`` is the 108-card deck; ``pack_set(3, 8)`` ids 0–159 and 420–423.

    Raises
    ------
    ValueError
        If ``packs`` is outside 1 … ``MAX_PACKS`` or ``jokers`` outside 0 … ``MAX_JOKERS``.
    """
    if not 1 <= packs <= MAX_PACKS:
        raise ValueError(f"a pack set has 1-{MAX_PACKS} packs")
    if not 0 <= jokers <= MAX_JOKERS:
        raise ValueError(f"a pack set has 0-{MAX_JOKERS} jokers")
    cards = [Card(_pack_start(p) + i) for p in range(packs) for i in range(STANDARD_DECK_SIZE)]
    return sorted(cards + [joker(n) for n in range(jokers)])


def _pack_start(copy: int) -> int:
    """The id of the 2♣ of pack ``copy`` (packs 2 on start after the jokers 104–107)."""
    return copy * STANDARD_DECK_SIZE + (4 if copy >= 2 else 0)


def format_card(card: int) -> str:
    """Unicode notation of a card id: ``A♥``, ``10♣``, ``Jkr``."""
    card = Card(card) if not isinstance(card, Card) else card
    return _FACES[card][2]


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
        return joker(copy)
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


def checked_deck(
    deck: Sequence[int] | None, canonical: int | Sequence[int]
) -> list[Card] | None:
    """``deck`` as cards if it is the cards of the canonical deck, each once (the fixed order
    of a deal, for tests and puzzles); None stays None.

    Parameters
    ----------
    canonical
        The deck's size (its ids are 0 … size - 1) or its ids in id order
        (:func:`pack_set`).

    Raises
    ------
    ValueError
        If ``deck`` is not each card of the canonical deck exactly once.
    """
    if deck is None:
        return None
    ids = list(range(canonical)) if isinstance(canonical, int) else list(canonical)
    cards = [Card(c) for c in deck]
    if sorted(cards) != ids:
        raise ValueError(f"a deck is the {len(ids)} cards, each once")
    return cards
