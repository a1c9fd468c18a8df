"""The engine protocol shared by every game (DESIGN.md §2).

A game is a pydantic model holding the whole state of a session at one table. Seats are
ints ``0..n-1`` fixed for the life of the table; the dealer is a rotating role. Every
pending decision of a seat has an id (a per-seat counter, :class:`Decisions`); an action
aimed at a decision id that is no longer pending is refused as ``stale``.

Errors: :class:`EngineError` is the base; :class:`IllegalAction` carries a stable
machine ``code`` (used by the runtime and tests) and a human ``message`` (shown to players).
Illegal input never changes state. Rules options that cannot be played raise
:class:`OptionError`, a ``ValueError`` naming why by a message id and its values only
(:func:`option_error` turns pydantic's validation errors of a rules model into one).

Every game answers :meth:`Game.pending` with its open decisions: each a :class:`Pending`
that says whether it is *required* (a timeout applies :meth:`Game.timeout_action` and the
runtime counts a strike) or *optional* (expiry means "declined": no strike, no AI takeover).
A rule that waits on time (Kalooki's call window) is a pending decision of the
:data:`SYSTEM` seat with a delay ``after``; the runtime's scheduler applies its
``timeout_action`` when the delay is over. A finished game reports an :class:`Outcome`.

The runtime ends a session by ``end_session(abandon, reason=...)`` and says why with an
:class:`EndReason`; each game decides what that end means by its own rules (the runtime
never does, DESIGN.md §7): whether the session is complete (a winner, the stakes paid out)
or was cut short (no winner, the stakes back).

Every game's model derives from :class:`GameState`: it counts the events its log ever
received (the log keeps only the last ones), so a table can save the log apart, only the
new events of each change, and it loads without the rules a table derives from its options.
It also keeps the views it gave of its current state (:meth:`GameState.viewed`): the board,
the hands and the AI reading one state share them, until a method marked :func:`changes`
(``apply``, ``start_deal`` …) or the assignment of a field changes the game.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable, Sequence
from enum import StrEnum
from typing import Any, ClassVar, Protocol, Self, TypeVar, runtime_checkable

from pydantic import (
    BaseModel,
    ConfigDict,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    model_validator,
)

from engine.cards import Card


class EngineError(Exception):
    """Base of every error the engine raises."""


class IllegalAction(EngineError):
    """An action that is not legal now; the game state is unchanged.

    Parameters
    ----------
    code
        Stable identifier, e.g. ``"not_your_turn"``, ``"stale"``, ``"over_limit"``.
    message
        A sentence a player can read (English).
    reason
        Optional: the id of the same sentence for translation (the bot shows message
        ``illegal.<reason>`` of its catalogs with ``values``), e.g. ``"tripoli.bet_range"``.
    **values
        The sentence's data (ints and strs: amounts, card names …).
    """

    def __init__(self, code: str, message: str, reason: str | None = None,
                 **values: int | str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.reason = reason
        self.values = values


class OptionError(EngineError, ValueError):
    """Rules options (a preset, an override, a player count) that cannot be played.

    The engine writes no sentence: ``reason`` is the id of one in the bot's message
    catalogs (``tripoli.option.players``: "dutch is for 4-7 players") and ``values`` its
    placeholders. ``str()`` is the id and the values, for logs and tracebacks.

    Parameters
    ----------
    reason
        The message id, ``<game>.option.<what>`` or, for any game, ``option.<what>``.
    **values
        The sentence's data: ints (players, chips, cards) and strs (a preset's or an
        option's name, as the engine spells it).
    """

    def __init__(self, reason: str, /, **values: int | str) -> None:
        shown = ", ".join(f"{name}={value!r}" for name, value in values.items())
        super().__init__(f"{reason} ({shown})" if shown else reason)
        self.reason = reason
        self.values = values


def option_error(model: type[BaseModel], error: ValidationError) -> OptionError:
    """The :class:`OptionError` of the first problem pydantic found building ``model``.

    An :class:`OptionError` raised by one of the model's validators comes back as it was.
    A field's bad value names the field as ``option`` (the engine's parameter name): a number
    out of range as ``option.between`` (``low``, ``high``), ``option.at_least`` (``low``) or
    ``option.at_most`` (``high``), with the field's whole range; a value of the wrong kind as
    ``option.number`` (a field taking a number) or ``option.invalid``; a parameter the model
    does not have as ``option.unknown``.

    Parameters
    ----------
    model
        The rules model that was validated (its fields give the allowed ranges).
    error
        What pydantic raised.
    """
    first = error.errors(include_url=False)[0]
    raised = first.get("ctx", {}).get("error")
    if isinstance(raised, OptionError):
        return raised
    option = ".".join(str(part) for part in first["loc"][:1])
    field = model.model_fields.get(option)
    if field is None:
        return OptionError("option.unknown", option=option or "?")
    low, high = _whole_range(field.metadata)
    kind = first["type"]
    if kind.startswith(("greater_than", "less_than")) or kind.endswith("_parsing"):
        if low is not None and high is not None:
            return OptionError("option.between", option=option, low=low, high=high)
        if low is not None:
            return OptionError("option.at_least", option=option, low=low)
        if high is not None:
            return OptionError("option.at_most", option=option, high=high)
    if kind in ("int_parsing", "int_type", "float_parsing", "float_type", "int_from_float"):
        return OptionError("option.number", option=option)
    return OptionError("option.invalid", option=option)


def _whole_range(metadata: Sequence[Any]) -> tuple[int | None, int | None]:
    """The lowest and highest whole numbers a field's constraints allow (None: no bound;
    ``gt=0`` allows 1 and up)."""
    low = high = None
    for constraint in metadata:
        if getattr(constraint, "ge", None) is not None:
            low = math.ceil(constraint.ge)
        if getattr(constraint, "gt", None) is not None:
            low = math.floor(constraint.gt) + 1
        if getattr(constraint, "le", None) is not None:
            high = math.floor(constraint.le)
        if getattr(constraint, "lt", None) is not None:
            high = math.ceil(constraint.lt) - 1
    return low, high


V = TypeVar("V")
M = TypeVar("M", bound=Callable[..., Any])


class Views:
    """The views a game gave of its current state (:meth:`GameState.viewed`), by key.

    A cache, not part of the state: any two compare equal (games equal in their fields are
    equal), and a copy or a pickle of a game holds none. ``owner`` is the ``id`` of the game
    they were made of: a shallow copy of a game (``model_copy``) shares its original's
    private attributes, and starts its own views when it finds another owner's.
    """

    __slots__ = ("kept", "owner")

    def __init__(self, owner: int = 0) -> None:
        self.owner = owner
        self.kept: dict[Hashable, Any] = {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Views)

    __hash__ = None  # type: ignore[assignment]

    def __copy__(self) -> Views:
        return Views()

    def __deepcopy__(self, memo: dict[int, Any]) -> Views:
        return Views()

    def __reduce__(self) -> tuple[type[Views], tuple[()]]:
        return Views, ()


def changes(method: M) -> M:
    """Mark a game's method that changes its state: the views kept of the state before
    (:meth:`GameState.viewed`) are dropped once it returns or raises."""

    @functools.wraps(method)
    def changing(self: GameState, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        finally:
            self._changed()

    return changing  # type: ignore[return-value]


class GameState(BaseModel):
    """Base of the games' models: the log's count of events, loading with given rules, and
    the views kept of the current state.

    A subclass holds its ``rules`` and types its ``log``, and appends to the log only
    through :meth:`_logged_events`, which keeps what :meth:`kept_log` keeps. It marks each
    public method that changes it with :func:`changes`, and builds its views through
    :meth:`viewed`; a game is changed only by those methods or by assigning a field (a
    change made in place from outside, ``game.hands[0].append(card)``, is not seen).

    Attributes
    ----------
    log
        The last events of the session, oldest first (public and private: views filter).
    logged
        Events ever appended to the log: the events after the ``n``-th are the log's last
        ``logged - n`` (while they are fewer than it keeps). 0 in a game saved before it
        was counted.
    """

    log: list[Any] = []
    logged: int = 0
    _views: Views = PrivateAttr(default_factory=Views)

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        self._changed()

    def viewed(self, key: Hashable, make: Callable[[], V]) -> V:
        """The view ``make()`` builds of the current state, built once: kept under ``key``
        (``"public"``, ``("seat", 2)``) until the game changes. Views are frozen, so the one
        object serves every reader of this state."""
        private = self.__pydantic_private__
        assert private is not None
        views = private["_views"]
        if views.owner != id(self):
            views = private["_views"] = Views(id(self))
        try:
            return views.kept[key]  # type: ignore[no-any-return]
        except KeyError:
            view = views.kept[key] = make()
            return view

    def _changed(self) -> None:
        """Drop the views kept: the state they were made of is no longer the game's."""
        private = self.__pydantic_private__
        if private is None:  # still being built
            return
        views = private.get("_views")
        if views is None or views.kept or views.owner != id(self):
            private["_views"] = Views(id(self))

    @classmethod
    def kept_log(cls, events: list[Any]) -> list[Any]:
        """The events of ``events`` (oldest first, as appended) that the log keeps; the
        game's own bound (the last ``LOG_SIZE`` …). Keeping the kept events of a log and
        of what followed it is keeping those of the whole."""
        return events

    def _logged_events(self, events: list[Any]) -> None:
        """Append ``events`` to the log (``self.log``) and count them."""
        self.log = self.kept_log([*self.log, *events])
        self.logged += len(events)

    @model_validator(mode="before")
    @classmethod
    def _given_rules(cls, data: Any, info: ValidationInfo) -> Any:
        rules = (info.context or {}).get("rules")
        if rules is not None and isinstance(data, dict) and "rules" not in data:
            return {**data, "rules": rules}
        return data

    @classmethod
    def load(cls, data: str | bytes, rules: Any = None) -> Self:
        """Rebuild a game from ``model_dump_json()``, which may leave out ``rules`` (then
        ``rules`` are the game's) and hold more of the log than it keeps (the events saved
        apart, oldest first: :meth:`kept_log` keeps its own).

        Raises
        ------
        pydantic.ValidationError
            If ``data`` is not a game of this kind, or leaves out its rules and none are
            given.
        """
        game = cls.model_validate_json(data, context=None if rules is None else {"rules": rules})
        game.log = cls.kept_log(game.log)
        return game


class Frozen(BaseModel):
    """Base of actions, events, views and rules: immutable, JSON round-trippable."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    @classmethod
    def built(cls, **values: Any) -> Self:
        """The model holding ``values`` as they are, without validating them: for what the
        engine builds from its own, already validated state (a game's views), whose values
        already have the fields' types. Fields left out take their defaults; the result is
        what ``cls(**values)`` makes of such values, only cheaper (pydantic's
        ``model_construct`` without its aliases and default factories, which these models
        do not use).

        Raises
        ------
        TypeError
            If a value names no field, or a field without a default is left out.
        """
        defaults, required = _LAYOUTS.get(cls) or _layout(cls)
        fields = defaults.copy()  # the fields in order: what ``values`` gives replaces
        fields.update(values)  # the default, and a name that is no field comes last
        if len(fields) != len(defaults) or not required <= values.keys():
            raise TypeError(f"{cls.__name__} takes {sorted(defaults)}, not {sorted(values)}")
        model = cls.__new__(cls)
        _set(model, "__dict__", fields)
        _set(model, "__pydantic_fields_set__", set(values))
        _set(model, "__pydantic_extra__", None)
        _set(model, "__pydantic_private__", None)
        return model


_set = object.__setattr__
"""Sets an attribute of a frozen model (:meth:`Frozen.built`)."""

_LAYOUTS: dict[type[Frozen], tuple[dict[str, Any], frozenset[str]]] = {}
"""Each model's fields in order with their defaults, and its required fields
(:func:`_layout`)."""


def _layout(cls: type[Frozen]) -> tuple[dict[str, Any], frozenset[str]]:
    """``cls``'s fields in order, each with its default (None for a required one), and the
    names of its required fields, kept in :data:`_LAYOUTS`.

    Raises
    ------
    TypeError
        If a field has a default factory (:meth:`Frozen.built` does not call them).
    """
    fields = cls.__pydantic_fields__
    if any(field.default_factory is not None for field in fields.values()):
        raise TypeError(f"{cls.__name__} has a default factory")
    defaults = {name: None if field.is_required() else field.default
                for name, field in fields.items()}
    required = frozenset(name for name, field in fields.items() if field.is_required())
    _LAYOUTS[cls] = defaults, required
    return defaults, required


class Action(Frozen):
    """Base of a game's actions; subclasses set ``kind`` to a ``Literal``."""

    kind: str


class Event(Frozen):
    """Base of a game's events (what happened, for logs and boards); ``kind`` discriminates.

    Events are public unless a game overrides :meth:`seen_by`: a private event (a Kalooki
    stock draw) shows its card only to its own seat and a redacted form to everyone else.
    """

    kind: str

    def seen_by(self, seat: int | None) -> Event:
        """This event as ``seat`` may see it (``None``: an onlooker, the public board).

        Public events return themselves; a private event returns a copy without what
        ``seat`` may not see.
        """
        return self


class Option(Frozen):
    """One kind of action a seat may take now, as listed by ``legal_actions``.

    An option describes a family of actions instead of enumerating them (DESIGN.md §2):

    - ``kind``: the action's ``kind`` (``"bet"``, ``"lead"``, ``"select"`` …);
    - ``cards``: the cards the action may name (for ``count`` = 1, one of them; for a
      selection, ``count`` of them); empty when the action names no card;
    - ``count``: how many of ``cards`` the action names (0 = none); with ``max_count``,
      the fewest, and ``max_count`` the most (a meld of 3 or more cards);
    - ``min`` / ``max``: the inclusive range of the action's ``amount`` (chips or points),
      ``None`` when the action has no amount;
    - ``targets``: what the action may aim at besides cards (a meld id to lay off on),
      empty when it aims at nothing.

    ``check`` and ``apply`` validate every action against these same options.
    """

    kind: str
    cards: tuple[Card, ...] = ()
    count: int = 0
    max_count: int | None = None
    min: int | None = None
    max: int | None = None
    targets: tuple[str, ...] = ()


SYSTEM = -1
"""The seat of the rules' own timed steps (a Kalooki call window that closes by itself)."""


class Pending(Frozen):
    """One open decision, as listed by :meth:`Game.pending` (DESIGN.md §2).

    Attributes
    ----------
    seat
        Whose decision: a seat ``0..n-1``, or :data:`SYSTEM` for a rule's timer.
    decision
        The decision's id; an action carrying another id is refused as ``stale``.
    required
        True: on expiry the runtime applies ``timeout_action(seat)`` and counts a strike.
        False: optional; on expiry it simply lapses (no strike, no AI takeover), e.g.
        Troefcall's partner stop or a Kalooki call.
    after
        For a :data:`SYSTEM` decision: seconds after which the runtime applies
        ``timeout_action(SYSTEM)``. None for a seat's decision (the table's pace decides).
    """

    seat: int
    decision: int
    required: bool = True
    after: float | None = None


class Outcome(Frozen):
    """The result of a finished game (read by the runtime for results, stakes and ratings).

    Attributes
    ----------
    scores
        Seat -> the game's own measure: Tripoli the final stack (chips), Troefcall the
        seat's team points, Kalooki the penalty total (points; lower is better).
    places
        Seats grouped by finishing place, best first; seats that tie share a group
        (Troefcall: the two teams).
    teams
        The partnerships, when the game has them (Troefcall: ``((0, 2), (1, 3))``).
    chips
        Seat -> chips won (> 0) or lost (< 0) at the table, for games played for chips
        (Tripoli); None otherwise.
    complete
        False when the game was ended before its rules' end (no winner: stakes are
        refunded and nothing is rated); True otherwise.
    """

    scores: dict[int, int]
    places: tuple[tuple[int, ...], ...]
    teams: tuple[tuple[int, ...], ...] = ()
    chips: dict[int, int] | None = None
    complete: bool = True

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats in first place (empty for an incomplete game)."""
        return self.places[0] if self.complete and self.places else ()


class EndReason(StrEnum):
    """Why the runtime ends a session (``Game.end_session``); the game decides what it means.

    Attributes
    ----------
    LENGTH
        The table's agreed length was reached (its ``deals`` or ``minutes`` option): the
        session ends as the players agreed, so it is played out (rules/troefcall.md §2.10
        item 52, rules/tripoli.md §2.9 item 58).
    HOST
        The host (or a member with Manage Channels) ended it.
    PLAYERS
        Not enough players: fewer seats stay than the game needs, or no member is present
        (every one away or leaving, or nobody dealt again and nobody interacted).
    """

    LENGTH = "length"
    HOST = "host"
    PLAYERS = "players"


class Decisions(BaseModel):
    """Per-seat decision counters: ``ids[s]`` is the id of seat s's current decision.

    The game calls :meth:`bump` whenever it poses a new decision to a seat (or withdraws
    one), so buttons carrying an old id become stale. Simultaneous decisions of different
    seats have independent counters and never make each other stale.
    """

    ids: list[int]

    @classmethod
    def for_seats(cls, n: int) -> Decisions:
        return cls(ids=[0] * n)

    def bump(self, seat: int) -> None:
        self.ids[seat] += 1

    def after_step(
        self, before: frozenset[int], after: frozenset[int], moved_on: bool, actor: int | None
    ) -> None:
        """Bump the seats whose decision changed in a step of the game.

        Parameters
        ----------
        before, after
            The seats to act before and after the step.
        moved_on
            The step changed the phase or the deal: every seat to act before or after gets
            a new decision.
        actor
            The seat that acted (its decision is always new), or None.
        """
        changed = set(before ^ after)
        if moved_on:
            changed |= before | after
        if actor is not None:
            changed.add(actor)
        for seat in changed:
            self.bump(seat)

    def check(self, seat: int, decision: int | None) -> None:
        """Raise ``IllegalAction("stale")`` if ``decision`` is given and not current."""
        if decision is not None and decision != self.ids[seat]:
            raise IllegalAction("stale", "That decision is over.", reason="stale")


@runtime_checkable
class Game(Protocol):
    """What the table runtime needs from every game (DESIGN.md §2).

    ``pending`` lists the open decisions; ``to_act`` is the set of seats among them (never
    :data:`SYSTEM`). ``check`` validates an action exactly as ``apply`` does, without
    applying it; both raise :class:`IllegalAction` and leave the state unchanged.
    A game is played in deals: ``between_deals`` is True when the next deal waits for
    ``start_deal`` (members may then join, leave or take a seat, as the game allows), and
    ``end_session(abandon, reason=...)`` asks the game to end after this deal (or at once,
    abandoning it) for an :class:`EndReason` (default: the host ended it); ``outcome`` is
    set once ``is_over``.

    What an end means is the game's rule, not the runtime's: a session ended by its agreed
    length (:attr:`EndReason.LENGTH`) is complete, its winners paid (a Troefcall game tied
    then plays on until the tie is broken); a session the host or the runtime ends before
    its rules' end (a Kalooki set before its last deal, a Troefcall game before its target)
    is incomplete (``Outcome.complete`` False: no winner, the stakes back, nothing rated),
    unless its rules make that end a natural one (a Tripoli session lasts as long as the
    players wish, rules/tripoli.md §2.9 item 58). A session ended by abandoning its first
    deal, before any deal was over, is incomplete in every game.
    """

    GAME_NAME: ClassVar[str]
    SCHEMA_VERSION: ClassVar[int]  # bumped when the snapshot's shape changes

    @property
    def seats(self) -> int: ...

    @property
    def to_act(self) -> frozenset[int]: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def between_deals(self) -> bool: ...

    @property
    def deal_number(self) -> int: ...

    @property
    def outcome(self) -> Outcome | None: ...

    def pending(self) -> tuple[Pending, ...]: ...

    def decision_id(self, seat: int) -> int: ...

    def legal_actions(self, seat: int) -> Sequence[Option]: ...

    def check(self, seat: int, action: Action, decision: int | None = None) -> None: ...

    def apply(self, seat: int, action: Action, decision: int | None = None) -> list[Event]: ...

    def view(self, seat: int) -> Any: ...

    def public_view(self) -> Any: ...

    def timeout_action(self, seat: int) -> Action: ...

    def start_deal(self) -> list[Event]: ...

    def end_session(
        self, abandon: bool = False, *, reason: EndReason = EndReason.HOST
    ) -> list[Event]: ...

    def model_dump_json(self, **kwargs: Any) -> str: ...

    @classmethod
    def model_validate_json(cls, data: str | bytes, **kwargs: Any) -> Self: ...


@runtime_checkable
class SeatedForChips(Protocol):
    """A game played for chips whose seats may join and leave between deals (Tripoli)."""

    @property
    def stacks(self) -> Sequence[int | None]: ...

    def add_seat(self, stack: int) -> int: ...

    def remove_seat(self, seat: int) -> int: ...


@runtime_checkable
class Partnership(Protocol):
    """A game of fixed partnerships (Troefcall): ``teams`` lists the seats of each team."""

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]: ...
