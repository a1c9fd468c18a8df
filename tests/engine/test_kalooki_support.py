"""Shared helpers of the Kalooki engine tests (this module holds no tests).

:class:`Pool` hands out physical cards by notation so that the two 7♥ of a scenario are
the two different card ids; :func:`deck_for` builds a 108-card deal order that gives
chosen hands, upcard and stock top; :func:`check_invariants` is run after every action of
the playouts.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

import pytest
from pydantic import BaseModel

from engine.cards import Card, parse_card
from engine.core import SYSTEM, Action, IllegalAction
from engine.kalooki.melds import four_low, three_rank
from engine.kalooki.phases import Phase

if TYPE_CHECKING:
    from engine.kalooki.game import KalookiGame


class Pool:
    """Distinct physical cards by notation: the first ``7h`` asked is copy 0, the next copy 1;
    jokers are 104, 105, 106, 107 in turn."""

    def __init__(self) -> None:
        self.used: Counter[str] = Counter()

    def __call__(self, text: str) -> list[Card]:
        out = []
        for token in text.replace(",", " ").split():
            key = parse_card(token, 0)
            copy = self.used[str(key)]
            self.used[str(key)] += 1
            out.append(parse_card(token, copy))
        return out


def cards(text: str) -> list[Card]:
    """The cards of ``text``, repeated notations as distinct physical cards."""
    return Pool()(text)


def deck_for(
    n: int,
    dealer: int,
    size: int,
    hands: dict[int, Sequence[Card]],
    upcard: Card | None = None,
    stock: Sequence[Card] = (),
) -> list[Card]:
    """A 108-card order whose deal gives ``hands`` (engine seats; missing cards filled in
    canonical order), the ``upcard`` and a stock starting with ``stock``.

    Dealing (``engine/kalooki/game.py``): card i of the first ``n * size`` goes to seat
    ``(dealer + 1 + i) % n``; the next card is the upcard; the rest is the stock, top first.
    """
    listed = [c for h in hands.values() for c in h] + list(stock)
    listed += [upcard] if upcard is not None else []
    assert len(set(listed)) == len(listed), "a card is listed twice"
    rest = [Card(i) for i in range(108) if Card(i) not in set(listed)]
    full = {s: list(hands.get(s, ())) for s in range(n)}
    for h in full.values():
        assert len(h) <= size
        while len(h) < size:
            h.append(rest.pop(0))
    order = [full[(dealer + 1 + i) % n][i // n] for i in range(n * size)]
    order.append(upcard if upcard is not None else rest.pop(0))
    return order + list(stock) + rest


def visible_cards(obj: object) -> set[Card]:
    """Every :class:`Card` held anywhere inside a view or event."""
    found: set[Card] = set()
    todo = [obj]
    while todo:
        x = todo.pop()
        if isinstance(x, Card):
            found.add(x)
        elif isinstance(x, BaseModel):
            todo.extend(getattr(x, name) for name in type(x).model_fields)
        elif isinstance(x, dict):
            todo.extend(x.keys())
            todo.extend(x.values())
        elif isinstance(x, list | tuple | set | frozenset):
            todo.extend(x)
    return found


def check_invariants(game: KalookiGame) -> None:
    """Card accounting (every card of the pack set once, by id), valid melds, decisions,
    information hiding, snapshot round trip."""
    every = [c for h in game.hands for c in h] + game.stock + game.discard
    every += [c for m in game.melds for c in m.cards]
    assert sorted(every) == list(game.rules.deck())
    if not game.sitting_out:  # a challenge's loser puts his jokers under the pile (§2T.6)
        assert not any(c.is_joker for c in game.discard[1:]), "a joker was discarded"
    for m in game.melds:
        if m.kind == "three":
            assert three_rank(m.cards, game.rules) == m.low
        else:
            rules = game.rules.model_copy(update={"max_jokers_new_four": None})
            assert four_low(m.cards, rules) == m.low
    to_act = game.to_act
    for s in range(game.seats):
        assert bool(game.legal_actions(s)) == (s in to_act), (s, to_act)
    assert SYSTEM not in to_act
    public = {c for m in game.melds for c in m.cards} | set(game.discard)
    for s in [*range(game.seats), None]:
        table = game.public_view() if s is None else game.view(s).table
        own = set(game.hands[s]) if s is not None else set()
        if s is not None:
            v = game.view(s)
            assert v.hand == tuple(sorted(game.hands[s]))
            assert visible_cards(v.options) <= own
        assert visible_cards(table.model_copy(update={"log": ()})) <= public
        for event in table.log:
            assert event.seen_by(s) == event
            if event.kind == "drew" and event.source == "stock" and event.seat != s:
                assert event.card is None
            if event.kind == "call_allowed" and event.caller != s:
                assert event.extra is None
    text = game.model_dump_json()
    assert game.session_seed.hex() not in table.model_dump_json()
    clone = type(game).model_validate_json(text)
    assert clone == game
    assert clone.model_dump_json() == text


def refused(game: KalookiGame, seat: int, action: Action, decision: int | None = None) -> str:
    """Apply an illegal action; assert the state is unchanged; return the error code."""
    before = game.model_dump_json()
    with pytest.raises(IllegalAction) as info:
        game.check(seat, action, decision)
    with pytest.raises(IllegalAction) as applied:
        game.apply(seat, action, decision)
    assert applied.value.code == info.value.code
    assert game.model_dump_json() == before
    return info.value.code


def step(game: KalookiGame, policies, rng: random.Random) -> list:
    """One decision of a seated table: in the call window every seat with a decision is
    asked in random order and the first action is applied (nobody acting: SYSTEM closes
    the window); otherwise the current player acts. ``policies[s]`` is ``ai.choose`` or
    ``ai.random_legal``."""
    if game.phase == Phase.WINDOW:
        for seat in rng.sample(sorted(game.to_act), len(game.to_act)):
            action = policies[seat](game.view(seat), game.legal_actions(seat), rng)
            if action is not None:
                return game.apply(seat, action, game.decision_id(seat))
        return game.apply(SYSTEM, game.timeout_action(SYSTEM), game.decision_id(SYSTEM))
    seat = game.turn
    action = policies[seat](game.view(seat), game.legal_actions(seat), rng)
    return game.apply(seat, action, game.decision_id(seat))
