"""A table's pace (issue 10 item 5, DESIGN.md §4 "Timers"): how long a decision may take,
when a member counts as away, and the agreed length of a session.

Table options read here, for every game (saved with the table and as house rules):

``pace``
    ``relaxed`` (the default), ``normal``, ``fast`` or ``untimed``. A game declares its
    *base* seconds per decision (:meth:`bot.runtime.spec.GameAdapter.decision_seconds`,
    the ``normal`` pace); the runtime scales them by :data:`PACE_FACTORS`. ``untimed``
    sets no deadline at all and is only for a table whose only member is one human with AI
    seats (nobody waits on them). ``turn_seconds``, when given, overrides the pace.
``deals``, ``minutes``
    The agreed length of the session (the seeds' "agreed time"): the session ends cleanly
    at the end of the deal in which the count of deals is reached or the minutes since
    Start have passed (then the game's own ending, e.g. Tripoli's leftover round).

Why relaxed by default: a table in a Discord channel is a group of friends who play
between other messages, often on a phone, and read a prompt or the rules before they
choose; at Tripoli's old 60 s a member who read the bet form for three minutes lost the
table (issue 10). Relaxed gives three times the game's base time (Tripoli: 3 min to bet,
6 min to choose five cards; Troefcall: 3 min a card; Kalooki: 9 min a turn); a member who
is really gone still costs the others at most two timeouts before the AI plays their seat
(:data:`AWAY_SILENCE`). ``normal`` is the games' base time, for a table that plays with
full attention; ``fast`` halves it (never under :data:`FAST_FLOOR`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, get_args

from bot.i18n import Msg
from engine.core import OptionError

Pace = Literal["relaxed", "normal", "fast", "untimed"]
PACES: tuple[str, ...] = get_args(Pace)

DEFAULT_PACE = "relaxed"

PACE_FACTORS: dict[str, float] = {"relaxed": 3.0, "normal": 1.0, "fast": 0.5}
"""Each timed pace's factor on the game's base seconds per decision."""

FAST_FLOOR = 15.0
"""Fewest seconds a decision gets at the ``fast`` pace."""

AWAY_SILENCE = 300.0
"""Seconds without any interaction of a member after which their second timeout in a row
marks them away (the AI plays their seat until they click anything at the table)."""

ACTIVE_WINDOW = 600.0
"""Seconds after a member's last interaction during which the session never ends by
itself (idleness between deals, or every member away)."""

LENGTH_MAX_DEALS = 100
LENGTH_MAX_MINUTES = 24 * 60


def pace_of(options: Mapping[str, Any]) -> str:
    """The table's pace (``options["pace"]``, default :data:`DEFAULT_PACE`)."""
    return str(options.get("pace") or DEFAULT_PACE)


def decision_seconds(options: Mapping[str, Any], base: float) -> float | None:
    """Seconds a member's required decision may take at the table's pace, or None for no
    deadline (``untimed``).

    Parameters
    ----------
    options
        The table options: ``turn_seconds`` (seconds, overrides the pace) and ``pace``.
    base
        The game's seconds for this decision at the ``normal`` pace.
    """
    if options.get("turn_seconds"):
        return float(options["turn_seconds"])
    pace = pace_of(options)
    if pace == "untimed":
        return None
    seconds = base * PACE_FACTORS[pace]
    return max(seconds, FAST_FLOOR) if pace == "fast" else seconds


def check(options: Mapping[str, Any]) -> None:
    """Refuse a pace or session length that cannot be played.

    Raises
    ------
    OptionError
        (a ``ValueError``, shown by :func:`bot.runtime.refs.unplayable_reason`)
        ``option.one_of`` for an unknown pace (``option``, ``choices``),
        ``option.between`` for ``deals`` or ``minutes`` out of range (``low``, ``high``),
        ``table.option.deals_and_minutes`` when both are given.
    """
    if pace_of(options) not in PACES:
        raise OptionError("option.one_of", option="pace", choices=", ".join(PACES))
    for key, high in (("deals", LENGTH_MAX_DEALS), ("minutes", LENGTH_MAX_MINUTES)):
        value = options.get(key)
        if value is not None and not (isinstance(value, int) and 1 <= value <= high):
            raise OptionError("option.between", option=key, low=1, high=high)
    if options.get("deals") is not None and options.get("minutes") is not None:
        raise OptionError("table.option.deals_and_minutes")


def untimed_refusal(options: Mapping[str, Any], members: Sequence[int | None]) -> bool:
    """True when a table of ``members`` (member ids, None for AI seats) may not play at
    the ``untimed`` pace it chose: it is for one member with AI seats only."""
    if pace_of(options) != "untimed":
        return False
    humans = [member for member in members if member is not None]
    return not (len(humans) == 1 and len(members) > 1)


def describe(options: Mapping[str, Any], counts_deals: bool = False) -> tuple[Msg, ...]:
    """The lobby's and board's line on the pace and the agreed length, as catalog messages
    (not the ``deals`` of a game that counts them itself and says so in its rules line)."""
    if options.get("turn_seconds"):
        parts = [Msg("pace.turn_seconds", count=int(options["turn_seconds"]))]
    else:
        parts = [Msg(f"pace.{pace_of(options)}")]
    if options.get("deals") and not counts_deals:
        parts.append(Msg("pace.deals", count=int(options["deals"])))
    elif options.get("minutes"):
        parts.append(Msg("pace.minutes", count=int(options["minutes"])))
    return tuple(parts)
