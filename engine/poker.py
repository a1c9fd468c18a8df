"""Five-card high poker: hand values, categories, descriptions and the best 5 of many cards.

Ranking: rules/tripoli.md §2.6 item 29 and §4 item 16. Standard 5-card high poker; ace high,
and also low in the straight 5-4-3-2-A only (the lowest straight, and of one suit the lowest
straight flush); suits never break ties; fully equal hands tie.

A hand value is an ``int`` (higher = better hand, equal = tie) packed as
``category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5``: the ranks (2 … 14, ace 14)
that decide ties, most significant first (the rank of the larger group first, then by rank).
A straight or straight flush keeps only its top rank ``r1`` (5 for 5-4-3-2-A). There are 7,462
distinct values.

Speed: :func:`hand_value` looks the hand up in tables of the 7,462 classes keyed by a product of
one prime per rank (built once at import): roughly 1.5–2 million hands per second in CPython.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import combinations, combinations_with_replacement

from engine.cards import STANDARD_DECK_SIZE, Card, Rank


class Category(IntEnum):
    """A poker hand category, from the lowest (``HIGH_CARD``) to the highest."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """The category's name, e.g. ``"Full house"`` (the royal flush is a straight flush)."""
        return self.name.replace("_", " ").capitalize()


HAND_SIZE = 5
MAX_CARDS = 18
"""The most cards :func:`best_five` accepts (the largest Tripoli hand, rules/tripoli.md §2.3)."""

_CATEGORY_SHIFT = 20
_ACE = int(Rank.ACE)
_FIVE = int(Rank.FIVE)
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)  # one per rank, 2 … A
_PRIME = {card: _PRIMES[card % 13] for card in range(STANDARD_DECK_SIZE)}
_SUIT = {card: card // 13 for card in range(STANDARD_DECK_SIZE)}

_NAMES = {
    2: ("two", "twos"),
    3: ("three", "threes"),
    4: ("four", "fours"),
    5: ("five", "fives"),
    6: ("six", "sixes"),
    7: ("seven", "sevens"),
    8: ("eight", "eights"),
    9: ("nine", "nines"),
    10: ("ten", "tens"),
    11: ("jack", "jacks"),
    12: ("queen", "queens"),
    13: ("king", "kings"),
    14: ("ace", "aces"),
}


def _straight_top(ranks: Sequence[int]) -> int | None:
    """Top rank of the straight formed by 5 distinct ranks sorted high to low, else None."""
    if ranks[0] - ranks[4] == 4:
        return ranks[0]
    if list(ranks) == [_ACE, 5, 4, 3, 2]:
        return _FIVE
    return None


def _pack(category: Category, ranks: Sequence[int]) -> int:
    value = int(category)
    for i in range(HAND_SIZE):
        value = value << 4 | (ranks[i] if i < len(ranks) else 0)
    return value


def _rank_value(ranks: Sequence[int], flush: bool) -> int:
    """The value of 5 ranks (2 … 14, any order); ``flush`` when all 5 cards share a suit."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if len(order) == HAND_SIZE:
        top = _straight_top(order)
        if top is not None:
            return _pack(Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT, [top])
        return _pack(Category.FLUSH if flush else Category.HIGH_CARD, order)
    category = {
        (4, 1): Category.FOUR_OF_A_KIND,
        (3, 2): Category.FULL_HOUSE,
        (3, 1, 1): Category.THREE_OF_A_KIND,
        (2, 2, 1): Category.TWO_PAIR,
        (2, 1, 1, 1): Category.ONE_PAIR,
    }[tuple(shape)]
    return _pack(category, order)


def _key(ranks: Sequence[int]) -> int:
    key = 1
    for r in ranks:
        key *= _PRIMES[r - 2]
    return key


# Value of every rank multiset (no flush), and of every 5 distinct ranks of one suit, by key.
_PLAIN: dict[int, int] = {
    _key(rs): _rank_value(rs, flush=False)
    for rs in combinations_with_replacement(range(2, _ACE + 1), HAND_SIZE)
    if rs[0] != rs[4]
}
_FLUSH: dict[int, int] = {
    _key(rs): _rank_value(rs, flush=True) for rs in combinations(range(2, _ACE + 1), HAND_SIZE)
}
_VALUES = frozenset(_PLAIN.values()) | frozenset(_FLUSH.values())


def hand_value(cards: Sequence[int]) -> int:
    """The value of a 5-card poker hand (rules/tripoli.md §2.6 item 29).

    Parameters
    ----------
    cards : sequence of 5 int
        Distinct card ids 0–51 (:class:`engine.cards.Card` or plain ints), in any order.

    Returns
    -------
    int
        Higher is better; two hands tie exactly when their values are equal.

    Raises
    ------
    ValueError
        If there are not exactly 5 cards, a card repeats, or an id is outside 0–51.
    """
    try:
        a, b, c, d, e = cards
    except ValueError:
        raise ValueError(f"a poker hand has exactly 5 cards, got {len(cards)}") from None
    if len({a, b, c, d, e}) != HAND_SIZE:
        raise ValueError(f"a poker hand has 5 distinct cards, got {list(cards)}")
    try:
        key = _PRIME[a] * _PRIME[b] * _PRIME[c] * _PRIME[d] * _PRIME[e]
        if _SUIT[a] == _SUIT[b] == _SUIT[c] == _SUIT[d] == _SUIT[e]:
            return _FLUSH[key]
    except KeyError:
        raise ValueError(f"poker cards are ids 0-51, got {list(cards)}") from None
    return _PLAIN[key]


def _check_value(value: int) -> None:
    if value not in _VALUES:
        raise ValueError(f"{value!r} is not a poker hand value")


def category(value: int) -> Category:
    """The category of a hand value from :func:`hand_value`.

    Raises
    ------
    ValueError
        If ``value`` is not a hand value.
    """
    _check_value(value)
    return Category(value >> _CATEGORY_SHIFT)


@dataclass(frozen=True)
class Description:
    """A hand value in parts, for a renderer to put into words in any language.

    Attributes
    ----------
    category : Category
        The hand's category.
    ranks : tuple of Rank
        The ranks that name the hand, most significant first: the rank of a pair, three or
        four of a kind; the higher then the lower pair of two pair; the three then the pair of
        a full house; the top card of a straight, flush, straight flush or high card (five for
        5-4-3-2-A).
    kickers : tuple of Rank
        The other ranks that break ties, most significant first (rules/tripoli.md §2.6 item 29:
        "quads rank then kicker; … pairs high to low then kicker; flush/high card card by
        card"): 4 for a flush or high card, 3 for a pair, 2 for three of a kind, 1 for two
        pair or four of a kind, none for a straight, full house or straight flush.
    """

    category: Category
    ranks: tuple[Rank, ...]
    kickers: tuple[Rank, ...]

    @property
    def royal(self) -> bool:
        """An ace-high straight flush (the royal flush, rules/tripoli.md §2.6 item 29)."""
        return self.category is Category.STRAIGHT_FLUSH and self.ranks[0] is Rank.ACE


_NAMED_RANKS = {
    Category.TWO_PAIR: 2,
    Category.FULL_HOUSE: 2,
}
"""How many of a value's ranks name the hand (:attr:`Description.ranks`); 1 elsewhere."""


def description(value: int) -> Description:
    """The category and deciding ranks of a hand value from :func:`hand_value`.

    Examples: ``K K K 4 4`` is ``Description(FULL_HOUSE, (KING, FOUR), ())``; ``7 7 K 9 3`` is
    ``Description(ONE_PAIR, (SEVEN,), (KING, NINE, THREE))``.

    Raises
    ------
    ValueError
        If ``value`` is not a hand value.
    """
    cat = category(value)
    ranks = [Rank(r) for r in (value >> shift & 15 for shift in (16, 12, 8, 4, 0)) if r]
    named = _NAMED_RANKS.get(cat, 1)
    return Description(cat, tuple(ranks[:named]), tuple(ranks[named:]))


def kickers_deciding(value: int, others: Iterable[int]) -> int:
    """How many kickers of ``value`` tell it from each of ``others`` (a showdown's hands).

    Kickers matter only between hands of the same category and naming ranks (rules/tripoli.md
    §2.6 item 29): ``A A K 9 4`` against ``A A K 8 3`` needs 2 (king, then nine against
    eight); against ``K K …`` or a hand equal to it, none.

    Returns
    -------
    int
        0 up to ``len(description(value).kickers)``.

    Raises
    ------
    ValueError
        If a value is not a hand value.
    """
    own = description(value)
    needed = 0
    for other in map(description, others):
        if (other.category, other.ranks) != (own.category, own.ranks):
            continue
        differ = [i for i, (a, b) in enumerate(zip(own.kickers, other.kickers, strict=True))
                  if a != b]
        if differ:
            needed = max(needed, differ[0] + 1)
    return needed


def describe(value: int, kickers: int = 0) -> str:
    """An English description of a hand value, e.g. ``"Full house, kings over fours"``.

    Other forms: ``"Royal flush"``, ``"Straight flush, nine high"``, ``"Four of a kind, aces"``,
    ``"Flush, king high"``, ``"Straight, five high"``, ``"Three of a kind, sevens"``,
    ``"Two pair, queens and fives"``, ``"Pair of sevens"``, ``"Ace high"``; with ``kickers``,
    the first that many kickers of :func:`description`: ``"Pair of aces, king kicker"``,
    ``"Pair of aces, kickers king, nine"``.

    Raises
    ------
    ValueError
        If ``value`` is not a hand value, or ``kickers`` is negative or more than it has.
    """
    hand = description(value)
    if not 0 <= kickers <= len(hand.kickers):
        raise ValueError(f"{hand.category.label} has {len(hand.kickers)} kickers, not {kickers}")
    one, many = _NAMES[hand.ranks[0]]
    match hand.category:
        case Category.STRAIGHT_FLUSH if hand.royal:
            text = "Royal flush"
        case Category.STRAIGHT_FLUSH | Category.FLUSH | Category.STRAIGHT:
            text = f"{hand.category.label}, {one} high"
        case Category.FOUR_OF_A_KIND | Category.THREE_OF_A_KIND:
            text = f"{hand.category.label}, {many}"
        case Category.FULL_HOUSE:
            text = f"{hand.category.label}, {many} over {_NAMES[hand.ranks[1]][1]}"
        case Category.TWO_PAIR:
            text = f"{hand.category.label}, {many} and {_NAMES[hand.ranks[1]][1]}"
        case Category.ONE_PAIR:
            text = f"Pair of {many}"
        case _:
            text = f"{one.capitalize()} high"
    shown = [_NAMES[r][0] for r in hand.kickers[:kickers]]
    if len(shown) == 1:
        return f"{text}, {shown[0]} kicker"
    if shown:
        return f"{text}, kickers {', '.join(shown)}"
    return text


def _prefer(card: int) -> tuple[int, int]:
    """Sort key: higher rank first, then the higher suit in canonical order (♠ ♥ ♦ ♣)."""
    return card % 13, card // 13


def _straight_cards(by_rank: dict[int, list[Card]]) -> list[Card] | None:
    """The highest straight (top card first, the ace last in 5-4-3-2-A), one card per rank."""
    for top in range(_ACE, _FIVE - 1, -1):
        ranks = [top - i for i in range(HAND_SIZE)]
        ranks = [_ACE if r == 1 else r for r in ranks]
        if all(r in by_rank for r in ranks):
            return [by_rank[r][0] for r in ranks]
    return None


def _group(cards: Sequence[Card]) -> dict[int, list[Card]]:
    """Cards by rank (2 … 14), each list in preference order; ``cards`` already sorted."""
    by_rank: dict[int, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card % 13 + 2, []).append(card)
    return by_rank


def best_five(cards: Sequence[int]) -> tuple[Card, ...]:
    """The best poker hand among 5 to 18 cards (rules/tripoli.md §2.6 items 28–29).

    Used to auto-select a player's poker cards. Built directly from the rank and suit groups
    (no search over the C(n, 5) subsets). Among equally good choices it takes the higher
    kickers, then the cards of the higher suit in canonical order (♠ ♥ ♦ ♣), so the result does
    not depend on the order of ``cards``.

    Parameters
    ----------
    cards : sequence of int
        5 to 18 distinct card ids 0–51.

    Returns
    -------
    tuple of 5 Card
        In order of significance: the largest group first (e.g. ``K K K 4 4``), then higher
        ranks; a straight from its top card (5-4-3-2-A ends with the ace).

    Raises
    ------
    ValueError
        If there are fewer than 5 or more than 18 cards, a card repeats, or an id is outside
        0–51.
    """
    if not HAND_SIZE <= len(cards) <= MAX_CARDS:
        raise ValueError(f"best_five takes 5 to {MAX_CARDS} cards, got {len(cards)}")
    if len(set(cards)) != len(cards):
        raise ValueError(f"cards repeat: {list(cards)}")
    if any(c not in _SUIT for c in cards):
        raise ValueError(f"poker cards are ids 0-51, got {list(cards)}")
    ordered = sorted((Card(c) for c in cards), key=_prefer, reverse=True)
    suited = [[c for c in ordered if c // 13 == s] for s in (3, 2, 1, 0)]
    flushes = [s for s in suited if len(s) >= HAND_SIZE]

    candidates: list[list[Card]] = []
    for suit_cards in flushes:
        straight = _straight_cards(_group(suit_cards))
        if straight is not None:
            candidates.append(straight)
    by_rank = _group(ordered)
    # Ranks by group size then rank, largest first: the basis of every grouped hand.
    groups = sorted(by_rank, key=lambda r: (len(by_rank[r]), r), reverse=True)
    first = groups[0]
    if len(by_rank[first]) == 3 and len(groups) > 1 and len(by_rank[groups[1]]) >= 2:
        pair_rank = max(r for r in groups[1:] if len(by_rank[r]) >= 2)
        candidates.append(by_rank[first][:3] + by_rank[pair_rank][:2])
    candidates.extend(s[:HAND_SIZE] for s in flushes)
    straight = _straight_cards(by_rank)
    if straight is not None:
        candidates.append(straight)
    # Quads, trips, two pair, pair or high card: the largest group (the two highest pairs),
    # filled up with the best kickers.
    size = len(by_rank[first])
    taken: list[Card] = []
    for r in groups[: 2 if size == 2 else 1]:
        if len(by_rank[r]) == size:
            taken.extend(by_rank[r][:size])
    candidates.append(taken + [c for c in ordered if c not in taken][: HAND_SIZE - len(taken)])
    return tuple(max(candidates, key=hand_value))
