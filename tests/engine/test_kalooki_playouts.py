"""Seeded random and AI playouts of Kalooki (Jamaican and Trinidad, and 3 packs with 8
jokers for 6 players): after every action every card of the pack set is accounted for by
id, every meld is valid, no joker lies in the discard pile, no view or event shows a card
its seat may not see, the snapshot round trip is exact and random illegal actions change
nothing; whole sets play through to their outcome."""

from __future__ import annotations

import random

import pytest
from test_kalooki_support import check_invariants, refused, step

from engine.cards import Card
from engine.core import SYSTEM, EndReason, IllegalAction
from engine.kalooki import ai
from engine.kalooki.actions import (
    Allow,
    CallDiscard,
    CloseWindow,
    Discard,
    Draw,
    EndTurn,
    ExchangeJoker,
    Group,
    LayDown,
    LayOff,
    Refuse,
)
from engine.kalooki.game import KalookiGame
from engine.kalooki.rules import PRESETS, KalookiRules, make_rules


def junk(game: KalookiGame, rng: random.Random):
    """A random action of any kind with random cards and targets (mostly illegal)."""
    card = Card(rng.randrange(108))
    meld = rng.choice([mm.id for mm in game.melds] + ["m99"])
    return rng.choice(
        [
            Draw(source=rng.choice(["stock", "discard"])),
            CallDiscard(),
            Allow(),
            Refuse(),
            Discard(card=card),
            EndTurn(),
            CloseWindow(),
            LayOff(meld=meld, card=card, end=rng.choice([None, "top", "bottom"])),
            ExchangeJoker(meld=meld, card=card, to=rng.choice([None, "top", "bottom", "hand"])),
            LayDown(
                groups=(
                    Group(
                        kind=rng.choice(["three", "four"]),
                        cards=tuple(Card(rng.randrange(108)) for _ in range(rng.randint(3, 5))),
                    ),
                )
            ),
        ]
    )


def try_junk(game: KalookiGame, rng: random.Random) -> None:
    """A random action from a random seat: legal or refused without any change."""
    seat = rng.choice([SYSTEM, *range(game.seats)])
    action = junk(game, rng)
    before = game.model_dump_json()
    try:
        game.check(seat, action)
    except IllegalAction as e:
        assert refused(game, seat, action) == e.code
        assert game.model_dump_json() == before


def playout(
    rules: KalookiRules, n: int, seed: int, policy, deals: int, max_steps: int
) -> KalookiGame:
    rng = random.Random(seed)
    game = KalookiGame.new(rules, n, seed.to_bytes(16, "big"))
    policies = [policy] * n
    check_invariants(game)
    for _ in range(max_steps):
        if game.is_over:
            break
        if game.between_deals:
            if game.deal_number >= deals:  # the agreed length: the set is complete
                game.end_session(reason=EndReason.LENGTH)
            else:
                game.start_deal()
            check_invariants(game)
            continue
        if rng.random() < 0.2:
            try_junk(game, rng)
        seat = game.turn
        if game.to_act and rng.random() < 0.1:
            stale = game.decision_id(seat) - 1
            action = (
                game.timeout_action(seat)
                if seat in game.to_act and game.phase != "window"
                else None
            )
            if action is not None:
                assert refused(game, seat, action, stale) == "stale"
        step(game, policies, rng)
        check_invariants(game)
    return game


@pytest.mark.parametrize("preset", ["jamaican", "trinidad"])
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_random_legal_playouts(preset: str, n: int) -> None:
    game = playout(PRESETS[preset], n, 100 + n, ai.random_legal, deals=1, max_steps=400)
    assert game.deal_number >= 1


@pytest.mark.parametrize("preset", ["jamaican", "trinidad"])
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_ai_playouts(preset: str, n: int) -> None:
    game = playout(PRESETS[preset], n, 200 + n, ai.choose, deals=2, max_steps=400)
    assert game.deal_number >= 1


@pytest.mark.parametrize("policy", [ai.random_legal, ai.choose], ids=["random", "ai"])
def test_three_packs_and_eight_jokers_for_six_players(policy) -> None:
    rules = make_rules(packs=3, jokers=8)
    game = playout(rules, 6, 300, policy, deals=1, max_steps=5000)
    assert game.is_over and len(rules.deck()) == 164
    assert game.outcome is not None and game.outcome.complete
    first = KalookiGame.new(rules, 6, (300).to_bytes(16, "big"))
    held = {c for h in first.hands for c in h}
    assert {c for c in held if c >= 108}, "cards of the third pack are dealt"


@pytest.mark.parametrize("preset", ["jamaican", "trinidad"])
def test_a_whole_set_plays_through(preset: str) -> None:
    rng = random.Random(7)
    game = KalookiGame.new(PRESETS[preset], 4, b"whole-set-" + preset.encode())
    scored = 0
    for _ in range(20000):
        if game.is_over:
            break
        if game.between_deals:
            game.start_deal()
            continue
        events = step(game, [ai.choose] * 4, rng)
        scored += sum(e.kind == "deal_scored" for e in events)
    assert game.is_over and scored == PRESETS[preset].deals
    outcome = game.outcome
    assert outcome is not None and outcome.complete
    assert outcome.scores == dict(enumerate(game.totals))
    assert [outcome.scores[g[0]] for g in outcome.places] == sorted(set(game.totals))
    check_invariants(game)
