"""A simple Kalooki player that sees only its own view and options.

:func:`choose` returns one of the options given, or None to let an optional decision lapse
(not calling, not taking the discard during the call window). It lays down as soon as a
search over its hand (jokers included) finds the contract, then lays off, exchanges jokers
and lays down extra combinations; it keeps cards that build threes and fours, discards the
costliest useless card, calls a card that completes a combination and refuses a call for
a card it wants. In honour mode (§2T.6) it never over-calls and challenges only a hand the
board shows over the call limit, so its challenges are always correct. :func:`random_legal`
is the random-legal baseline of tests and benchmarks. Randomness comes only from the
``rng`` the caller passes.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from itertools import combinations, pairwise, product

from engine.cards import Card
from engine.core import Action, Option
from engine.kalooki import melds as m
from engine.kalooki.actions import (
    Allow,
    CallDiscard,
    Challenge,
    Discard,
    Draw,
    EndTurn,
    ExchangeJoker,
    Group,
    LayDown,
    LayOff,
    Refuse,
)
from engine.kalooki.rules import Contract, KalookiRules
from engine.kalooki.scoring import card_points
from engine.kalooki.views import KalookiSeatView

FOURS_PER_SUIT = 5  # candidate fours kept per suit in the contract search
WANTED = 30  # keep score of a card that completes a three or fills a four
USEFUL = 12  # keep score worth drawing the discard for


def choose(view: KalookiSeatView, options: Sequence[Option], rng: random.Random) -> Action | None:
    """One legal action for ``view.seat`` from ``options`` (its ``legal_actions``), or None to
    decline an optional call or take of the discard.

    Raises
    ------
    ValueError
        If ``options`` is empty (the seat has no decision).
    """
    if not options:
        raise ValueError("no decision to make")
    by_kind = {o.kind: o for o in options}
    top = view.table.discard_top
    if "call" in by_kind:
        within = view.table.calls_used[view.seat] < view.table.rules.max_calls
        wanted = within and top is not None and _wants(view, top)
        return CallDiscard() if wanted else None
    if "challenge" in by_kind and (caught := over_callers(view, by_kind["challenge"])):
        return Challenge(seat=caught[0])
    if "allow" in by_kind:
        if "refuse" in by_kind and top is not None and _wants(view, top):
            return Refuse()
        return Allow()
    if "draw" in by_kind:
        sources = by_kind["draw"].targets
        if "discard" in sources and top is not None and _wants(view, top):
            return Draw(source="discard")
        return Draw(source="stock") if "stock" in sources else None
    return _play(view, by_kind, rng)


def over_callers(view: KalookiSeatView, option: Option) -> list[int]:
    """The seats of ``option``'s targets whose hand on the board is over the call limit
    (§2T.6 T19): a challenge of them is correct; any other would be wrong."""
    table = view.table
    if table.contract is None:
        return []
    limit = table.rules.call_limit_hand(table.contract)
    return [int(t) for t in option.targets if table.hand_sizes[int(t)] > limit]


def _wants(view: KalookiSeatView, card: Card) -> bool:
    """Whether ``card`` is worth taking from the discard pile."""
    if view.table.laid_down[view.seat]:
        return any(m.lay_off_ends(mm, card, view.table.rules) for mm in view.table.melds)
    hand = [*view.hand, card]
    naturals = [c for c in hand if not c.is_joker]
    return keep_score(card, hand) >= WANTED and worst_card(naturals, hand) != card


def _play(view: KalookiSeatView, by_kind: dict[str, Option], rng: random.Random) -> Action:
    table, rules, seat = view.table, view.table.rules, view.seat
    hand = list(view.hand)
    owned = [mm for mm in table.melds if mm.owner == seat]
    if "meld" in by_kind:
        contract = None if table.laid_down[seat] else table.contract
        groups = find_lay_down(hand, contract, rules, owned)
        if groups:
            return LayDown(groups=tuple(groups))
    if "exchange" in by_kind:
        for card, meld in product(by_kind["exchange"].cards, table.melds):
            if meld.id in by_kind["exchange"].targets and m.joker_at(meld, card) is not None:
                try:
                    m.exchange(meld, card, None, rules, own=meld.owner == seat)
                except m.MeldError:
                    continue
                return ExchangeJoker(meld=meld.id, card=card)
    if "lay_off" in by_kind:
        pairs = _lay_off_pairs(view, by_kind["lay_off"])
        if pairs:
            card, meld_id = max(pairs, key=lambda p: (card_points(p[0]), rng.random()))
            return LayOff(meld=meld_id, card=card)
    if "discard" in by_kind:
        return Discard(card=worst_card(by_kind["discard"].cards, hand))
    return EndTurn()


def _lay_off_pairs(view: KalookiSeatView, option: Option) -> list[tuple[Card, str]]:
    rules = view.table.rules
    return [
        (c, mm.id)
        for c in option.cards
        for mm in view.table.melds
        if mm.id in option.targets and m.lay_off_ends(mm, c, rules)
    ]


def keep_score(card: Card, hand: Sequence[Card]) -> int:
    """How much ``card`` helps ``hand`` (the card itself excluded from it): partners of its
    rank, and neighbours of its suit within two ranks (jokers: always kept)."""
    return _Profile(hand).keep(card)


def worst_card(candidates: Sequence[Card], hand: Sequence[Card]) -> Card:
    """The card to discard: least useful, then most penalty points, then lowest id."""
    profile = _Profile(hand)
    return min(candidates, key=lambda c: (profile.keep(c) - card_points(c) // 2, -c))


class _Profile:
    """Rank counts and the rank values held per suit, for :func:`keep_score`."""

    def __init__(self, hand: Sequence[Card]) -> None:
        self.held = set(hand)
        self.ranks: dict[int, int] = defaultdict(int)
        self.values: set[tuple[int, int]] = set()  # (suit, rank value), an ace as 1 and 14
        for c in hand:
            if not c.is_joker:
                rank, suit = int(c.rank), int(c.suit)
                self.ranks[rank] += 1
                self.values.add((suit, rank))
                if rank == m.HIGH_ACE:
                    self.values.add((suit, m.LOW_ACE))

    def keep(self, card: Card) -> int:
        if card.is_joker:
            return 1000
        rank, suit = int(card.rank), int(card.suit)
        same = self.ranks[rank] - (card in self.held)
        score = {0: 0, 1: USEFUL}.get(same, WANTED)
        near1 = near2 = 0
        for v in [rank, m.LOW_ACE] if rank == m.HIGH_ACE else [rank]:
            near1 += ((suit, v - 1) in self.values) + ((suit, v + 1) in self.values)
            near2 += ((suit, v - 2) in self.values) + ((suit, v + 2) in self.values)
        if near1 >= 2 or (near1 and near2):
            score = max(score, WANTED)
        return score + 10 * near1 + 5 * near2


# ---------------------------------------------------------------- lay-down search


def find_lay_down(
    hand: Sequence[Card],
    contract: Contract | None,
    rules: KalookiRules,
    owned: Sequence[m.Meld] = (),
) -> list[Group]:
    """Groups to lay down from ``hand``: the ``contract`` (None: already laid down) and as
    many extra combinations as fit, every one distinct from ``owned``; [] if none.

    The search tries up to :data:`FOURS_PER_SUIT` candidate fours per suit for the fours
    (one suit each), then the threes greedily from the cards left, jokers filling in, then
    extra fours of natural cards; it keeps the legal lay-down that puts most cards (then
    most points) on the table.
    """
    jokers = [c for c in hand if c.is_joker]
    naturals = [c for c in hand if not c.is_joker]
    used_suits = {int(mm.suit) for mm in owned if mm.suit is not None}
    used_ranks = {mm.low for mm in owned if mm.kind == "three"}
    threes_needed = contract.threes if contract else 0
    fours_needed = contract.fours if contract else 0
    free_suits = [s for s in range(4) if s not in used_suits]
    candidates = {s: _four_candidates(naturals, len(jokers), s, rules) for s in free_suits}
    best: list[Group] = []
    best_key = (0, 0)
    for suits in combinations([s for s in free_suits if candidates[s]], fours_needed):
        for fours in product(*(candidates[s] for s in suits)):
            groups = _complete(fours, naturals, jokers, threes_needed, rules, used_ranks)
            if groups is None:
                continue
            groups += _extra_fours(groups, naturals, {*used_suits, *suits}, rules)
            cards = [c for g in groups for c in g.cards]
            key = (len(cards), sum(card_points(c) for c in cards))
            if key > best_key and _legal(groups, contract, rules, owned):
                best, best_key = groups, key
    return best


def _legal(
    groups: list[Group], contract: Contract | None, rules: KalookiRules, owned: Sequence[m.Meld]
) -> bool:
    try:
        new = [m.build("draft", 0, g.kind, g.cards, rules) for g in groups]
    except m.MeldError:
        return False
    return m.lay_down_problem(new, owned, contract, rules) is None


def _four_candidates(
    naturals: Sequence[Card], jokers: int, suit: int, rules: KalookiRules
) -> list[list[Card | None]]:
    """Fours of ``suit`` as table-order lists (None = a joker), most naturals first."""
    by_value: dict[int, Card] = {}
    for c in naturals:
        if c.suit == suit:
            by_value.setdefault(int(c.rank), c)
            if int(c.rank) == m.HIGH_ACE:
                by_value.setdefault(m.LOW_ACE, c)
    out = []
    for lo in range(m.LOW_ACE, m.HIGH_ACE - 2):
        for hi in range(lo + 3, min(lo + m.MAX_FOUR - 1, m.HIGH_ACE) + 1):
            row = [by_value.get(v) for v in range(lo, hi + 1)]
            holes = row.count(None)
            if holes > jokers or (row[0] is None and row[-1] is None):
                continue
            if not rules.adjacent_jokers and any(a is b is None for a, b in pairwise(row)):
                continue
            out.append(row)
    out.sort(key=lambda r: (-(len(r) - r.count(None)), r.count(None)))
    return out[:FOURS_PER_SUIT]


def _complete(
    fours: Sequence[list[Card | None]],
    naturals: Sequence[Card],
    jokers: Sequence[Card],
    threes_needed: int,
    rules: KalookiRules,
    used_ranks: set[int],
) -> list[Group] | None:
    """The fours with jokers in their holes, then threes from the cards left (the
    contract's with jokers filling in, extra ones of naturals only); None if short."""
    free_jokers = list(jokers)
    taken: set[Card] = set()
    groups = []
    for row in fours:
        if row.count(None) > len(free_jokers):
            return None
        cards = [c if c is not None else free_jokers.pop() for c in row]
        taken |= set(cards)
        groups.append(Group(kind="four", cards=tuple(cards)))
    by_rank: dict[int, list[Card]] = defaultdict(list)
    for c in naturals:
        if c not in taken and int(c.rank) not in used_ranks:
            by_rank[int(c.rank)].append(c)
    ranks = sorted(
        (r for r, cs in by_rank.items() if len(cs) >= rules.three_naturals),
        key=lambda r: (-min(len(by_rank[r]), 3), -r),
    )
    threes = 0
    for r in ranks:
        short = max(0, 3 - len(by_rank[r]))
        if short > len(free_jokers) or (short and threes >= threes_needed):
            continue
        cards = by_rank[r] + [free_jokers.pop() for _ in range(short)]
        groups.append(Group(kind="three", cards=tuple(cards)))
        threes += 1
    return groups if threes >= threes_needed else None


def _extra_fours(
    groups: Sequence[Group], naturals: Sequence[Card], used_suits: set[int], rules: KalookiRules
) -> list[Group]:
    """Fours of natural cards from what ``groups`` leave, in suits not yet used."""
    taken = {c for g in groups for c in g.cards}
    left = [c for c in naturals if c not in taken]
    out = []
    for suit in sorted(set(range(4)) - used_suits):
        rows = _four_candidates(left, 0, suit, rules)
        if rows:
            out.append(Group(kind="four", cards=tuple(c for c in rows[0] if c is not None)))
    return out


# ---------------------------------------------------------------- random-legal baseline


def random_legal(
    view: KalookiSeatView, options: Sequence[Option], rng: random.Random
) -> Action | None:
    """A random legal action (or None, declining an optional decision, half the time).

    Picks an option uniformly, then a uniform card / target among those that are legal
    together; a lay-down is the one :func:`find_lay_down` finds (else another option).

    Raises
    ------
    ValueError
        If ``options`` is empty.
    """
    if not options:
        raise ValueError("no decision to make")
    table = view.table
    actions: list[Action | None] = []
    for o in options:
        if o.kind == "call":
            actions += [CallDiscard(), None]
        elif o.kind == "draw":
            actions += [Draw(source=t) for t in o.targets]
            actions += [None] if o.targets == ("discard",) else []
        elif o.kind in ("allow", "refuse"):
            actions.append(Allow() if o.kind == "allow" else Refuse())
        elif o.kind == "discard":
            actions.append(Discard(card=rng.choice(o.cards)))
        elif o.kind == "end_turn":
            actions.append(EndTurn())
        elif o.kind == "challenge":
            actions.append(Challenge(seat=int(rng.choice(o.targets))))
        elif o.kind == "lay_off":
            card, meld_id = rng.choice(_lay_off_pairs(view, o))
            actions.append(LayOff(meld=meld_id, card=card))
        elif o.kind == "meld":
            owned = [mm for mm in table.melds if mm.owner == view.seat]
            contract = None if table.laid_down[view.seat] else table.contract
            groups = find_lay_down(view.hand, contract, table.rules, owned)
            if groups:
                actions.append(LayDown(groups=tuple(groups)))
    return rng.choice(actions) if actions else choose(view, options, rng)
