"""Tripoli at a table: how lobby options, clicks, the AI and the renderer meet the engine.

Verbs (component → engine action, rules/tripoli.md §2): ``keep``, ``exchange``, ``auction``
(dealer, §2.4), ``bid`` (amount) and ``pass`` (auction, item 17), ``select`` (5 card ids) and
``best`` (the best five, item 28's timeout choice) for the poker selection, ``check``,
``bet`` (amount), ``call``, ``raise`` (amount = the increment r of item 40), ``fold``,
``lead`` (arg or select value = the card id, items 45 and 49), and ``name_suit`` (arg = the
suit's letter ``c d h s``: the pay-suit auction's winner names the pay suit, §3.6).

Table options (saved with the table, and as a channel's house rules): ``preset`` (a key of
:data:`engine.tripoli.rules.PRESETS`), ``ante``, ``dealer_ante`` and ``bet_limit`` (chips),
``seq_start`` (lowest rank of the sequence, 2..12), ``turn_seconds`` (runtime). The rules are
built only by :func:`engine.tripoli.rules.make_rules`, which validates them.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any, cast

from bot.games.shared import shared_rules
from bot.i18n import ENGLISH, Language, Msg
from bot.render import tripoli as render
from bot.runtime.refs import Refusal, UnplayableRules, unplayable_reason
from bot.runtime.spec import (
    AmountPrompt,
    DealSummary,
    GameSpec,
    Rendered,
    SeatInfo,
    TableInfo,
)
from engine.cards import STANDARD_DECK_SIZE, Card, Suit
from engine.core import Action, Game, OptionError
from engine.poker import best_five
from engine.tripoli import actions as act
from engine.tripoli.ai import choose
from engine.tripoli.game import TripoliGame
from engine.tripoli.phases import Phase
from engine.tripoli.rules import TripoliRules, make_rules

DECISION_SECONDS: dict[Phase, float] = {
    Phase.SPARE: 60.0,
    Phase.AUCTION: 45.0,
    Phase.NAME_SUIT: 30.0,
    Phase.SELECT: 120.0,
    Phase.BETTING: 60.0,
    Phase.MICHIGAN: 60.0,
}
"""Seconds a member has for each kind of decision (then ``timeout_action``, §4 item 33)."""

_SIMPLE: dict[str, type[Action]] = {
    "keep": act.Keep,
    "exchange": act.Exchange,
    "auction": act.Auction,
    "pass": act.Pass,
    "check": act.Check,
    "call": act.Call,
    "fold": act.Fold,
}
_AMOUNTS: dict[str, type[act.Bid | act.Bet | act.Raise]] = {
    "bid": act.Bid,
    "bet": act.Bet,
    "raise": act.Raise,
}
"""The verbs that take a typed amount (their modal: ``tripoli.amount.<verb>``)."""

built_rules = shared_rules(make_rules)
"""The rules of a set of options, built once for every table that plays them."""

NOT_TRIPOLI = Msg("refusal.not_this_game", game=Msg("game.tripoli"))
"""The refusal of a control that is not Tripoli's."""

RULE_OPTIONS: dict[str, str] = {
    "ante": "ante",
    "dealer_ante": "dealer_ante",
    "bet_limit": "bet_limit",
    "seq_start": "seq_ranks",
}
"""Table option -> the rules parameter it overrides (§3.1)."""

OPTION_NAMES: dict[str, str] = {"seq_ranks": "sequence_start"}
"""Rules parameter -> the command option that sets it, where their names differ (a refusal
names the option the member typed)."""

MIN_SEATS = 2
MAX_SEATS = 9
"""Seats any Tripoli table may have (§3.1 ``min_players``/``max_players`` of every preset
lie within)."""

SPEC = GameSpec(
    name="tripoli",
    title="Tripoli",
    seats=range(MIN_SEATS, MAX_SEATS + 1),
    stakes="buy_in",
    joins_between_deals=True,
    score_noun="chip",
)
"""Tripoli at a table: 2-9 seats in join order, each with a buy-in stack of chips; members
join and leave between deals (rules/tripoli.md §2.1, §2.9)."""

SUIT_LETTERS: dict[str, Suit] = {suit.letter: suit for suit in Suit}
"""The ``name_suit`` verb's argument: ``c d h s``."""


def _game(game: Game) -> TripoliGame:
    return cast(TripoliGame, game)



def check_buy_in(rules: TripoliRules, buy_in: int) -> None:
    """Refuse a buy-in (chips) too small for the first deal's antes: every player would be
    out before a card is dealt (rules/tripoli.md §2.11 item 64, §2.2 item 6).

    Raises
    ------
    UnplayableRules
        When ``buy_in`` is below :attr:`TripoliRules.first_deal_chips`.
    """
    if buy_in < rules.first_deal_chips:
        raise UnplayableRules(Msg("tripoli.options.buy_in_short", buy_in=buy_in,
                                  due=rules.first_deal_chips))

class TripoliAdapter:
    """The :class:`~bot.runtime.spec.GameAdapter` of Tripoli.

    Table options: see the module docstring.
    """

    spec = SPEC
    draft_verbs: frozenset[str] = frozenset()  # every Tripoli decision is one click

    def rules(self, options: dict[str, Any], players: int | None = None) -> TripoliRules:
        """The engine rules of a table's options (other keys are ignored).

        Parameters
        ----------
        options
            The table options (module docstring); missing or None values keep the preset's.
        players
            If given, the number of seats (checked against the preset's range).

        Raises
        ------
        OptionError
            (a ``ValueError``) Unknown preset, a value out of range, a combination that makes
            no sense, or a player count the preset does not allow
            (:func:`engine.tripoli.rules.make_rules`; ``option`` named as the command's
            option, :data:`OPTION_NAMES`).
        UnplayableRules
            A sequence start with the dial's preset (the dial draws the sequence).
        """
        preset = options.get("preset") or "classic"
        overrides = {param: options[key] for key, param in RULE_OPTIONS.items()
                     if options.get(key) is not None}
        try:
            rules = built_rules(preset, players=players, **overrides)
        except OptionError as error:
            option = error.values.get("option")
            if not isinstance(option, str) or option not in OPTION_NAMES:
                raise
            raise OptionError(error.reason, **error.values | {"option": OPTION_NAMES[option]}) \
                from None
        if "seq_ranks" in overrides and rules.pay_suit == "dial":
            raise UnplayableRules(Msg("tripoli.options.dial_sequence", preset=preset))
        return rules

    def spec_for(self, options: dict[str, Any]) -> GameSpec:
        """The declaration with the seat range of the options' preset (dutch: 4-7 seats).

        Options that cannot be played keep 2-9 seats (the start then refuses them).
        """
        try:
            rules = self.rules(options)
        except ValueError:
            return SPEC
        return dataclasses.replace(SPEC, seats=range(rules.min_players, rules.max_players + 1))

    def check_options(self, options: dict[str, Any], stake: int | None = None) -> None:
        """Raise ValueError (saying why) when the options cannot be played, or cannot with
        a buy-in of ``stake`` chips (see :func:`check_buy_in`)."""
        rules = self.rules(options)
        if stake is not None:
            check_buy_in(rules, stake)

    def rules_card(
        self, options: dict[str, Any], source: str, buy_in: int, lang: Language = ENGLISH
    ) -> Rendered:
        """``/tripoli rules``: the options' rules in plain words.

        Raises
        ------
        ValueError
            When the options cannot be played (e.g. saved by an older release).
        """
        return render.rules_card(self.rules(options), source, buy_in, lang)

    def describe_options(self, options: dict[str, Any], lang: Language = ENGLISH) -> str:
        try:
            rules = self.rules(options)
        except ValueError as error:  # a lobby saved before its options were checked
            return lang.t("options.unplayable", error=unplayable_reason(error, lang))
        ante = (lang.t("tripoli.options.ante", ante=rules.ante) if rules.dealer_ante == rules.ante
                else lang.t("tripoli.options.ante_dealer", ante=rules.ante,
                            dealer=rules.dealer_ante))
        players = ""
        if (rules.min_players, rules.max_players) != (MIN_SEATS, MAX_SEATS):
            players = lang.t("tripoli.options.players", low=rules.min_players,
                             high=rules.max_players)
        betting = lang.t("tripoli.options.betting", limit=rules.bet_limit) \
            if rules.poker == "betting" else ""
        return lang.t("tripoli.options", name=render.preset_name(lang, rules.name),
                      note=render.preset_note(lang, rules.name), ante=ante, betting=betting,
                      players=players)

    def new_game(self, options: dict[str, Any], players: int, seed: bytes, buy_in: int) -> Game:
        try:
            rules = self.rules(options, players=players)
            check_buy_in(rules, buy_in)
            return TripoliGame.new(rules, players, seed, stacks=[buy_in] * players)
        except ValueError as error:
            why = Msg("refusal.unplayable", error=unplayable_reason(error))
            raise Refusal("illegal", why) from error

    def arrange(
        self, seats: Sequence[SeatInfo], options: dict[str, Any], seed: bytes
    ) -> list[int] | None:
        return None  # seats in the order players sat down (§2.1)

    def load_game(self, data: str, schema: int, rules: Any = None) -> Game:
        if schema > TripoliGame.SCHEMA_VERSION:
            raise ValueError(f"a Tripoli snapshot of schema {schema} is newer than this code")
        return TripoliGame.load(data, rules)

    def draft(
        self, game: Game, seat: int, draft: Any, verb: str, arg: str, values: Sequence[str]
    ) -> Any:
        raise Refusal("illegal", NOT_TRIPOLI)

    def action(
        self, game: Game, seat: int, verb: str, arg: str, values: Sequence[str],
        amount: int | None, draft: Any = None,
    ) -> Action:
        if verb in _SIMPLE:
            return _SIMPLE[verb]()
        if verb in _AMOUNTS:
            if amount is None:
                raise Refusal("bad_amount", Msg("tripoli.refusal.amount"))
            return _AMOUNTS[verb](amount=amount)
        if verb == "select":
            return act.Select(cards=tuple(_card(value) for value in values))
        if verb == "best":
            return act.Select(cards=best_five(_game(game).view(seat).hand))
        if verb == "lead":
            chosen = values[0] if values else arg
            return act.Lead(card=_card(chosen))
        if verb == "name_suit":
            if arg not in SUIT_LETTERS:
                raise Refusal("illegal", Msg("refusal.not_suit"))
            return act.NameSuit(suit=SUIT_LETTERS[arg])
        raise Refusal("illegal", NOT_TRIPOLI)

    def amount_prompt(self, game: Game, seat: int, verb: str) -> AmountPrompt | None:
        if verb not in _AMOUNTS:
            return None
        option = next((o for o in game.legal_actions(seat) if o.kind == verb), None)
        if option is None or option.min is None or option.max is None:
            raise Refusal("illegal", Msg(f"tripoli.refusal.cannot.{verb}"))
        return AmountPrompt(title=Msg(f"tripoli.amount.{verb}_title"),
                            label=Msg(f"tripoli.amount.{verb}", low=option.min, high=option.max))

    def decision_seconds(self, game: Game, seat: int) -> float:
        return DECISION_SECONDS[_game(game).phase]

    def ai_action(self, game: Game, seat: int, rng: random.Random) -> Action:
        view = _game(game).view(seat)
        return choose(view, view.options, rng)

    def board(self, info: TableInfo, game: Game) -> Rendered:
        view = _game(game).public_view()
        decisions = {}
        for seat in view.to_act:
            options = game.legal_actions(seat)
            if options and not any(option.cards for option in options):
                decisions[seat] = (game.decision_id(seat), options)
        return render.board(info, view, decisions)

    def hand(self, info: TableInfo, game: Game, seat: int, draft: Any = None) -> Rendered:
        return render.hand(info, _game(game).view(seat))

    def deal_summary(self, info: TableInfo, game: Game) -> DealSummary | None:
        return render.deal_summary(info, _game(game).public_view())


def _card(value: str) -> Card:
    if not value.isdigit() or not 0 <= int(value) < STANDARD_DECK_SIZE:
        raise Refusal("bad_selection", Msg("refusal.not_your_card"))
    return Card(int(value))
