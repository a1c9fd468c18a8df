"""The engine protocol shared by every game (DESIGN.md §2).

A game is a pydantic model holding the whole state of a session at one table. Seats are
ints ``0..n-1`` fixed for the life of the table; the dealer is a rotating role. Every
pending decision of a seat has an id (a per-seat counter, :class:`Decisions`); an action
aimed at a decision id that is no longer pending is refused as ``stale``.

Errors: :class:`EngineError` is the base; :class:`IllegalAction` carries a stable
machine ``code`` (used by the runtime and tests) and a human ``message`` (shown to players).
Illegal input never changes state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, Self, runtime_checkable

from pydantic import BaseModel, ConfigDict

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
        A sentence a player can read.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Frozen(BaseModel):
    """Base of actions, events, views and rules: immutable, JSON round-trippable."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Action(Frozen):
    """Base of a game's actions; subclasses set ``kind`` to a ``Literal``."""

    kind: str


class Event(Frozen):
    """Base of a game's events (what happened, for logs and boards); ``kind`` discriminates."""

    kind: str


class Option(Frozen):
    """One kind of action a seat may take now, as listed by ``legal_actions``.

    An option describes a family of actions instead of enumerating them (DESIGN.md §2):

    - ``kind``: the action's ``kind`` (``"bet"``, ``"lead"``, ``"select"`` …);
    - ``cards``: the cards the action may name (for ``count`` = 1, one of them; for a
      selection, ``count`` of them); empty when the action names no card;
    - ``count``: how many of ``cards`` the action names (0 = none);
    - ``min`` / ``max``: the inclusive range of the action's ``amount`` (chips or points),
      ``None`` when the action has no amount.

    ``apply`` validates every action against these same options.
    """

    kind: str
    cards: tuple[Card, ...] = ()
    count: int = 0
    min: int | None = None
    max: int | None = None


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

    def check(self, seat: int, decision: int | None) -> None:
        """Raise ``IllegalAction("stale")`` if ``decision`` is given and not current."""
        if decision is not None and decision != self.ids[seat]:
            raise IllegalAction("stale", "That decision is over.")


@runtime_checkable
class Game(Protocol):
    """What the table runtime needs from every game (DESIGN.md §2)."""

    GAME_NAME: ClassVar[str]

    @property
    def seats(self) -> int: ...

    @property
    def to_act(self) -> frozenset[int]: ...

    @property
    def is_over(self) -> bool: ...

    def decision_id(self, seat: int) -> int: ...

    def legal_actions(self, seat: int) -> Sequence[Option]: ...

    def apply(self, seat: int, action: Action, decision: int | None = None) -> list[Event]: ...

    def view(self, seat: int) -> Any: ...

    def public_view(self) -> Any: ...

    def timeout_action(self, seat: int) -> Action: ...

    def model_dump_json(self, **kwargs: Any) -> str: ...

    @classmethod
    def model_validate_json(cls, data: str | bytes, **kwargs: Any) -> Self: ...
