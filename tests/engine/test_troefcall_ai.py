"""The Troefcall AI plays like a decent partner, from its own view and options only."""

from __future__ import annotations

import random

from test_troefcall_scenarios import S8_HAND, Table, deck_for, fill, position

from engine.cards import Suit, parse
from engine.troefcall import ai
from engine.troefcall.actions import ClaimRedeal, KapPartij, NameTrump, Play
from engine.troefcall.game import TroefcallGame
from engine.troefcall.phases import Phase
from engine.troefcall.rules import TroefcallRules

T = Table(0)


def choice(game: TroefcallGame, seat: int):
    return ai.choose(game.view(seat), game.legal_actions(seat), random.Random(0))


def card(text: str):
    return Play(card=parse(text)[0])


def test_it_names_the_strongest_suit():
    hands = fill({0: parse("A♠ K♠ 2♥ 3♥ 4♥")}, dict.fromkeys(range(4), 13))
    game = TroefcallGame.new(TroefcallRules(), 4, b"x", deck=deck_for(0, hands), first_caller=0)
    assert choice(game, 0) == NameTrump(suit=Suit.SPADES)


def test_it_does_not_overtake_a_winning_partner():
    game = position(T, caller=0, trump="s", trick="K♥ 2♥", fixed={2: "A♥ 3♥"})
    assert choice(game, 2) == card("3♥")


def test_it_wins_cheaply_in_last_place():
    game = position(T, caller=1, trump="s", trick="Q♥ 2♥ 3♥", fixed={0: "A♥ K♥ 4♥"})
    assert choice(game, 0) == card("K♥")


def test_it_trumps_when_void_and_an_opponent_wins_but_not_over_its_partner():
    fixed = {0: "5♠ 9♠ 2♣"}
    against = position(T, caller=1, trump="s", trick="A♥ 3♥ 4♥", fixed=fixed, avoid={0: "h"})
    assert choice(against, 0) == card("5♠")
    partner = position(T, caller=1, trump="s", trick="4♥ A♥ 3♥", fixed=fixed, avoid={0: "h"})
    assert choice(partner, 0) == card("2♣")  # partner's A♥ wins: discard low


def test_second_hand_wins_with_a_master_when_a_cheaper_card_could_be_beaten():
    game = position(T, caller=3, trump="s", trick="10♥", fixed={0: "A♥ J♥"})
    assert choice(game, 0) == card("A♥")


def test_it_leads_a_master():
    game = position(T, caller=0, trump="s", fixed={0: "A♥ 7♥ 2♦"}, avoid={0: "s"})
    assert choice(game, 0) == card("A♥")


def test_it_stops_at_seven_unless_thirteen_are_certain():
    game = position(T, caller=1, trump="s", history=[1, 3, 1, 3, 1, 1, 3])
    assert choice(game, 3) == KapPartij()
    assert choice(game, 1) is None  # the partner leaves the stop (5 points) to seat 3


def test_it_plays_on_for_baunie_when_it_holds_every_trump_left():
    spades = parse("A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠")
    hands = fill({1: spades}, dict.fromkeys(range(4), 13))
    game = TroefcallGame.new(
        TroefcallRules(target=50), 4, b"x", deck=deck_for(1, hands), first_caller=1
    )
    while game.phase != Phase.BETWEEN_HANDS:
        seat = next(p.seat for p in game.pending() if p.required)
        if game.phase == Phase.KAP:
            assert choice(game, seat).kind == "play"
        game.apply(seat, choice(game, seat))
    assert (game.results[-1].reason, game.results[-1].points) == ("baunie", 15)


def test_it_claims_a_redeal_with_a_weak_hand_without_court_cards():
    def caller_view(hand: str) -> TroefcallGame:
        hands = fill({1: parse(hand)}, dict.fromkeys(range(4), 13))
        game = TroefcallGame.new(
            TroefcallRules(), 4, b"x", deck=deck_for(1, hands), first_caller=1
        )
        game.apply(1, choice(game, 1))
        return game

    weak = caller_view(S8_HAND)  # names hearts: 3 trumps
    assert choice(weak, 1) == ClaimRedeal()
    strong = caller_view("A♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ A♥ A♦ 2♥ 3♥ 2♦ 2♣")
    assert strong.trump == Suit.SPADES and choice(strong, 1).kind == "play"


def test_the_ai_team_beats_random_play():
    wins = 0
    for seed in range(6):
        rng = random.Random(seed)
        game = TroefcallGame.new(TroefcallRules(target=5), 4, bytes([seed]))
        while not game.is_over:
            if game.between_deals:
                game.start_deal()
                continue
            p = next(p for p in game.pending() if p.required)
            options = game.legal_actions(p.seat)
            if p.seat % 2 == seed % 2:
                action = ai.choose(game.view(p.seat), options, rng)
            else:
                action = ai.random_legal(options, rng)
            game.apply(p.seat, action)
        wins += game.winner == seed % 2
    assert wins >= 5
