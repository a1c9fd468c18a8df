"""Injectable clocks: where the runtime reads the current time (DESIGN.md §4, "Timers").

Production and the playground read the wall clock (:class:`SystemClock`); tests pass a
:class:`ManualClock` and move it by hand, so deadlines and daily claims never depend on how fast
the test machine runs. How the bot *waits* is a :data:`Sleep` (``ParlourBot.sleep``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, runtime_checkable

Sleep = Callable[[float], Awaitable[Any]]
"""Waits the given seconds, like :func:`asyncio.sleep` (the default everywhere)."""


@runtime_checkable
class Clock(Protocol):
    """Anything with ``now()`` returning the current instant as an aware UTC ``datetime``."""

    def now(self) -> datetime:
        """Return the current instant (timezone-aware, UTC)."""
        ...


class SystemClock:
    """The real wall clock."""

    def now(self) -> datetime:
        """Return the current wall-clock instant in UTC."""
        return datetime.now(UTC)


class ManualClock:
    """A clock that only moves when told to (tests).

    Parameters
    ----------
    start
        The first instant; must be timezone-aware. Default 2026-01-01 12:00 UTC.

    Raises
    ------
    ValueError
        If ``start`` is naive (has no timezone).
    """

    def __init__(self, start: datetime | None = None) -> None:
        self._now = _aware_utc(start or datetime(2026, 1, 1, 12, 0, tzinfo=UTC))

    def now(self) -> datetime:
        """Return the instant the clock was last set or advanced to (UTC)."""
        return self._now

    def advance(self, seconds: float) -> datetime:
        """Move the clock forward.

        Parameters
        ----------
        seconds
            How far to move, in seconds (>= 0).

        Returns
        -------
        datetime
            The new current instant.

        Raises
        ------
        ValueError
            If ``seconds`` is negative: time never runs backwards.
        """
        if seconds < 0:
            raise ValueError(f"a clock only moves forward; got {seconds} seconds")
        self._now += timedelta(seconds=seconds)
        return self._now

    def set(self, when: datetime) -> None:
        """Jump to ``when`` (aware, not earlier than now).

        Raises
        ------
        ValueError
            If ``when`` is naive or earlier than the current instant.
        """
        when = _aware_utc(when)
        if when < self._now:
            raise ValueError(f"a clock only moves forward; {when} is before {self._now}")
        self._now = when


def _aware_utc(when: datetime) -> datetime:
    if when.tzinfo is None:
        raise ValueError(f"a clock needs a timezone-aware datetime, got naive {when}")
    return when.astimezone(UTC)
