"""The bot-token edit queue (bot.runtime.edits): a flood of tables stays within the REST
budget in every second, each table is published once with its latest state, and the
debounce stretches as the queue grows. Runs on an injected virtual clock the test moves."""

from __future__ import annotations

import asyncio

from bot.runtime.edits import EditQueue, RestBudget


class Clock:
    """Virtual seconds: ``sleep`` waits until :meth:`advance` moves them past its end."""

    def __init__(self) -> None:
        self.now = 0.0
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.now + max(seconds, 0.0), future))
        await future

    async def advance(self, seconds: float, step: float = 0.01) -> None:
        """Move on ``seconds`` in ``step``s, waking each sleeper whose time has come."""
        end = self.now + seconds
        while self.now < end - 1e-9:
            self.now = min(self.now + step, end)
            for entry in [e for e in self._sleepers if e[0] <= self.now + 1e-9]:
                self._sleepers.remove(entry)
                if not entry[1].done():
                    entry[1].set_result(None)
            for _ in range(20):
                await asyncio.sleep(0)


def queue_on(clock: Clock, budget: int, interval: float,
             sent: list[tuple[float, str, object]]) -> EditQueue:
    limit = RestBudget(budget, clock=clock, sleep=clock.sleep)

    async def publish(item: tuple[str, object]) -> None:
        await limit.acquire()
        sent.append((clock(), *item))

    return EditQueue(publish, lambda: interval, limit, clock=clock, sleep=clock.sleep)


async def drained(queue: EditQueue, clock: Clock) -> None:
    for _ in range(10_000):
        if not queue.busy:
            return
        await clock.advance(0.1)
    raise AssertionError("the queue did not drain")


async def test_a_flood_of_tables_never_exceeds_the_budget_in_any_second():
    clock, sent = Clock(), []
    queue = queue_on(clock, budget=5, interval=0.5, sent=sent)
    for table in range(120):
        queue.want(f"t{table}", (f"t{table}", "state"))
        if table % 7 == 0:
            await clock.advance(0.1)  # requests keep coming while edits go out
    await drained(queue, clock)
    times = [when for when, _key, _state in sent]
    assert sorted(key for _when, key, _state in sent) == sorted(f"t{n}" for n in range(120))
    for index, start in enumerate(times):
        assert sum(1 for when in times[index:] if when - start < 1.0 - 1e-6) <= 5, start
    assert times[-1] >= 120 / 5 - 1  # the budget, not the interval, paced the flood
    await queue.close()


async def test_a_table_asking_again_before_its_turn_is_published_once_with_its_latest_state():
    clock, sent = Clock(), []
    queue = queue_on(clock, budget=45, interval=1.0, sent=sent)
    for state in ("deal 1", "deal 1, bet", "deal 1, bet, call"):
        queue.want("t1", ("t1", state))
        await clock.advance(0.2)
    queue.want("t2", ("t2", "lobby"))
    await drained(queue, clock)
    assert [(key, state) for _when, key, state in sent] == [
        ("t1", "deal 1, bet, call"), ("t2", "lobby")]
    assert sent[0][0] >= 1.0  # one interval after the first request, not after the last
    queue.want("t1", ("t1", "deal 2"))  # a new request after its turn: a new edit
    await drained(queue, clock)
    assert sent[-1][1:] == ("t1", "deal 2") and sent[-1][0] - sent[0][0] >= 1.0
    await queue.close()


async def test_the_debounce_stretches_with_the_tables_waiting():
    clock, sent = Clock(), []
    queue = queue_on(clock, budget=10, interval=1.0, sent=sent)
    for table in range(50):
        queue.want(f"t{table}", (f"t{table}", "state"))
    queue.want("late", ("late", "state"))  # 50 wait before it: 5 s of budget
    await drained(queue, clock)
    late = next(when for when, key, _state in sent if key == "late")
    assert late >= 51 / 10 - 1 and len(sent) == 51
    await queue.close()
