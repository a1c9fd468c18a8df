"""Every game meets the engine protocol (``engine/core.py``, DESIGN.md §2).

For each case of ``conformance.CASES`` and each of its player counts, seeded random
sessions are played through the protocol only: a seat of ``pending()`` (or the SYSTEM timer)
acts with a random action of one of its ``legal_actions`` families until ``is_over``;
after ``case.deals`` deals the session is asked to end (during a deal, sometimes
abandoning it; between deals). After every step:

- ``to_act`` is the set of non-SYSTEM seats of ``pending()``, each with its current decision
  id and with options; every other seat has none;
- ``check`` accepts exactly what ``apply`` then accepts, and refuses with ``apply``'s code;
  random illegal actions (another seat's turn, an amount out of range, a card not offered,
  a stale decision id: code ``stale``) are refused by both with the state unchanged;
- ``timeout_action`` of every required pending decision passes ``check``;
- the snapshot round trip is exact;
- no view (each seat's, the public one) and no event of the step as each viewer sees it
  (``seen_by``) holds a card the case's ``hidden`` says that viewer may not see;
- every view, which the engine builds from its own state without validating it again,
  holds exactly what validating its dump builds: the same values of the same types.

At the end ``outcome`` is set and its places name every seat once.

How a session ends (``engine.core.EndReason``, each game's rules): ended by its agreed
length after a deal it is complete, with winners; ended by abandoning its first deal it is
incomplete, for any reason; ended by the host or for too few players between deals it is
incomplete, unless the game ends at the players' wish (``GameCase.ends_at_wish``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from conformance import CASES, GameCase, cards_in, same_values

from engine.cards import DOUBLE_DECK_SIZE, Card
from engine.core import SYSTEM, Action, EndReason, Event, Game, IllegalAction, Option

MAX_STEPS = 4000
SEEDS = range(2)


def params(seeds: range | None) -> list[tuple[GameCase, int, int]]:
    """Every case, player count and seed (``None``: the case's own sweep after SEEDS)."""
    return [(case, n, seed) for case in CASES for n in case.players
            for seed in (seeds or range(len(SEEDS), len(SEEDS) + case.sweep))]


def ids(param: object) -> str:
    return str(param)


@pytest.mark.parametrize(("case", "players", "seed"), params(SEEDS), ids=ids)
def test_random_sessions_meet_the_protocol(case: GameCase, players: int, seed: int):
    play(case, players, seed)


@pytest.mark.expensive
@pytest.mark.parametrize(("case", "players", "seed"), params(None), ids=ids)
def test_random_sessions_meet_the_protocol_sweep(case: GameCase, players: int, seed: int):
    play(case, players, seed)


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_the_hidden_cards_are_what_other_seats_hold(case: GameCase):
    # the leak check is not vacuous: a seat's own view, shown to another seat, leaks
    n = min(case.players)
    game = case.new(b"conformance hidden", n)
    if game.between_deals:
        game.start_deal()
    for seat in range(n):
        own = cards_in(game.view(seat))
        assert own, seat
        for other in [None, *(s for s in range(n) if s != seat)]:
            assert own & case.hidden(game, other), (seat, other)


def run_out(game: Game, done: Callable[[], bool]) -> None:
    """Apply the timeout of the first required pending decision (a seat's or a rule's
    timer) until ``done()``."""
    for _ in range(MAX_STEPS):
        if done():
            return
        pending = next(p for p in game.pending() if p.required)
        game.apply(pending.seat, game.timeout_action(pending.seat), pending.decision)
    raise AssertionError("the game did not get there")


def first_deal_over(case: GameCase) -> Game:
    """A session of ``case``'s fewest players whose first deal is over (by timeouts)."""
    game = case.new(b"conformance ending", min(case.players))
    if game.between_deals:
        game.start_deal()
    run_out(game, lambda: game.between_deals)
    assert not game.is_over
    return game


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_a_session_ended_by_its_agreed_length_after_a_deal_is_complete(case: GameCase):
    game = first_deal_over(case)
    game.end_session(reason=EndReason.LENGTH)
    run_out(game, lambda: game.is_over)  # a leftover round, a hand breaking a tie
    assert game.outcome.complete and game.outcome.winners == game.outcome.places[0]
    assert game.outcome.winners


@pytest.mark.parametrize("reason", list(EndReason))
@pytest.mark.parametrize("case", CASES, ids=ids)
def test_a_session_ended_by_abandoning_its_first_deal_has_no_winner(case: GameCase,
                                                                   reason: EndReason):
    game = case.new(b"conformance ending", min(case.players))
    if game.between_deals:
        game.start_deal()
    game.end_session(abandon=True, reason=reason)
    run_out(game, lambda: game.is_over)
    assert not game.outcome.complete and game.outcome.winners == ()


@pytest.mark.parametrize("reason", [EndReason.HOST, EndReason.PLAYERS])
@pytest.mark.parametrize("case", CASES, ids=ids)
def test_a_session_the_host_or_too_few_players_end_between_deals(case: GameCase,
                                                                reason: EndReason):
    game = first_deal_over(case)
    game.end_session(reason=reason)
    run_out(game, lambda: game.is_over)
    assert game.outcome.complete is case.ends_at_wish
    assert bool(game.outcome.winners) is case.ends_at_wish


def play(case: GameCase, players: int, seed: int) -> None:
    """One seeded session of ``case`` with ``players`` seats, checked after every step."""
    rng = random.Random(f"{case.name}/{players}/{seed}")
    game = case.new(f"conformance {seed}".encode(), players)
    assert isinstance(game, Game)
    check_state(case, game, [])
    last: tuple[int, Action] | None = None
    asked = False
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        if game.between_deals:
            events = game.end_session() if game.deal_number >= case.deals else game.start_deal()
            check_state(case, game, events)
            continue
        if not asked and game.deal_number >= case.deals and rng.random() < 0.05:
            asked = True  # mid-deal: end after this deal, or abandon it
            check_state(case, game, game.end_session(abandon=rng.random() < 0.5))
            continue
        pending = game.pending()
        timers = [p for p in pending if p.seat == SYSTEM]
        seats = sorted(game.to_act)
        if timers and (not seats or rng.random() < 0.3):
            seat, decision = SYSTEM, timers[0].decision
            action = game.timeout_action(SYSTEM)
        else:
            seat = rng.choice(seats)
            decision = game.decision_id(seat)
            try_illegal(case, game, seat, rng)
            action = accepted_action(case, game, seat, rng)
        assert_refused(game, seat, action, decision - 1, "stale")
        events = game.apply(seat, action, decision)
        last = (seat, action)
        check_state(case, game, events)
    assert game.is_over, "the session did not end"
    assert game.pending() == () and game.to_act == frozenset()
    outcome = game.outcome
    assert outcome is not None
    placed = [s for place in outcome.places for s in place]
    assert sorted(placed) == list(range(game.seats))
    assert last is not None
    assert_refused(game, *last, None)


def accepted_action(case: GameCase, game: Game, seat: int, rng: random.Random) -> Action:
    """A random action of one of ``seat``'s option families that ``check`` accepts; each
    refused try must be refused by ``apply`` too, with the same code."""
    options = game.legal_actions(seat)
    for _ in range(50):
        action = case.action(rng.choice(options), rng)
        try:
            game.check(seat, action, game.decision_id(seat))
        except IllegalAction as error:
            assert_refused(game, seat, action, game.decision_id(seat), error.code)
        else:
            return action
    raise AssertionError(f"no action of {options} is accepted")


def try_illegal(case: GameCase, game: Game, seat: int, rng: random.Random) -> None:
    """Random illegal variants of a ``seat`` action: refused by ``check`` and ``apply``."""
    option = rng.choice(game.legal_actions(seat))
    action = case.action(option, rng)
    idle = [s for s in range(game.seats) if s not in game.to_act]
    if idle:
        assert_refused(game, rng.choice(idle), action, None)
    for bad in illegal_variants(action, option, rng):
        assert_refused(game, seat, bad, game.decision_id(seat))


def illegal_variants(action: Action, option: Option, rng: random.Random) -> list[Action]:
    """``action`` with an amount outside the option's range or a card it does not offer."""
    fields = type(action).model_fields
    out = []
    if "amount" in fields and option.max is not None:
        out.append(action.model_copy(update={"amount": option.max + rng.randint(1, 5)}))
    if "amount" in fields and option.min is not None:
        out.append(action.model_copy(update={"amount": option.min - rng.randint(1, 5)}))
    others = [Card(i) for i in range(DOUBLE_DECK_SIZE) if Card(i) not in option.cards]
    if option.cards and others and "card" in fields:
        out.append(action.model_copy(update={"card": rng.choice(others)}))
    chosen = getattr(action, "cards", ())
    if option.cards and others and "cards" in fields and chosen:
        swapped = (*chosen[:-1], rng.choice(others))
        out.append(action.model_copy(update={"cards": swapped}))
    return out


def assert_refused(
    game: Game, seat: int, action: Action, decision: int | None, code: str | None = None
) -> None:
    """``check`` and ``apply`` both refuse (with ``code`` when given; the same code) and
    nothing changes."""
    before = game.model_dump_json()
    with pytest.raises(IllegalAction) as checked:
        game.check(seat, action, decision)
    assert game.model_dump_json() == before
    with pytest.raises(IllegalAction) as applied:
        game.apply(seat, action, decision)
    assert game.model_dump_json() == before
    assert checked.value.code == applied.value.code
    if code is not None:
        assert applied.value.code == code


def check_state(case: GameCase, game: Game, events: list[Event]) -> None:
    """The protocol's invariants after a step that produced ``events``."""
    pending = game.pending()
    people = [p for p in pending if p.seat != SYSTEM]
    assert game.to_act == frozenset(p.seat for p in people)
    assert len({p.seat for p in people}) == len(people)
    for p in people:
        assert p.decision == game.decision_id(p.seat) and p.after is None
    for p in pending:
        if p.seat == SYSTEM:
            assert p.after is not None and p.after >= 0
        if p.required:
            game.check(p.seat, game.timeout_action(p.seat), p.decision)
        same_values(p, type(p).model_validate(p.model_dump()), "pending")
    for s in range(game.seats):
        assert bool(game.legal_actions(s)) == (s in game.to_act), s
    for s in [SYSTEM, *range(game.seats)]:
        for option in game.legal_actions(s):
            same_values(option, type(option).model_validate(option.model_dump()), "option")
    text = game.model_dump_json()
    loaded = type(game).model_validate_json(text)
    assert loaded.model_dump_json() == text
    for viewer in [None, *range(game.seats)]:
        hidden = case.hidden(game, viewer)
        view = game.public_view() if viewer is None else game.view(viewer)
        assert not cards_in(view) & hidden, (viewer, sorted(cards_in(view) & hidden))
        same_values(view, type(view).model_validate(view.model_dump()))
        # the view kept since the state was last read is this state's (a fresh game's)
        assert view == (loaded.public_view() if viewer is None else loaded.view(viewer)), viewer
        seen = [e.seen_by(viewer) for e in events]
        assert not cards_in(seen) & hidden, (viewer, sorted(cards_in(seen) & hidden))
    assert game.is_over == (game.outcome is not None)
