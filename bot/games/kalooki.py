"""Caribbean Kalooki at a table: how lobby options, clicks, drafts, the AI and the renderer
meet the engine (rules/kalooki.md).

Verbs (component → engine action): ``call`` (call the top discard, §2.7), ``allow`` and
``refuse`` (the current player's answer, item 31), ``take`` / ``stock`` (draw the top discard /
the top of the stock, §2.6 item 21), ``lay_down`` (the draft's staged combinations, §2.8; arg =
the :meth:`~bot.render.kalooki.Draft.mark` of the draft it was shown with), ``play_on`` (arg =
the id of the card the select names, the one picked when it was shown; select value
``o_<meld>_<end>``: lay that card off on a table combination, §2.9 items 46-50;
``x_<meld>_<to>``: exchange it for the joker it stands for, item 51, T9-T11), ``discard``
(select value = a card id, §2.6 item 21c), ``end_turn`` (K8) and ``challenge`` (arg = the
challenged seat, at one's draw in honour mode, §2T.6).

Draft verbs (:data:`DRAFT_VERBS`; only the seat's private view changes, nothing reaches the
engine): ``pick`` (the select of one page of the hand: its chosen values become the picked
cards of that page), ``page`` (arg = the page of the hand to show, or ``on_<page>`` the page of
the places the one picked card may go), ``three`` / ``four`` (stage the picked cards as a
combination; refused with the reason when they are not one; arg = the draft's mark, as for
``lay_down``: from a view of an older draft both are refused as stale), ``clear``. The draft is
JSON (:class:`bot.render.kalooki.Draft`: lists of card ids), so every physical card keeps its
id: the two 7♥ are different cards (case C07).

Table options (saved with the table, and as a channel's house rules): ``preset``
(``jamaican`` or ``trinidad``, :data:`engine.kalooki.rules.PRESETS`), ``call_window`` (seconds
a discard stays callable, K4), ``honour_calls`` (Trinidad only: calls on honour, so over-callers
may be challenged, §2T.6 T23), ``packs`` and ``jokers`` (the pack set, §2.14; default 2 and
4, the 108 cards; the engine refuses a set too small for six players, T2) and
``turn_seconds`` (runtime). 3-6 seats in join order; with the
``stake`` option the members stake the table's buy-in (chips) and the lowest total of a whole
set takes the stakes (:meth:`KalookiAdapter.spec_for`), else nothing is at stake; a member who
leaves hands the seat to the AI, and a member may take an AI seat between deals.

AI seats answer the moment a call window opens (at once when the runtime's AI delay is 0),
so their calls are *late* calls (``CallDiscard(late=True)``): they take effect when the
window closes, and only if no member called within it (:mod:`engine.kalooki.game`).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any, cast

from bot.games.shared import shared_rules
from bot.i18n import ENGLISH, Language, Msg
from bot.render import kalooki as render
from bot.render.kalooki import Draft
from bot.runtime.refs import STALE, Refusal, UnplayableRules, unplayable_reason
from bot.runtime.spec import (
    AmountPrompt,
    DealSummary,
    GameSpec,
    Rendered,
    SeatInfo,
    TableInfo,
)
from engine.cards import CARD_IDS, Card
from engine.core import Action, Game, IllegalAction, OptionError
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
from engine.kalooki.ai import choose
from engine.kalooki.game import KalookiGame
from engine.kalooki.phases import Phase
from engine.kalooki.rules import PRESETS, KalookiRules, make_rules


def deck_code(packs: int, jokers: int) -> str:
    """Verify's expression for a shuffle of the pack set (``fairness.shuffle`` of its cards
    in id order by the deal seed, as :class:`KalookiGame` deals, rules/kalooki.md §2.14)."""
    return (f"engine.fairness.shuffle(engine.cards.pack_set({packs}, {jokers}), "
            "engine.fairness.deal_seed(seed, {shuffle}))")


built_rules = shared_rules(make_rules)
"""The rules of a set of options, built once for every table that plays them."""

SPEC = GameSpec(
    name="kalooki",
    title="Caribbean Kalooki",
    seats=range(3, 7),
    stakes="none",
    substitutes=True,
    score_noun="penalty_point",
    deck_code="engine.fairness.shuffled_deck(seed, {shuffle}, 108)",
)
"""Kalooki at a table: 3-6 seats with one 108-card pack set (rules/kalooki.md §2.1 item 1),
nothing at stake unless the table's ``stake`` option says so (:meth:`KalookiAdapter.spec_for`),
AI substitutes for leavers."""

CALL_WINDOW_RANGE = (2.0, 60.0)
"""Seconds the ``call_window`` option may be."""

DEFAULT_CALL_WINDOW = 8.0
"""Seconds a discard stays callable when the options name none: K4 suggests about 5 s;
in a chat a member needs a few more to see the board change and press **Call**."""

DECISION_SECONDS: dict[Phase, float] = {
    Phase.ANSWER: 30.0,
    Phase.DRAW: 60.0,
    Phase.PLAY: 180.0,
}
"""Seconds a member has for each required decision (then ``timeout_action``: allow, draw
from the stock, discard the card drawn): a turn of picking and staging takes longest."""

DRAFT_VERBS = frozenset({"pick", "page", "three", "four", "clear"})

NOT_KALOOKI = Msg("refusal.not_this_game", game=Msg("game.kalooki"))
"""The refusal of a control that is not Kalooki's."""

_SIMPLE: dict[str, Action] = {
    "call": CallDiscard(),
    "allow": Allow(),
    "refuse": Refuse(),
    "take": Draw(source="discard"),
    "stock": Draw(source="stock"),
    "end_turn": EndTurn(),
}


def _game(game: Game) -> KalookiGame:
    return cast(KalookiGame, game)


class KalookiAdapter:
    """The :class:`~bot.runtime.spec.GameAdapter` of Caribbean Kalooki (options and verbs:
    module docstring)."""

    spec = SPEC
    draft_verbs: frozenset[str] = DRAFT_VERBS

    def rules(self, options: dict[str, Any]) -> KalookiRules:
        """The engine rules of a table's options (other keys are ignored).

        Raises
        ------
        ValueError
            Unknown preset, a call window out of :data:`CALL_WINDOW_RANGE`, calls on
            honour with a preset that has no challenge, or packs and jokers the rules refuse
            (out of range, or too few cards for six players, T2).
        """
        preset = options.get("preset") or "jamaican"
        if preset not in PRESETS:
            raise UnplayableRules(Msg("kalooki.options.no_preset", preset=str(preset)))
        window = options.get("call_window")
        if window is not None and not isinstance(window, int | float):
            raise OptionError("option.number", option="call_window")
        window = DEFAULT_CALL_WINDOW if window is None else float(window)
        low, high = CALL_WINDOW_RANGE
        if not low <= window <= high:
            raise UnplayableRules(Msg("kalooki.options.window", low=int(low), high=int(high)))
        honour = bool(options.get("honour_calls"))
        if honour and not PRESETS[preset].challenge:
            raise UnplayableRules(Msg("kalooki.options.honour_trinidad"))
        cards = {key: options[key] for key in ("packs", "jokers") if options.get(key) is not None}
        return built_rules(preset, call_window=window, honour_calls=honour, **cards)

    def spec_for(self, options: dict[str, Any]) -> GameSpec:
        """With a ``stake`` (chips, the table's ``buy_in``) the lowest total of a set played
        to its last deal, or to the table's agreed length, takes the members' stakes (shared
        on a tie); a set ended before (by the host, or for lack of players) returns them
        (:meth:`engine.kalooki.game.KalookiGame.end_session`). Verify recomputes the
        table's pack set."""
        spec = dataclasses.replace(SPEC, stakes="stake") if options.get("stake") else SPEC
        if options.get("packs") is None and options.get("jokers") is None:
            return spec  # every preset plays the 108 cards
        try:
            rules = self.rules(options)
        except ValueError:  # options that cannot be played never deal
            return spec
        if (rules.packs, rules.jokers) == (2, 4):  # ids 0-107: the 108-card shuffled deck
            return spec
        return dataclasses.replace(spec, deck_code=deck_code(rules.packs, rules.jokers))

    def check_options(self, options: dict[str, Any], stake: int | None = None) -> None:
        """Raise ValueError (saying why) when the options cannot be played (any ``stake``
        can: it is the table's choice, not a rule of the game)."""
        self.rules(options)

    def rules_card(
        self, options: dict[str, Any], source: str, buy_in: int, lang: Language = ENGLISH
    ) -> Rendered:
        """``/kalooki rules``: the options' rules in plain words (``buy_in`` is unused: a stake is
        the table's choice, not a rule of the game).

        Raises
        ------
        ValueError
            When the options cannot be played (e.g. saved by an older release).
        """
        return render.rules_card(self.rules(options), source, lang)

    def describe_options(self, options: dict[str, Any], lang: Language = ENGLISH) -> str:
        try:
            rules = self.rules(options)
        except ValueError as error:  # a lobby saved before its options were checked
            return lang.t("options.unplayable", error=unplayable_reason(error, lang))
        return render.rules_line(rules, lang)

    def new_game(self, options: dict[str, Any], players: int, seed: bytes, buy_in: int) -> Game:
        try:
            return KalookiGame.new(self.rules(options), players, seed)
        except ValueError as error:
            why = Msg("refusal.unplayable", error=unplayable_reason(error))
            raise Refusal("illegal", why) from error

    def arrange(
        self, seats: Sequence[SeatInfo], options: dict[str, Any], seed: bytes
    ) -> list[int] | None:
        return None  # seats in the order players sat down, clockwise (§1)

    def load_game(self, data: str, schema: int, rules: Any = None) -> Game:
        if schema > KalookiGame.SCHEMA_VERSION:
            raise ValueError(f"a Kalooki snapshot of schema {schema} is newer than this code")
        return KalookiGame.load(data, rules)

    # ------------------------------------------------------------------ drafts

    def draft(
        self, game: Game, seat: int, draft: Any, verb: str, arg: str, values: Sequence[str]
    ) -> Any:
        kalooki = _game(game)
        if kalooki.phase is not Phase.PLAY or kalooki.turn != seat:
            raise Refusal("illegal", Msg("kalooki.refusal.build_on_turn"))
        hand = set(kalooki.hands[seat])
        current = Draft.load(draft, hand)
        free = current.free(hand)
        pages = render.pages(free)
        match verb:
            case "pick":
                page = set(pages[min(current.page, len(pages) - 1)]) if pages else set()
                chosen = {_card(v) for v in values}
                if not chosen <= page:
                    raise Refusal("not_in_hand", Msg("kalooki.refusal.not_on_page"))
                picked = tuple([c for c in current.picked if c not in page] + sorted(chosen))
                on_page = current.on_page if picked == current.picked else 0  # another card
                return current.replace(picked=picked, on_page=on_page).dump()
            case "page" if arg.startswith(render.ON_PAGE):
                number = arg.removeprefix(render.ON_PAGE)
                if not number.isdigit() or int(number) >= len(
                        render.play_on_pages(kalooki.view(seat), current)):
                    raise Refusal("illegal", Msg("kalooki.refusal.no_play_on_page"))
                return current.replace(on_page=int(number)).dump()
            case "page":
                if not arg.isdigit() or int(arg) >= len(pages):
                    raise Refusal("illegal", Msg("kalooki.refusal.no_page"))
                return current.replace(page=int(arg)).dump()
            case "three" | "four":
                _same_draft(current, arg)
                return self._stage(kalooki, current, verb).dump()
            case "clear":
                return Draft().dump()
        raise Refusal("illegal", NOT_KALOOKI)

    def _stage(self, game: KalookiGame, current: Draft, kind: m.MeldKind) -> Draft:
        """``current`` with its picked cards staged as a ``kind`` (a four in table order).

        Raises
        ------
        Refusal
            ``bad_meld`` with :func:`engine.kalooki.melds.classify`'s reason when the picked
            cards are not a ``kind``; ``illegal`` when nothing is picked.
        """
        picked = [Card(c) for c in current.picked]
        if not picked:
            raise Refusal("illegal", Msg("kalooki.refusal.pick_first"))
        rules = game.rules
        ordered = m.arrange_four(picked, rules) if kind == "four" else tuple(picked)
        verdict = m.classify(ordered or picked, rules)
        if ordered is None or kind not in verdict.kinds:
            other = "four" if kind == "three" else "three"
            reason = (Msg(f"illegal.{verdict.key}", **verdict.values) if verdict.key
                      else Msg(f"kalooki.refusal.makes_{other}"))
            raise Refusal("bad_meld", Msg("kalooki.refusal.not_a", reason=reason,
                                          kind=Msg(f"kalooki.kind.{kind}")))
        groups = (*current.groups, (kind, tuple(int(c) for c in ordered)))
        return current.replace(picked=(), groups=groups)

    def action(
        self, game: Game, seat: int, verb: str, arg: str, values: Sequence[str],
        amount: int | None, draft: Any = None,
    ) -> Action:
        if verb in _SIMPLE:
            return _SIMPLE[verb]
        kalooki = _game(game)
        current = Draft.load(draft, set(kalooki.hands[seat]))
        if verb == "lay_down":
            _same_draft(current, arg)
            if not current.groups:
                raise Refusal("illegal", Msg("kalooki.refusal.stage_first"))
            return LayDown(groups=tuple(Group(kind=k, cards=tuple(map(Card, cs)))
                                        for k, cs in current.groups))
        if verb == "discard":
            return Discard(card=_card(values[0] if values else arg))
        if verb == "play_on":
            return _play_on(current, values[0], arg) if values else _play_on(current, arg)
        if verb == "challenge":
            if not arg.isdigit():
                raise Refusal("illegal", Msg("kalooki.refusal.no_seat"))
            return Challenge(seat=int(arg))
        raise Refusal("illegal", NOT_KALOOKI)

    def amount_prompt(self, game: Game, seat: int, verb: str) -> AmountPrompt | None:
        return None  # no Kalooki decision has an amount

    def decision_seconds(self, game: Game, seat: int) -> float:
        return DECISION_SECONDS.get(_game(game).phase, DECISION_SECONDS[Phase.PLAY])

    def ai_action(self, game: Game, seat: int, rng: random.Random) -> Action | None:
        """The engine AI's choice (:func:`engine.kalooki.ai.choose`); its calls are late
        calls (module docstring); None lets an optional call or take lapse."""
        view = _game(game).view(seat)
        action = choose(view, view.options, rng)  # the options the view holds already
        return CallDiscard(late=True) if isinstance(action, CallDiscard) else action

    def board(self, info: TableInfo, game: Game) -> Rendered:
        kalooki = _game(game)
        calls = {seat: kalooki.decision_id(seat) for seat in kalooki.callers()}
        return render.board(info, kalooki.public_view(), calls)

    def hand(self, info: TableInfo, game: Game, seat: int, draft: Any = None) -> Rendered:
        kalooki = _game(game)
        view = kalooki.view(seat)
        current = Draft.load(draft, set(view.hand))
        problem = None
        if current.groups:
            try:
                kalooki.check(seat, self.action(game, seat, "lay_down", "", (), None,
                                                current.dump()))
            except IllegalAction as error:  # shown; nothing is applied
                problem = Refusal.of(error).text(info.lang)
            except Refusal as error:
                problem = error.text(info.lang)
        return render.hand(info, view, current, problem)

    def deal_summary(self, info: TableInfo, game: Game) -> DealSummary | None:
        return render.deal_summary(info, _game(game).public_view())


def _card(value: str) -> Card:
    if not value.isdigit() or not 0 <= int(value) < CARD_IDS:
        raise Refusal("not_in_hand", Msg("refusal.not_your_card"))
    return Card(int(value))


def _same_draft(current: Draft, mark: str) -> None:
    """Refuse as stale a stage or lay-down clicked in a view of another draft than the
    current one (``mark``: :meth:`Draft.mark` of the view's draft; empty from a view shown
    before controls carried it): a newer view of the hand picked or staged since."""
    if mark and mark != current.mark():
        raise Refusal("stale", STALE)


def _play_on(current: Draft, value: str, named: str = "") -> Action:
    """The lay-off or joker exchange a ``play_on`` value names, for the card the select
    names (``named``, its id: a newer view of the hand may have picked another card since),
    else the one picked card."""
    parts = value.split("_")
    if not named and len(current.picked) != 1:
        raise Refusal("illegal", Msg("kalooki.refusal.pick_one"))
    if len(parts) != 3 or parts[0] not in ("o", "x") or parts[2] not in render.PLAY_ON_ENDS:
        raise Refusal("illegal", Msg("kalooki.refusal.no_meld"))
    what, meld, where = parts
    card = _card(named) if named else Card(current.picked[0])
    if what == "o":
        return LayOff(meld=meld, card=card, end=None if where == "any" else where)
    return ExchangeJoker(meld=meld, card=card, to=None if where == "any" else where)
