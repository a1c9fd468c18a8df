"""Caribbean Kalooki rules parameters and presets (``rules/kalooki.md`` §2, §2T, §2.14, §3).

:class:`KalookiRules` carries every engine parameter; its defaults are the Jamaican rules
(§2) with the recommended resolutions of §3. :data:`PRESETS` holds ``jamaican`` (the
default) and ``trinidad`` (§2T) as plain data; :func:`make_rules` combines a preset with
overrides (e.g. ``deal3_contract="2T+1F"``, the pagat-literal deal 3 of K1).

**Void bound** (Parlour's rule; the sources say nothing): §2.12 item 61 redeals a void
deal with the same contract, so a deal that keeps exhausting the stock (six Jamaican
players in deals 8-9 hold 90-96 of the 108 cards) could be dealt forever. After
``void_limit`` void deals in a row (default 3) the deal is *skipped*: nobody scores it,
the dealer passes left and the set goes on with the next contract (after the last one the
set ends on the totals so far, a complete result). A set therefore has at most
``deals × void_limit`` deals.

**The Trinidad challenge** (§2T.6 T19-T23). ``challenge`` (on in the Trinidad preset) is the
rule that a player may challenge another for over-calling; ``honour_calls`` is T23's honour
mode: the engine no longer refuses a call beyond ``max_calls``, so an over-call can be made
and caught. The engine offers the challenge only in honour mode (T23: with the limit
enforced every challenge would be wrong). A challenge is made on one's own turn before the
draw (Parlour's moment; the sources name none: then every other hand is a hand between
turns, T18). It is *correct* when the challenged player holds more than
``cards + 2 × max_calls`` cards (T19: 18 in Trinidad), as the rule counts it; the loser
scores his hand's penalty + 50 points for the deal, his cards go face up
under the discard pile and he sits out the rest of the deal (T20-T22, K12). A void deal
scores nothing, so its challenge scores lapse with it (§2.12 item 61). When one player is
left in the deal he goes out (Parlour's resolution; the sources do not say).

**Packs and jokers** (§2.14 ``packs``, ``jokers``; T1, T2). A table plays ``packs`` packs of
52 and ``jokers`` jokers (default 2 and 4: the 108 cards of §2.1 item 2; "some groups use 6
jokers with two packs", the Air Jamaica table 3 packs and 8 jokers for 5-6 players), card ids
as in :mod:`engine.cards`. The set must leave a healthy stock (T2): ``packs × 52 + jokers ≥
players × cards dealt + 1 + 20``, counted for ``max_players`` and the set's largest deal
(16 cards in Jamaican deal 9). §2.1 item 1 lets the 108 cards serve 3-6 players although
six Jamaican players in deals 8-9 leave 11-17 stock cards (the void bound covers a stock
that runs out), so up to 6 players no set needs more than 108 cards; beyond 6 T2 decides
(7 Jamaican players: 133 cards, 3 packs).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from pydantic import Field, ValidationError, model_validator

from engine.cards import DOUBLE_DECK_SIZE, MAX_JOKERS, MAX_PACKS, STANDARD_DECK_SIZE, Card, pack_set
from engine.core import Frozen, OptionError, option_error

HEALTHY_STOCK = 20
"""Stock cards a pack set must leave after the largest deal and the upcard (T2)."""


class Contract(Frozen):
    """One deal of the set: cards dealt to each player and the contract of the first meld.

    ``threes`` sets and ``fours`` runs, each at least that many (§2.8 item 40, K14).
    """

    cards: int = Field(ge=1)
    threes: int = Field(ge=0)
    fours: int = Field(ge=0)

    def words(self) -> str:
        """``"2 threes and 1 four"``: the contract in the rules' own words."""
        return contract_words(self.threes, self.fours)


def contract_words(threes: int, fours: int) -> str:
    """``"2 threes and 1 four"`` / ``"no four"``: counts of threes and fours in words."""
    parts = [_count(threes, "three", "threes"), _count(fours, "four", "fours")]
    return " and ".join(p for p in parts if p) or "nothing"


def _count(n: int, one: str, many: str) -> str:
    return "" if n == 0 else f"{n} {one if n == 1 else many}"


@cache
def _jamaica_table(deal3: str, early_twelve: bool) -> tuple[Contract, ...]:
    """The nine Jamaican deals (§2.5 item 19; K1 for deal 3; §2.14 ``earlyDealsTwelve``)."""
    rows = [(9, 3, 0), (10, 2, 1), (11, 1, 2) if deal3 == "1T+2F" else (11, 2, 1)]
    rows += [(12, 0, 3), (12, 4, 0), (13, 3, 1), (14, 2, 2), (15, 1, 3), (16, 0, 4)]
    return tuple(
        Contract(cards=12 if early_twelve and i < 3 else c, threes=t, fours=f)
        for i, (c, t, f) in enumerate(rows)
    )


_TRINIDAD_TABLE = tuple(
    Contract(cards=12, threes=t, fours=f)
    for t, f in [(2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3)]
)  # §2T.2 T5


class KalookiRules(Frozen):
    """The parameters of one Kalooki preset; defaults = ``jamaican`` (``rules/kalooki.md`` §2).

    Seconds for ``call_window``; points for penalties. Every field names its rule.
    Construction refuses rules that cannot be played with an
    :class:`~engine.core.OptionError` (wrapped in pydantic's ``ValidationError``;
    :func:`make_rules` raises it bare): ``kalooki.option.honour_needs_challenge``,
    ``kalooki.option.players_range`` or the pack set's :meth:`capacity_problem`.
    """

    name: str = "jamaican"
    min_players: int = Field(3, ge=2)  # §2.1 item 1 (one 108-card pack set: 3-6)
    max_players: int = Field(6, le=12)  # §2.14 "more players": more packs (module doc)
    packs: int = Field(2, ge=2, le=MAX_PACKS)  # §2.14 packs; T1: at least two
    jokers: int = Field(4, ge=4, le=MAX_JOKERS)  # §2.14 jokers (4 or 6 …); T1: at least 4
    deal_table: Literal["jamaica", "trinidad"] = "jamaica"  # §2.5 item 19 / §2T.2 T5
    deal3_contract: Literal["1T+2F", "2T+1F"] = "1T+2F"  # K1 (Jamaican table only)
    early_deals_twelve: bool = False  # §2.14 earlyDealsTwelve (Jamaican table only)
    three_naturals: int = Field(2, ge=1)  # §2.3 item 10; Trinidad T8: 1
    adjacent_jokers: bool = False  # §2.3 item 9; Trinidad T8: allowed
    max_jokers_new_four: int | None = None  # §2.14 maxJokersInNewRun (None: no limit)
    lay_off_ends: Literal["top_first", "either"] = "top_first"  # §2.9 item 48; T7
    joker_exchange: Literal["move", "take"] = "move"  # §2.9 item 51; Trinidad T9-T11
    melded_may_take_discard: bool = False  # §2.6 item 22, §2.7 item 32; T17
    melded_may_call: bool = False  # §2.7 items 27, 36; Trinidad T15
    distinct_melds: bool = True  # §2.3 item 14; K10
    down_and_out: Literal["double", "plus2", "none"] = "double"  # §2.10 item 56, K2; T26
    upcard_callable: bool = True  # K7
    max_calls: int = Field(3, ge=0)  # §2.7 item 34; T14
    call_window: float = Field(5.0, gt=0)  # K4: seconds a discard stays callable
    void_limit: int = Field(3, ge=1)  # void bound (module doc)
    challenge: bool = False  # §2T.6 T19-T22 (module doc)
    honour_calls: bool = False  # T23 honour mode: calls beyond max_calls allowed (module doc)

    @model_validator(mode="after")
    def _honour_needs_challenge(self) -> KalookiRules:
        if self.honour_calls and not self.challenge:
            raise OptionError("kalooki.option.honour_needs_challenge")
        if self.min_players > self.max_players:
            raise OptionError("kalooki.option.players_range", low=self.min_players,
                              high=self.max_players)
        problem = self.capacity_problem(self.max_players)
        if problem is not None:
            raise problem
        return self

    @property
    def cards(self) -> int:
        """Cards in play: ``packs × 52 + jokers`` (108 by default)."""
        return self.packs * STANDARD_DECK_SIZE + self.jokers

    def deck(self) -> tuple[Card, ...]:
        """The card ids of the pack set in id order (:func:`engine.cards.pack_set`)."""
        return _pack_set(self.packs, self.jokers)

    def capacity_problem(self, players: int) -> OptionError | None:
        """Why the pack set cannot serve ``players`` (T2, module doc), or None if it can.

        Returns
        -------
        OptionError or None
            ``kalooki.option.capacity`` with ``players``, ``needed`` (cards), ``largest``
            (cards dealt to each in the set's largest deal), ``stock`` (the healthy stock,
            cards), ``packs``, ``jokers`` and ``cards`` (the pack set's cards).
        """
        largest = max(c.cards for c in self.contracts)
        needed = players * largest + 1 + HEALTHY_STOCK
        if players <= 6:
            needed = min(needed, DOUBLE_DECK_SIZE)  # §2.1 item 1
        if self.cards >= needed:
            return None
        return OptionError("kalooki.option.capacity", players=players, needed=needed,
                           largest=largest, stock=HEALTHY_STOCK, packs=self.packs,
                           jokers=self.jokers, cards=self.cards)

    @property
    def challenges(self) -> bool:
        """Whether a player may challenge another for over-calling (T23: honour mode)."""
        return self.challenge and self.honour_calls

    def call_limit_hand(self, contract: Contract) -> int:
        """The most cards a hand may hold between turns without over-calling (T18, T19):
        the cards dealt + 2 for each of ``max_calls`` calls (18 in Trinidad)."""
        return contract.cards + 2 * self.max_calls

    @property
    def contracts(self) -> tuple[Contract, ...]:
        """The deals of one set, in order (9 Jamaican, 7 Trinidad)."""
        if self.deal_table == "trinidad":
            return _TRINIDAD_TABLE
        return _jamaica_table(self.deal3_contract, self.early_deals_twelve)

    @property
    def deals(self) -> int:
        """Scored deals in a set (§2.11 item 59; T27)."""
        return len(self.contracts)


@cache
def _pack_set(packs: int, jokers: int) -> tuple[Card, ...]:
    return tuple(pack_set(packs, jokers))


JAMAICAN = KalookiRules()
TRINIDAD = KalookiRules(
    name="trinidad",
    deal_table="trinidad",
    three_naturals=1,
    adjacent_jokers=True,
    lay_off_ends="either",
    joker_exchange="take",
    melded_may_take_discard=True,
    melded_may_call=True,
    down_and_out="none",
    challenge=True,
)
PRESETS: dict[str, KalookiRules] = {"jamaican": JAMAICAN, "trinidad": TRINIDAD}


def make_rules(preset: str = "jamaican", **overrides: Any) -> KalookiRules:
    """The preset named ``preset`` with ``overrides`` (validated).

    Raises
    ------
    KeyError
        If there is no such preset.
    OptionError
        (a ``ValueError``) If an override is unknown (``option.unknown``), out of range or
        of the wrong kind (:func:`engine.core.option_error`), or the rules cannot be played
        (:class:`KalookiRules`).
    """
    try:
        return KalookiRules.model_validate(PRESETS[preset].model_dump() | overrides)
    except ValidationError as error:
        raise option_error(KalookiRules, error) from None
