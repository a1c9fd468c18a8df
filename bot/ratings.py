"""Skill ratings of members, per server and per game: pure math, no store, no Discord.

Model: openskill's Weng-Lin **Plackett-Luce** model (Weng & Lin 2011), a Bayesian rating for
games of any number of players or teams, with ties. Each member has a skill belief
``N(mu, sigma**2)``; a result updates the beliefs of every rated seat at once from their
finishing order. Shown to members is the conservative value ``mu - 3 * sigma``: a skill the
member has with about 99.7 % certainty, so a newcomer starts at 0 and climbs by playing, and
a lucky first win does not put anyone on top of the board.

Parameters (the model's usual scale, chosen for card games played as whole sessions):

``mu = 25``, ``sigma = 25 / 3``
    The prior: an unknown member is average with a wide uncertainty; ``mu - 3 sigma`` is then
    exactly 0, the natural starting point of a board.
``beta = 25 / 6``
    The spread of one game's performance around skill (``sigma / 2``, the model's default).
    Card games are luck-heavy per deal, but one result here is a whole session (Tripoli to the
    end, Troefcall to its target, Kalooki a set of deals), which averages many deals; a larger
    beta would make a session count for less than it does.
``tau = 25 / 300``
    Added to every sigma before each update so that sigma never collapses: a member who
    improves (or returns after months) still moves on the board.
``kappa = 1e-4``
    The model's floor on the variance, against numeric collapse.

What is rated: a result that is **ranked** (members only, nobody replaced) and **complete**
(played to the rules' end; a Tripoli session ended during its first deal is not, as nothing
was played to rank it by) with at least two sides. A side is a team (Troefcall, by the
result's ``team``) or a single seat (Tripoli by final stacks, Kalooki by the set's penalty
totals, lowest first). The results' ``place`` already orders sides best first, with equal
places as ties. AI seats are never rated: a result with one is not ranked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
KAPPA = 1e-4

MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, kappa=KAPPA)
"""The one rating model of the bot (see the module docstring for its parameters)."""


class Seated(Protocol):
    """What a rating needs of a result's seat (:class:`bot.store.SeatResult` has it)."""

    @property
    def user_id(self) -> int | None: ...

    @property
    def team(self) -> int | None: ...

    @property
    def place(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Rating:
    """A member's skill belief in one game on one server.

    Attributes
    ----------
    mu
        The mean skill (rating points; a newcomer's is :data:`MU`).
    sigma
        The uncertainty of ``mu`` (rating points, > 0; a newcomer's is :data:`SIGMA`).
    """

    mu: float = MU
    sigma: float = SIGMA

    @property
    def display(self) -> float:
        """The conservative value shown on boards: ``mu - 3 * sigma`` (rating points)."""
        return self.mu - 3.0 * self.sigma


def rated(ranked: bool, complete: bool, seats: Sequence[Seated]) -> bool:
    """Whether a result updates ratings: ranked, complete, members only, two sides or more."""
    if not (ranked and complete) or any(seat.user_id is None for seat in seats):
        return False
    return len(sides(seats)) >= 2


def sides(seats: Sequence[Seated]) -> list[tuple[int, list[int]]]:
    """The result's sides, best first: ``(place, member ids)`` per team, or per seat when
    seats have no team. Seats of one team share its best place."""
    by_side: dict[tuple[str, int], tuple[int, list[int]]] = {}
    for index, seat in enumerate(seats):
        key = ("team", seat.team) if seat.team is not None else ("seat", index)
        place, members = by_side.get(key, (seat.place, []))
        if seat.user_id is not None:
            members.append(seat.user_id)
        by_side[key] = (min(place, seat.place), members)
    return sorted(by_side.values(), key=lambda side: side[0])


def update(seats: Sequence[Seated], current: Mapping[int, Rating]) -> dict[int, Rating]:
    """The members' ratings after one rated result.

    Parameters
    ----------
    seats
        The result's seats (every one a member's: check :func:`rated` first).
    current
        Member id -> rating before the result; a member missing from it is a newcomer.

    Returns
    -------
    dict[int, Rating]
        Member id -> rating after the result, for every member of ``seats``.

    Raises
    ------
    ValueError
        If a seat has no member, or fewer than two sides took part.
    """
    if any(seat.user_id is None for seat in seats):
        raise ValueError("an AI seat is never rated")
    ordered = sides(seats)
    if len(ordered) < 2:
        raise ValueError(f"a rating needs two sides or more, got {len(ordered)}")
    teams = [
        [MODEL.rating(mu=(old := current.get(member, Rating())).mu, sigma=old.sigma)
         for member in members]
        for _place, members in ordered
    ]
    after = MODEL.rate(teams, ranks=[float(place) for place, _members in ordered])
    return {
        member: Rating(new.mu, new.sigma)
        for (_place, members), team in zip(ordered, after, strict=True)
        for member, new in zip(members, team, strict=True)
    }
