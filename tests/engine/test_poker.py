"""Tests of engine.poker: rules/tripoli.md §2.6 item 29, §4 item 16, scenarios S6–S9 and S17.

The independent reference is ``phevaluator`` (rank 1 = best of 7,462 classes) and the
published counts of 5-card hands per category.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import phevaluator
import pytest
from hypothesis import given
from hypothesis import strategies as st
from poker_hands import one_hand_per_value

from engine.cards import Card, Rank, parse
from engine.poker import (
    Category,
    Description,
    best_five,
    category,
    describe,
    description,
    hand_value,
    kickers_deciding,
)

# phevaluator's id of each of our card ids, built from the card's text ("Ah"), not its int.
PH_ID = [phevaluator.Card("23456789TJQKA"[c % 13] + "cdhs"[c // 13]).id_ for c in range(52)]

# Published numbers: 5-card hands and distinct hand classes per category.
HANDS_PER_CATEGORY = {
    Category.STRAIGHT_FLUSH: 40,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.ONE_PAIR: 1_098_240,
    Category.HIGH_CARD: 1_302_540,
}
CLASSES_PER_CATEGORY = {
    Category.STRAIGHT_FLUSH: 10,
    Category.FOUR_OF_A_KIND: 156,
    Category.FULL_HOUSE: 156,
    Category.FLUSH: 1_277,
    Category.STRAIGHT: 10,
    Category.THREE_OF_A_KIND: 858,
    Category.TWO_PAIR: 858,
    Category.ONE_PAIR: 2_860,
    Category.HIGH_CARD: 1_277,
}


def ph_category(ph_rank: int) -> Category:
    """The category of a phevaluator rank, from its classes per category (best first)."""
    bound = 0
    for cat in sorted(Category, reverse=True):
        bound += CLASSES_PER_CATEGORY[cat]
        if ph_rank <= bound:
            return cat
    raise AssertionError(ph_rank)


def ph_rank(cards: list[int]) -> int:
    return phevaluator.evaluate_cards(*(PH_ID[c] for c in cards))


def value(text: str) -> int:
    return hand_value(parse(text))


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


# --- categories and descriptions ---------------------------------------------------------


def test_category_labels() -> None:
    assert [c.label for c in Category] == [
        "High card",
        "One pair",
        "Two pair",
        "Three of a kind",
        "Straight",
        "Flush",
        "Full house",
        "Four of a kind",
        "Straight flush",
    ]
    assert Category.HIGH_CARD == 0 and Category.STRAIGHT_FLUSH == 8


@pytest.mark.parametrize(
    ("hand", "cat", "text"),
    [
        ("A♥ K♥ Q♥ J♥ 10♥", Category.STRAIGHT_FLUSH, "Royal flush"),
        ("9♠ 8♠ 7♠ 6♠ 5♠", Category.STRAIGHT_FLUSH, "Straight flush, nine high"),
        ("A♣ 2♣ 3♣ 4♣ 5♣", Category.STRAIGHT_FLUSH, "Straight flush, five high"),
        ("A♣ A♦ A♥ A♠ 3♣", Category.FOUR_OF_A_KIND, "Four of a kind, aces"),
        ("K♠ K♥ K♣ 4♦ 4♣", Category.FULL_HOUSE, "Full house, kings over fours"),
        ("6♠ 6♥ 6♣ 10♦ 10♣", Category.FULL_HOUSE, "Full house, sixes over tens"),
        ("2♦ 6♦ 9♦ J♦ K♦", Category.FLUSH, "Flush, king high"),
        ("5♥ 6♠ 7♦ 8♣ 9♦", Category.STRAIGHT, "Straight, nine high"),
        ("A♥ 2♣ 3♦ 4♠ 5♥", Category.STRAIGHT, "Straight, five high"),
        ("9♣ 9♦ 9♥ A♠ 3♣", Category.THREE_OF_A_KIND, "Three of a kind, nines"),
        ("Q♣ Q♥ 5♠ 5♦ 8♣", Category.TWO_PAIR, "Two pair, queens and fives"),
        ("7♣ 7♦ K♠ 9♥ 3♣", Category.ONE_PAIR, "Pair of sevens"),
        ("A♠ J♣ 9♣ 6♥ 4♦", Category.HIGH_CARD, "Ace high"),
        ("2♣ 7♦ 9♠ J♥ K♣", Category.HIGH_CARD, "King high"),
    ],
)
def test_category_and_describe(hand: str, cat: Category, text: str) -> None:
    v = value(hand)
    assert category(v) is cat
    assert describe(v) == text


K, Q, J, A = Rank.KING, Rank.QUEEN, Rank.JACK, Rank.ACE


@pytest.mark.parametrize(
    ("hand", "ranks", "kickers"),
    [
        ("A♥ K♥ Q♥ J♥ 10♥", (A,), ()),
        ("A♣ 2♣ 3♣ 4♣ 5♣", (Rank.FIVE,), ()),
        ("8♣ 8♦ 8♥ 8♠ 3♣", (Rank.EIGHT,), (Rank.THREE,)),
        ("4♦ K♠ 4♣ K♥ K♣", (K, Rank.FOUR), ()),
        ("2♦ 6♦ 9♦ J♦ K♦", (K,), (J, Rank.NINE, Rank.SIX, Rank.TWO)),
        ("A♥ 2♣ 3♦ 4♠ 5♥", (Rank.FIVE,), ()),
        ("3♣ 9♦ 9♥ A♠ 9♣", (Rank.NINE,), (A, Rank.THREE)),
        ("5♠ Q♣ 8♣ Q♥ 5♦", (Q, Rank.FIVE), (Rank.EIGHT,)),
        ("K♠ 7♣ 9♥ 7♦ 3♣", (Rank.SEVEN,), (K, Rank.NINE, Rank.THREE)),
        ("4♦ J♣ A♠ 6♥ 9♣", (A,), (J, Rank.NINE, Rank.SIX, Rank.FOUR)),
    ],
)
def test_description_names_the_deciding_ranks_then_the_kickers(
    hand: str, ranks: tuple[Rank, ...], kickers: tuple[Rank, ...]
) -> None:
    v = value(hand)
    assert description(v) == Description(category(v), ranks, kickers)
    assert description(v).royal is (hand == "A♥ K♥ Q♥ J♥ 10♥")


def test_the_description_tells_every_value_apart() -> None:
    """Category, ranks and kickers are all a value holds: 7,462 values, 7,462 descriptions,
    ordered as the values are."""
    values = sorted(set(map(hand_value, one_hand_per_value())))
    assert len(values) == 7_462
    described = [description(v) for v in values]
    keys = [(int(d.category), d.ranks, d.kickers) for d in described]
    assert len(set(keys)) == len(values) and keys == sorted(keys)


@pytest.mark.parametrize(
    ("hand", "others", "kickers", "text"),
    [
        ("A♣ A♦ K♥ 9♠ 4♣", ["A♥ A♠ K♣ 8♦ 3♣"], 2, "Pair of aces, kickers king, nine"),
        ("A♣ A♦ K♥ 9♠ 4♣", ["A♥ A♠ Q♣ 8♦ 3♣"], 1, "Pair of aces, king kicker"),
        ("A♣ A♦ K♥ 9♠ 4♣", ["K♣ K♦ A♥ 9♦ 4♦"], 0, "Pair of aces"),
        ("A♣ A♦ K♥ 9♠ 4♣", ["A♥ A♠ K♣ 9♦ 4♦"], 0, "Pair of aces"),  # a tie: nothing decides
        ("A♣ A♦ K♥ 9♠ 4♣", ["A♥ A♠ K♣ 9♦ 3♦", "A♥ A♠ Q♣ 8♦ 3♣"], 3,
         "Pair of aces, kickers king, nine, four"),
        ("Q♣ Q♦ 5♥ 5♠ 4♣", ["Q♥ Q♠ 5♣ 5♦ 3♣"], 1, "Two pair, queens and fives, four kicker"),
        ("2♦ 6♦ 9♦ J♦ K♦", ["3♣ 6♣ 9♣ J♣ K♣"], 4, "Flush, king high, kickers jack, nine, six, two"),
        ("K♠ K♥ K♣ 4♦ 4♣", ["K♠ K♥ K♦ 4♠ 4♥"], 0, "Full house, kings over fours"),
    ],
)
def test_kickers_are_named_only_where_they_decide(
    hand: str, others: list[str], kickers: int, text: str
) -> None:
    assert kickers_deciding(value(hand), [value(o) for o in others]) == kickers
    assert describe(value(hand), kickers) == text


@pytest.mark.parametrize("kickers", [-1, 4])
def test_describe_refuses_kickers_a_hand_does_not_have(kickers: int) -> None:
    with pytest.raises(ValueError, match="kickers"):
        describe(value("7♣ 7♦ K♠ 9♥ 3♣"), kickers)
    with pytest.raises(ValueError):
        description(12345)


# --- ranking rules (item 29, item 16) and the rules file's scenarios --------------------------


def test_s6_flush_beats_two_pair_beats_pair_beats_ace_high() -> None:
    s1 = value("7♣ 7♦ K♠ 9♥ 3♣")
    s2 = value("2♦ 6♦ 9♦ J♦ K♦")
    s3 = value("Q♣ Q♥ 5♠ 5♦ 8♣")
    s0 = value("A♠ J♣ 9♣ 6♥ 4♦")
    assert s2 > s3 > s1 > s0
    assert max([s1, s2, s3, s0]) == s2


def test_s7_straight_beats_two_pair_beats_pair_of_aces() -> None:
    s1 = value("J♠ J♦ 4♣ 4♥ A♣")
    s2 = value("A♦ A♥ K♣ 8♦ 3♠")
    s0 = value("5♣ 6♦ 7♠ 8♣ 9♥")
    assert s0 > s1 > s2


def test_s8_nine_high_straights_tie_and_beat_pair_of_kings() -> None:
    s1 = value("K♣ K♦ 10♠ 4♣ 2♥")
    s2 = value("5♥ 6♠ 7♦ 8♣ 9♦")
    s4 = value("5♣ 6♦ 7♥ 8♠ 9♣")
    assert s2 == s4 > s1


def test_s9_three_fours_beat_pair_of_queens_beat_jack_high() -> None:
    s3 = value("4♣ 4♦ 4♥ 9♠ 2♣")
    s1 = value("Q♠ Q♦ 10♣ 7♥ 3♦")
    s2 = value("J♣ 9♦ 8♥ 6♠ 2♦")
    assert s3 > s1 > s2
    assert describe(s2) == "Jack high"


def test_s17_three_nines_win_the_leftover_round() -> None:
    s1 = value("2♣ 7♦ 9♠ J♥ K♣")
    s2 = value("Q♠ Q♦ 8♣ 5♥ 3♦")
    s3 = value("4♠ 4♣ 10♦ 6♥ 2♠")
    s0 = value("9♣ 9♦ 9♥ A♠ 3♣")
    assert s0 > s2 > s3 > s1


def test_wheel_is_the_lowest_straight_and_straight_flush() -> None:
    wheel = value("A♥ 2♣ 3♦ 4♠ 5♥")
    assert value("2♣ 3♦ 4♠ 5♥ 6♥") > wheel > value("A♣ A♦ A♥ K♠ Q♣")
    steel_wheel = value("A♣ 2♣ 3♣ 4♣ 5♣")
    assert value("2♦ 3♦ 4♦ 5♦ 6♦") > steel_wheel > value("A♣ A♦ A♥ A♠ K♣")


def test_royal_flush_is_the_top_hand() -> None:
    royal = value("A♠ K♠ Q♠ J♠ 10♠")
    assert royal == value("A♦ K♦ Q♦ J♦ 10♦")
    assert royal > value("K♠ Q♠ J♠ 10♠ 9♠") > value("A♣ A♦ A♥ A♠ K♣")
    assert describe(value("K♠ Q♠ J♠ 10♠ 9♠")) == "Straight flush, king high"


def test_no_wrap_around_straight() -> None:
    assert category(value("K♠ A♦ 2♣ 3♥ 4♦")) is Category.HIGH_CARD
    assert category(value("A♠ K♦ Q♣ J♥ 9♦")) is Category.HIGH_CARD


def test_suits_never_break_ties() -> None:
    assert value("A♠ K♠ Q♠ J♠ 9♠") == value("A♣ K♣ Q♣ J♣ 9♣")
    assert value("7♣ 7♦ K♠ 9♥ 3♣") == value("7♥ 7♠ K♣ 9♦ 3♦")


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("A♣ A♦ 2♥ 2♠ 3♣", "K♣ K♦ Q♥ Q♠ A♣"),  # two pair: the higher top pair first
        ("Q♣ Q♦ 5♥ 5♠ 3♣", "Q♥ Q♠ 4♥ 4♠ A♣"),  # then the second pair
        ("Q♣ Q♦ 5♥ 5♠ 4♣", "Q♥ Q♠ 5♣ 5♦ 3♣"),  # then the kicker
        ("2♣ 2♦ 2♥ 3♠ 3♣", "A♣ A♦ K♥ K♠ Q♣"),  # full house beats two pair
        ("3♣ 3♦ 3♥ 2♠ 2♣", "2♥ 2♦ 2♠ A♠ A♣"),  # full house: trips rank first
        ("8♣ 8♦ 8♥ 8♠ 3♣", "8♣ 8♦ 8♥ 8♠ 2♣"),  # quads: then the kicker
        ("A♦ K♦ Q♦ J♦ 9♦", "A♣ K♣ Q♣ J♣ 8♣"),  # flush: card by card, to the last
        ("7♣ 7♦ A♠ 6♥ 2♣", "7♥ 7♠ K♣ Q♦ J♦"),  # pair: then the kickers high to low
        ("8♣ 5♦ 4♠ 3♥ 2♣", "7♣ 6♦ 5♠ 4♥ 2♦"),  # high card: the top card decides
        ("7♣ 6♦ 5♠ 4♥ 2♦", "7♥ 6♠ 5♣ 3♦ 2♣"),  # high card: then the next cards
    ],
)
def test_within_category_order(better: str, worse: str) -> None:
    assert value(better) > value(worse)


def test_cards_and_plain_ints_and_any_order_agree() -> None:
    cards = parse("Q♣ Q♥ 5♠ 5♦ 8♣")
    assert hand_value(cards) == hand_value([int(c) for c in cards])
    assert hand_value(cards) == hand_value(tuple(reversed(cards)))


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards",
    [
        [0, 1, 2, 3],
        [0, 1, 2, 3, 4, 5],
        [],
        [0, 1, 2, 3, 3],
        [0, 1, 2, 3, 52],
        [0, 1, 2, 3, -1],
    ],
)
def test_hand_value_rejects_bad_hands(cards: list[int]) -> None:
    with pytest.raises(ValueError):
        hand_value(cards)


@pytest.mark.parametrize(
    "bad",
    [
        -1,
        0,
        9 << 20,
        value("A♣ K♣ Q♣ J♣ 9♦") + 1,  # A K Q J 10 is a straight, never "ace high"
        value("5♥ 6♠ 7♦ 8♣ 9♦") + 1,  # a straight keeps only its top rank
    ],
)
def test_category_and_describe_reject_non_values(bad: int) -> None:
    with pytest.raises(ValueError):
        category(bad)
    with pytest.raises(ValueError):
        describe(bad)


@pytest.mark.parametrize(
    "cards",
    [list(range(4)), list(range(19)), [0, 1, 2, 3, 4, 4], [0, 1, 2, 3, 4, 52], [-1, 0, 1, 2, 3]],
)
def test_best_five_rejects_bad_input(cards: list[int]) -> None:
    with pytest.raises(ValueError):
        best_five(cards)


# --- agreement with the independent evaluator phevaluator ------------------------------------


def test_agrees_with_phevaluator_on_random_hands() -> None:
    rng = random.Random(20261129)
    hands = [rng.sample(range(52), 5) for _ in range(4000)]
    ours = [hand_value(h) for h in hands]
    theirs = [ph_rank(h) for h in hands]
    for v, r in zip(ours, theirs, strict=True):
        assert category(v) is ph_category(r)
    for i in range(len(hands) - 1):
        for j in (i + 1, rng.randrange(len(hands))):
            assert sign(ours[i] - ours[j]) == sign(theirs[j] - theirs[i]), (hands[i], hands[j])


@pytest.mark.expensive
def test_all_five_card_hands() -> None:
    """Every one of the 2,598,960 hands: category counts, 7,462 classes, phevaluator order."""
    values = Counter(map(hand_value, combinations(range(52), 5)))
    assert sum(values.values()) == 2_598_960
    assert len(values) == 7_462
    hands = Counter[Category]()
    classes = Counter[Category]()
    for v, n in values.items():
        hands[category(v)] += n
        classes[category(v)] += 1
    assert hands == HANDS_PER_CATEGORY
    assert classes == CLASSES_PER_CATEGORY
    # Rank 1 is the best class in phevaluator; every hand must land in the class we give it.
    expected = {v: rank for rank, v in enumerate(sorted(values, reverse=True), start=1)}
    evaluate, ph = phevaluator.evaluate_5cards, PH_ID
    mismatches = [
        h
        for h in combinations(range(52), 5)
        if evaluate(ph[h[0]], ph[h[1]], ph[h[2]], ph[h[3]], ph[h[4]]) != expected[hand_value(h)]
    ]
    assert mismatches == []


# --- best_five ---------------------------------------------------------------------------------


@st.composite
def card_sets(draw: st.DrawFn, max_size: int = 18) -> list[int]:
    """5 to ``max_size`` distinct cards, often from few ranks or suits (rich in pairs, flushes)."""
    ranks = draw(st.sets(st.integers(0, 12), min_size=2, max_size=13))
    suits = draw(st.sets(st.integers(0, 3), min_size=1, max_size=4))
    pool = [s * 13 + r for s in sorted(suits) for r in sorted(ranks)]
    if len(pool) < 5:
        pool = list(range(52))
    size = min(len(pool), max_size)
    return draw(st.lists(st.sampled_from(pool), min_size=5, max_size=size, unique=True))


def brute_best(cards: list[int]) -> int:
    return max(hand_value(h) for h in combinations(cards, 5))


@given(card_sets(), st.randoms(use_true_random=False))
def test_best_five_is_the_best_subset(cards: list[int], rng: random.Random) -> None:
    best = best_five(cards)
    assert len(best) == 5 and len(set(best)) == 5
    assert set(best) <= set(cards)
    assert all(isinstance(c, Card) for c in best)
    assert hand_value(best) == brute_best(cards)
    shuffled = list(cards)
    rng.shuffle(shuffled)
    assert best_five(shuffled) == best


def test_best_five_on_random_eighteen_card_hands() -> None:
    rng = random.Random(18)
    for _ in range(30):
        cards = rng.sample(range(52), 18)
        assert hand_value(best_five(cards)) == brute_best(cards)


@pytest.mark.parametrize(
    ("cards", "best"),
    [
        ("A♥ K♥ Q♥ J♥ 10♥ 9♥ 2♣ 2♦ 2♠ 2♥", "A♥ K♥ Q♥ J♥ 10♥"),
        ("A♥ 2♣ 3♦ 4♠ 5♥ K♦ K♠", "5♥ 4♠ 3♦ 2♣ A♥"),
        ("K♠ K♥ K♣ 4♦ 4♣ 4♥ 9♠ 9♦", "K♠ K♥ K♣ 9♠ 9♦"),
        ("8♣ 8♦ 8♥ 8♠ 3♣ 3♦ 3♥ A♦", "8♠ 8♥ 8♦ 8♣ A♦"),
        ("Q♣ Q♥ 5♠ 5♦ 2♣ 2♦ 7♥", "Q♥ Q♣ 5♠ 5♦ 7♥"),
        # Equal flushes in hearts and spades: the higher suit (♠) is taken.
        ("A♥ K♥ Q♥ J♥ 9♥ A♠ K♠ Q♠ J♠ 9♠ 2♣", "A♠ K♠ Q♠ J♠ 9♠"),
    ],
)
def test_best_five_examples(cards: str, best: str) -> None:
    assert best_five(parse(cards)) == tuple(parse(best))
