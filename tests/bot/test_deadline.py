"""A click's 3 s count from its arrival (bot/replies.py ``received``), for every
:func:`~bot.replies.within_deadline` of it: work that alone is quick enough is deferred when
earlier work of the same interaction used the budget up (case C04)."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.replies import ACK_BUDGET, RECEIVED, budget_left, received, within_deadline


class Response:
    def __init__(self) -> None:
        self.deferrals = 0

    def is_done(self) -> bool:
        return self.deferrals > 0

    async def defer(self, **_options: Any) -> None:
        self.deferrals += 1


class Click:
    """The parts of a component interaction the deadline reads."""

    type = discord.InteractionType.component

    def __init__(self, age: float | None = None) -> None:
        self.extras: dict[str, Any] = {}
        self.response = Response()
        if age is not None:
            self.extras[RECEIVED] = asyncio.get_running_loop().time() - age


async def quick() -> str:
    for _ in range(3):
        await asyncio.sleep(0)
    return "done"


async def test_quick_work_of_a_click_with_budget_left_is_not_deferred():
    click = Click(age=0.0)
    assert await within_deadline(click, quick()) == "done"
    assert click.response.deferrals == 0


async def test_quick_work_after_the_budget_was_used_up_is_deferred_first():
    click = Click(age=ACK_BUDGET)  # earlier work of this click took the whole budget
    assert await within_deadline(click, quick()) == "done"
    assert click.response.deferrals == 1


async def test_the_arrival_is_stamped_once_by_the_first_to_ask():
    click = Click()
    first = received(click)
    assert received(click) == first
    assert 0 < budget_left(click) <= ACK_BUDGET
    assert budget_left(Click(age=10 * ACK_BUDGET)) == 0.0
