"""Group commit: the changes queued while a transaction runs are committed together next.

Under a burst (every table clicked at once) each change used to wait for the store's one
connection and run its own ``BEGIN ... COMMIT``, so the last of N changes waited for N
transactions of several round trips each. With :class:`GroupCommit` a change that finds
the store idle is committed at once by its caller (one change at a time costs no more than
before); the changes that arrive while a transaction runs are queued, and a writer task
then hands every change queued so far to ``flush`` as one batch (one transaction, each
change in it all or nothing on its own), while the callers arriving meanwhile form the next
batch. Each caller waits for its own change's outcome: it returns once the transaction
holding it committed, or raises that change's error, or the batch's error when the
transaction as a whole failed (then nothing of the batch was committed).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")

Flush = Callable[[Sequence[T]], Awaitable[Sequence[BaseException | None]]]
"""Commits a batch in one transaction; returns, per item in order, None (committed) or the
error that item alone was refused with (rolled back on its own). Raising means the whole
batch was not committed."""


class GroupCommit(Generic[T]):
    """Queue of changes committed in batches by one writer task (module docstring).

    Parameters
    ----------
    flush
        Commits one batch (:data:`Flush`).
    """

    def __init__(self, flush: Flush[T]) -> None:
        self._flush = flush
        self._queue: list[tuple[T, asyncio.Future[None]]] = []
        self._busy = False  # a transaction runs (a caller's own, or the writer's)
        self._writer: asyncio.Task[None] | None = None

    async def submit(self, item: T) -> None:
        """Commit ``item`` now if nothing else is being committed, else queue it; return once
        the transaction holding it committed.

        Raises
        ------
        BaseException
            The error ``flush`` gave for ``item``, or the one the whole batch failed with.

        Notes
        -----
        A caller cancelled while its own transaction runs has it rolled back. One cancelled
        while its queued change is being committed no longer waits, but its change may
        still be committed; one cancelled before its batch began is dropped.
        """
        if self._busy:
            await self._queued(item)
            return
        self._busy = True
        try:
            [outcome] = await self._flush([item])
        finally:
            if self._queue:
                self._writer = asyncio.create_task(self._write())
            else:
                self._busy = False
        if outcome is not None:
            raise outcome

    async def _queued(self, item: T) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append((item, future))
        try:
            await asyncio.shield(future)
        except asyncio.CancelledError:
            if not future.done():
                future.cancel()  # still queued: the writer skips it
            raise

    async def drain(self) -> None:
        """Wait until every queued change was committed or refused."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)

    async def _write(self) -> None:
        try:
            await self._batches()
        finally:
            self._busy = False

    async def _batches(self) -> None:
        while self._queue:
            batch = [(item, future) for item, future in self._queue if not future.done()]
            self._queue = []
            if not batch:
                continue
            try:
                outcomes = await self._flush([item for item, _future in batch])
            except asyncio.CancelledError:  # the writer stops: nothing more is committed
                for _item, future in batch + self._queue:
                    future.cancel()
                self._queue = []
                raise
            except Exception as error:  # the whole batch failed: every caller learns it
                for _item, future in batch:
                    if not future.done():
                        future.set_exception(error)
                continue
            for (_item, future), outcome in zip(batch, outcomes, strict=True):
                if future.done():
                    continue
                if outcome is None:
                    future.set_result(None)
                else:
                    future.set_exception(outcome)
