"""Chips in the store: grants, gifts, escrow, settlement, orphans, ranks, races.

Every test runs on both back ends (``database_url``: a real SQLite file in ``tmp_path``, the
session's real PostgreSQL database emptied). Every test that moves chips ends by checking
the books (DESIGN.md §5): balances + escrow == granted, and each balance == the sum of its
ledger rows.
Cases C08 (refusals), C09 (a gift during a deal) and C10 (50 concurrent operations) of
cases/discord-table-faults.md are covered here.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime, timedelta, timezone

import pytest

from bot.shards import Shards
from bot.store import (
    ChipMove,
    GameResult,
    InsufficientChips,
    SeatResult,
    SqliteStore,
    SqlStore,
    Store,
    StoreError,
    TableWrite,
    make_store,
    open_store,
)

START = 1000
GUILD = 10
OTHER_GUILD = 20
ANN, BEN, CAT = 1, 2, 3
NOON = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
async def store(database_url):
    async with make_store(database_url, starting_chips=START) as store:
        yield store


async def books(store: SqlStore, guild: int = GUILD) -> dict[int, int]:
    """Check the audit invariants of a guild and return every balance by user id."""
    balances = dict(await store.leaderboard(guild, limit=10_000))
    for user, balance in balances.items():
        running = 0
        for entry in await store.ledger(guild, user):
            running += entry.delta
            assert entry.balance_after == running
        assert running == balance, f"user {user}: ledger sums to {running}, balance {balance}"
    total, escrow, granted = await store.audit(guild)
    assert total == sum(balances.values())
    assert total + escrow == granted
    return balances


async def test_open_store_returns_an_open_store_meeting_the_protocol(tmp_path):
    store = await open_store(tmp_path / "nested" / "dir" / "parlour.db", starting_chips=START)
    try:
        assert isinstance(store, Store)
        assert await store.balance(GUILD, ANN) == START
    finally:
        await store.close()
    assert (tmp_path / "nested" / "dir" / "parlour.db").is_file()


async def test_first_use_creates_the_account_with_the_starting_grant(store):
    assert await store.rank(GUILD, ANN) is None
    assert await store.balance(GUILD, ANN) == START
    assert await store.balance(GUILD, ANN) == START
    [entry] = await store.ledger(GUILD, ANN)
    assert (entry.delta, entry.balance_after, entry.kind, entry.reason) == (
        START,
        START,
        "grant",
        "starting_grant",
    )
    assert await store.audit(GUILD) == (START, 0, START)


async def test_accounts_are_per_guild(store):
    await store.grant(GUILD, ANN, 500, "prize")
    assert await store.balance(OTHER_GUILD, ANN) == START
    assert await store.audit(OTHER_GUILD) == (START, 0, START)
    assert await store.audit(GUILD) == (START + 500, 0, START + 500)


async def test_zero_starting_chips_writes_no_ledger_row(database_url):
    async with make_store(database_url, starting_chips=0) as store:
        assert await store.balance(GUILD, ANN) == 0
        assert await store.ledger(GUILD, ANN) == []
        assert await store.rank(GUILD, ANN) == (1, 1)


async def test_grant_adds_chips_with_its_reason(store):
    assert await store.grant(GUILD, ANN, 250, "tournament") == START + 250
    entries = await store.ledger(GUILD, ANN)
    assert [(e.delta, e.kind, e.reason) for e in entries] == [
        (START, "grant", "starting_grant"),
        (250, "grant", "tournament"),
    ]
    await books(store)


async def test_daily_claim_once_per_24_hours_from_the_given_instant(store):
    assert await store.claim_daily(GUILD, ANN, 100, NOON) == START + 100
    almost = NOON + timedelta(hours=23, minutes=59, seconds=59)
    assert await store.claim_daily(GUILD, ANN, 100, almost) is None
    assert await store.balance(GUILD, ANN) == START + 100
    assert await store.claim_daily(GUILD, ANN, 100, NOON + timedelta(hours=24)) == START + 200
    assert await store.claim_daily(GUILD, ANN, 100, NOON + timedelta(hours=30)) is None
    assert [e.reason for e in await store.ledger(GUILD, ANN)] == [
        "starting_grant",
        "daily",
        "daily",
    ]
    # another member's window is their own
    assert await store.claim_daily(GUILD, BEN, 100, almost) == START + 100
    await books(store)


async def test_daily_claim_compares_instants_not_wall_times(store):
    await store.claim_daily(GUILD, ANN, 100, NOON)
    eastern = timezone(timedelta(hours=-5))
    later = NOON + timedelta(hours=23)
    assert await store.claim_daily(GUILD, ANN, 100, later.astimezone(eastern)) is None
    later = NOON + timedelta(hours=24)
    assert await store.claim_daily(GUILD, ANN, 100, later.astimezone(eastern)) == START + 200


async def test_daily_claim_refuses_a_naive_instant(store):
    with pytest.raises(ValueError, match="timezone-aware"):
        await store.claim_daily(GUILD, ANN, 100, NOON.replace(tzinfo=None))
    assert await store.rank(GUILD, ANN) is None


async def test_transfer_moves_chips_between_balances(store):
    assert await store.transfer(GUILD, ANN, BEN, 50) == (START - 50, START + 50)
    [_, given] = await store.ledger(GUILD, ANN)
    [_, received] = await store.ledger(GUILD, BEN)
    assert (given.delta, given.kind, given.other_user_id) == (-50, "transfer", BEN)
    assert (received.delta, received.kind, received.other_user_id) == (50, "transfer", ANN)
    assert await store.transfer(GUILD, BEN, ANN, START + 50) == (0, 2 * START)
    assert await books(store) == {ANN: START * 2, BEN: 0}


@pytest.mark.parametrize(
    ("amount", "to", "error"),
    [
        (0, BEN, ValueError),
        (-1, BEN, ValueError),
        (START + 1, BEN, InsufficientChips),
        (10, ANN, ValueError),
        (True, BEN, TypeError),
        (1.0, BEN, TypeError),
        ("10", BEN, TypeError),
        (10**13, BEN, ValueError),
    ],
    ids=["zero", "negative", "more-than-balance", "to-oneself", "bool", "float", "str", "huge"],
)
async def test_refused_transfers_change_nothing(store, amount, to, error):
    """C08: refused with a clear reason before anything moves."""
    await store.balance(GUILD, ANN)
    await store.balance(GUILD, BEN)
    before = await books(store)
    ledger_before = await store.ledger(GUILD, ANN)
    with pytest.raises(error):
        await store.transfer(GUILD, ANN, to, amount)
    assert await books(store) == before
    assert await store.ledger(GUILD, ANN) == ledger_before


async def test_insufficient_chips_carries_the_balance_and_the_amount_asked(store):
    await store.transfer(GUILD, ANN, BEN, 960)
    with pytest.raises(InsufficientChips) as refusal:
        await store.transfer(GUILD, ANN, BEN, 41)
    assert (refusal.value.balance, refusal.value.amount) == (40, 41)
    assert "40" in str(refusal.value) and "41" in str(refusal.value)
    assert isinstance(refusal.value, StoreError)


async def test_a_refused_first_use_creates_no_account(store):
    with pytest.raises(InsufficientChips):
        await store.transfer(GUILD, ANN, BEN, START + 1)
    assert await store.rank(GUILD, ANN) is None
    assert await store.rank(GUILD, BEN) is None
    assert await store.audit(GUILD) == (0, 0, 0)


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.grant(GUILD, ANN, 0, "x"),
        lambda s: s.grant(GUILD, ANN, 5, ""),
        lambda s: s.grant(GUILD, ANN, 5, "   "),
        lambda s: s.grant(GUILD, ANN, False, "x"),
        lambda s: s.claim_daily(GUILD, ANN, -100, NOON),
        lambda s: s.claim_daily(GUILD, ANN, 100, "2026-01-01"),
        lambda s: s.balance(True, ANN),
        lambda s: s.balance(GUILD, -1),
        lambda s: s.balance(GUILD, "1"),
        lambda s: s.balance(GUILD, 2**63),
        lambda s: s.escrow(GUILD, ANN, "t", 0),
        lambda s: s.escrow(GUILD, ANN, "", 10),
        lambda s: s.escrow(GUILD, ANN, "x" * 65, 10),
        lambda s: s.escrow(GUILD, ANN, 7, 10),
        lambda s: s.settle(GUILD, ANN, "t", -1),
        lambda s: s.leaderboard(GUILD, limit=0),
        lambda s: s.return_orphan_escrow({1}),
    ],
)
async def test_invalid_arguments_raise_before_anything_moves(store, call):
    await store.escrow(GUILD, ANN, "t", 100)
    before = await books(store)
    with pytest.raises((TypeError, ValueError)):
        await call(store)
    assert await books(store) == before
    assert await store.table_escrow("t") == 100


async def test_escrow_and_settle_move_chips_through_the_table(store):
    assert await store.escrow(GUILD, ANN, "t1", 100) == START - 100
    assert await store.escrow(GUILD, BEN, "t1", 100) == START - 100
    assert await store.table_escrow("t1") == 200
    assert await store.audit(GUILD) == (2 * START - 200, 200, 2 * START)
    # Ann won 30 of Ben's chips
    assert await store.settle(GUILD, ANN, "t1", 130) == START + 30
    assert await store.table_escrow("t1") == 70
    assert await store.settle(GUILD, BEN, "t1", 70) == START - 30
    assert await store.table_escrow("t1") == 0
    entries = await store.ledger(GUILD, ANN)
    assert [(e.kind, e.delta, e.table_id) for e in entries[1:]] == [
        ("escrow", -100, "t1"),
        ("settle", 130, "t1"),
    ]
    assert await books(store) == {ANN: START + 30, BEN: START - 30}


async def test_settling_an_empty_stack_moves_nothing_and_writes_no_row(store):
    await store.escrow(GUILD, ANN, "t1", 100)
    await store.escrow(GUILD, BEN, "t1", 100)
    assert await store.settle(GUILD, BEN, "t1", 0) == START - 100
    assert len(await store.ledger(GUILD, BEN)) == 2
    assert await store.table_escrow("t1") == 200
    assert await store.settle(GUILD, ANN, "t1", 200) == START + 100
    await books(store)


async def test_escrow_beyond_the_balance_is_refused_and_nothing_moves(store):
    await store.escrow(GUILD, ANN, "t1", 900)
    before = await books(store)
    with pytest.raises(InsufficientChips) as refusal:
        await store.escrow(GUILD, ANN, "t1", 101)
    assert (refusal.value.balance, refusal.value.amount) == (100, 101)
    assert await store.table_escrow("t1") == 900
    assert await books(store) == before


async def test_settling_more_than_the_escrow_holds_is_refused(store):
    await store.escrow(GUILD, ANN, "t1", 100)
    before = await books(store)
    with pytest.raises(StoreError, match="holds 100"):
        await store.settle(GUILD, ANN, "t1", 101)
    with pytest.raises(StoreError, match="holds 0"):
        await store.settle(GUILD, ANN, "no-such-table", 1)
    assert await store.table_escrow("t1") == 100
    assert await books(store) == before


async def test_a_table_escrow_belongs_to_one_guild(store):
    await store.escrow(GUILD, ANN, "t1", 100)
    with pytest.raises(StoreError, match="guild"):
        await store.escrow(OTHER_GUILD, ANN, "t1", 100)
    with pytest.raises(StoreError, match="guild"):
        await store.settle(OTHER_GUILD, ANN, "t1", 50)
    assert await store.table_escrow("t1") == 100
    assert await store.audit(OTHER_GUILD) == (0, 0, 0)


async def test_a_gift_during_a_deal_lands_in_the_balance_not_the_table(store):
    """C09: the table stack, escrow and the deal's settlement are unaffected by a gift."""
    await store.escrow(GUILD, ANN, "t1", 100)
    await store.escrow(GUILD, BEN, "t1", 100)
    assert await store.transfer(GUILD, CAT, ANN, 1) == (START - 1, START - 100 + 1)
    assert await store.table_escrow("t1") == 200
    assert await store.settle(GUILD, ANN, "t1", 150) == START - 100 + 1 + 150
    assert await store.settle(GUILD, BEN, "t1", 50) == START - 50
    assert await books(store) == {ANN: START + 51, BEN: START - 50, CAT: START - 1}


class TestOrphanEscrow:
    """Escrow of a table that vanished goes back to exactly the members who put it there."""

    async def test_untouched_buy_ins_go_back_to_each_member(self, store):
        for user in (ANN, BEN, CAT):
            await store.escrow(GUILD, user, "lost", 100)
        await store.escrow(GUILD, ANN, "live", 50)
        assert await store.return_orphan_escrow({"live"}) == {"lost": 300}
        assert await store.table_escrow("lost") == 0
        assert await store.table_escrow("live") == 50
        assert await books(store) == {ANN: START - 50, BEN: START, CAT: START}
        [*_, returned] = await store.ledger(GUILD, BEN)
        assert (returned.kind, returned.delta, returned.table_id) == ("orphan_return", 100, "lost")
        assert await store.return_orphan_escrow({"live"}) == {}

    async def test_a_pool_that_does_not_add_up_is_left_alone(self, store, caplog):
        for user in (ANN, BEN, CAT):
            await store.escrow(GUILD, user, "t", 100)
        await store.settle(GUILD, ANN, "t", 250)  # Ann won 150 and left: who owns the rest?
        assert await store.return_orphan_escrow(set()) == {}
        assert await store.table_escrow("t") == 50  # nothing guessed: it stays for an admin
        assert await books(store) == {ANN: START + 150, BEN: START - 100, CAT: START - 100}
        assert "stays for an admin" in caplog.text

    async def test_a_settled_loser_gets_nothing_back(self, store):
        for user in (ANN, BEN, CAT):
            await store.escrow(GUILD, user, "t", 100)
        await store.settle(GUILD, ANN, "t", 0)  # Ann lost her stack and left
        assert await store.return_orphan_escrow([]) == {}  # 300 in the pool, 200 claimed
        await store.settle(GUILD, BEN, "t", 100)
        await store.settle(GUILD, CAT, "t", 200)
        assert await store.table_escrow("t") == 0
        assert await books(store) == {ANN: START - 100, BEN: START, CAT: START + 100}

    async def test_each_member_gets_exactly_their_own_buy_in(self, store):
        await store.escrow(GUILD, ANN, "t", 100)
        await store.escrow(GUILD, BEN, "t", 300)
        await store.escrow(GUILD, ANN, "t", 20)  # a second buy-in of the same member
        assert await store.return_orphan_escrow(set()) == {"t": 420}
        assert await books(store) == {ANN: START, BEN: START}

    async def test_a_pool_emptied_by_settlement_is_forgotten(self, store):
        await store.escrow(GUILD, ANN, "t", 100)
        await store.escrow(GUILD, BEN, "t", 100)
        await store.settle(GUILD, ANN, "t", 200)
        await store.settle(GUILD, BEN, "t", 0)
        assert await store.return_orphan_escrow(set()) == {}
        # a new session of the same table starts from nothing: Ann's old claim is gone
        await store.escrow(GUILD, BEN, "t", 10)
        assert await store.return_orphan_escrow(set()) == {"t": 10}
        assert await books(store) == {ANN: START + 100, BEN: START - 100}

    async def test_orphans_of_every_guild_are_returned(self, store):
        await store.escrow(GUILD, ANN, "a", 10)
        await store.escrow(OTHER_GUILD, ANN, "b", 20)
        assert await store.return_orphan_escrow(set()) == {"a": 10, "b": 20}
        assert await books(store, GUILD) == {ANN: START}
        assert await books(store, OTHER_GUILD) == {ANN: START}


class TestShards:
    """A shard process reads and returns only what belongs to its shards' guilds."""

    # guild ids on shard 0 and shard 1 of 2 ((guild_id >> 22) % 2)
    ON_0, ON_1 = 4 << 22, 5 << 22

    async def test_a_process_loads_only_its_shards_tables(self, store):
        await store.save_table("zero", self.ON_0, 1, "{}")
        await store.save_table("one", self.ON_1, 2, "{}")
        assert [t[0] for t in await store.load_tables(Shards((0,), 2))] == ["zero"]
        assert [t[0] for t in await store.load_tables(Shards((1,), 2))] == ["one"]
        assert [t[0] for t in await store.load_tables(Shards((0, 1), 2))] == ["one", "zero"]
        assert [t[0] for t in await store.load_tables()] == ["one", "zero"]

    async def test_a_process_loads_only_its_shards_table_logs(self, store):
        for table_id, guild in (("zero", self.ON_0), ("one", self.ON_1)):
            await store.commit_table(TableWrite(table_id, guild, 1, "{}", log=f'["{table_id}"]',
                                                logged=1))
        assert await store.load_table_logs(Shards((1,), 2)) == {"one": ['["one"]']}
        assert await store.load_table_logs() == {"one": ['["one"]'], "zero": ['["zero"]']}

    async def test_orphans_of_another_shard_are_never_returned(self, store):
        await store.escrow(self.ON_0, ANN, "zero", 10)
        await store.escrow(self.ON_1, ANN, "one", 20)  # live on the other shard process
        assert await store.return_orphan_escrow(set(), Shards((0,), 2)) == {"zero": 10}
        assert await store.table_escrow("one") == 20
        assert await books(store, self.ON_1) == {ANN: START - 20}

    async def test_a_table_id_of_another_guild_is_never_overwritten(self, store):
        await store.save_table("same", self.ON_0, 1, '{"v": 0}')
        with pytest.raises(StoreError, match="another guild"):
            await store.commit_table(TableWrite("same", self.ON_1, 2, '{"v": 1}', (
                ChipMove("escrow", ANN, 10, "buy_in"),)))
        assert await store.load_tables() == [("same", self.ON_0, 1, '{"v": 0}')]
        assert await store.table_escrow("same") == 0  # the buy-in was rolled back too
        assert await books(store, self.ON_1) == {}


async def test_leaderboard_orders_by_balance_then_user_id(store):
    await store.grant(GUILD, BEN, 500, "prize")
    await store.balance(GUILD, CAT)
    await store.balance(GUILD, ANN)
    await store.transfer(GUILD, 4, 5, 1000)
    await store.balance(OTHER_GUILD, 9)
    assert await store.leaderboard(GUILD) == [
        (5, 2000),
        (BEN, 1500),
        (ANN, 1000),
        (CAT, 1000),
        (4, 0),
    ]
    assert await store.leaderboard(GUILD, limit=2) == [(5, 2000), (BEN, 1500)]
    assert [await store.rank(GUILD, user) for user in (5, BEN, ANN, CAT, 4)] == [
        (1, 5),
        (2, 5),
        (3, 5),
        (4, 5),
        (5, 5),
    ]
    assert await store.rank(GUILD, 9) is None
    assert await store.rank(OTHER_GUILD, 9) == (1, 1)


async def test_escrowed_chips_do_not_count_on_the_leaderboard(store):
    await store.escrow(GUILD, ANN, "t", 600)
    await store.balance(GUILD, BEN)
    assert await store.leaderboard(GUILD) == [(BEN, START), (ANN, START - 600)]


async def test_a_closed_store_raises_store_error(database_url):
    store = make_store(database_url, starting_chips=START)
    with pytest.raises(StoreError, match="not open"):
        await store.balance(GUILD, ANN)
    await store.open()
    await store.close()
    await store.close()
    with pytest.raises(StoreError, match="not open"):
        await store.transfer(GUILD, ANN, BEN, 1)


class TestConcurrency:
    """C10: many tasks share one connection; no interleaving, no "database is locked"."""

    async def test_fifty_settlements_and_fifty_gifts_at_once(self, store):
        members = range(1, 51)
        await asyncio.gather(*(store.escrow(GUILD, user, "t", 100) for user in members))
        assert await store.table_escrow("t") == 5000
        stack = {user: 200 if user % 2 == 0 else 0 for user in members}  # evens won it all
        settlements = [store.settle(GUILD, user, "t", stack[user]) for user in members]
        gifts = [store.transfer(GUILD, user, user % 50 + 1, 1) for user in members]
        interleaved = [call for pair in zip(settlements, gifts, strict=True) for call in pair]
        results = await asyncio.gather(*interleaved)
        assert len(results) == 100
        assert await store.table_escrow("t") == 0
        # each gave 1 chip and received 1 chip
        assert await books(store) == {user: START - 100 + stack[user] for user in members}

    async def test_racing_gifts_never_overdraw(self, store):
        await store.transfer(GUILD, ANN, BEN, START - 10)  # Ann keeps 10
        outcomes = await asyncio.gather(
            *(store.transfer(GUILD, ANN, CAT, 1) for _ in range(25)), return_exceptions=True
        )
        refused = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(refused) == 15
        assert all(isinstance(o, InsufficientChips) and o.balance == 0 for o in refused)
        assert await books(store) == {ANN: 0, BEN: 2 * START - 10, CAT: START + 10}

    async def test_two_stores_on_one_database_wait_for_each_other(self, database_url):
        async with (
            make_store(database_url, starting_chips=START) as first,
            make_store(database_url, starting_chips=START) as second,
        ):
            await first.balance(GUILD, ANN)
            await second.balance(GUILD, BEN)
            await asyncio.gather(
                *(first.transfer(GUILD, ANN, BEN, 1) for _ in range(40)),
                *(second.transfer(GUILD, BEN, ANN, 2) for _ in range(40)),
            )
            assert await books(first) == {ANN: START + 40, BEN: START - 40}

    @pytest.mark.parametrize("cancel_at", range(1, 9))
    async def test_a_cancelled_gift_moves_all_or_nothing(self, tmp_path, cancel_at):
        """Cancel a gift while its n-th SQLite statement runs: a rollback leaves no trace."""
        async with SqliteStore(tmp_path / "parlour.db", starting_chips=START) as store:
            await self.cancel_a_gift(store, cancel_at)

    async def cancel_a_gift(self, store: SqliteStore, cancel_at: int) -> None:
        await store.escrow(GUILD, ANN, "t", 100)
        await store.balance(GUILD, BEN)
        loop = asyncio.get_running_loop()
        statements: list[str] = []
        gift: list[asyncio.Task] = []

        def trace(statement: str) -> None:  # runs on aiosqlite's thread
            statements.append(statement)
            if len(statements) == cancel_at:
                loop.call_soon_threadsafe(gift[0].cancel)

        # fault injection: watch the statements on the store's (private) connection
        await store._db.set_trace_callback(trace)
        gift.append(asyncio.create_task(store.transfer(GUILD, ANN, BEN, 7)))
        with pytest.raises(asyncio.CancelledError):
            await gift[0]
        await store._db.set_trace_callback(None)
        assert statements[0] == "BEGIN IMMEDIATE"
        balances = await books(store)
        if cancel_at < 8:  # BEGIN, 2 SELECT, 2 x (UPDATE, INSERT), then COMMIT
            assert "COMMIT" not in statements
            assert statements[-1] == "ROLLBACK"
            assert balances == {ANN: START - 100, BEN: START}
        else:  # cancelled while COMMIT ran: it all happened
            assert statements[-1] == "COMMIT"
            assert balances == {ANN: START - 107, BEN: START + 7}
        # the connection is usable again: no transaction was left open
        assert await store.transfer(GUILD, BEN, ANN, 1) == (balances[BEN] - 1, balances[ANN] + 1)

    async def test_gifts_cancelled_at_any_moment_move_all_or_nothing(self, store):
        """Cancel gifts after 0, 1, 2 ... turns of the event loop (on PostgreSQL: while a
        statement is on the wire): each gift happened whole or not at all (one cancelled
        while its COMMIT ran may have happened), and the store goes on working."""
        await store.balance(GUILD, ANN)
        await store.balance(GUILD, BEN)
        given = 0
        for turns in range(40):
            gift = asyncio.create_task(store.transfer(GUILD, ANN, BEN, 1))
            for _ in range(turns):
                await asyncio.sleep(0)
            gift.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await gift
            balances = await books(store)
            assert balances in ({ANN: START - given, BEN: START + given},
                                {ANN: START - given - 1, BEN: START + given + 1})
            given = START - balances[ANN]
        assert given < 40  # the gift cancelled before its first turn never happened
        assert await store.transfer(GUILD, BEN, ANN, 1) == (START + given - 1, START - given + 1)


class TestCommitTable:
    """A table's chip moves, saved state and result commit together, or not at all."""

    async def test_buy_ins_and_the_started_table_commit_together(self, store):
        moves = tuple(ChipMove("escrow", user, 100, "buy_in") for user in (ANN, BEN))
        await store.commit_table(TableWrite("t", GUILD, 7, '{"started": true}', moves))
        assert await store.load_tables() == [("t", GUILD, 7, '{"started": true}')]
        assert await store.table_escrow("t") == 200
        assert await books(store) == {ANN: START - 100, BEN: START - 100}
        [*_, buy_in] = await store.ledger(GUILD, BEN)
        assert (buy_in.kind, buy_in.reason, buy_in.delta) == ("escrow", "buy_in", -100)

    async def test_a_buy_in_over_a_balance_changes_nothing(self, store):
        await store.commit_table(TableWrite("t", GUILD, 7, '{"lobby": true}'))
        await store.transfer(GUILD, BEN, CAT, START - 10)
        moves = (ChipMove("escrow", ANN, 100, "buy_in"), ChipMove("escrow", BEN, 100, "buy_in"))
        with pytest.raises(InsufficientChips) as refused:
            await store.commit_table(TableWrite("t", GUILD, 7, '{"started": true}', moves))
        assert (refused.value.user_id, refused.value.balance) == (BEN, 10)
        assert await store.load_tables() == [("t", GUILD, 7, '{"lobby": true}')]
        assert await store.table_escrow("t") == 0
        assert await books(store) == {BEN: 10, CAT: 2 * START - 10}  # not even an account

    async def test_each_commit_appends_its_log_events_and_a_reset_replaces_them(self, store):
        await store.commit_table(TableWrite("t", GUILD, 7, "{}", log="[1, 2]", logged=2))
        await store.commit_table(TableWrite("t", GUILD, 7, "{}"))  # no event: no row
        await store.commit_table(TableWrite("t", GUILD, 7, "{}", log="[3]", logged=3))
        assert await store.load_table_logs() == {"t": ["[1, 2]", "[3]"]}
        await store.commit_table(TableWrite("t", GUILD, 7, "{}", log="[9]", logged=1,
                                            log_reset=True))  # a new game's whole log
        assert await store.load_table_logs() == {"t": ["[9]"]}
        await store.commit_table(TableWrite("t", GUILD, 7, "{}", log_reset=True))
        assert await store.load_table_logs() == {}

    async def test_a_refused_commit_appends_no_log(self, store):
        await store.commit_table(TableWrite("t", GUILD, 7, "{}", log="[1]", logged=1))
        await store.transfer(GUILD, BEN, CAT, START)
        with pytest.raises(InsufficientChips):
            await store.commit_table(TableWrite(
                "t", GUILD, 7, "{}", (ChipMove("escrow", BEN, 100, "buy_in"),), log="[2]",
                logged=2))
        assert await store.load_table_logs() == {"t": ["[1]"]}
        with pytest.raises(ValueError):
            await store.commit_table(TableWrite("t", GUILD, 7, "{}", log="[2]", logged=-1))

    async def test_the_log_goes_with_the_table(self, store):
        await store.commit_table(TableWrite("t", GUILD, 7, "{}", log="[1]", logged=1))
        await store.commit_table(TableWrite("u", GUILD, 8, "{}", log="[1]", logged=1))
        await store.commit_table(TableWrite("t", GUILD, 7, None))
        await store.delete_table("u")
        assert await store.load_table_logs() == {}

    async def test_the_payout_the_deletion_and_the_result_are_one_change(self, store):
        moves = tuple(ChipMove("escrow", user, 100, "buy_in") for user in (ANN, BEN))
        await store.commit_table(TableWrite("t", GUILD, 7, "{}", moves))
        seats = (SeatResult(0, ANN, "Ann", None, 1, 130, 30),
                 SeatResult(1, BEN, "Ben", None, 2, 70, -30))
        result = GameResult("tripoli", True, True, "{}", '{"scores": {}}', seats)
        payout = (ChipMove("settle", ANN, 130, "payout"), ChipMove("settle", BEN, 70, "payout"))
        await store.commit_table(TableWrite("t", GUILD, 7, None, payout, result))
        assert await store.load_tables() == []
        assert await store.table_escrow("t") == 0
        assert await books(store) == {ANN: START + 30, BEN: START - 30}
        assert await store.results(GUILD) == [(result, 1)]
        assert await store.results(GUILD, "troefcall") == []

    async def test_a_payout_over_the_escrow_changes_nothing(self, store):
        await store.commit_table(
            TableWrite("t", GUILD, 7, "{}", (ChipMove("escrow", ANN, 100, "buy_in"),)))
        with pytest.raises(StoreError, match="cannot settle"):
            await store.commit_table(TableWrite(
                "t", GUILD, 7, None, (ChipMove("settle", ANN, 101, "payout"),)))
        assert await store.load_tables() == [("t", GUILD, 7, "{}")]
        assert await store.table_escrow("t") == 100
        assert await store.results(GUILD) == []

    @pytest.mark.parametrize("move", [ChipMove("escrow", ANN, 0, "buy_in"),
                                      ChipMove("escrow", ANN, -5, "buy_in"),
                                      ChipMove("settle", ANN, True, "payout"),
                                      ChipMove("escrow", ANN, 5, "")])
    async def test_bad_moves_are_refused_before_anything_moves(self, store, move):
        with pytest.raises((TypeError, ValueError)):
            await store.commit_table(TableWrite("t", GUILD, 7, "{}", (move,)))
        assert await store.load_tables() == []
