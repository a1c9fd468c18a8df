"""Tripoli rules parameters and presets (``rules/tripoli.md`` §3.1, §3.2).

:class:`TripoliRules` carries every engine parameter of §3.1 with its ``classic`` value, so a
preset is plain data: :data:`PRESETS` maps each preset of §3.2 to one rules value and
:data:`PRESET_NOTES` gives each a one-line description. :func:`make_rules` combines a preset
with overrides (refusing combinations that make no sense), :func:`describe_differences` says
in plain words how a rules value differs from ``classic``.

Board spaces keep their printed names whatever they pay for: under ``auction-pay-suit`` and
``cosmo`` the spaces labelled ``A♥`` … ``KQ♥`` pay for the cards of the deal's pay suit
(§5 S15); the game's views say what each space pays for in the current deal.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidationError, model_validator

from engine.cards import Suit
from engine.core import Frozen

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
    combinations that make no sense with a ``ValueError`` saying why.
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
    def single_spaces(self) -> tuple[str, ...]:
        """The single pay-card spaces in board order (``pay_cards``)."""
        return BOODLE_SPACES if self.pay_cards == "boodle" else PAY_SPACES

    @model_validator(mode="after")
    def _consistent(self) -> TripoliRules:
        for problem in _problems(self):
            raise ValueError(problem)
        return self


def _problems(r: TripoliRules) -> list[str]:
    """Why ``r`` cannot be played (empty: it can)."""
    out = []
    if r.min_players > r.max_players:
        out.append("min_players exceeds max_players")
    if len(set(r.spaces)) != len(r.spaces):
        out.append("a board space is listed twice")
    needed = {*r.single_spaces, r.kq_space, r.seq_space, r.going_out_space, r.block_space}
    if r.poker != "none":
        needed.add(POT)
    elif POT in r.spaces:
        out.append("without poker the board has no POT space (it would only grow)")
    out += [f"space {s} is not on the board" for s in sorted(needed - set(r.spaces))]
    out += [f"space {s} pays for nothing under these rules" for s in set(r.spaces) - needed - {POT}]
    if (r.first_lead == "lowest_black") != (r.next_lead == "opposite_colour"):
        out.append("colour leads need first_lead=lowest_black with next_lead=opposite_colour")
    if r.pay_cards == "boodle" and not isinstance(r.pay_suit, Suit):
        out.append(f"the boodle pay cards are fixed; pay_suit={r.pay_suit} makes no sense")
    if r.pay_suit == "auction" and r.pay_collection != "play":
        out.append("an auctioned pay suit is collected in Michigan (pay_collection=play)")
    if r.poker == "none" and r.michigan_leader == "poker_winner":
        out.append("without poker the first Michigan leader must be 'dealer' or 'left'")
    if r.monte_once and r.going_out_space != r.seq_space:
        out.append("monte_once needs the going-out space to be the sequence space (MONTE)")
    if r.spare_needs_no_pay_card and r.pay_suit == "auction":
        out.append("spare_needs_no_pay_card needs the pay suit before the spare (not auction)")
    if "exchange_auction_old" in r.spare_options and "exchange" not in r.spare_options:
        out.append("auctioning the old hand needs the exchange option")
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

PRESET_NOTES: dict[str, str] = {
    "classic": "Pagat's Tripoli: pay cards, poker with betting, Michigan.",
    "rummoli": "Pay spaces are won by playing their cards in Michigan, not by holding them.",
    "auction-pay-suit": "Players bid for the right to name the pay suit; paid in Michigan.",
    "seq-678": "The sequence space needs 6-7-8 of one suit instead of 8-9-10.",
    "dealer-starts-betting": "The dealer opens the poker betting.",
    "michigan-starts-dealer": "The dealer makes the first Michigan lead.",
    "michigan-starts-left": "The player left of the dealer makes the first Michigan lead.",
    "no-spare-exchange": "No exchange or sale of the spare hand.",
    "first-lead-lowest-card": "The first Michigan lead must be the leader's lowest card.",
    "colour": "Michigan leads alternate black and red, lowest card of the colour.",
    "cosmo": "Colour leads, and a dial draws the pay suit and the sequence every deal.",
    "italian": "8 sections with a Monte, dealer antes 2, automatic poker, out at zero chips.",
    "italian-no-poker": "Italian without the poker phase (no POT section).",
    "italian-ghost-auction": "Italian; before Michigan players bid to swap for the ghost hand.",
    "italian-boodle": "Italian with the boodle pay cards A♥ K♣ Q♦ J♠.",
    "dutch": "4-7 players; no auction of the dealer's old hand after an exchange.",
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
    ValueError
        For an unknown preset or parameter, a bad value, a player count out of range, or a
        combination that makes no sense; the message says which and why.
    """
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}; presets: {', '.join(PRESETS)}")
    base = PRESETS[preset]
    unknown = sorted(set(overrides) - set(TripoliRules.model_fields) | set(overrides) & {"name"})
    if unknown:
        raise ValueError(f"unknown rules parameter {', '.join(unknown)}")
    data = base.model_dump() | overrides
    if "ante" in overrides and "dealer_ante" not in overrides and base.ante == base.dealer_ante:
        data["dealer_ante"] = overrides["ante"]
    try:
        rules = TripoliRules.model_validate(data)
    except ValidationError as error:
        raise ValueError(_plain(error)) from None
    if players is not None and not rules.min_players <= players <= rules.max_players:
        raise ValueError(f"{preset} is for {rules.min_players}-{rules.max_players} players")
    return rules


def _plain(error: ValidationError) -> str:
    parts = []
    for e in error.errors():
        message = str(e["msg"]).removeprefix("Value error, ")
        where = ".".join(str(x) for x in e["loc"])
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


def _suit_words(suit: Suit | str) -> str:
    if suit == "auction":
        return "auctioned every deal (the highest bidder names it)"
    if suit == "dial":
        return "drawn every deal by the dial, with the sequence"
    return Suit(suit).symbol


def _chips(n: int) -> str:
    return f"{n} chip" if n == 1 else f"{n} chips"


def _seq_words(r: int) -> str:
    labels = ["", "", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    return "-".join(labels[r + i] for i in range(3))


_COLOUR_WORDS = "Michigan leads alternate colour: lowest black card, then lowest red, and so on."
_WORDS: dict[str, Any] = {
    "min_players": lambda v, r: f"{r.min_players}-{r.max_players} players.",
    "max_players": lambda v, r: f"{r.min_players}-{r.max_players} players.",
    "spaces": lambda v, r: f"Board: {' '.join(v)}.",
    "ante": lambda v, r: f"Ante {_chips(v)} per space.",
    "dealer_ante": lambda v, r: f"The dealer antes {_chips(v)} per space.",
    "pay_suit": lambda v, r: f"Pay suit: {_suit_words(v)}.",
    "pay_cards": lambda v, r: "Pay cards A♥ K♣ Q♦ J♠ (boodle).",
    "kq_suit": lambda v, r: "King and queen of any one suit win the K-Q space (split).",
    "seq_ranks": lambda v, r: f"The sequence is {_seq_words(v)} of one suit.",
    "seq_space": lambda v, r: f"The sequence wins {v}.",
    "pay_collection": lambda v, r: (
        "Pay spaces are won by playing the cards in Michigan (K-Q and the sequence "
        "only when one player plays them consecutively); no pay-card phase."
    ),
    "spare_options": lambda v, r: (
        "The spare hand is never used."
        if not v
        else f"Dealer's spare-hand options: {', '.join(o.replace('_', ' ') for o in v)}."
    ),
    "ghost_auction": lambda v, r: (
        f"Before Michigan everyone may bid to swap his hand for the ghost hand; the bid goes "
        f"onto {r.going_out_space}."
    ),
    "poker": lambda v, r: (
        "Automatic poker: everyone's best five, no betting." if v == "auto" else "No poker phase."
    ),
    "bet_opener": lambda v, r: "The dealer opens the betting.",
    "bet_limit": lambda v, r: f"Bet limit {v}.",
    "bet_limit_mode": lambda v, r: "The bet limit caps a player's total, not each raise.",
    "all_in": lambda v, r: "No all-in: a player who cannot call in full must fold.",
    "michigan_leader": lambda v, r: (
        "The dealer makes the first Michigan lead."
        if v == "dealer"
        else "The player left of the dealer makes the first Michigan lead."
    ),
    "first_lead": lambda v, r: {
        "lowest_card": "The first Michigan lead is the leader's lowest card.",
        "lowest_black": _COLOUR_WORDS,
        "lowest_of_longest_suit": "The first lead is the lowest card of the longest suit.",
    }[v],
    "next_lead": lambda v, r: {
        "opposite_colour": _COLOUR_WORDS,
        "any_suit": "After a stop any suit may be led, even the one just played.",
        "other_suit": "After a stop any other suit may be led.",
    }[v],
    "going_out_space": lambda v, r: f"Going out wins {v} plus 1 chip per card.",
    "block_space": lambda v, r: "" if r.next_lead == "any_suit" else f"A block pays onto {v}.",
    "elimination": lambda v, r: "Out at zero chips; a short player antes what he has.",
    "leftover_poker": lambda v, r: "Leftover chips stay on the board at the end.",
    "leftover_betting": lambda v, r: "Leftover chips go to one showdown without betting.",
    "leftover_pots": lambda v, r: f"Leftover chips are played in {v} pots.",
    "monte_once": lambda v, r: "Going out wins MONTE only if nobody took it in phase 1.",
    "spare_needs_no_pay_card": lambda v, r: "Only players without a pay card may take the spare.",
    "starting_stack": lambda v, r: f"Everyone starts with {v} chips.",
}


def describe_differences(rules: TripoliRules) -> list[str]:
    """How ``rules`` differ from ``classic``, one plain sentence per difference (§3.2).

    Returns
    -------
    list of str
        In parameter order, without repeats; empty for ``classic`` itself. Parameters that
        only rename spaces (``kq_space``) and the exposed-card misdeal (a bot never exposes
        a card) are not mentioned.
    """
    out: list[str] = []
    for field, words in _WORDS.items():
        value = getattr(rules, field)
        line = words(value, rules) if value != getattr(CLASSIC, field) else ""
        if line and line not in out:
            out.append(line)
    return out
