"""The simple Tripoli AI: legal, deterministic for a seeded rng, sensible in clear cases."""

from __future__ import annotations

import random

from engine.poker import best_five
from engine.tripoli import ai
from engine.tripoli.actions import Exchange, Keep, Lead, Select
from engine.tripoli.game import TripoliGame
from engine.tripoli.phases import Phase
from engine.tripoli.rules import TripoliRules


def _ai_session(seed: int) -> list[str]:
    rng = random.Random(seed)
    game = TripoliGame.new(TripoliRules(), 5, b"ai", first_dealer=0)
    actions = []
    while game.phase != Phase.BETWEEN_DEALS:
        seat = min(game.to_act)
        action = ai.choose(game.view(seat), game.legal_actions(seat), rng)
        actions.append(action.model_dump_json())
        game.apply(seat, action)
    return actions


def test_ai_is_deterministic_for_a_seeded_rng():
    assert _ai_session(7) == _ai_session(7)


def test_ai_selects_its_best_five():
    game = TripoliGame.new(TripoliRules(), 4, b"sel", first_dealer=0)
    game.apply(0, Keep())
    view = game.view(1)
    assert ai.choose(view, game.legal_actions(1), random.Random(0)) == Select(
        cards=best_five(game.hands[1])
    )


def test_ai_leads_a_run_to_the_ace_it_holds(tri):
    game = TripoliGame.from_position(
        phase=Phase.MICHIGAN,
        stacks=[20, 20],
        hands={0: tri.cards("2♣ 9♦ 10♠ J♠ Q♠ K♠ A♠"), 1: tri.cards("3♣ 4♥")},
        leader=0,
    )
    action = ai.choose(game.view(0), game.legal_actions(0), random.Random(0))
    assert action == Lead(card=tri.cards("10♠")[0])


def test_ai_keeps_a_pay_card_hand_and_gives_up_a_weak_one(tri):
    strong = tri.deck_for(4, spare=(), hands={0: tri.cards("A♥ K♥ Q♥")})
    game = TripoliGame.new(TripoliRules(), 4, b"k", deck=strong, first_dealer=0)
    assert ai.choose(game.view(0), game.legal_actions(0), random.Random(0)) == Keep()
    # the dealer's 10 cards: no pay card, no pair, no flush, no straight
    weak = tri.deck_for(4, spare=(), hands={0: tri.cards("2♣ 3♦ 4♠ 5♣ 7♦ 8♠ 9♣ 10♦ Q♠ K♣")})
    game = TripoliGame.new(TripoliRules(), 4, b"w", deck=weak, first_dealer=0)
    choices = {
        type(ai.choose(game.view(0), game.legal_actions(0), random.Random(i))) for i in range(30)
    }
    assert Keep not in choices and Exchange in choices
