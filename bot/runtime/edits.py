"""The one queue of bot-token updates: a global budget of REST calls per second, and each
table's latest state only (issue 15; DESIGN.md §4).

Discord allows a bot about 50 REST requests per second in all. Updates with no interaction
behind them (AI moves, timers, a decision made from a private view) are therefore not sent
by each table on its own: a table asks :class:`EditQueue` to be published, and the queue's
one worker publishes the tables in the order they became due. A table that asks again
before its turn keeps its place (it is published once, with its state at that moment), and
its turn comes ``interval`` seconds after it first asked, or later when many tables wait:
the debounce stretches to the time the budget needs to serve every waiting table.
:class:`RestBudget` is the limit itself: no more than ``budget`` calls in any one second.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from bot.clock import Sleep

log = logging.getLogger("parlour.tables")

_EPSILON = 1e-6
"""Seconds of clock rounding ignored when a window of one second is over."""

Clock = Callable[[], float]


class RestBudget:
    """At most ``budget`` bot-token REST calls in any window of one second.

    Parameters
    ----------
    budget
        Calls per second (the ``board_edit_budget`` setting, default 45); at least 1.
    clock
        Seconds, monotonic (default: the running loop's time).
    sleep
        Waits that many seconds (default :func:`asyncio.sleep`).
    """

    def __init__(self, budget: float, clock: Clock | None = None,
                 sleep: Sleep | None = None) -> None:
        self.budget = max(1, int(budget))
        self._clock = clock or (lambda: asyncio.get_running_loop().time())
        self._sleep = sleep or asyncio.sleep
        self._sent: deque[float] = deque()
        self._lock = asyncio.Lock()

    async def acquire(self) -> None:
        """Wait until one more call keeps the last second within the budget, and count it."""
        async with self._lock:
            while True:
                now = self._clock()
                while self._sent and now - self._sent[0] >= 1.0 - _EPSILON:
                    self._sent.popleft()
                if len(self._sent) < self.budget:
                    self._sent.append(now)
                    return
                await self._sleep(1.0 - (now - self._sent[0]))

    def wait_for(self, calls: int) -> float:
        """Seconds the budget needs to make ``calls`` more calls (0 within the budget)."""
        return max(0.0, calls / self.budget - 1.0) if calls > self.budget else 0.0


class EditQueue:
    """Publishes tables one at a time, each once per request burst (module docstring).

    Parameters
    ----------
    publish
        ``await publish(item)`` shows the table's current state (it acquires the budget for
        each REST call it makes); returns None, or seconds after which to publish it again
        (a failure worth retrying).
    interval
        Returns the seconds a table waits after its first request (``board_edit_interval``,
        read at each request).
    budget
        The :class:`RestBudget` the publishing shares.
    clock, sleep
        As for :class:`RestBudget` (tests inject a virtual clock).
    """

    def __init__(self, publish: Callable[[Any], Awaitable[float | None]],
                 interval: Callable[[], float], budget: RestBudget, clock: Clock | None = None,
                 sleep: Sleep | None = None) -> None:
        self._publish = publish
        self._interval = interval
        self.budget = budget
        self._clock = clock or (lambda: asyncio.get_running_loop().time())
        self._sleep = sleep or asyncio.sleep
        self._due: dict[str, float] = {}
        self._items: dict[str, Any] = {}
        self._heap: list[tuple[float, int, str]] = []
        self._order = itertools.count()
        self._worker: asyncio.Task[None] | None = None
        self._sleeping_until: float | None = None  # the worker sleeps (and may be woken)

    def want(self, key: str, item: Any, after: float | None = None) -> None:
        """Publish ``item`` (the table ``key``) soon: ``after`` seconds from now (default the
        interval, stretched to what the budget needs for the tables already waiting); a key
        already waiting keeps its turn."""
        self._items[key] = item
        if key in self._due:
            return
        if after is None:
            after = max(self._interval(), self.budget.wait_for(len(self._due) + 1))
        due = self._clock() + after
        self._due[key] = due
        heapq.heappush(self._heap, (due, next(self._order), key))
        if self._worker is not None and not self._worker.done():
            if self._sleeping_until is None or self._sleeping_until <= due:
                return
            self._worker.cancel()  # asleep until a later turn: start again from this one
        self._sleeping_until = None
        self._worker = asyncio.get_running_loop().create_task(self._run())

    @property
    def busy(self) -> bool:
        """True while a table waits for its turn or is being published."""
        return bool(self._due) or (self._worker is not None and not self._worker.done())

    async def finished(self) -> None:
        """Wait until the worker has published every waiting table (it sleeps out each
        table's interval, so a test moves the clock first)."""
        while self._worker is not None and not self._worker.done():
            await asyncio.shield(self._worker)

    async def close(self) -> None:
        """Stop the worker (what still waits is not sent)."""
        if self._worker is not None:
            self._worker.cancel()
            await asyncio.gather(self._worker, return_exceptions=True)

    async def _run(self) -> None:
        while self._heap:
            due, _order, key = self._heap[0]
            wait = due - self._clock()
            if wait > _EPSILON:
                self._sleeping_until = due
                try:
                    await self._sleep(wait)
                finally:
                    self._sleeping_until = None
                continue
            heapq.heappop(self._heap)
            if self._due.get(key) != due:
                continue
            del self._due[key]
            item = self._items.pop(key)
            try:
                again = await self._publish(item)
            except Exception:  # one table's failure must not stop the others
                log.exception("publishing table %s failed", key)
                continue
            if again is not None:
                self.want(key, item, again)
