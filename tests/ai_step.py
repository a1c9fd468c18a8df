"""One step of a game played by its AI through the adapter (render tests of every game)."""

from __future__ import annotations

import random
from typing import Any

from engine.core import SYSTEM


def ai_step(adapter: Any, game: Any, declined: set[tuple[int, int]],
            rng: random.Random) -> None:
    """Make the next move of ``game``: the first pending seat's AI action, or the rule
    timer's (``SYSTEM``) when no seat has a decision left. An optional decision the AI lets
    lapse is added to ``declined`` (``(seat, decision)``) and skipped from then on."""
    todo = [p for p in game.pending() if p.seat != SYSTEM
            and (p.seat, p.decision) not in declined]
    if not todo:
        game.apply(SYSTEM, game.timeout_action(SYSTEM))
        return
    action = adapter.ai_action(game, todo[0].seat, rng)
    if action is None:
        declined.add((todo[0].seat, todo[0].decision))
        return
    game.apply(todo[0].seat, action, todo[0].decision)
