"""Every card id's rank, suit and notation (engine/cards.py keeps them worked out once)."""

from __future__ import annotations

import pytest

from engine.cards import CARD_IDS, JOKER_LABEL, Card, format_card, parse_card


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
