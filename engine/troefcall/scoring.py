"""Hand results, dealer/caller rotation and final places (``rules/troefcall.md`` §2.8-§2.10).

Teams are numbered 0 (team A, seats 0 + 2) and 1 (team B, seats 1 + 3); seat ``s`` plays for
team ``s % 2``. Exactly one team scores in every completed hand (item 42).
"""

from __future__ import annotations

from typing import Literal

from engine.core import Frozen
from engine.troefcall.rules import TroefcallRules

TEAMS = ((0, 2), (1, 3))

Reason = Literal["seven", "kap", "partner_kap", "baunie", "failed_baunie"]
"""Why a team scored (§2.8 item 44): ``seven`` ≥ 7 tricks, not the first seven (item 37);
``kap`` the trick-7 winner stopped after the first seven (38); ``partner_kap`` his partner
stopped (39, A1); ``baunie`` all 13 tricks (40); ``failed_baunie`` the other team played on
and lost a trick (41)."""


def team_of(seat: int) -> int:
    """The team (0 = A, 1 = B) of ``seat`` (§2.1 item 1)."""
    return seat % 2


def points(rules: TroefcallRules, reason: Reason) -> int:
    """The points the scoring team gets for ``reason`` (§2.8 item 44)."""
    return {
        "seven": rules.seven_points,
        "kap": rules.kap_points,
        "partner_kap": rules.partner_kap_points,
        "baunie": rules.baunie_points,
        "failed_baunie": rules.failed_baunie_points,
    }[reason]


def rotate(dealer: int, caller: int, scoring_team: int) -> tuple[int, int]:
    """The next hand's (dealer, caller) (§2.9 items 46-48).

    The caller's team scored: both stay. The dealer's team scored: the deal passes one seat
    to the left, D' = C and C' = C + 1.
    """
    if team_of(caller) == scoring_team:
        return dealer, caller
    return caller, (caller + 1) % 4


def places(scores: tuple[int, int]) -> tuple[tuple[int, ...], ...]:
    """Seats grouped by place, best first: the higher team's seats, then the other's; equal
    scores share one place (all four seats)."""
    a, b = scores
    if a == b:
        return ((0, 1, 2, 3),)
    return (TEAMS[0], TEAMS[1]) if a > b else (TEAMS[1], TEAMS[0])


class HandResult(Frozen):
    """The result of one scored hand, for the board's announcement (§2.8, §2.9).

    Attributes
    ----------
    hand_number
        The hand (1, 2, …; a redeal does not start a new hand).
    team
        The scoring team (0 = seats 0 + 2, 1 = seats 1 + 3).
    points
        Points it scored (the other team scores 0, item 42).
    reason
        Why (:data:`Reason`).
    seat
        Who stopped (``kap``, ``partner_kap``); None otherwise.
    tricks
        Tricks won by team 0 and team 1 when the hand ended.
    scores
        Both teams' totals after the hand.
    dealer, caller
        Of this hand.
    next_dealer, next_caller
        Of the next hand (rotation, items 46-48).
    """

    hand_number: int
    team: int
    points: int
    reason: Reason
    seat: int | None = None
    tricks: tuple[int, int]
    scores: tuple[int, int]
    dealer: int
    caller: int
    next_dealer: int
    next_caller: int

    @property
    def rotated(self) -> bool:
        """Whether the deal passed to the left (the dealer's team scored, item 47)."""
        return self.next_caller != self.caller
