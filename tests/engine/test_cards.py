"""Every card id's rank, suit and notation (engine/cards.py keeps them worked out once), and
one instance per id."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from engine.cards import CARD_IDS, JOKER_LABEL, Card, format_card, parse_card
from engine.core import Frozen


class Hand(Frozen):
    held: tuple[Card, ...]


@pytest.mark.parametrize("card_id", range(CARD_IDS))
def test_each_card_id_has_the_rank_suit_and_notation_its_pack_gives_it(card_id):
    card = Card(card_id)
    if card.is_joker:
        with pytest.raises(ValueError, match="no rank"):
            _ = card.rank
        with pytest.raises(ValueError, match="no suit"):
            _ = card.suit
        assert format_card(card_id) == str(card) == JOKER_LABEL
        return
    assert Card.of(card.rank, card.suit, card.copy) == card_id
    assert format_card(card_id) == str(card)
    assert parse_card(str(card), card.copy) == card_id


def test_a_card_id_outside_the_sets_is_refused():
    for bad in (-1, CARD_IDS):
        with pytest.raises(ValueError, match="outside"):
            format_card(bad)


def test_each_card_id_is_one_instance_however_the_card_is_made():
    cards = [Card(i) for i in range(CARD_IDS)]
    assert [int(card) for card in cards] == list(range(CARD_IDS))
    read = Hand.model_validate_json(json.dumps({"held": list(range(CARD_IDS))})).held
    for card_id, card in enumerate(cards):
        assert Card(card_id) is card and Card(card) is card and Card(float(card_id)) is card
        assert pickle.loads(pickle.dumps(card)) is card
        assert copy.deepcopy(card) is card
        assert read[card_id] is card and type(read[card_id]) is Card
        assert card == card_id and hash(card) == hash(card_id)
    assert json.dumps(cards[:3]) == "[0, 1, 2]"
    assert Hand(held=(5, 7)).model_dump_json() == '{"held":[5,7]}'
