"""Clocks: the manual clock tests move by hand, and the wall clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from bot.clock import Clock, ManualClock, SystemClock


def test_manual_clock_moves_only_when_told():
    clock = ManualClock(datetime(2026, 3, 1, 9, 30, tzinfo=UTC))
    assert clock.now() == clock.now() == datetime(2026, 3, 1, 9, 30, tzinfo=UTC)
    assert clock.advance(90.5) == datetime(2026, 3, 1, 9, 31, 30, 500000, tzinfo=UTC)
    clock.set(datetime(2026, 3, 2, tzinfo=UTC))
    assert clock.now() == datetime(2026, 3, 2, tzinfo=UTC)


def test_manual_clock_reports_utc_whatever_zone_it_was_given():
    clock = ManualClock(datetime(2026, 3, 1, 11, 0, tzinfo=timezone(timedelta(hours=2))))
    assert clock.now() == datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
    assert clock.now().utcoffset() == timedelta(0)


@pytest.mark.parametrize(
    "move",
    [
        lambda clock: clock.advance(-1),
        lambda clock: clock.set(datetime(2025, 12, 31, tzinfo=UTC)),
        lambda clock: clock.set(datetime(2027, 1, 1)),
    ],
)
def test_manual_clock_refuses_to_run_backwards_or_lose_its_zone(move):
    clock = ManualClock()
    before = clock.now()
    with pytest.raises(ValueError):
        move(clock)
    assert clock.now() == before


def test_naive_start_is_refused():
    with pytest.raises(ValueError, match="timezone-aware"):
        ManualClock(datetime(2026, 1, 1))


def test_system_clock_is_aware_utc_and_current():
    before = datetime.now(UTC)
    now = SystemClock().now()
    assert before <= now <= datetime.now(UTC)
    assert now.tzinfo is not None and now.utcoffset() == timedelta(0)
    assert isinstance(SystemClock(), Clock) and isinstance(ManualClock(), Clock)
