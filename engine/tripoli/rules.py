"""Tripoli rules parameters and presets (``rules/tripoli.md`` §3.1, §3.2).

:class:`TripoliRules` carries every engine parameter of §3.1 with its ``classic`` value, so a
preset is plain data: :data:`PRESETS` maps each preset of §3.2 to one rules value.
:func:`make_rules` combines a preset with overrides, refusing combinations that make no sense
with an :class:`~engine.core.OptionError`; :func:`describe_differences` lists how a rules
value differs from ``classic`` as :class:`Difference` data. The engine writes no sentence
about its rules: the bot's catalogs hold each preset's note (``tripoli.preset.<name>``), each
refusal (``tripoli.option.<what>``) and each difference (``tripoli.difference.<what>``).

Board spaces keep their printed names whatever they pay for: under ``auction-pay-suit`` and
``cosmo`` the spaces labelled ``A♥`` … ``KQ♥`` pay for the cards of the deal's pay suit
(§5 S15); the game's views say what each space pays for in the current deal.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidationError, model_validator

from engine.cards import Suit
from engine.core import Frozen, OptionError, option_error

PAY_SPACES = ("A♥", "K♥", "Q♥", "J♥", "10♥")  # A K Q J 10 of the pay suit (§2.5 item 20)
BOODLE_SPACES = ("A♥", "K♣", "Q♦", "J♠")  # the boodle cards (italian §3.3 item 19)
KQ = "KQ♥"  # classic marriage space (item 21)
KQ_ANY = "KQ"  # italian: K and Q of one suit (§3.3 item 3)
SEQ = "SEQ"
KITTY = "KITTY"
POT = "POT"
MONTE = "MONTE"
CLASSIC_SPACES = (*PAY_SPACES, KQ, SEQ, KITTY, POT)
ITALIAN_SPACES = (*PAY_SPACES, KQ_ANY, POT, MONTE)  # §3.3 item 15 board order

SpareOption = Literal["keep", "exchange", "exchange_auction_old", "auction"]
ALL_SPARE_OPTIONS: tuple[SpareOption, ...] = ("keep", "exchange", "exchange_auction_old", "auction")


class TripoliRules(Frozen):
    """The parameters of one Tripoli preset (``rules/tripoli.md`` §3.1); defaults = ``classic``.

    Chip amounts are in chips. Every field names the rule it encodes. Construction refuses
    combinations that make no sense with an :class:`~engine.core.OptionError` (wrapped in
    pydantic's ``ValidationError``; :func:`make_rules` raises it bare) naming why.
    """

    name: str = "classic"
    min_players: int = Field(2, ge=2)  # §2.1 item 1
    max_players: int = Field(9, le=9)  # §2.1 item 1 (one 52-card deck, ≥ 5 cards each)
    recommended_players: tuple[int, int] = (4, 7)
    spaces: tuple[str, ...] = CLASSIC_SPACES  # §2.1 item 4, board order
    ante: int = Field(1, ge=1)  # §2.2 item 6: chips per space per player
    dealer_ante: int = Field(1, ge=1)  # dealer's chips per space (italian 2, §3.3 item 4)
    pay_suit: Suit | Literal["auction", "dial"] = Suit.HEARTS  # §2.5 item 20; §3.6; §3.2 cosmo
    pay_cards: Literal["suit", "boodle"] = "suit"  # A K Q J 10 of pay_suit; A♥ K♣ Q♦ J♠
    kq_suit: Literal["pay_suit", "any"] = "pay_suit"  # §2.5 item 21; italian any suit
    kq_space: str = KQ  # the K-Q space's name
    seq_ranks: int = Field(8, ge=2, le=12)  # §2.5 item 22: lowest of three consecutive ranks
    seq_space: str = SEQ  # the sequence space (italian: MONTE, §3.3 item 8)
    pay_collection: Literal["hold", "play"] = "hold"  # phase 1 (hold) or phase 3 (play, §3.5)
    spare_options: tuple[SpareOption, ...] = ALL_SPARE_OPTIONS  # §2.4 item 14; () = none
    ghost_auction: bool = False  # italian §3.3 item 18
    poker: Literal["betting", "auto", "none"] = "betting"  # §2.6; §3.3 items 9, 17
    bet_opener: Literal["left", "dealer"] = "left"  # §2.6 item 31
    bet_limit: int = Field(10, ge=1)  # §2.6 item 39: L
    bet_limit_mode: Literal["increment", "total"] = "increment"  # §4 item 6
    all_in: bool = True  # §2.6 item 41; off: no all-in, a short call must fold (betting.py)
    michigan_leader: Literal["poker_winner", "dealer", "left"] = "poker_winner"  # item 42
    first_lead: Literal[
        "lowest_of_suit", "lowest_card", "lowest_black", "lowest_of_longest_suit"
    ] = "lowest_of_suit"  # §2.7 item 45
    next_lead: Literal["other_suit", "opposite_colour", "any_suit"] = "other_suit"  # item 49
    going_out_space: str = KITTY  # §2.7 item 52; also receives auctioned pay-suit/ghost bids
    block_space: str = KITTY  # §2.7 item 51
    misdeal_on_exposed_card: bool = False  # italian; bot deals never expose a card (§4 31)
    elimination: Literal["full_ante", "zero_chips"] = "full_ante"  # §2.11 item 64; §3.3 15
    leftover_poker: bool = True  # §2.9 item 59
    leftover_betting: bool = True  # §2.9 item 60
    leftover_pots: int = Field(1, ge=1)  # §2.9 item 60: K
    monte_once: bool = False  # italian §3.3 item 13
    spare_needs_no_pay_card: bool = False  # §3.8
    starting_stack: int = Field(100, ge=0)  # §2.1 item 3

    @property
    def first_deal_chips(self) -> int:
        """The fewest chips each player must bring for the first deal to be dealt (chips):
        the full ante at the larger of ``ante`` and ``dealer_ante`` on every space, as any
        player may deal (items 6, 64; with equal stacks a dealer who cannot pay is out, and
        so is each next one); 1 with ``zero_chips`` (§3.3 item 15)."""
        if self.elimination == "zero_chips":
            return 1
        return max(self.ante, self.dealer_ante) * len(self.spaces)

    @property
    def single_spaces(self) -> tuple[str, ...]:
        """The single pay-card spaces in board order (``pay_cards``)."""
        return BOODLE_SPACES if self.pay_cards == "boodle" else PAY_SPACES

    @model_validator(mode="after")
    def _consistent(self) -> TripoliRules:
        for problem in _problems(self):
            raise problem
        return self


def _problems(r: TripoliRules) -> list[OptionError]:
    """Why ``r`` cannot be played (empty: it can); ids ``tripoli.option.<what>``."""
    out = []
    if r.min_players > r.max_players:
        out.append(OptionError("tripoli.option.players_range", low=r.min_players,
                               high=r.max_players))
    if len(set(r.spaces)) != len(r.spaces):
        out.append(OptionError("tripoli.option.space_twice"))
    needed = {*r.single_spaces, r.kq_space, r.seq_space, r.going_out_space, r.block_space}
    if r.poker != "none":
        needed.add(POT)
    elif POT in r.spaces:
        out.append(OptionError("tripoli.option.pot_without_poker"))
    out += [OptionError("tripoli.option.space_missing", space=s)
            for s in sorted(needed - set(r.spaces))]
    out += [OptionError("tripoli.option.space_unused", space=s)
            for s in sorted(set(r.spaces) - needed - {POT})]
    if (r.first_lead == "lowest_black") != (r.next_lead == "opposite_colour"):
        out.append(OptionError("tripoli.option.colour_leads"))
    if r.pay_cards == "boodle" and not isinstance(r.pay_suit, Suit):
        out.append(OptionError("tripoli.option.boodle_pay_suit"))
    if r.pay_suit == "auction" and r.pay_collection != "play":
        out.append(OptionError("tripoli.option.auction_collection"))
    if r.poker == "none" and r.michigan_leader == "poker_winner":
        out.append(OptionError("tripoli.option.leader_without_poker"))
    if r.monte_once and r.going_out_space != r.seq_space:
        out.append(OptionError("tripoli.option.monte_once"))
    if r.spare_needs_no_pay_card and r.pay_suit == "auction":
        out.append(OptionError("tripoli.option.spare_before_auction"))
    if "exchange_auction_old" in r.spare_options and "exchange" not in r.spare_options:
        out.append(OptionError("tripoli.option.old_hand_needs_exchange"))
    return out


CLASSIC = TripoliRules()


def _preset(base: TripoliRules, name: str, **changes: Any) -> TripoliRules:
    """``base`` with ``changes``, validated (``model_copy`` would skip the checks)."""
    return TripoliRules.model_validate(base.model_dump() | changes | {"name": name})


_COLOUR = {"first_lead": "lowest_black", "next_lead": "opposite_colour"}
_ITALIAN = _preset(
    CLASSIC,
    "italian",
    min_players=3,
    recommended_players=(3, 9),
    spaces=ITALIAN_SPACES,
    dealer_ante=2,
    kq_suit="any",
    kq_space=KQ_ANY,
    seq_space=MONTE,
    spare_options=(),
    poker="auto",
    michigan_leader="left",
    first_lead="lowest_of_longest_suit",
    next_lead="any_suit",
    going_out_space=MONTE,
    block_space=MONTE,
    misdeal_on_exposed_card=True,
    elimination="zero_chips",
    leftover_betting=False,
)

PRESETS: dict[str, TripoliRules] = {
    "classic": CLASSIC,
    "rummoli": _preset(CLASSIC, "rummoli", pay_collection="play"),
    "auction-pay-suit": _preset(
        CLASSIC, "auction-pay-suit", pay_suit="auction", pay_collection="play"
    ),
    "seq-678": _preset(CLASSIC, "seq-678", seq_ranks=6),
    "dealer-starts-betting": _preset(CLASSIC, "dealer-starts-betting", bet_opener="dealer"),
    "michigan-starts-dealer": _preset(CLASSIC, "michigan-starts-dealer", michigan_leader="dealer"),
    "michigan-starts-left": _preset(CLASSIC, "michigan-starts-left", michigan_leader="left"),
    "no-spare-exchange": _preset(CLASSIC, "no-spare-exchange", spare_options=()),
    "first-lead-lowest-card": _preset(CLASSIC, "first-lead-lowest-card", first_lead="lowest_card"),
    "colour": _preset(CLASSIC, "colour", **_COLOUR),
    "cosmo": _preset(CLASSIC, "cosmo", pay_suit="dial", **_COLOUR),
    "italian": _ITALIAN,
    "italian-no-poker": _preset(
        _ITALIAN, "italian-no-poker", poker="none", spaces=(*PAY_SPACES, KQ_ANY, MONTE)
    ),
    "italian-ghost-auction": _preset(_ITALIAN, "italian-ghost-auction", ghost_auction=True),
    "italian-boodle": _preset(
        _ITALIAN, "italian-boodle", pay_cards="boodle", spaces=(*BOODLE_SPACES, KQ_ANY, POT, MONTE)
    ),
    "dutch": _preset(
        CLASSIC,
        "dutch",
        min_players=4,
        max_players=7,
        spare_options=("keep", "exchange", "auction"),
    ),
}

def make_rules(
    preset: str = "classic", /, players: int | None = None, **overrides: Any
) -> TripoliRules:
    """The rules of ``preset`` with single parameters overridden (§3.1 keys).

    An ``ante`` override also sets ``dealer_ante`` when the preset antes the same for the
    dealer (it keeps italian's dealer ante of 2 otherwise).

    Parameters
    ----------
    preset
        A key of :data:`PRESETS`.
    players
        If given, the number of players the table will seat (checked against the rules).
    **overrides
        Field name -> value, e.g. ``bet_opener="dealer"``, ``ante=2``, ``seq_ranks=6``.

    Raises
    ------
    OptionError
        (a ``ValueError``) ``tripoli.option.no_preset`` (``preset``, ``presets``),
        ``option.unknown`` (``option``: the first unknown parameter), a value out of range
        or of the wrong kind (:func:`engine.core.option_error`: ``option`` and its range),
        ``tripoli.option.players`` (``preset``, ``low``, ``high``) for a player count out of
        range, or a combination that makes no sense (``tripoli.option.<what>``).
    """
    if preset not in PRESETS:
        raise OptionError("tripoli.option.no_preset", preset=preset, presets=", ".join(PRESETS))
    base = PRESETS[preset]
    unknown = sorted(set(overrides) - set(TripoliRules.model_fields) | set(overrides) & {"name"})
    if unknown:
        raise OptionError("option.unknown", option=unknown[0])
    data = base.model_dump() | overrides
    if "ante" in overrides and "dealer_ante" not in overrides and base.ante == base.dealer_ante:
        data["dealer_ante"] = overrides["ante"]
    try:
        rules = TripoliRules.model_validate(data)
    except ValidationError as error:
        raise option_error(TripoliRules, error) from None
    if players is not None and not rules.min_players <= players <= rules.max_players:
        raise OptionError("tripoli.option.players", preset=preset, low=rules.min_players,
                          high=rules.max_players)
    return rules


class Difference(Frozen):
    """One way a rules value differs from ``classic`` (§3.2), as data for a sentence.

    Attributes
    ----------
    key
        The sentence's message id, ``tripoli.difference.<what>``.
    values
        Its placeholders: ints (``count``: chips or pots, ``low``/``high``: players,
        ``limit``: chips, ``start``: the lowest rank of the sequence, 2 = deuce … 12 = queen),
        ``space`` (a board space's printed name), ``spaces`` (the board, in order),
        ``options`` (the dealer's spare-hand options of :data:`SpareOption`) and ``suit`` (a
        suit's symbol).
    """

    key: str
    values: dict[str, int | str | tuple[str, ...]] = Field(default_factory=dict)


def _difference(what: str, **values: int | str | tuple[str, ...]) -> Difference:
    return Difference(key=f"tripoli.difference.{what}", values=values)


_COLOUR_LEADS = _difference("colour_leads")
_DIFFERENCES: dict[str, Any] = {
    "min_players": lambda v, r: _difference("players", low=r.min_players, high=r.max_players),
    "max_players": lambda v, r: _difference("players", low=r.min_players, high=r.max_players),
    "spaces": lambda v, r: _difference("spaces", spaces=tuple(v)),
    "ante": lambda v, r: _difference("ante", count=v),
    "dealer_ante": lambda v, r: _difference("dealer_ante", count=v),
    "pay_suit": lambda v, r: (
        _difference(f"pay_suit_{v}") if v in ("auction", "dial")
        else _difference("pay_suit", suit=Suit(v).symbol)
    ),
    "pay_cards": lambda v, r: _difference("boodle"),
    "kq_suit": lambda v, r: _difference("kq_any_suit", space=r.kq_space),
    "seq_ranks": lambda v, r: _difference("sequence", start=v),
    "seq_space": lambda v, r: _difference("sequence_space", space=v),
    "pay_collection": lambda v, r: _difference("pay_in_michigan"),
    "spare_options": lambda v, r: (
        _difference("spare_options", options=tuple(v)) if v else _difference("no_spare")
    ),
    "ghost_auction": lambda v, r: _difference("ghost_auction", space=r.going_out_space),
    "poker": lambda v, r: _difference(f"poker_{v}"),
    "bet_opener": lambda v, r: _difference("dealer_opens"),
    "bet_limit": lambda v, r: _difference("bet_limit", limit=v),
    "bet_limit_mode": lambda v, r: _difference("limit_total"),
    "all_in": lambda v, r: _difference("no_all_in"),
    "michigan_leader": lambda v, r: _difference(f"leader_{v}"),
    "first_lead": lambda v, r: (
        _COLOUR_LEADS if v == "lowest_black" else _difference(f"first_lead_{v}")
    ),
    "next_lead": lambda v, r: (
        _COLOUR_LEADS if v == "opposite_colour" else _difference(f"next_lead_{v}")
    ),
    "going_out_space": lambda v, r: _difference("going_out", space=v),
    "block_space": lambda v, r: None if r.next_lead == "any_suit" else _difference(
        "block", space=v),
    "elimination": lambda v, r: _difference("out_at_zero"),
    "leftover_poker": lambda v, r: _difference("leftover_stays"),
    "leftover_betting": lambda v, r: _difference("leftover_no_betting"),
    "leftover_pots": lambda v, r: _difference("leftover_pots", count=v),
    "monte_once": lambda v, r: _difference("monte_once", space=r.going_out_space),
    "spare_needs_no_pay_card": lambda v, r: _difference("spare_no_pay_card"),
    "starting_stack": lambda v, r: _difference("starting_stack", count=v),
}
"""Parameter -> its :class:`Difference` for a value other than classic's (None: nothing to
say). Every value a parameter may take besides classic's has its message id."""


def describe_differences(rules: TripoliRules) -> list[Difference]:
    """How ``rules`` differ from ``classic``, one :class:`Difference` each (§3.2).

    Returns
    -------
    list of Difference
        In parameter order, without repeats; empty for ``classic`` itself. Parameters that
        only rename spaces (``kq_space``) and the exposed-card misdeal (a bot never exposes
        a card) are not mentioned.
    """
    out: list[Difference] = []
    for field, difference in _DIFFERENCES.items():
        value = getattr(rules, field)
        found = difference(value, rules) if value != getattr(CLASSIC, field) else None
        if found is not None and found not in out:
            out.append(found)
    return out
