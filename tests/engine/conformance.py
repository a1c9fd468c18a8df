"""The games checked by the engine conformance suite (``tests/engine/test_conformance.py``).

Every game of ``engine/`` meets the protocol of ``engine/core.py`` (DESIGN.md §2); the suite
checks it for each :class:`GameCase` in :data:`CASES`, through the protocol only.

Adding a game is one entry: write a ``GameCase`` and append it to ``CASES``::

    GameCase(
        name="troefcall",
        new=lambda seed, players: TroefcallGame.new(TroefcallRules(), players, seed=seed),
        players=(4,),
        hidden=troefcall_hidden,      # (game, viewer) -> card ids viewer may not see now
        action=troefcall_action,      # (option, rng) -> a concrete action of that family
    )

``hidden`` may read the whole state; ``viewer`` is a seat, or None for the public view.
``action`` turns an :class:`~engine.core.Option` (a family: card counts, amount ranges,
targets) into one random action of that shape; it need not be legal (a random meld may not
be a meld): the suite checks that ``check`` and ``apply`` agree either way.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from engine.cards import Card
from engine.core import Action, Game, Option
from engine.kalooki import actions as kalooki_actions
from engine.kalooki.game import KalookiGame
from engine.kalooki.rules import make_rules as make_kalooki
from engine.tripoli.ai import random_legal
from engine.tripoli.game import TripoliGame
from engine.tripoli.rules import PRESETS, make_rules
from engine.troefcall import ai as troefcall_ai
from engine.troefcall.game import TroefcallGame
from engine.troefcall.rules import TroefcallRules


@dataclass(frozen=True)
class GameCase:
    """One game (or preset) under the conformance suite.

    Attributes
    ----------
    name
        The test id, e.g. ``"tripoli"``.
    new
        ``(seed, players) -> game``: a new session through the game's own ``new``.
    players
        The player counts to try.
    hidden
        ``(game, viewer) -> card ids`` that ``viewer`` (a seat, or None: an onlooker) may
        not see right now; it may read the full state.
    action
        ``(option, rng) -> action``: a random concrete action of the option's family.
    deals
        Deals played before the suite calls ``end_session()``.
    sweep
        Extra seeds per player count of the longer (``expensive``) sweep.
    ends_at_wish
        The host's end, or too few players, is the session's natural end: ended between
        deals it is complete (Tripoli lasts as long as the players wish, rules/tripoli.md
        §2.9 item 58); False: a session so ended before its rules' end has no winner.
    """

    name: str
    new: Callable[[bytes, int], Game]
    players: tuple[int, ...]
    hidden: Callable[[Any, int | None], set[int]]
    action: Callable[[Option, random.Random], Action]
    deals: int = 3
    sweep: int = 10
    ends_at_wish: bool = False

    def __str__(self) -> str:
        return self.name


def cards_in(obj: object) -> set[Card]:
    """Every :class:`~engine.cards.Card` anywhere inside ``obj`` (models, dicts, sequences)."""
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


def same_values(built: object, validated: object, at: str = "view") -> None:
    """Assert that ``built`` and ``validated`` hold equal values of the very same types,
    all the way down (models, dicts in key order, sequences): ``Suit.HEARTS == 2`` and
    ``[1] == (1,)`` would pass a plain ``==``, not this.

    Raises
    ------
    AssertionError
        Naming the first place (``view.table.poker.bets[2]``) where they differ.
    """
    assert type(built) is type(validated), (at, type(built), type(validated))
    if isinstance(built, BaseModel):
        for name in type(built).model_fields:
            same_values(getattr(built, name), getattr(validated, name), f"{at}.{name}")
    elif isinstance(built, dict):
        assert list(built) == list(validated), (at, list(built), list(validated))
        for (key, value), (other_key, other) in zip(built.items(), validated.items(),
                                                    strict=True):
            same_values(key, other_key, f"{at} key {key!r}")
            same_values(value, other, f"{at}[{key!r}]")
    elif isinstance(built, list | tuple):
        assert len(built) == len(validated), (at, built, validated)
        for i, (item, other) in enumerate(zip(built, validated, strict=True)):
            same_values(item, other, f"{at}[{i}]")
    else:
        assert built == validated, (at, built, validated)


# ---------------------------------------------------------------- Tripoli


def tripoli_hidden(game: TripoliGame, viewer: int | None) -> set[int]:
    """What ``viewer`` may not see (``rules/tripoli.md`` §2.10 item 63): every card but the
    played ones, the hands shown at a showdown, the viewer's own hand, the dealer's old hand
    while he decides to auction it (§4 item 13), and the cards named by the log's events of
    earlier deals (the log spans deals; those cards were dealt again since)."""
    seen = {c for p in game.played for c in p}
    seen |= {c for h in game.revealed.values() for c in h}
    if viewer is not None:
        seen |= set(game.hands[viewer])
        if game.spare_stage == "after_exchange" and viewer == game.dealer:
            seen |= set(game.spare)
    starts = [i for i, e in enumerate(game.log) if e.kind == "deal_started"]
    if starts:
        seen |= cards_in(game.log[: starts[-1]])
    return set(range(52)) - seen


def tripoli_action(option: Option, rng: random.Random) -> Action:
    """A uniform action of ``option``'s family (the random-legal player's choice)."""
    return random_legal([option], rng)


# ---------------------------------------------------------------- Troefcall


def troefcall_new(seed: bytes, players: int) -> TroefcallGame:
    """A new Troefcall game with trumps named, so every seat holds its thirteen cards."""
    game = TroefcallGame.new(TroefcallRules(), players, seed)
    caller = game.caller
    game.apply(caller, game.timeout_action(caller), game.decision_id(caller))
    return game


def troefcall_hidden(game: TroefcallGame, viewer: int | None) -> set[int]:
    """What ``viewer`` may not see (``rules/troefcall.md`` §2): every card but those played
    to this hand's tricks, the viewer's own hand, the face-up jack search (a separate
    shuffle) and the cards named by the log's events of earlier shuffles (a redeal shows
    the caller's thirteen, rule 15)."""
    seen = {c for trick in game.tricks for c in trick.cards}
    if game.current is not None:
        seen |= set(game.current.cards)
    if viewer is not None:
        seen |= set(game.hands[viewer])
    if game.jack_search is not None:
        seen |= set(game.jack_search.cards)
    starts = [i for i, e in enumerate(game.log) if e.kind == "deal_started"]
    if starts:
        seen |= cards_in(game.log[: starts[-1]])
    return set(range(52)) - seen


def troefcall_action(option: Option, rng: random.Random) -> Action:
    """A uniform action of ``option``'s family."""
    return troefcall_ai.random_legal([option], rng)


# ---------------------------------------------------------------- Kalooki


def kalooki_hidden(game: KalookiGame, viewer: int | None) -> set[int]:
    """What ``viewer`` may not see (``rules/kalooki.md`` §5, ``engine/kalooki/views.py``):
    every card but the combinations on the table, the discard pile (each card in it was
    discarded face up), the viewer's own hand and the cards the log names in its public
    form (a card taken from the discard pile or called stays known; the hands counted at a
    deal's end are shown), and the cards of the log's events of earlier deals as the viewer
    saw them (those cards were dealt again since)."""
    seen = {c for meld in game.melds for c in meld.cards} | set(game.discard)
    if viewer is not None:
        seen |= set(game.hands[viewer])
    seen |= cards_in([e.seen_by(None) for e in game.log])
    starts = [i for i, e in enumerate(game.log) if e.kind == "deal_started"]
    if starts:
        seen |= cards_in([e.seen_by(viewer) for e in game.log[: starts[-1]]])
    return set(game.rules.deck()) - seen


def kalooki_action(option: Option, rng: random.Random) -> Action:
    """A random action of ``option``'s family: a lay-down of one random group of the
    offered cards (seldom a meld), a card and a target at random, a call late or not."""
    act = kalooki_actions
    cards, targets = list(option.cards), list(option.targets)
    match option.kind:
        case "draw":
            return act.Draw(source=rng.choice(targets))
        case "call":
            return act.CallDiscard(late=rng.random() < 0.5)
        case "meld":
            group = rng.sample(cards, rng.randint(option.count, min(len(cards), 5)))
            kind = rng.choice(["three", "four"])
            return act.LayDown(groups=(act.Group(kind=kind, cards=tuple(group)),))
        case "lay_off":
            return act.LayOff(meld=rng.choice(targets), card=rng.choice(cards))
        case "exchange":
            return act.ExchangeJoker(meld=rng.choice(targets), card=rng.choice(cards))
        case "discard":
            return act.Discard(card=rng.choice(cards))
        case "challenge":
            return act.Challenge(seat=int(rng.choice(targets)))
    simple = {"allow": act.Allow, "refuse": act.Refuse, "end_turn": act.EndTurn,
              "close_window": act.CloseWindow}
    return simple[option.kind]()


CASES: list[GameCase] = [
    GameCase(
        name="tripoli",
        new=lambda seed, n: TripoliGame.new(PRESETS["classic"], n, seed),
        players=(2, 5, 9),
        hidden=tripoli_hidden,
        action=tripoli_action,
        ends_at_wish=True,
    ),
    GameCase(
        name="tripoli-italian",
        new=lambda seed, n: TripoliGame.new(make_rules("italian", starting_stack=20), n, seed),
        players=(3, 5),
        hidden=tripoli_hidden,
        action=tripoli_action,
        ends_at_wish=True,
    ),
    GameCase(
        name="troefcall",
        new=troefcall_new,
        players=(4,),
        hidden=troefcall_hidden,
        action=troefcall_action,
    ),
    GameCase(
        name="kalooki",
        new=lambda seed, n: KalookiGame.new(make_kalooki("jamaican", void_limit=1), n, seed),
        players=(3, 6),
        hidden=kalooki_hidden,
        action=kalooki_action,
        deals=2,
        sweep=3,  # a Kalooki session takes seconds: a short sweep keeps the suite in minutes
    ),
    GameCase(
        name="kalooki-honour",  # Trinidad with calls on honour: challenges (§2T.6)
        new=lambda seed, n: KalookiGame.new(
            make_kalooki("trinidad", honour_calls=True, void_limit=1), n, seed),
        players=(4,),
        hidden=kalooki_hidden,
        action=kalooki_action,
        deals=2,
        sweep=3,
    ),
    GameCase(
        name="kalooki-packs",  # 3 packs and 8 jokers, 164 cards (§2.14 packs, jokers)
        new=lambda seed, n: KalookiGame.new(
            make_kalooki("jamaican", packs=3, jokers=8, void_limit=1), n, seed),
        players=(6,),
        hidden=kalooki_hidden,
        action=kalooki_action,
        deals=2,
        sweep=2,
    ),
]
"""Every game under the suite (Kalooki three times: Jamaican, Trinidad with its challenge,
and Jamaican with 3 packs and 8 jokers)."""
