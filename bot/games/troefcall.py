"""Troefcall at a table: how lobby options, clicks, the AI and the renderer meet the engine.

Verbs (component → engine action, rules/troefcall.md §2): ``trump`` (arg = the suit's letter
``c d h s``: the caller names trumps, §2.4 item 12), ``play`` (arg or select value = the card
id, §2.6; leading trick 8 after the first seven is playing on, §2.7 item 33), ``kap`` (kap
partij, §2.7 items 30-31) and ``redeal`` (a caller without K, Q or J, §2.5).

Table options (saved with the table, and as a channel's house rules): ``target`` (points that
win, default 15, §2.10 item 50) or ``deals`` (a number of hands instead, highest score wins,
item 52), ``teams`` (``"choose"``: members join a team in the lobby; ``"random"``: the
partnership draw at Start, §2.1 item 2) and ``turn_seconds`` (runtime). Four seats, partners
opposite (seats 0 + 2 against 1 + 3); nothing is at stake; a member who leaves hands the seat
to the AI, and a member may take an AI seat between hands.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any, cast

from bot.games.shared import shared_rules
from bot.i18n import ENGLISH, Language, Msg
from bot.render import troefcall as render
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
from engine.core import Action, Game
from engine.troefcall.actions import ClaimRedeal, KapPartij, NameTrump, Play
from engine.troefcall.ai import choose
from engine.troefcall.game import TroefcallGame
from engine.troefcall.phases import Phase
from engine.troefcall.rules import TroefcallRules, make_rules
from engine.troefcall.seating import SEATS, draw_partners

built_rules = shared_rules(make_rules)
"""The rules of a set of options, built once for every table that plays them."""

SPEC = GameSpec(
    name="troefcall",
    title="Troefcall",
    seats=range(SEATS, SEATS + 1),
    seating="partners",
    teams=("Team A", "Team B"),
    stakes="none",
    substitutes=True,
    deal_noun="hand",
    counts_deals=True,
)
"""Troefcall at a table: four seats in two partnerships (team ``k`` at seats ``k`` and
``k + 2``, rules/troefcall.md §2.1 item 1), no stakes, AI substitutes for leavers; a deal is
a "hand", as the rules call it (§2.8-§2.9)."""

DEFAULT_TARGET = 15
"""Points that win the game when the options name neither a target nor a number of hands
(§2.10 item 50, ambiguity A8)."""

TEAM_DRAWS = ("choose", "random")
"""The ``teams`` option: chosen in the lobby, or drawn by a card each at Start (§2.1 item 2)."""

DECISION_SECONDS: dict[Phase, float] = {
    Phase.NAMING: 60.0,
    Phase.PLAY: 60.0,
    Phase.KAP: 45.0,
}
"""Seconds a member has for each required decision (then ``timeout_action``: the strongest
suit, the lowest legal card, or kap partij by the trick-7 winner, §2.7 item 35)."""

NOT_TROEFCALL = Msg("refusal.not_this_game", game=Msg("game.troefcall"))
"""The refusal of a control that is not Troefcall's."""

SUIT_LETTERS: dict[str, Suit] = {suit.letter: suit for suit in Suit}
"""The ``trump`` verb's argument: ``c d h s``."""


def _game(game: Game) -> TroefcallGame:
    return cast(TroefcallGame, game)


class TroefcallAdapter:
    """The :class:`~bot.runtime.spec.GameAdapter` of Troefcall (options: module docstring)."""

    spec = SPEC
    draft_verbs: frozenset[str] = frozenset()  # every Troefcall decision is one click

    def rules(self, options: dict[str, Any]) -> TroefcallRules:
        """The engine rules of a table's options (other keys are ignored).

        Parameters
        ----------
        options
            ``target`` (points) or ``deals`` (hands), at most one of them; ``teams``.

        Raises
        ------
        ValueError
            Both a target and a number of hands, a number below 1, or an unknown ``teams``;
            the message says which.
        """
        teams = options.get("teams") or "choose"
        if teams not in TEAM_DRAWS:
            raise UnplayableRules(Msg("troefcall.options.teams", teams=str(teams)))
        target, deals = options.get("target"), options.get("deals")
        if target is not None and deals is not None:
            raise UnplayableRules(Msg("troefcall.options.target_and_deals"))
        if deals is not None:
            return built_rules(deals=deals)
        return built_rules(target=DEFAULT_TARGET if target is None else target)

    def spec_for(self, options: dict[str, Any]) -> GameSpec:
        """With ``teams: random`` the lobby is one list of seats (the draw at Start makes
        the partnerships, §2.1 item 2); else one list per team. With a ``stake`` (chips,
        the table's ``buy_in``) the winning team shares the members' stakes."""
        spec = dataclasses.replace(SPEC, seating="free") if _draw(options) == "random" else SPEC
        return dataclasses.replace(spec, stakes="stake") if options.get("stake") else spec

    def check_options(self, options: dict[str, Any], stake: int | None = None) -> None:
        """Raise ValueError (saying why) when the options cannot be played (any ``stake``
        can: it is the table's choice, not a rule of the game)."""
        self.rules(options)

    def rules_card(
        self, options: dict[str, Any], source: str, buy_in: int, lang: Language = ENGLISH
    ) -> Rendered:
        """``/troefcall rules``: the options' rules in plain words, in ``lang`` (``buy_in``
        is not used: nothing is at stake).

        Raises
        ------
        ValueError
            When the options cannot be played (e.g. saved by an older release).
        """
        return render.rules_card(self.rules(options), _draw(options), source, lang)

    def describe_options(self, options: dict[str, Any], lang: Language = ENGLISH) -> str:
        try:
            rules = self.rules(options)
        except ValueError as error:  # a lobby saved before its options were checked
            return lang.t("options.unplayable", error=unplayable_reason(error, lang))
        return lang.t("troefcall.options", end=render.game_end(lang, rules),
                      teams=render.team_draw(lang, _draw(options)))

    def new_game(self, options: dict[str, Any], players: int, seed: bytes, buy_in: int) -> Game:
        try:
            return TroefcallGame.new(self.rules(options), players, seed)
        except ValueError as error:
            why = Msg("refusal.unplayable", error=unplayable_reason(error))
            raise Refusal("illegal", why) from error

    def arrange(
        self, seats: Sequence[SeatInfo], options: dict[str, Any], seed: bytes
    ) -> list[int] | None:
        """The partnership draw (§2.1 item 2) when ``teams`` is ``"random"``: the lobby's
        seats come in join order, which is the draw's player order; else None (each member
        sits with the team they joined)."""
        if _draw(options) != "random":
            return None
        return list(draw_partners(seed).seating)

    def load_game(self, data: str, schema: int, rules: Any = None) -> Game:
        if schema > TroefcallGame.SCHEMA_VERSION:
            raise ValueError(f"a Troefcall snapshot of schema {schema} is newer than this code")
        return TroefcallGame.load(data, rules)

    def draft(
        self, game: Game, seat: int, draft: Any, verb: str, arg: str, values: Sequence[str]
    ) -> Any:
        raise Refusal("illegal", NOT_TROEFCALL)

    def action(
        self, game: Game, seat: int, verb: str, arg: str, values: Sequence[str],
        amount: int | None, draft: Any = None,
    ) -> Action:
        match verb:
            case "trump" if arg in SUIT_LETTERS:
                return NameTrump(suit=SUIT_LETTERS[arg])
            case "trump":
                raise Refusal("illegal", Msg("refusal.not_suit"))
            case "play":
                return Play(card=_card(values[0] if values else arg))
            case "kap":
                return KapPartij()
            case "redeal":
                return ClaimRedeal()
        raise Refusal("illegal", NOT_TROEFCALL)

    def amount_prompt(self, game: Game, seat: int, verb: str) -> AmountPrompt | None:
        return None  # no decision of Troefcall is an amount

    def decision_seconds(self, game: Game, seat: int) -> float:
        return DECISION_SECONDS[_game(game).phase]

    def ai_action(self, game: Game, seat: int, rng: random.Random) -> Action | None:
        """The AI partner's choice (:func:`engine.troefcall.ai.choose`); None lets the
        partner's optional kap partij lapse."""
        view = _game(game).view(seat)
        return choose(view, view.options, rng)  # the options the view holds already

    def board(self, info: TableInfo, game: Game) -> Rendered:
        return render.board(info, _game(game).public_view())

    def hand(self, info: TableInfo, game: Game, seat: int, draft: Any = None) -> Rendered:
        return render.hand(info, _game(game).view(seat))

    def deal_summary(self, info: TableInfo, game: Game) -> DealSummary | None:
        return render.deal_summary(info, _game(game).public_view())


def _draw(options: dict[str, Any]) -> str:
    """The ``teams`` option (default ``"choose"``)."""
    return str(options.get("teams") or "choose")


def _card(value: str) -> Card:
    if not value.isdigit() or not 0 <= int(value) < STANDARD_DECK_SIZE:
        raise Refusal("bad_selection", Msg("refusal.not_your_card"))
    return Card(int(value))
