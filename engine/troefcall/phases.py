"""The phases of a Troefcall session (``rules/troefcall.md`` §2.4-§2.10)."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Where the session is.

    ``NAMING``: the caller holds his first 5 cards and names trumps (§2.4 item 12);
    ``PLAY``: tricks are played (§2.6); ``KAP``: one team won tricks 1-7 and may stop
    (kap partij) before trick 8 (§2.7 items 28-35); ``BETWEEN_HANDS``: the next hand waits
    for ``start_deal``; ``OVER``: the game is over.
    """

    NAMING = "naming"
    PLAY = "play"
    KAP = "kap"
    BETWEEN_HANDS = "between_hands"
    OVER = "over"
