"""Seeded random Troefcall games with invariants checked after every action.

Games are driven by the AI, by uniformly random legal actions, or one team of each, to a
target, for a number of hands, or playing every trick; some are ended early (after the hand
or at once). After every step: the 52 cards are all accounted for, exactly the seats of
``pending()`` have options, no view holds a card of another seat's hand (the public view
none at all), only card events carry cards, and the snapshot round trip is exact. Every
action taken is one of the seat's options; random junk actions are refused without changing
the snapshot, and stale decision ids are refused. Exactly one team scores in every hand, the
deal rotates exactly when the dealer's team scored, and every game ends.
"""

from __future__ import annotations

import random

import pytest
from conformance import cards_in
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, Suit
from engine.core import Action, IllegalAction, Option
from engine.troefcall import ai
from engine.troefcall.actions import ClaimRedeal, KapPartij, NameTrump, Play
from engine.troefcall.game import TroefcallGame
from engine.troefcall.rules import TroefcallRules
from engine.troefcall.scoring import team_of

MAX_STEPS = 5000
CARD_EVENTS = {"card_played", "redeal", "jack_search"}
RULES = [
    TroefcallRules(target=3),
    TroefcallRules(target=5),
    TroefcallRules(deals=1),
    TroefcallRules(target=4, play_all_tricks=True),
]


def listed(action: Action, options: list[Option]) -> bool:
    """Whether ``action`` is one of ``options`` (independently of the engine's check)."""
    for o in options:
        if o.kind == action.kind:
            return not isinstance(action, Play) or action.card in o.cards
    return False


def junk(rng: random.Random) -> Action:
    """A random action of any kind (mostly illegal)."""
    return rng.choice(
        [
            NameTrump(suit=rng.choice(list(Suit))),
            Play(card=Card(rng.randrange(52))),
            KapPartij(),
            ClaimRedeal(),
        ]
    )


def refused(game: TroefcallGame, seat: int, action: Action, decision: int | None) -> str:
    before = game.model_dump_json()
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action, decision)
    assert game.model_dump_json() == before
    return info.value.code


def played(game: TroefcallGame) -> set[Card]:
    out = {c for t in game.tricks for c in t.cards}
    return out | (set(game.current.cards) if game.current else set())


def check(game: TroefcallGame) -> None:
    every = [c for h in game.hands for c in h] + game.stock + game.dead
    every += [c for t in game.tricks for c in t.cards]
    every += game.current.cards if game.current else []
    assert sorted(every) == list(range(52))
    assert sum(game.tricks_won) == len(game.tricks)
    pending = game.pending()
    assert game.to_act == {p.seat for p in pending}
    assert [p.required for p in pending].count(False) <= 1
    for s in range(4):
        assert bool(game.legal_actions(s)) == (s in game.to_act)
    views = [game.view(s) for s in range(4)]
    table = views[0].table
    assert table == game.public_view()
    for event in table.log:
        assert event.kind in CARD_EVENTS or not cards_in(event), event
    open_cards = played(game)
    assert cards_in(table.model_copy(update={"log": (), "jack_search": None})) <= open_cards
    for s, view in enumerate(views):
        assert set(view.hand) == set(game.hands[s])
        bare = view.model_copy(update={"table": None})
        assert cards_in(bare) <= set(game.hands[s]) | open_cards
    if game.phase == "naming":
        assert [len(h) for h in game.hands] == [5 if s == game.caller else 0 for s in range(4)]
    text = game.model_dump_json()
    assert game.session_seed.hex() not in table.model_dump_json()
    clone = TroefcallGame.model_validate_json(text)
    assert clone == game and clone.model_dump_json() == text


def choose(game: TroefcallGame, policy: str, rng: random.Random) -> tuple[int, Action] | None:
    """The next (seat, action): the required decision first; an optional one sometimes."""
    for p in sorted(game.pending(), key=lambda p: not p.required):
        options = game.legal_actions(p.seat)
        uses_ai = policy == "ai" or (policy == "mixed" and p.seat % 2 == 0)
        if uses_ai:
            action = ai.choose(game.view(p.seat), options, random.Random(rng.random()))
        elif p.required or rng.random() < 0.3:
            action = ai.random_legal(options, rng)
        else:
            action = None
        if action is not None:
            assert listed(action, options), (action, options)
            return p.seat, action
    return None


def play_game(seed: int, policy: str, rules: TroefcallRules, end: str) -> TroefcallGame:
    rng = random.Random(seed)
    game = TroefcallGame.new(rules, 4, seed.to_bytes(8, "big"))
    check(game)
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        if game.between_deals:
            if end != "play" and len(game.results) >= 1:
                game.end_session()
            else:
                game.start_deal()
            check(game)
            continue
        if end != "play" and not game.ending and rng.random() < 0.02:
            game.end_session(abandon=end == "abandon")
            check(game)
            continue
        if rng.random() < 0.2:
            seat, action = rng.randrange(4), junk(rng)
            if not listed(action, game.legal_actions(seat)):
                refused(game, seat, action, None)
        seat, action = choose(game, policy, rng) or (None, None)
        assert seat is not None and action is not None
        assert refused(game, seat, action, game.decision_id(seat) - 1) == "stale"
        before = (list(game.scores), game.dealer, game.caller)
        events = game.apply(seat, action, game.decision_id(seat))
        for e in events:
            if e.kind == "hand_scored":
                r = e.result
                gained = [game.scores[t] - before[0][t] for t in (0, 1)]
                assert gained[r.team] == r.points > 0 and gained[1 - r.team] == 0
                assert (r.dealer, r.caller) == before[1:]
                kept = r.team == team_of(r.caller)
                assert ((r.next_dealer, r.next_caller) == (r.dealer, r.caller)) == kept
                if not kept:
                    assert (r.next_dealer, r.next_caller) == (r.caller, (r.caller + 1) % 4)
        check(game)
    assert game.is_over, "the game did not end"
    out = game.outcome
    assert out is not None and sorted(s for p in out.places for s in p) == [0, 1, 2, 3]
    assert out.complete == (game.winner is not None)
    if out.complete and rules.target is not None:
        assert game.scores[game.winner] >= rules.target > game.scores[1 - game.winner]
    if out.complete and rules.deals is not None:
        assert len(game.results) >= rules.deals and game.scores[0] != game.scores[1]
    if end == "play":
        assert out.complete
    return game


@settings(max_examples=24, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    policy=st.sampled_from(["ai", "random", "mixed"]),
    rules=st.sampled_from(RULES),
    end=st.sampled_from(["play", "play", "end", "abandon"]),
)
def test_random_games_keep_every_invariant(seed, policy, rules, end):
    play_game(seed, policy, rules, end)


def test_an_ai_game_to_15_ends_with_a_winner():
    game = play_game(7, "ai", TroefcallRules(), "play")
    assert game.winner is not None and max(game.scores) >= 15
