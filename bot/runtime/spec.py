"""What a game must provide to be played at a table (the runtime is game-neutral).

A game plugs into :class:`bot.runtime.registry.TableRegistry`
through one :class:`GameAdapter` object,
listed in :data:`bot.games.GAMES`. The engine game itself satisfies
:class:`engine.core.Game`; the adapter adds what the runtime cannot know: how to build the
game from a lobby, how its components map to engine actions, which verbs need an amount,
how the AI chooses, and how to render the board and a seat's hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord

from engine.core import Action, Game

if TYPE_CHECKING:
    from bot.runtime.table import Table


@dataclass(frozen=True)
class Rendered:
    """One message's content: an embed and its components (None = no components)."""

    embed: discord.Embed
    view: discord.ui.View | None = None


@dataclass(frozen=True)
class AmountPrompt:
    """A verb that needs a typed amount: the modal's title and its input's label (which
    states the legal range, e.g. ``"Bet (1-10 chips)"``); the engine validates the amount."""

    title: str
    label: str


class GameAdapter(Protocol):
    """The per-game plug of the table runtime.

    Attributes
    ----------
    name
        Key of the game (``"tripoli"``): the slash-command group and the saved tables' tag.
    title
        Shown on lobbies and boards (``"Tripoli"``).
    min_seats, max_seats
        Seats a table may start with and grow to; :meth:`for_table` narrows them to one
        table's options.
    """

    name: str
    title: str
    min_seats: int
    max_seats: int

    def for_table(self, options: dict[str, Any]) -> GameAdapter:
        """This adapter with ``min_seats`` and ``max_seats`` of a table with ``options``
        (e.g. a preset for 4-7 players); options that cannot be played keep the game's range.
        The runtime reads the seat limits of a table only through the adapter this returns."""
        ...

    def describe_options(self, options: dict[str, Any]) -> str:
        """One line of the lobby: the table's house rules (``"Ante 1 · limit 10"``)."""
        ...

    def new_game(self, options: dict[str, Any], stacks: list[int], seed: bytes) -> Game:
        """Build the game for seats ``0..len(stacks)-1`` and start its first deal.

        Raises
        ------
        engine.core.IllegalAction
            If the options are not playable (the runtime refuses the start).
        """
        ...

    def load_game(self, data: str) -> Game:
        """Rebuild a game from ``game.model_dump_json()``."""
        ...

    def action(
        self, game: Game, seat: int, verb: str, arg: str, values: Sequence[str], amount: int | None
    ) -> Action:
        """The engine action a component click (or amount submit) of ``seat`` stands for.

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
        """Seconds ``seat``'s pending decision may take before its timeout action applies."""
        ...

    def ai_action(self, game: Game, seat: int, rng: random.Random) -> Action:
        """The AI's choice for ``seat``, from that seat's view and legal options only."""
        ...

    def stacks(self, game: Game) -> list[int | None]:
        """Every seat's stack in chips (None for a departed seat)."""
        ...

    def between_deals(self, game: Game) -> bool:
        """True when seats may join or leave and the next deal can start."""
        ...

    def start_deal(self, game: Game) -> None:
        """Start the next deal (only between deals)."""
        ...

    def end_session(self, game: Game, abandon: bool) -> None:
        """Ask the game to end: after this deal, or abandoning it (then its leftover play)."""
        ...

    def add_seat(self, game: Game, stack: int) -> int:
        """Seat a new player with ``stack`` chips between deals; returns the seat number."""
        ...

    def remove_seat(self, game: Game, seat: int) -> int:
        """Remove ``seat`` between deals; returns its stack, in chips, to settle."""
        ...

    def deal_number(self, game: Game) -> int:
        """The number of the current (or last) deal, 1-based."""
        ...

    def board(self, table: Table) -> Rendered:
        """The public board of a started table: only what every member may see."""
        ...

    def hand(self, table: Table, seat: int) -> Rendered:
        """Seat ``seat``'s private view and its controls (sent ephemerally)."""
        ...
