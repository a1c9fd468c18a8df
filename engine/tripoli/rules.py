"""Tripoli rules parameters and presets (``rules/tripoli.md`` §3.1, §3.2).

:class:`TripoliRules` carries every engine parameter of §3.1 with its ``classic`` value, so a
preset is plain data. The game consults each parameter at one place (named in the field's
comment). Values not implemented yet are refused by :func:`unsupported`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from engine.cards import Suit
from engine.core import Frozen

PAY_SPACES = ("A♥", "K♥", "Q♥", "J♥", "10♥")
KQ = "KQ♥"
SEQ = "SEQ"
KITTY = "KITTY"
POT = "POT"
CLASSIC_SPACES = (*PAY_SPACES, KQ, SEQ, KITTY, POT)

SpareOption = Literal["keep", "exchange", "exchange_auction_old", "auction"]
ALL_SPARE_OPTIONS: tuple[SpareOption, ...] = ("keep", "exchange", "exchange_auction_old", "auction")


class TripoliRules(Frozen):
    """The parameters of one Tripoli preset (``rules/tripoli.md`` §3.1); defaults = ``classic``.

    Chip amounts are in chips. Every field names the rule it encodes.
    """

    name: str = "classic"
    min_players: int = Field(2, ge=2)  # §2.1 item 1
    max_players: int = Field(9, le=9)  # §2.1 item 1 (one 52-card deck, ≥ 5 cards each)
    recommended_players: tuple[int, int] = (4, 7)
    spaces: tuple[str, ...] = CLASSIC_SPACES  # §2.1 item 4, board order
    ante: int = Field(1, ge=0)  # §2.2 item 6: chips per space per player
    dealer_ante: int = Field(1, ge=0)  # dealer's chips per space
    pay_suit: Suit | Literal["auction", "dial"] = Suit.HEARTS  # §2.5 item 20
    pay_cards: Literal["suit", "boodle"] = "suit"  # A K Q J 10 of pay_suit
    kq_suit: Literal["pay_suit", "any"] = "pay_suit"  # §2.5 item 21
    seq_ranks: int = Field(8, ge=2, le=12)  # §2.5 item 22: lowest of three consecutive ranks
    pay_collection: Literal["hold", "play"] = "hold"  # phase 1 (hold) or phase 3 (play)
    spare_options: tuple[SpareOption, ...] = ALL_SPARE_OPTIONS  # §2.4 item 14; () = none
    ghost_auction: bool = False  # italian §3.3 item 18
    poker: Literal["betting", "auto", "none"] = "betting"  # §2.6
    bet_opener: Literal["left", "dealer"] = "left"  # §2.6 item 31
    bet_limit: int = Field(10, ge=1)  # §2.6 item 39: L
    bet_limit_mode: Literal["increment", "total"] = "increment"  # §4 item 6
    all_in: bool = True  # §2.6 item 41; off: a player who cannot call in full must fold
    michigan_leader: Literal["poker_winner", "dealer", "left"] = "poker_winner"  # item 42
    first_lead: Literal[
        "lowest_of_suit", "lowest_card", "lowest_black", "lowest_of_longest_suit"
    ] = "lowest_of_suit"  # §2.7 item 45
    next_lead: Literal["other_suit", "opposite_colour", "any_suit"] = "other_suit"  # item 49
    going_out_space: str = KITTY  # §2.7 item 52
    block_space: str = KITTY  # §2.7 item 51
    misdeal_on_exposed_card: bool = False  # italian; bot deals never expose a card
    elimination: Literal["full_ante", "zero_chips"] = "full_ante"  # §2.11 item 64
    leftover_poker: bool = True  # §2.9 item 59
    leftover_betting: bool = True  # §2.9 item 60
    leftover_pots: int = Field(1, ge=1)  # §2.9 item 60: K
    monte_once: bool = False  # italian §3.3 item 13
    spare_needs_no_pay_card: bool = False  # §3.8
    starting_stack: int = Field(100, ge=0)  # §2.1 item 3

    @model_validator(mode="after")
    def _consistent(self) -> TripoliRules:
        if self.min_players > self.max_players:
            raise ValueError("min_players exceeds max_players")
        for space in (self.going_out_space, self.block_space, POT):
            if space not in self.spaces:
                raise ValueError(f"space {space} is not on the board")
        return self


def unsupported(rules: TripoliRules) -> list[str]:
    """Parameters whose value the engine does not implement yet (empty = playable)."""
    out = []
    if not isinstance(rules.pay_suit, Suit):
        out.append(f"pay_suit={rules.pay_suit}")
    if rules.pay_cards != "suit":
        out.append(f"pay_cards={rules.pay_cards}")
    if rules.pay_collection != "hold":
        out.append(f"pay_collection={rules.pay_collection}")
    if rules.ghost_auction:
        out.append("ghost_auction")
    if rules.poker == "none":
        out.append(f"poker={rules.poker}")
    if rules.elimination != "full_ante":
        out.append(f"elimination={rules.elimination}")
    if rules.monte_once:
        out.append("monte_once")
    if rules.spare_needs_no_pay_card:
        out.append("spare_needs_no_pay_card")
    if not set(PAY_SPACES) | {KQ, SEQ} <= set(rules.spaces):
        out.append("spaces without the classic pay spaces")
    return out


CLASSIC = TripoliRules()

PRESETS: dict[str, TripoliRules] = {
    "classic": CLASSIC,
    "dutch": CLASSIC.model_copy(
        update={
            "name": "dutch",
            "min_players": 4,
            "max_players": 7,
            "spare_options": ("keep", "exchange", "auction"),
        }
    ),
    "seq-678": CLASSIC.model_copy(update={"name": "seq-678", "seq_ranks": 6}),
    "dealer-starts-betting": CLASSIC.model_copy(
        update={"name": "dealer-starts-betting", "bet_opener": "dealer"}
    ),
    "michigan-starts-dealer": CLASSIC.model_copy(
        update={"name": "michigan-starts-dealer", "michigan_leader": "dealer"}
    ),
    "michigan-starts-left": CLASSIC.model_copy(
        update={"name": "michigan-starts-left", "michigan_leader": "left"}
    ),
    "no-spare-exchange": CLASSIC.model_copy(
        update={"name": "no-spare-exchange", "spare_options": ()}
    ),
    "first-lead-lowest-card": CLASSIC.model_copy(
        update={"name": "first-lead-lowest-card", "first_lead": "lowest_card"}
    ),
    "colour": CLASSIC.model_copy(
        update={"name": "colour", "first_lead": "lowest_black", "next_lead": "opposite_colour"}
    ),
}

PRESET_NOTES: dict[str, str] = {
    "classic": "Pagat's Tripoli: pay cards, poker with betting, Michigan (rules/tripoli.md §2).",
    "dutch": "4-7 players; no auction of the dealer's old hand after an exchange (§3.4).",
    "seq-678": "The sequence space needs 6-7-8 of one suit instead of 8-9-10 (§3.2).",
    "dealer-starts-betting": "The dealer opens the poker betting (§3.2).",
    "michigan-starts-dealer": "The dealer makes the first Michigan lead (§3.2).",
    "michigan-starts-left": "The player left of the dealer makes the first Michigan lead (§3.2).",
    "no-spare-exchange": "No exchange or sale of the spare hand (§3.2).",
    "first-lead-lowest-card": "The first Michigan lead must be the leader's lowest card (§3.2).",
    "colour": "Michigan leads alternate black and red, lowest card of the colour (§3.2, §3.7).",
}
