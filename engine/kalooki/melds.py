"""Threes and fours: validation, joker identity, lay-offs and joker exchanges.

Pure functions of cards and :class:`~engine.kalooki.rules.KalookiRules`
(``rules/kalooki.md`` §2.3, §2.9, §2T.3-§2T.4, K6, K9). A four is always given in table
order: position ``i`` of a four whose lowest position has rank value ``low`` represents rank
value ``low + i`` (1 = the low ace, 14 = the high ace), which fixes each joker's identity
(§2.3 item 11). A four spans at most 13 ranks, so it never holds both aces (K6).

Problems are raised as :class:`MeldError` with a sentence a player can read; the game turns
them into ``IllegalAction``. :func:`classify` answers a draft of cards (three / four / why
not) for a meld being built over several clicks, and :func:`arrange_four` finds a table
order for unordered cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Literal

from pydantic import Field

from engine.cards import RANK_LABELS, Card, Suit
from engine.core import Frozen
from engine.kalooki.rules import Contract, KalookiRules, contract_words

MeldKind = Literal["three", "four"]
End = Literal["top", "bottom"]
LOW_ACE, HIGH_ACE = 1, 14
MAX_FOUR = 13  # K6: ace low or high, not both


class MeldError(ValueError):
    """A combination, lay-off or exchange that the rules forbid; ``str`` says why (English).

    Parameters
    ----------
    message
        The sentence, in English.
    reason
        The same sentence's id for translation (the bot's catalog message
        ``illegal.<reason>``, as :class:`engine.core.IllegalAction` names it).
    **values
        The sentence's data (ints and strs: counts, card names, combination ids).
    """

    def __init__(self, message: str, reason: str, **values: int | str) -> None:
        super().__init__(message)
        self.reason = reason
        self.values = values


def rank_label(value: int) -> str:
    """The label of rank value ``value`` (1 and 14 are both ``A``)."""
    return "A" if value in (LOW_ACE, HIGH_ACE) else RANK_LABELS[value]


class Meld(Frozen):
    """A three or four on the table (``rules/kalooki.md`` §2.3, §2.8 item 44).

    Attributes
    ----------
    id
        Its name on the table (``"m1"``, ``"m2"`` …), the target of lay-offs.
    owner
        The seat that laid it down; it stays in front of him until the deal ends.
    kind
        ``"three"`` (a set) or ``"four"`` (a run).
    cards
        Card ids in table order (a four: lowest rank first).
    low
        A three: its rank value (2-14). A four: the rank value of position 0 (1 = low ace).
    """

    id: str
    owner: int
    kind: MeldKind
    cards: tuple[Card, ...]
    low: int

    @property
    def high(self) -> int:
        """A four's top rank value (a three: its rank)."""
        return self.low + len(self.cards) - 1 if self.kind == "four" else self.low

    @property
    def suit(self) -> Suit | None:
        """A four's suit (None for a three)."""
        if self.kind == "three":
            return None
        return next(c.suit for c in self.cards if not c.is_joker)

    def represents(self) -> tuple[int, ...]:
        """The rank value each position stands for (a joker's identity, K9)."""
        if self.kind == "three":
            return (self.low,) * len(self.cards)
        return tuple(range(self.low, self.low + len(self.cards)))

    def describe(self) -> str:
        """``"three of 7s"`` / ``"four 9♦-A♦"``."""
        if self.kind == "three":
            return f"three of {rank_label(self.low)}s"
        assert self.suit is not None
        s = self.suit.symbol
        return f"four {rank_label(self.low)}{s}-{rank_label(self.high)}{s}"


def _value_fits(card: Card, value: int) -> bool:
    """Whether natural ``card`` can stand at rank value ``value`` (an ace at 1 or 14)."""
    rank = int(card.rank)
    return rank == value or (rank == HIGH_ACE and value == LOW_ACE)


def three_rank(cards: Sequence[Card], rules: KalookiRules) -> int:
    """The rank value of a valid three (``rules/kalooki.md`` §2.3 items 6, 10; T8).

    Raises
    ------
    MeldError
        Fewer than 3 cards, too few naturals, or naturals of different ranks.
    """
    if len(cards) < 3:
        raise MeldError("a three needs at least 3 cards", "kalooki.three_short")
    naturals = [c for c in cards if not c.is_joker]
    if len(naturals) < rules.three_naturals:
        need = rules.three_naturals
        raise MeldError(f"a three needs at least {need} natural card{'s' if need > 1 else ''}",
                        "kalooki.three_naturals", count=need)
    if len({c.rank for c in naturals}) > 1:
        raise MeldError("the cards of a three must all have the same rank", "kalooki.three_rank")
    return int(naturals[0].rank)


def four_low(cards: Sequence[Card], rules: KalookiRules) -> int:
    """The rank value of position 0 of a valid new four in table order (§2.3 items 7-9, 11;
    T8; §2.14 ``maxJokersInNewRun``).

    Raises
    ------
    MeldError
        Fewer than 4 cards, no natural, mixed suits, adjacent jokers (Jamaica), cards not
        consecutive in this order, a rank beyond an ace, more than 13 cards.
    """
    if len(cards) < 4:
        raise MeldError("a four needs at least 4 cards", "kalooki.four_short")
    naturals = [(i, c) for i, c in enumerate(cards) if not c.is_joker]
    if not naturals:
        raise MeldError("a four needs a natural card", "kalooki.four_natural")
    if len({c.suit for _, c in naturals}) > 1:
        raise MeldError("the cards of a four must all be of one suit", "kalooki.four_suit")
    if not rules.adjacent_jokers and any(a.is_joker and b.is_joker for a, b in pairwise(cards)):
        raise MeldError("two jokers may not be next to each other in a four",
                        "kalooki.four_adjacent_jokers")
    jokers = len(cards) - len(naturals)
    if rules.max_jokers_new_four is not None and jokers > rules.max_jokers_new_four:
        raise MeldError(f"a new four may hold at most {rules.max_jokers_new_four} joker(s)",
                        "kalooki.four_jokers", count=rules.max_jokers_new_four)
    if len(cards) > MAX_FOUR:
        raise MeldError("a four has at most 13 cards (the ace is low or high, not both)",
                        "kalooki.four_long")
    i, first = naturals[0]
    lows = [int(first.rank) - i] + ([LOW_ACE - i] if first.rank == HIGH_ACE else [])
    for low in lows:
        if all(_value_fits(c, low + j) for j, c in naturals):
            if low < LOW_ACE:
                raise MeldError("nothing ranks below a low ace", "kalooki.below_ace")
            if low + len(cards) - 1 > HIGH_ACE:
                raise MeldError("nothing ranks above a high ace", "kalooki.above_ace")
            return low
    raise MeldError("the cards of a four must be consecutive in this order (no wrap past an ace)",
                    "kalooki.four_order")


def build(
    meld_id: str, owner: int, kind: MeldKind, cards: Sequence[Card], rules: KalookiRules
) -> Meld:
    """A new meld of ``kind`` from ``cards`` (table order for a four).

    Raises
    ------
    MeldError
        If the cards are not a valid ``kind`` (:func:`three_rank`, :func:`four_low`).
    """
    cards = tuple(Card(c) for c in cards)
    if len(set(cards)) != len(cards):
        raise MeldError("a card is named twice", "kalooki.card_twice")
    low = three_rank(cards, rules) if kind == "three" else four_low(cards, rules)
    return Meld(id=meld_id, owner=owner, kind=kind, cards=cards, low=low)


class Classification(Frozen):
    """What a draft group of cards is: the kinds it is valid as, or why it is neither."""

    kinds: tuple[MeldKind, ...]
    reason: str = ""  # empty when ``kinds`` is not empty
    key: str = ""  # the reason's id for translation (:class:`MeldError`)
    values: dict[str, int | str] = Field(default_factory=dict)  # the reason's data


def classify(cards: Sequence[Card], rules: KalookiRules) -> Classification:
    """Classify a draft group (table order for a four) for a meld being built.

    A group with naturals of one rank is judged as a three, otherwise as a four; with a
    single natural (Trinidad) both may be valid. ``reason`` explains the verdict when the
    group is neither.
    """
    cards = [Card(c) for c in cards]
    kinds: list[MeldKind] = []
    reasons = {}
    for kind in ("three", "four"):
        try:
            build("draft", 0, kind, cards, rules)
            kinds.append(kind)
        except MeldError as e:
            reasons[kind] = e
    if kinds:
        return Classification(kinds=tuple(kinds))
    ranks = {c.rank for c in cards if not c.is_joker}
    why = reasons["three" if len(ranks) == 1 else "four"]
    return Classification(kinds=(), reason=str(why), key=why.reason, values=why.values)


def arrange_four(cards: Sequence[Card], rules: KalookiRules) -> tuple[Card, ...] | None:
    """A table order making ``cards`` a valid four, or None.

    Naturals in rank order, jokers in the gaps, spare jokers at the top and then at the
    bottom (§2.3 item 11: "default: extend upward"); the low ace is tried after the high.
    """
    cards = [Card(c) for c in cards]
    naturals = [c for c in cards if not c.is_joker]
    jokers = [c for c in cards if c.is_joker]
    if not naturals or len({c.suit for c in naturals}) > 1:
        return None
    for ace in (HIGH_ACE, LOW_ACE):
        value = {c: (ace if c.rank == HIGH_ACE else int(c.rank)) for c in naturals}
        ordered = sorted(naturals, key=value.__getitem__)
        values = [value[c] for c in ordered]
        if len(set(values)) != len(values):
            continue
        gaps = values[-1] - values[0] + 1 - len(values)
        spare = len(jokers) - gaps
        if spare < 0:
            continue
        for top in range(spare, -1, -1):
            pool = jokers[::-1]  # pop() hands the jokers out in their given order
            out = [pool.pop() for _ in range(spare - top)]
            for k, c in enumerate(ordered):
                if k:
                    out += [pool.pop() for _ in range(values[k] - values[k - 1] - 1)]
                out.append(c)
            out += [pool.pop() for _ in range(top)]
            try:
                four_low(out, rules)
            except MeldError:
                continue
            return tuple(out)
    return None


def lay_off_ends(meld: Meld, card: Card, rules: KalookiRules) -> tuple[End, ...]:
    """Where ``card`` may be laid off on ``meld`` (``rules/kalooki.md`` §2.9; T7).

    A three: ``("top",)`` for a joker or a natural of its rank (items 47, 52). A four: the
    end(s) the card may extend: Jamaica grows at the top until the top is an ace, then at
    the bottom (items 48-50); Trinidad either end; never past an ace, never 14 ranks (K6),
    a joker never next to another joker in Jamaica. Empty: nowhere.
    """
    card = Card(card)
    if meld.kind == "three":
        return ("top",) if card.is_joker or int(card.rank) == meld.low else ()
    if not card.is_joker and card.suit != meld.suit:
        return ()
    if len(meld.cards) >= MAX_FOUR:
        return ()
    out: list[End] = []
    top, bottom = meld.high + 1, meld.low - 1
    if top <= HIGH_ACE and _fits_end(meld, card, top, meld.cards[-1], rules):
        out.append("top")
    bottom_open = rules.lay_off_ends == "either" or meld.high == HIGH_ACE
    if bottom_open and bottom >= LOW_ACE and _fits_end(meld, card, bottom, meld.cards[0], rules):
        out.append("bottom")
    return tuple(out)


def _fits_end(meld: Meld, card: Card, value: int, neighbour: Card, rules: KalookiRules) -> bool:
    if card.is_joker:
        return rules.adjacent_jokers or not neighbour.is_joker
    return _value_fits(card, value)


def lay_off(meld: Meld, card: Card, end: End | None, rules: KalookiRules) -> Meld:
    """``meld`` with ``card`` added at ``end`` (None: the top if allowed, else the bottom).

    Raises
    ------
    MeldError
        If the card does not fit there (:func:`lay_off_ends`).
    """
    card = Card(card)
    ends = lay_off_ends(meld, card, rules)
    if not ends:
        raise MeldError(f"{card} does not fit the {meld.describe()}", "kalooki.no_fit",
                        card=str(card), meld=meld.id)
    where = ends[0] if end is None or meld.kind == "three" else end
    if where not in ends:
        raise MeldError(f"{card} cannot go at the {where} of the {meld.describe()}",
                        f"kalooki.no_fit_{where}", card=str(card), meld=meld.id)
    if where == "top":
        return meld.model_copy(update={"cards": (*meld.cards, card)})
    return meld.model_copy(update={"cards": (card, *meld.cards), "low": meld.low - 1})


def joker_at(meld: Meld, card: Card) -> int | None:
    """The position of the joker in four ``meld`` that natural ``card`` stands for, or None."""
    if meld.kind != "four" or card.is_joker or card.suit != meld.suit:
        return None
    for i, (c, value) in enumerate(zip(meld.cards, meld.represents(), strict=True)):
        if c.is_joker and _value_fits(card, value):
            return i
    return None


ExchangeTo = Literal["top", "bottom", "hand"]


def exchange(
    meld: Meld, card: Card, to: ExchangeTo | None, rules: KalookiRules, own: bool
) -> tuple[Meld, Card, ExchangeTo]:
    """Put natural ``card`` in the place of the joker it represents in four ``meld``.

    Jamaica (``joker_exchange = move``, §2.9 item 51): the joker moves to the top, or to
    the bottom when the four reaches the ace; ``to`` may only name that end. Trinidad
    (``take``, T9-T11): ``to`` = ``"hand"`` (only on the exchanger's own four: ``own``) or
    an end of the same four (None: the top if it fits, else the bottom). Threes never give
    up a joker (items 12, 52).

    Returns
    -------
    (meld, joker, to)
        The new meld, the joker moved, and where it went.

    Raises
    ------
    MeldError
        No joker of that card, no free end, a joker next to a joker (Jamaica), or ``hand``
        on another player's four.
    """
    card = Card(card)
    if meld.kind == "three":
        raise MeldError("a joker in a three never leaves it", "kalooki.three_joker")
    i = joker_at(meld, card)
    if i is None:
        raise MeldError(f"no joker in the {meld.describe()} stands for {card}",
                        "kalooki.no_joker_for", card=str(card), meld=meld.id)
    joker = meld.cards[i]
    placed = meld.model_copy(update={"cards": (*meld.cards[:i], card, *meld.cards[i + 1 :])})
    if to == "hand":
        if rules.joker_exchange != "take" or not own:
            raise MeldError("the joker stays in this four: move it to one of its ends",
                            "kalooki.joker_stays")
        return placed, joker, "hand"
    ends = _free_ends(placed, joker, rules)
    if rules.joker_exchange == "move":  # the top, or the bottom once the four reaches the ace
        forced = "top" if placed.high < HIGH_ACE else "bottom"
        ends = tuple(e for e in ends if e == forced)
    if not ends:
        raise MeldError(f"the joker has no free end of the {meld.describe()} to move to",
                        "kalooki.joker_no_end", meld=meld.id)
    where = ends[0] if to is None else to
    if where not in ends:
        raise MeldError(f"the joker cannot move to the {where} of the {meld.describe()}",
                        f"kalooki.joker_not_{where}", meld=meld.id)
    return lay_off(placed, joker, where, rules), joker, where


def _free_ends(meld: Meld, joker: Card, rules: KalookiRules) -> tuple[End, ...]:
    """Ends of ``meld`` where a joker may go after an exchange (both ends are open)."""
    either = rules.model_copy(update={"lay_off_ends": "either"})
    return lay_off_ends(meld, joker, either)


def distinct_problem(new: Meld, owned: Sequence[Meld]) -> MeldError | None:
    """Why ``new`` breaks per-player distinctness with ``owned`` (§2.3 item 14; not
    raised), or None."""
    for m in owned:
        if m.kind == new.kind == "four" and m.suit == new.suit:
            assert new.suit is not None
            return MeldError(f"one player may not have two fours of {new.suit.symbol}",
                             "kalooki.two_fours", suit=new.suit.symbol)
        if m.kind == new.kind == "three" and m.low == new.low:
            return MeldError(f"one player may not have two threes of {rank_label(new.low)}s",
                             "kalooki.two_threes", rank=rank_label(new.low))
    return None


def lay_down_problem(
    new: Sequence[Meld], owned: Sequence[Meld], contract: Contract | None, rules: KalookiRules
) -> MeldError | None:
    """Why laying down ``new`` beside the player's ``owned`` melds is illegal (not raised),
    or None.

    ``contract``: the deal's contract when this is the player's first lay-down (it must
    hold at least that many threes and fours, §2.8 items 40-42, K14), None afterwards.
    Distinctness (§2.3 item 14, §2.8 item 43; ``distinct_melds``, K10) is checked against
    ``owned`` and within ``new``.
    """
    if not new:
        return MeldError("lay down at least one three or four", "kalooki.lay_down_none")
    if rules.distinct_melds:
        for i, m in enumerate(new):
            problem = distinct_problem(m, [*owned, *new[:i]])
            if problem:
                return problem
    if contract is None:
        return None
    threes = sum(m.kind == "three" for m in new)
    fours = len(new) - threes
    if threes < contract.threes or fours < contract.fours:
        have = contract_words(threes, fours)
        return MeldError(f"the contract needs {contract.words()}; you have {have}",
                         "kalooki.contract_short", threes=contract.threes, fours=contract.fours,
                         have_threes=threes, have_fours=fours)
    return None
