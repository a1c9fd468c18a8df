"""What a game declares to be played at a table, and what its renderers receive.

A game plugs into :class:`bot.runtime.registry.TableRegistry` through one
:class:`GameAdapter`, listed in :data:`bot.games.GAMES`. The adapter's :class:`GameSpec`
says what the runtime must do for it (seat range, seating, stakes, joins and substitutes),
so the runtime never names a game; the engine game itself meets :class:`engine.core.Game`
(and, for chip games, :class:`engine.core.SeatedForChips`). The adapter adds what the
runtime cannot know: how to build the game from a lobby, how its components map to engine
actions, which verbs need an amount, how the AI chooses, and how to render the board and a
seat's hand from a :class:`TableInfo` and the engine's views.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, Protocol

import discord

from bot.i18n import ENGLISH, Language, Msg
from bot.images.picture import Picture
from engine.core import Action, Game

Seating = Literal["free", "partners"]
Stakes = Literal["buy_in", "stake", "none"]


@dataclass(frozen=True)
class GameSpec:
    """A game's declaration, read by the runtime instead of built-in assumptions.

    Attributes
    ----------
    name
        Key of the game (``"tripoli"``): the slash-command group and the saved tables' tag.
    title
        Shown on lobbies and boards (``"Tripoli"``).
    seats
        The seat counts a table may start with (and, with joins, grow to).
    seating
        ``"free"``: seats in the order members sit down. ``"partners"``: the lobby has one
        list per team (:attr:`teams`); team ``k`` sits at seats ``k, k + len(teams), …``.
    teams
        The team names of a partners game (``("Team A", "Team B")``).
    stakes
        ``"buy_in"``: each seat starts with a stack of chips; on a ranked table it is
        escrowed from the member's balance and its final stack paid back (Tripoli).
        ``"stake"``: a points game played for a pot of the members' stakes, shared by the
        winners (:class:`bot.runtime.stakes.Stake`). ``"none"``: nothing is at stake.
    joins_between_deals
        Members may sit down as new seats between deals (the game then has ``add_seat``).
    substitutes
        A member who leaves mid-game hands the seat to the AI at once, and a member may take
        an AI seat between deals (fixed-seat games).
    score_noun
        What ``Outcome.scores`` counts (``"chip"``, ``"point"``, ``"penalty_point"``): the
        catalog message ``summary.score.<noun>`` writes a score on the final board ("130
        chips").
    deal_noun
        The game's word for one deal (``"deal"``; Troefcall's ``"hand"``, rules/troefcall.md
        §2.8): the board's button ``button.next_<noun>`` and the deal summary's line
        ``summary.changes.<noun>.<unit>`` say it.
    counts_deals
        The game itself ends after the table's ``deals`` option (its own end rule, e.g.
        Troefcall's agreed hands); else the runtime ends the session at the end of that
        many deals (:mod:`bot.runtime.pace`).
    deck_code
        The Python expression **Verify** shows for recomputing shuffle ``{shuffle}``'s deck
        from the revealed session ``seed`` (DESIGN.md §3); the default is the 52-card deck.
    """

    name: str
    title: str
    seats: range
    seating: Seating = "free"
    teams: tuple[str, ...] = ()
    stakes: Stakes = "none"
    joins_between_deals: bool = False
    substitutes: bool = False
    score_noun: str = "point"
    deal_noun: str = "deal"
    counts_deals: bool = False
    deck_code: str = "engine.fairness.shuffled_deck(seed, {shuffle})"

    def team_of(self, seat: int) -> int | None:
        """The team index of ``seat`` in a partners game, else None."""
        return seat % len(self.teams) if self.seating == "partners" else None


@dataclass(frozen=True)
class SeatInfo:
    """One seat as the renderers see it.

    Attributes
    ----------
    member_id
        The Discord member, None for an AI seat.
    name
        The name given when sitting down.
    ai
        The AI decides for the seat (always for AI seats; for a member who is away).
    left, leaving
        The member left (the seat is skipped) / leaves at the end of the deal.
    team
        The team index the member chose in a partners lobby, else None.
    kicked
        The member leaves because the host stood them up (their own Leave may be taken
        back with "I'm back").
    """

    member_id: int | None
    name: str
    ai: bool = False
    left: bool = False
    leaving: bool = False
    team: int | None = None
    kicked: bool = False


@dataclass(frozen=True, slots=True)
class Note:
    """A line of a table's runtime log (a join, a timeout, a leave, the ending) and where in
    the game's log it happened.

    Attributes
    ----------
    msg
        The line: a catalog message, shown with ``lang.t(note.msg)``.
    at
        The game's count of logged events when the note was made (``game.logged``): the
        note follows the ``at``-th event. None in the lobby, and for a note saved before
        notes kept it (shown after the game's events).
    """

    msg: Msg
    at: int | None = None

    def dump(self) -> dict[str, Any]:
        """:meth:`bot.i18n.Msg.dump`'s form with ``"at"``."""
        return {**self.msg.dump(), "at": self.at}

    @classmethod
    def load(cls, data: Any) -> Note:
        """A note from :meth:`dump`'s form, or from a bare message's (:meth:`Msg.load`)."""
        return cls(Msg.load(data), data.get("at") if isinstance(data, dict) else None)


@dataclass(frozen=True)
class TableInfo:
    """A frozen picture of a table for its renderers (never the mutable table).

    Attributes
    ----------
    id
        The table id (in every custom_id).
    spec
        The game's declaration for this table's options.
    seats
        Every seat, in engine order.
    host_id
        The host.
    ranked
        Members only at the start: real chips at stake, the result may be rated.
    buy_in
        Each seat's starting stack in chips (chip games).
    notes
        The runtime's latest lines (joins, timeouts …), oldest first: show each with
        ``lang.t(note.msg)``, among the game's events by :attr:`Note.at`
        (:func:`bot.render.lines.board_log`).
    logged
        The game's count of logged events (``game.logged``; 0 in the lobby): the last event
        of its log is the ``logged``-th.
    deadlines
        Seat (or ``engine.core.SYSTEM``) -> POSIX seconds at which its decision times out.
    seed
        The session seed, only once the game is over (revealed for fairness); else ``b""``.
    lang
        The language to render in: the channel's for the board and lobby, the viewer's for
        a private hand (:mod:`bot.i18n.choice`).
    pace
        The table's pace and agreed length, as catalog messages
        (:func:`bot.runtime.pace.describe`).
    substituted
        The AI took over a member's seat: the game will not be rated (the stakes still
        count).
    deals
        The agreed length of the session in deals (the ``deals`` option,
        :mod:`bot.runtime.pace`), None when none was agreed: a game that counts its deals
        shows the fewer of it and its own.
    """

    id: str
    spec: GameSpec
    seats: tuple[SeatInfo, ...]
    host_id: int
    ranked: bool
    buy_in: int
    notes: tuple[Note, ...] = ()
    logged: int = 0
    deadlines: Mapping[int, float] = field(default_factory=dict)
    seed: bytes = b""
    lang: Language = ENGLISH
    pace: tuple[Msg, ...] = ()
    substituted: bool = False
    deals: int | None = None


@dataclass(frozen=True)
class Rendered:
    """One message's content: an embed, its components (None = no components) and how to
    describe its picture (None = no picture), from the same view as the text.

    The description itself (:attr:`picture`) is made only when asked for, once: a server
    with pictures off never needs it (:mod:`bot.runtime.pictures`). ``describe`` reads
    only what the render was given (the engine's views are snapshots, never changed).

    The view is released at once (stopped): discord.py then neither keeps it nor runs its
    timeout task for every message sent (an ephemeral hand view would live 15 minutes);
    clicks on its components still reach the tables through the DynamicItems
    (:mod:`bot.runtime.components`), whatever message they come from.
    """

    embed: discord.Embed
    view: discord.ui.View | None = None
    describe: Callable[[], Picture] | None = None

    def __post_init__(self) -> None:
        if self.view is not None:
            self.view.stop()

    @cached_property
    def picture(self) -> Picture | None:
        """The description of the message's picture (made on first use), None for none."""
        return None if self.describe is None else self.describe()


@dataclass(frozen=True)
class DealSummary:
    """What the deal just over did, in the game's words (:meth:`GameAdapter.deal_summary`).

    Attributes
    ----------
    title
        The board field's name: the deal as the game calls it (``"Deal 3"``, ``"Hand 2"``).
    lines
        Who took what: spaces, the pot, going out, tricks, penalties … (public facts only).
    deltas
        ``(who, change)`` per player or team: what the deal changed for them (chips,
        points or penalty points, as :attr:`unit` says), in seat order.
    unit
        What :attr:`deltas` count, as :attr:`GameSpec.score_noun` (``"chip"``, ``"point"``,
        ``"penalty_point"``; catalog message ``summary.changes.<deal noun>.<unit>``).
    """

    title: str
    lines: tuple[str, ...]
    deltas: tuple[tuple[str, int], ...]
    unit: str


@dataclass(frozen=True)
class AmountPrompt:
    """A verb that needs a typed amount: the modal's title and its input's label (which
    states the legal range, e.g. ``"Bet (1-10 chips)"``), catalog messages shown in the
    member's language; the engine validates the amount."""

    title: Msg
    label: Msg


class GameAdapter(Protocol):
    """The per-game plug of the table runtime (see the module docstring).

    Drafts (DESIGN.md §7): a multi-step choice (a Kalooki meld under construction) is a
    per-seat draft the runtime keeps with the table (saved, so it survives a restart),
    keyed by the seat's decision id and dropped when the decision changes. A click on one
    of :attr:`draft_verbs` changes only the draft (:meth:`draft`); the engine sees nothing
    until the final action, built by :meth:`action` from the draft.
    """

    spec: GameSpec
    draft_verbs: frozenset[str]

    def spec_for(self, options: dict[str, Any]) -> GameSpec:
        """The declaration of a table with ``options`` (e.g. a preset for 4-7 players);
        options that cannot be played keep the game's own :attr:`spec`."""
        ...

    def rules(self, options: dict[str, Any]) -> Any:
        """The engine rules :meth:`new_game` plays with ``options`` (a table's snapshot
        leaves them out of its game's JSON and :meth:`load_game` takes them back).

        Raises
        ------
        ValueError
            When the options cannot be played (the message says why).
        """
        ...

    def describe_options(self, options: dict[str, Any], lang: Language = ENGLISH) -> str:
        """One line of the lobby: the table's house rules (``"Ante 1 · limit 10"``), in
        ``lang``."""
        ...

    def new_game(
        self, options: dict[str, Any], players: int, seed: bytes, buy_in: int
    ) -> Game:
        """Build the game for seats ``0..players-1`` and start its first deal.

        ``buy_in`` is each seat's starting stack in chips (read by chip games only).

        Raises
        ------
        bot.runtime.refs.Refusal
            If the options are not playable (the runtime refuses the start).
        """
        ...

    def arrange(
        self, seats: Sequence[SeatInfo], options: dict[str, Any], seed: bytes
    ) -> list[int] | None:
        """The lobby's seats in engine order (indexes into ``seats``), or None to keep the
        order the seating policy chose (e.g. a random draw of the teams)."""
        ...

    def load_game(self, data: str, schema: int, rules: Any = None) -> Game:
        """Rebuild a game from ``game.model_dump_json()`` written by schema version
        ``schema``, given its ``rules`` when the JSON leaves them out (:meth:`rules` of the
        table's options); a log longer than the game keeps is cut as the game cuts it
        (:meth:`engine.core.GameState.load`).

        Raises
        ------
        ValueError
            For a snapshot of an unknown (newer) schema.
        """
        ...

    def draft(
        self, game: Game, seat: int, draft: Any, verb: str, arg: str, values: Sequence[str]
    ) -> Any:
        """The seat's new draft after a click on a draft verb (JSON-serialisable data;
        ``draft`` is the current one, None when the decision has none yet).

        Raises
        ------
        bot.runtime.refs.Refusal
            For a step that cannot be taken (the draft is unchanged).
        """
        ...

    def action(
        self, game: Game, seat: int, verb: str, arg: str, values: Sequence[str],
        amount: int | None, draft: Any = None,
    ) -> Action:
        """The engine action a component click (or amount submit) of ``seat`` stands for
        (``draft``: the seat's draft of this decision, if any).

        Raises
        ------
        bot.runtime.refs.Refusal
            For a verb or value the game does not know (nothing changes).
        """
        ...

    def amount_prompt(self, game: Game, seat: int, verb: str) -> AmountPrompt | None:
        """The modal to show for ``verb``, or None when the verb needs no amount."""
        ...

    def decision_seconds(self, game: Game, seat: int) -> float:
        """Base seconds ``seat``'s required decision may take before its timeout action
        applies: the ``normal`` pace, which the runtime scales (:mod:`bot.runtime.pace`)."""
        ...

    def ai_action(self, game: Game, seat: int, rng: random.Random) -> Action | None:
        """The AI's choice for ``seat``, from that seat's view and legal options only; None
        declines an optional decision."""
        ...

    def board(self, info: TableInfo, game: Game) -> Rendered:
        """The public board of a started table: only what every member may see, its embed
        fitted to Discord's limits (:func:`bot.render.common.fit`)."""
        ...

    def hand(self, info: TableInfo, game: Game, seat: int, draft: Any = None) -> Rendered:
        """Seat ``seat``'s private view and its controls (sent ephemerally), with its draft
        of the current decision."""
        ...

    def deal_summary(self, info: TableInfo, game: Game) -> DealSummary | None:
        """What the last deal did, read from the engine's public log (no new state): asked
        between deals and at the end; None while a deal is played or before any ended.
        The runtime shows it on the board (:mod:`bot.render.summary`)."""
        ...
