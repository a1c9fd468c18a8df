"""The PostgreSQL store on a real server: its schema, its migrations, its URL.

The database is inspected with plain asyncpg, as an operator (or a bug) would. What both
back ends share is tested on both in test_store.py and its neighbours.
"""

from __future__ import annotations

import asyncio

import asyncpg
import pytest
from databases import emptied

from bot.store import PostgresStore, SqliteStore, StoreError, make_store, open_store
from bot.store.postgres import numbered, shown
from bot.store.schema import Migration, load_migrations

START = 1000
GUILD = 10
ANN, BEN = 1, 2


def test_both_dialects_ship_the_same_numbered_migrations():
    sqlite = [(m.version, m.name) for m in load_migrations(dialect="sqlite")]
    postgres = [(m.version, m.name) for m in load_migrations(dialect="postgres")]
    assert sqlite == postgres
    assert len(sqlite) >= 5


@pytest.mark.parametrize(("database", "kind"), [
    ("postgresql://parlour@db.example/parlour", PostgresStore),
    ("postgres://parlour@db.example/parlour", PostgresStore),
    ("sqlite:///data/parlour.db", SqliteStore),
    ("data/parlour.db", SqliteStore),
    (":memory:", SqliteStore),
])
def test_the_database_url_chooses_the_store(database, kind):
    store = make_store(database, starting_chips=START)
    assert type(store) is kind
    if kind is SqliteStore and database.startswith("sqlite:///"):
        assert store.path == "data/parlour.db"


def test_placeholders_are_numbered_for_postgresql():
    assert numbered("SELECT ? WHERE a = ? AND b IN (?, ?)") == (
        "SELECT $1 WHERE a = $2 AND b IN ($3, $4)")
    assert numbered("SELECT 1") == "SELECT 1"


def test_a_password_is_never_shown():
    assert shown("postgresql://bot:s3cret@db:5432/parlour") == (
        "postgresql://bot:***@db:5432/parlour")
    assert shown("postgresql:///parlour?host=/run") == "postgresql:///parlour?host=/run"


async def test_an_unreachable_server_raises_store_error_without_the_password(tmp_path):
    store = PostgresStore(f"postgresql://bot:s3cret@/parlour?host={tmp_path}",
                          starting_chips=START)
    with pytest.raises(StoreError, match="cannot open") as caught:
        await store.open()
    assert "s3cret" not in str(caught.value)


async def test_migrations_are_recorded_once_and_a_newer_database_is_refused(postgres_url):
    async with PostgresStore(postgres_url, starting_chips=START) as store:
        await store.transfer(GUILD, ANN, BEN, 30)
    later = Migration(99, "from_the_future", ("SELECT 1",))
    shipped = load_migrations(dialect="postgres")
    async with PostgresStore(postgres_url, starting_chips=START):  # reopening applies nothing
        pass
    db = await asyncpg.connect(postgres_url)
    try:
        recorded = [tuple(row) for row in await db.fetch(
            "SELECT version, name FROM schema_migrations ORDER BY version")]
        assert recorded == [(m.version, m.name) for m in shipped]
        await db.execute("INSERT INTO schema_migrations VALUES (99, 'from_the_future', 'x')")
    finally:
        await db.close()
    with pytest.raises(StoreError, match="0099_from_the_future"):
        await open_store(postgres_url, starting_chips=START)
    async with PostgresStore(postgres_url, starting_chips=START,
                             migrations=[*shipped, later]) as store:
        assert await store.balance(GUILD, BEN) == START + 30


async def test_a_failing_migration_leaves_the_database_as_it_was(postgres_url):
    broken = Migration(6, "broken", ("CREATE TABLE extra (x INTEGER); SELECT nonsense;",))
    store = PostgresStore(postgres_url, starting_chips=START,
                          migrations=[*load_migrations(dialect="postgres"), broken])
    with pytest.raises(StoreError):
        await store.open()
    db = await asyncpg.connect(postgres_url)
    try:
        assert await db.fetchval("SELECT to_regclass('accounts')") is None
        assert await db.fetchval("SELECT to_regclass('extra')") is None
    finally:
        await db.close()


async def test_stores_opened_at_once_migrate_one_after_the_other(postgres_url):
    stores = [PostgresStore(postgres_url, starting_chips=START) for _ in range(3)]
    try:
        await asyncio.gather(*(store.open() for store in stores))
        assert [await store.balance(GUILD, ANN) for store in stores] == [START] * 3
    finally:
        for store in stores:
            await store.close()


@pytest.mark.parametrize("statement", [
    "UPDATE ledger SET delta = 5",
    "DELETE FROM ledger",
    "TRUNCATE ledger CASCADE",
])
async def test_the_ledger_is_append_only(postgres_shared, statement):
    url = await emptied(postgres_shared)
    async with PostgresStore(url, starting_chips=START) as store:
        await store.balance(GUILD, ANN)
        db = await asyncpg.connect(url)
        try:
            with pytest.raises(asyncpg.RaiseError, match="append-only"):
                await db.execute(statement)
        finally:
            await db.close()
        assert [entry.delta for entry in await store.ledger(GUILD, ANN)] == [START]


@pytest.mark.parametrize("statement", [
    "UPDATE accounts SET balance = -1",
    "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, reason, created_at)"
    " VALUES (10, 1, 0, 0, 'grant', 'x', 'now')",
    "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, reason, created_at)"
    " VALUES (10, 99, 5, 5, 'grant', 'x', 'now')",
    "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, reason, created_at)"
    " VALUES (10, 1, 5, 5, 'escrow', 'x', 'now')",
    "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, reason, created_at)"
    " VALUES (10, 1, 5, 5, 'burn', 'x', 'now')",
    "INSERT INTO escrow_pools (table_id, guild_id, amount) VALUES ('t', 10, -5)",
], ids=["negative", "zero-delta", "no-account", "escrow-no-table", "positive-burn",
        "negative-pool"])
async def test_the_schema_refuses_impossible_rows(postgres_shared, statement):
    url = await emptied(postgres_shared)
    async with PostgresStore(url, starting_chips=START) as store:
        await store.balance(GUILD, ANN)
        db = await asyncpg.connect(url)
        try:
            with pytest.raises(asyncpg.IntegrityConstraintViolationError):
                await db.execute(statement)
        finally:
            await db.close()
        assert await store.audit(GUILD) == (START, 0, START)


def test_the_pool_size_setting_reaches_postgresql_only():
    assert make_store("postgresql://parlour@db.example/parlour", START, pool_size=3).pool_size == 3
    assert make_store("postgresql://parlour@db.example/parlour", START).pool_size == 10
    assert type(make_store("data/parlour.db", START, pool_size=3)) is SqliteStore


async def test_the_pool_opens_at_most_pool_size_connections(postgres_url):
    async with PostgresStore(postgres_url, starting_chips=START, pool_size=2) as store:
        assert store._connections.get_max_size() == 2
