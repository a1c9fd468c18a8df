"""Random sequences of store operations against a plain-dict model of the books.

Hypothesis drives grants, gifts (valid or not), escrows, settlements, daily claims, orphan
returns and reopenings of one database, on both back ends (an SQLite file; the session's
PostgreSQL database, emptied first). After every step the store must agree with the
model and keep DESIGN.md §5's audit: balances + escrow == granted, every balance == the sum
of its ledger rows, and a refused operation changes nothing.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from databases import emptied
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from bot.store import InsufficientChips, SqlStore, StoreError, make_store

START = 1000
DAILY = 100
GUILD = 10
USERS = st.sampled_from([1, 2, 3, 4])
TABLES = ("t1", "t2")


class StoreBooks(RuleBasedStateMachine):
    def __init__(self, postgres_url: str | None = None) -> None:
        super().__init__()
        self.directory = Path(tempfile.mkdtemp(prefix="parlour-store-"))
        self.database = postgres_url or str(self.directory / "parlour.db")
        self.loop = asyncio.new_event_loop()
        if postgres_url is not None:
            self.run(emptied(postgres_url))
        self.store = self.new_store()
        self.balances: dict[int, int] = {}
        self.pools = dict.fromkeys(TABLES, 0)
        self.claims: dict[str, dict[int, int]] = {table: {} for table in TABLES}
        self.granted = 0
        self.now = datetime(2026, 1, 1, tzinfo=UTC)
        self.last_daily: dict[int, datetime] = {}

    def new_store(self) -> SqlStore:
        store = make_store(self.database, starting_chips=START)
        self.run(store.open())
        return store

    def run(self, coroutine):
        return self.loop.run_until_complete(coroutine)

    def teardown(self) -> None:
        self.run(self.store.close())
        self.loop.close()
        shutil.rmtree(self.directory)

    def held(self, user: int) -> int:
        """The model's balance, counting the starting grant a first use would add."""
        return self.balances.get(user, START)

    def open_account(self, user: int) -> None:
        if user not in self.balances:
            self.balances[user] = START
            self.granted += START

    @rule(user=USERS)
    def balance(self, user):
        self.open_account(user)
        assert self.run(self.store.balance(GUILD, user)) == self.balances[user]

    @rule(user=USERS, amount=st.integers(1, 500))
    def grant(self, user, amount):
        self.open_account(user)
        self.balances[user] += amount
        self.granted += amount
        assert self.run(self.store.grant(GUILD, user, amount, "test")) == self.balances[user]

    @rule(giver=USERS, taker=USERS, amount=st.integers(-5, 1500))
    def transfer(self, giver, taker, amount):
        gift = self.store.transfer(GUILD, giver, taker, amount)
        if amount <= 0 or giver == taker:
            with pytest.raises(ValueError):
                self.run(gift)
        elif amount > self.held(giver):
            with pytest.raises(InsufficientChips):
                self.run(gift)
        else:
            self.open_account(giver)
            self.open_account(taker)
            self.balances[giver] -= amount
            self.balances[taker] += amount
            assert self.run(gift) == (self.balances[giver], self.balances[taker])

    @rule(user=USERS, table=st.sampled_from(TABLES), amount=st.integers(1, 700))
    def escrow(self, user, table, amount):
        buy_in = self.store.escrow(GUILD, user, table, amount)
        if amount > self.held(user):
            with pytest.raises(InsufficientChips):
                self.run(buy_in)
            return
        self.open_account(user)
        self.balances[user] -= amount
        self.pools[table] += amount
        self.claims[table][user] = self.claims[table].get(user, 0) + amount
        assert self.run(buy_in) == self.balances[user]

    @rule(user=USERS, table=st.sampled_from(TABLES), amount=st.integers(0, 800))
    def settle(self, user, table, amount):
        payout = self.store.settle(GUILD, user, table, amount)
        if amount > self.pools[table]:
            with pytest.raises(StoreError):
                self.run(payout)
            return
        self.open_account(user)
        self.balances[user] += amount
        self.pools[table] -= amount
        self.claims[table][user] = 0
        if not self.pools[table] and not any(self.claims[table].values()):
            self.claims[table] = {}  # an empty pool with no open claim is forgotten
        assert self.run(payout) == self.balances[user]

    @rule(user=USERS, hours=st.integers(0, 30))
    def claim_daily(self, user, hours):
        self.now += timedelta(hours=hours)
        self.open_account(user)
        last = self.last_daily.get(user)
        got = self.run(self.store.claim_daily(GUILD, user, DAILY, self.now))
        if last is not None and self.now - last < timedelta(hours=24):
            assert got is None
        else:
            self.last_daily[user] = self.now
            self.balances[user] += DAILY
            self.granted += DAILY
            assert got == self.balances[user]

    @rule(live=st.sets(st.sampled_from(TABLES)))
    def return_orphan_escrow(self, live):
        returned = self.run(self.store.return_orphan_escrow(live))
        exact = [t for t in TABLES if t not in live and self.claims[t]
                 and sum(self.claims[t].values()) == self.pools[t]]
        assert returned == {t: self.pools[t] for t in exact if self.pools[t] > 0}
        for table in exact:  # each member gets exactly their own outstanding chips back
            for user, chips in self.claims[table].items():
                self.balances[user] += chips
            self.pools[table], self.claims[table] = 0, {}
        after = dict(self.run(self.store.leaderboard(GUILD, limit=100)))
        assert after == self.balances

    @rule()
    def reopen(self):
        self.run(self.store.close())
        self.store = self.new_store()

    @invariant()
    def books_balance(self):
        balances, escrow, granted = self.run(self.store.audit(GUILD))
        assert (balances, escrow, granted) == (
            sum(self.balances.values()),
            sum(self.pools.values()),
            self.granted,
        )
        assert balances + escrow == granted
        for table, chips in self.pools.items():
            assert self.run(self.store.table_escrow(table)) == chips
        board = self.run(self.store.leaderboard(GUILD, limit=100))
        assert board == sorted(self.balances.items(), key=lambda item: (-item[1], item[0]))
        for user, balance in self.balances.items():
            ledger = self.run(self.store.ledger(GUILD, user))
            assert sum(entry.delta for entry in ledger) == balance
            assert ledger[-1].balance_after == balance


BOOKS = settings(
    max_examples=40,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def test_store_books_on_sqlite():
    run_state_machine_as_test(StoreBooks, settings=BOOKS)


def test_store_books_on_postgres(postgres_shared):
    # fewer runs: each costs PostgreSQL round trips; SQLite's 40 explore the logic they share
    run_state_machine_as_test(lambda: StoreBooks(postgres_shared),
                              settings=settings(BOOKS, max_examples=15))
