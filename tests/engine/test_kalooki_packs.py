"""Kalooki's pack sets (``rules/kalooki.md`` §2.14 ``packs`` and ``jokers``, T1, T2): card ids
that extend the 108 without changing any, a 6-joker deal of 110 cards, and pack sets that
cannot serve the players refused with the reason, changing nothing."""

from __future__ import annotations

import pytest

from engine.cards import (
    CARD_IDS,
    MAX_JOKERS,
    MAX_PACKS,
    Card,
    Rank,
    Suit,
    double_deck,
    joker,
    pack_set,
    parse_card,
)
from engine.core import OptionError
from engine.kalooki.game import KalookiGame
from engine.kalooki.rules import JAMAICAN, make_rules


def test_the_first_108_ids_keep_their_meaning() -> None:
    for i in range(104):
        card = Card(i)
        assert not card.is_joker
        assert (card.rank, card.suit, card.copy) == (Rank(i % 13 + 2), Suit(i % 52 // 13), i // 52)
    assert [Card(i).is_joker for i in range(104, 108)] == [True] * 4
    assert pack_set(2, 4) == double_deck() == list(range(108))


def test_every_id_is_one_card_of_one_pack_or_a_joker() -> None:
    packs = range(MAX_PACKS)
    faces = [Card.of(rank, suit, copy) for copy in packs for suit in Suit for rank in Rank]
    jokers = [joker(n) for n in range(MAX_JOKERS)]
    assert sorted(faces + jokers) == list(range(CARD_IDS))
    for copy in range(MAX_PACKS):
        for suit in Suit:
            for rank in Rank:
                card = Card.of(rank, suit, copy)
                assert not card.is_joker
                assert (card.rank, card.suit, card.copy) == (rank, suit, copy)
    assert jokers[:6] == [104, 105, 106, 107, 420, 421] and all(j.is_joker for j in jokers)
    assert Card(108) == parse_card("2♣", 2) and str(Card(108)) == "2♣"
    assert parse_card("Jkr", 4) == 420 and str(Card(439)) == "Jkr"
    with pytest.raises(ValueError):
        Card(CARD_IDS)
    with pytest.raises(ValueError):
        Card.of(Rank.TWO, Suit.CLUBS, MAX_PACKS)


def test_three_packs_and_eight_jokers_are_164_ids() -> None:
    cards = pack_set(3, 8)
    assert cards == [*range(160), 420, 421, 422, 423]
    assert sum(c.is_joker for c in cards) == 8
    assert make_rules(packs=3, jokers=8).deck() == tuple(cards)


def test_a_six_joker_deal_accounts_for_all_110_cards_by_id() -> None:
    rules = make_rules(jokers=6)
    game = KalookiGame.new(rules, 4, b"six jokers", first_dealer=0)
    every = [c for h in game.hands for c in h] + game.stock + game.discard
    assert len(every) == 110 and sorted(every) == [*range(108), 420, 421]
    assert [len(h) for h in game.hands] == [9, 9, 9, 9]
    assert len(game.stock) == 110 - 36 - 1
    assert sum(c.is_joker for c in every) == 6
    clone = KalookiGame.model_validate_json(game.model_dump_json())
    assert clone == game and clone.rules.jokers == 6


def test_the_default_is_the_108_card_set() -> None:
    assert (JAMAICAN.packs, JAMAICAN.jokers, JAMAICAN.cards) == (2, 4, 108)
    old = JAMAICAN.model_dump()
    del old["packs"], old["jokers"]  # a snapshot saved before the options existed
    assert type(JAMAICAN).model_validate(old) == JAMAICAN


@pytest.mark.parametrize(
    ("overrides", "reason", "values"),
    [
        ({"max_players": 8}, "kalooki.option.capacity",
         {"players": 8, "needed": 149, "largest": 16, "stock": 20, "packs": 2, "jokers": 4,
          "cards": 108}),
        ({"max_players": 12, "packs": 3, "jokers": 8}, "kalooki.option.capacity",
         {"players": 12, "needed": 213, "largest": 16, "stock": 20, "packs": 3, "jokers": 8,
          "cards": 164}),
        ({"jokers": 3}, "option.between", {"option": "jokers", "low": 4, "high": MAX_JOKERS}),
        ({"packs": 1}, "option.between", {"option": "packs", "low": 2, "high": MAX_PACKS}),
        ({"packs": MAX_PACKS + 1}, "option.between",
         {"option": "packs", "low": 2, "high": MAX_PACKS}),
        ({"jokers": MAX_JOKERS + 1}, "option.between",
         {"option": "jokers", "low": 4, "high": MAX_JOKERS}),
        ({"min_players": 5, "max_players": 4}, "kalooki.option.players_range",
         {"low": 5, "high": 4}),
        ({"honour_calls": True}, "kalooki.option.honour_needs_challenge", {}),
        ({"shuffles": 2}, "option.unknown", {"option": "shuffles"}),
    ],
)
def test_a_pack_set_that_cannot_serve_the_players_is_refused(overrides, reason, values) -> None:
    with pytest.raises(OptionError) as refused:
        make_rules(**overrides)
    assert (refused.value.reason, refused.value.values) == (reason, values)


def test_more_packs_serve_more_players() -> None:
    assert make_rules(max_players=8, packs=3, jokers=8).capacity_problem(8) is None  # 164
    assert make_rules(max_players=12, packs=4, jokers=10).capacity_problem(12) is None  # 218


def test_seven_trinidad_players_fit_where_seven_jamaican_do_not() -> None:
    trinidad = make_rules("trinidad", max_players=7)  # 7 × 12 + 21 = 105 cards
    assert trinidad.capacity_problem(7) is None
    problem = JAMAICAN.capacity_problem(7)
    assert problem is not None and problem.values["needed"] == 133


def test_a_refused_game_or_deck_changes_nothing() -> None:
    rules = make_rules(packs=3, jokers=8)
    unchecked = JAMAICAN.model_copy(update={"max_players": 8})  # no validation on a copy
    with pytest.raises(OptionError) as refused:
        KalookiGame.new(unchecked, 8, b"too many")
    assert refused.value.reason == "kalooki.option.capacity"
    assert refused.value.values["needed"] == 149
    with pytest.raises(OptionError) as refused:
        KalookiGame.new(rules, 2, b"too few")
    assert (refused.value.reason, refused.value.values) == (
        "kalooki.option.players", {"preset": "jamaican", "low": 3, "high": 6})
    game = KalookiGame.new(rules, 6, b"164 cards")
    before = game.model_dump_json()
    with pytest.raises(ValueError, match="a deck is the 164 cards, each once"):
        game.fix_next_deck(list(range(108)))
    assert game.model_dump_json() == before
