"""Group commit of table changes (bot/store/group.py): the changes of many tables that
arrive at once are committed in fewer transactions than changes, each keeps its own
all-or-nothing outcome, and a batch that fails as a whole commits nothing of it. On both
back ends.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.store import ChipMove, InsufficientChips, StoreError, TableWrite, make_store
from bot.store.group import GroupCommit

GUILD, OTHER = 10, 11
START = 1000
TABLES = 20


def _counting_writes(store) -> list[int]:
    """Count the store's transactions (calls of its ``_write``)."""
    calls: list[int] = []
    write = store._write

    async def counted(change):
        calls.append(1)
        return await write(change)

    store._write = counted
    return calls


async def test_a_burst_of_changes_commits_in_batches_each_with_its_own_outcome(database_url):
    async with make_store(database_url, starting_chips=START) as store:
        await store.commit_table(TableWrite("theirs", OTHER, 1, '{"t": 0}'))
        transactions = _counting_writes(store)
        writes = [TableWrite(f"t{n}", GUILD, 100 + n, f'{{"t": {n}}}', (
            ChipMove("escrow", n, 10, "buy_in"),) if n % 2 else ()) for n in range(TABLES)]
        writes[3] = TableWrite("t3", GUILD, 103, '{"t": 3}', (
            ChipMove("escrow", 3, 10, "buy_in"), ChipMove("escrow", 4, START + 1, "buy_in")))
        writes[6] = TableWrite("theirs", GUILD, 106, '{"t": 6}')
        outcomes = await asyncio.gather(*(store.commit_table(w) for w in writes),
                                        return_exceptions=True)
        assert len(transactions) < TABLES
        assert isinstance(outcomes[3], InsufficientChips) and outcomes[3].user_id == 4
        assert isinstance(outcomes[6], StoreError)
        assert all(o is None for n, o in enumerate(outcomes) if n not in (3, 6)), outcomes
        saved = {table: (guild, data) for table, guild, _ch, data in await store.load_tables()}
        assert "t3" not in saved and saved["theirs"] == (OTHER, '{"t": 0}')
        assert all(saved[f"t{n}"] == (GUILD, f'{{"t": {n}}}') for n in range(TABLES)
                   if n not in (3, 6))
        # the refused buy-in moved nothing, not even the first member's escrow
        assert await store.balance(GUILD, 3) == START
        assert await store.balance(GUILD, 4) == START
        assert await store.table_escrow("t3") == 0
        assert await store.balance(GUILD, 5) == START - 10
        held, escrow, net = await store.audit(GUILD)
        assert held + escrow == net and escrow == 10 * (TABLES // 2 - 1)


async def test_a_batch_that_fails_whole_commits_none_of_its_changes(database_url):
    async with make_store(database_url, starting_chips=START) as store:
        one = store._commit_one

        async def breaks_on_t5(db, write, now):
            await one(db, write, now)
            if write.table_id == "t5":
                raise RuntimeError("the database went away")

        store._commit_one = breaks_on_t5
        writes = [TableWrite(f"t{n}", GUILD, 100 + n, "{}", (
            ChipMove("escrow", n, 10, "buy_in"),)) for n in range(8)]
        first = asyncio.ensure_future(store.commit_table(writes[0]))
        for _ in range(2):  # t0's batch begins alone; the others queue behind it
            await asyncio.sleep(0)
        outcomes = await asyncio.gather(*(store.commit_table(w) for w in writes[1:]),
                                        return_exceptions=True)
        assert await first is None
        assert all(isinstance(o, RuntimeError) for o in outcomes), outcomes
        assert [table for table, *_rest in await store.load_tables()] == ["t0"]
        held, escrow, net = await store.audit(GUILD)
        assert escrow == 10 and held + escrow == net
        assert await store.balance(GUILD, 5) == START


async def test_a_caller_cancelled_while_queued_is_dropped_from_the_batch():
    flushed: list[list[str]] = []
    gate = asyncio.Event()

    async def flush(batch):
        flushed.append(list(batch))
        await gate.wait()
        return [ValueError(item) if item == "bad" else None for item in batch]

    group: GroupCommit[str] = GroupCommit(flush)
    first = asyncio.ensure_future(group.submit("a"))
    await asyncio.sleep(0)
    queued = [asyncio.ensure_future(group.submit(item)) for item in ("b", "bad", "c")]
    await asyncio.sleep(0)
    queued[2].cancel()
    gate.set()
    assert await first is None
    assert await queued[0] is None
    with pytest.raises(ValueError, match="bad"):
        await queued[1]
    with pytest.raises(asyncio.CancelledError):
        await queued[2]
    await group.drain()
    assert flushed == [["a"], ["b", "bad"]]
