"""Helpers for the Tripoli engine tests: fixed decks, seat translation, invariants, actions,
and seeded random sessions (:func:`play_session`) for the playout tests of every preset.

The rules file numbers seats from the dealer (seat 0 = dealer); :class:`Table` translates
those numbers to engine seats for a chosen dealer, so scenarios also run with dealer != 0.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from types import SimpleNamespace

import pytest
from pydantic import BaseModel

from engine.cards import Card, parse
from engine.core import Action, IllegalAction, Option
from engine.tripoli import ai
from engine.tripoli.actions import (
    Bet,
    Bid,
    Fold,
    Lead,
    Raise,
    Select,
)
from engine.tripoli.ai import random_legal
from engine.tripoli.game import TripoliGame
from engine.tripoli.phases import Phase
from engine.tripoli.rules import TripoliRules

CARD_EVENT_KINDS = {"showdown", "lead", "played", "stop"}


@dataclass(frozen=True)
class Table:
    """Seat translation: rules seat k (k = 0 is the dealer) -> engine seat (dealer + k) % n."""

    n: int
    dealer: int

    def __call__(self, k: int) -> int:
        return (self.dealer + k) % self.n

    def seats(self, by_rule_seat: dict[int, object]) -> dict[int, object]:
        return {self(k): v for k, v in by_rule_seat.items()}

    def stacks(self, by_rule_seat: dict[int, int]) -> list[int]:
        out = [0] * self.n
        for k, chips in by_rule_seat.items():
            out[self(k)] = chips
        return out


def cards(text: str) -> list[Card]:
    return parse(text)


def deck_for(n: int, spare: Sequence[Card], hands: dict[int, Sequence[Card]]) -> list[Card]:
    """A 52-card deck whose deal (item 10: spare, s1, …, s(n-1), s0) gives these cards.

    ``hands`` maps rules seats (0 = dealer) to cards that seat must hold; the remaining cards
    fill the free places in canonical order.
    """
    order = [list(spare)] + [list(hands.get(k, ())) for k in [*range(1, n), 0]]
    q, r = divmod(52, n + 1)
    sizes = [q + 1 if i < r else q for i in range(n + 1)]
    used = {c for h in order for c in h}
    assert len(used) == sum(map(len, order)), "a card is listed twice"
    rest = [Card(i) for i in range(52) if Card(i) not in used]
    for h, size in zip(order, sizes, strict=True):
        assert len(h) <= size, "too many cards for a hand"
        while len(h) < size:
            h.append(rest.pop(0))
    return [order[i % (n + 1)][i // (n + 1)] for i in range(52)]


def leftover_deck(players: int, hands: Sequence[Sequence[Card]]) -> list[Card]:
    """A deck dealing 5 cards to each of ``hands`` (in dealing order, one at a time)."""
    dealt = [hands[i % players][i // players] for i in range(5 * players)]
    return dealt + [Card(i) for i in range(52) if Card(i) not in set(dealt)]


def junk_action(game: TripoliGame, rng: random.Random) -> Action:
    """A random action of any kind, with random amounts and cards (mostly illegal)."""
    kind = rng.choice(
        [
            "keep",
            "exchange",
            "auction",
            "bid",
            "pass",
            "name_suit",
            "select",
            "check",
            "bet",
            "call",
            "raise",
            "fold",
            "lead",
        ]
    )
    amount = rng.randint(-2, 40)
    deck = [Card(i) for i in range(52)]
    if kind in ("bid", "bet", "raise"):
        return {"bid": Bid, "bet": Bet, "raise": Raise}[kind](amount=amount)
    if kind == "select":
        return Select(cards=tuple(rng.sample(deck, rng.choice([4, 5, 5, 6]))))
    if kind == "lead":
        return Lead(card=rng.choice(deck))
    return random_legal([Option(kind=kind)], rng)


def listed(action: Action, options: Sequence[Option]) -> bool:
    """Whether ``action`` is one of ``options`` (independent of the engine's own check)."""
    for o in options:
        if o.kind != action.kind:
            continue
        amount = getattr(action, "amount", None)
        if amount is not None and not (o.min is not None and o.min <= amount <= (o.max or 0)):
            return False
        if isinstance(action, Select):
            chosen = set(action.cards)
            return len(chosen) == len(action.cards) == o.count and chosen <= set(o.cards)
        if isinstance(action, Lead):
            return action.card in o.cards
        return True
    return False


def visible_cards(obj: object) -> set[Card]:
    """Every :class:`Card` held anywhere inside a view (models, tuples, dicts)."""
    found: set[Card] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, Card):
            found.add(x)
        elif isinstance(x, BaseModel):
            stack.extend(getattr(x, name) for name in type(x).model_fields)
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, list | tuple | set | frozenset):
            stack.extend(x)
    return found


def check_invariants(game: TripoliGame, total: int) -> None:
    """Conservation, card accounting, decisions and information hiding (DESIGN.md §2)."""
    assert game.total_chips() == total
    assert all(s is None or s >= 0 for s in game.stacks)
    assert all(v >= 0 for v in game.board.values())
    every = [c for h in game.hands for c in h] + game.spare + game.unused
    every += [c for p in game.played for c in p]
    assert sorted(every) == list(range(52))
    to_act = game.to_act
    for s in range(game.seats):
        options = game.legal_actions(s)
        assert bool(options) == (s in to_act), (s, to_act, options)
        for o in options:
            assert o.min is None or o.min <= (o.max or 0)
            assert o.count <= len(o.cards)
    public = {c for p in game.played for c in p} | {c for h in game.revealed.values() for c in h}
    table = game.public_view()
    assert visible_cards(table.model_copy(update={"log": ()})) <= public
    for event in table.log:
        assert event.kind in CARD_EVENT_KINDS or not visible_cards(event), event
    for s in range(game.seats):
        v = game.view(s)
        own = set(game.hands[s])
        assert set(v.hand) == own
        if game.spare_stage == "after_exchange" and s == game.dealer:
            own |= set(game.spare)  # he has seen his old hand (§4 item 13)
        assert visible_cards(v.model_copy(update={"table": None})) <= own | public
        assert v.table == table
    text = table.model_dump_json()
    assert game.session_seed.hex() not in text
    clone = TripoliGame.model_validate_json(game.model_dump_json())
    assert clone == game
    assert clone.model_dump_json() == game.model_dump_json()


def check_hidden(game: TripoliGame) -> None:
    """Non-interference: swapping two cards that seat s may not see leaves view(s) unchanged.

    For each seat, one card of the spare hand is swapped with one card of another seat's
    hand (neither revealed at a showdown); the seat's view must be exactly the same.
    """
    revealed = {c for h in game.revealed.values() for c in h}
    for s in range(game.seats):
        if game.spare_stage == "after_exchange" and s == game.dealer:
            continue  # the dealer has seen the spare (his old hand)
        other = next((t for t in game.players if t != s and set(game.hands[t]) - revealed), None)
        spare = [c for c in game.spare if c not in revealed]
        if other is None or not spare:
            continue
        swapped = game.model_copy(deep=True)
        a = spare[0]
        b = next(c for c in game.hands[other] if c not in revealed)
        swapped.spare[swapped.spare.index(a)] = b
        hand = swapped.hands[other]
        hand[hand.index(b)] = a
        if other in swapped.selections and b in swapped.selections[other]:
            sel = swapped.selections[other]
            sel[sel.index(b)] = a
        assert swapped.view(s) == game.view(s), f"seat {s} sees the spare or seat {other}"


def refused(game: TripoliGame, seat: int, action: Action, decision: int | None = None) -> str:
    """Apply an illegal action; assert the state is unchanged; return the error code."""
    before = game.model_dump_json()
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action, decision)
    assert game.model_dump_json() == before
    return info.value.code


def play_out(game: TripoliGame) -> None:
    """Finish the current deal with every seat's timeout default."""
    while game.phase not in (Phase.BETWEEN_DEALS, Phase.OVER):
        seat = min(game.to_act)
        game.apply(seat, game.timeout_action(seat))


MAX_STEPS = 3000


def play_session(
    n: int, seed: int, policy: str, deals: int, abandon: bool, rules: TripoliRules
) -> TripoliGame:
    """A seeded session of ``n`` seats under ``rules``, checked after every step.

    Seats are driven by the AI (``policy = "ai"``) or by uniformly random legal actions
    (``"random"``) through ``deals`` deals, ``end_session`` (sometimes abandoning a deal),
    the leftover round and OVER (then the board is empty, unless ``leftover_poker`` is off,
    and the final stacks hold every chip). After every step: chips and cards are conserved,
    exactly the seats in ``to_act`` have options, no view shows a card its seat may not see,
    and the snapshot round trip is exact; after about a third of the steps, swapping two cards a
    seat may not see leaves its view unchanged. Junk actions (mostly illegal) are refused
    without changing anything, and stale decision ids are refused.

    Returns
    -------
    (game, events)
        The game (over) and every event of the session, in order.
    """
    rng = random.Random(seed)
    stacks = [rng.choice([0, 9, 12, 30, 100, 100]) for _ in range(n)]
    game = TripoliGame.new(rules, n, seed.to_bytes(8, "big"), stacks=stacks)
    total = game.total_chips()
    check_invariants(game, total)
    seen = list(game.log)
    played_deals = 1
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        if game.phase == Phase.BETWEEN_DEALS:
            if played_deals >= deals:
                seen += game.end_session()
            else:
                seen += game.start_deal()
                played_deals += 1
            check_invariants(game, total)
            continue
        if played_deals >= deals and not game.leftover and not game.ending and rng.random() < 0.05:
            seen += game.end_session(abandon=abandon)
            check_invariants(game, total)
            continue
        if rng.random() < 0.15:
            try_junk(game, rng)
        seat = rng.choice(sorted(game.to_act))
        options = game.legal_actions(seat)
        if policy == "ai":
            action = ai.choose(game.view(seat), options, random.Random(rng.random()))
        else:
            action = random_legal(options, rng)
        assert listed(action, options)
        betting = game.betting if game.phase == Phase.BETTING else None
        folded = set(betting.folded) if betting else set()
        if isinstance(action, Fold):
            folded.add(seat)
        stale = game.decision_id(seat) - 1
        assert refused(game, seat, action, stale) == "stale"
        events = game.apply(seat, action, game.decision_id(seat))
        seen += events
        for e in events:
            if e.kind == "showdown":
                assert not set(e.hands) & folded
        check_invariants(game, total)
        if rng.random() < 0.3:
            check_hidden(game)
    assert game.is_over, "the session did not terminate"
    assert game.result is not None and sum(game.result.values()) + sum(game.board.values()) == total
    if rules.leftover_poker:  # the leftover rounds empty the board (items 59-61, §4 item 35)
        assert not any(game.board.values()) and sum(game.result.values()) == total
    return game, seen


def michigan(table: Table, hands: dict[int, str], stacks: dict[int, int], **kw) -> TripoliGame:
    """A phase-3 position; ``hands`` and ``stacks`` by rules seat (0 = the dealer)."""
    return TripoliGame.from_position(
        kw.pop("rules", None),
        phase=Phase.MICHIGAN,
        stacks=table.stacks(stacks),
        hands={table(k): cards(v) for k, v in hands.items()},
        dealer=table(0),
        **kw,
    )


def by_rule_seat(game: TripoliGame, table: Table) -> dict[int, int | None]:
    """The stacks by rules seat (0 = the dealer)."""
    return {k: game.stacks[table(k)] for k in range(table.n)}


def try_junk(game: TripoliGame, rng: random.Random) -> None:
    """Apply a random action of any kind; unless it is legal, it must change nothing."""
    seat = rng.randrange(game.seats)
    action = junk_action(game, rng)
    if game.to_act and seat in game.to_act and listed(action, game.legal_actions(seat)):
        return  # legal after all: not junk
    before = game.model_dump_json()
    try:
        game.apply(seat, action)
    except IllegalAction:
        assert game.model_dump_json() == before
    else:
        raise AssertionError(f"accepted an unlisted action {action!r} from seat {seat}")


@pytest.fixture(scope="session")
def tri() -> SimpleNamespace:
    """The helpers above, for the Tripoli test modules."""
    return SimpleNamespace(
        Table=Table,
        cards=cards,
        deck_for=deck_for,
        leftover_deck=leftover_deck,
        random_action=random_legal,
        junk_action=junk_action,
        listed=listed,
        visible_cards=visible_cards,
        check_invariants=check_invariants,
        check_hidden=check_hidden,
        refused=refused,
        play_out=play_out,
        play_session=play_session,
        michigan=michigan,
        by_rule_seat=by_rule_seat,
    )
