"""The phases of a Tripoli session (``rules/tripoli.md`` §6)."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Where the session stands; leftover rounds reuse SELECT/BETTING (``leftover`` flag)."""

    SPARE = "spare"
    AUCTION = "auction"
    SELECT = "select"
    BETTING = "betting"
    MICHIGAN = "michigan"
    BETWEEN_DEALS = "between_deals"
    OVER = "over"
