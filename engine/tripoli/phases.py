"""The phases of a Tripoli session (``rules/tripoli.md`` §6)."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Where the session stands; leftover rounds reuse SELECT/BETTING (``leftover`` flag).

    ``AUCTION`` is any auction (its ``item``: the spare, the dealer's old hand, the pay suit
    §3.6, the ghost hand §3.3 item 18); ``NAME_SUIT``: the pay-suit auction's winner names
    the pay suit (§3.6).
    """

    SPARE = "spare"
    AUCTION = "auction"
    NAME_SUIT = "name_suit"
    SELECT = "select"
    BETTING = "betting"
    MICHIGAN = "michigan"
    BETWEEN_DEALS = "between_deals"
    OVER = "over"
