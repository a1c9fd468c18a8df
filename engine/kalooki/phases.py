"""The phases of a Kalooki deal (``rules/kalooki.md`` §5; K4 for the call window)."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Where the session stands.

    ``WINDOW``: a discard just landed and may be called (a timed SYSTEM decision; the
    current player may only take the discard meanwhile); ``ANSWER``: a call waits for the
    current player's Allow / Refuse; ``DRAW``: the current player draws; ``PLAY``: he
    lays down, lays off, exchanges jokers and discards or goes out.
    """

    WINDOW = "window"
    ANSWER = "answer"
    DRAW = "draw"
    PLAY = "play"
    BETWEEN_DEALS = "between_deals"
    OVER = "over"
