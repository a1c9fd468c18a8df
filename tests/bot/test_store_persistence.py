"""The SQLite store on disk: reopening, migrations, schema guards, saved tables, settings.

The file is inspected with the plain ``sqlite3`` module, as an operator (or a bug) would.
"""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime, timedelta

import pytest

from bot.store import SqliteStore, StoreError
from bot.store.schema import Migration, load_migrations, split_statements

START = 1000
GUILD = 10
ANN, BEN = 1, 2


@pytest.fixture
def path(tmp_path):
    return tmp_path / "parlour.db"


@pytest.fixture
async def store(path):
    async with SqliteStore(path, starting_chips=START) as store:
        yield store


def rows(path, sql: str) -> list[tuple]:
    with sqlite3.connect(path) as db:
        return db.execute(sql).fetchall()


async def test_everything_survives_a_reopen_and_migrations_are_not_reapplied(path):
    clock = iter(datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=m) for m in range(100))
    async with SqliteStore(path, starting_chips=START, clock=lambda: next(clock)) as store:
        await store.transfer(GUILD, ANN, BEN, 30)
        await store.escrow(GUILD, ANN, "t1", 100)
        await store.claim_daily(GUILD, BEN, 100, datetime(2026, 1, 1, tzinfo=UTC))
        await store.save_table("t1", GUILD, 555, '{"deal": 3}')
        await store.set_setting("user:1", "dm", "true")
        ledger = {user: await store.ledger(GUILD, user) for user in (ANN, BEN)}
        audit = await store.audit(GUILD)
    migrations = rows(path, "SELECT version, name, applied_at FROM schema_migrations")
    shipped = [(migration.version, migration.name) for migration in load_migrations()]
    assert [(version, name) for version, name, _ in migrations] == shipped

    async with SqliteStore(path, starting_chips=START) as store:
        assert rows(path, "SELECT version, name, applied_at FROM schema_migrations") == migrations
        assert await store.audit(GUILD) == audit == (2 * START, 100, 2 * START + 100)
        assert {user: await store.ledger(GUILD, user) for user in (ANN, BEN)} == ledger
        assert await store.leaderboard(GUILD) == [(BEN, START + 130), (ANN, START - 130)]
        assert await store.table_escrow("t1") == 100
        assert await store.load_tables() == [("t1", GUILD, 555, '{"deal": 3}')]
        assert await store.get_setting("user:1", "dm") == "true"
        # the daily window was saved too
        later = datetime(2026, 1, 1, 23, tzinfo=UTC)
        assert await store.claim_daily(GUILD, BEN, 100, later) is None
        assert await store.return_orphan_escrow(set()) == {"t1": 100}


async def test_a_new_migration_is_applied_once_in_order(path):
    async with SqliteStore(path, starting_chips=START) as store:
        await store.balance(GUILD, ANN)
    shipped = load_migrations()
    later = Migration(len(shipped) + 1, "nicknames",
                      ("CREATE TABLE nicknames (user_id INTEGER, nick TEXT)",))
    migrations = [*shipped, later]
    for _ in range(2):
        async with SqliteStore(path, starting_chips=START, migrations=migrations) as store:
            assert await store.balance(GUILD, ANN) == START
    recorded = rows(path, "SELECT version, name FROM schema_migrations ORDER BY version")
    assert recorded == [*((m.version, m.name) for m in shipped), (len(shipped) + 1, "nicknames")]
    assert rows(path, "SELECT COUNT(*) FROM nicknames") == [(0,)]


async def test_a_database_from_newer_code_is_refused(path):
    shipped = load_migrations()
    later = Migration(len(shipped) + 1, "nicknames", ("CREATE TABLE nicknames (user_id INTEGER)",))
    async with SqliteStore(path, starting_chips=START, migrations=[*shipped, later]):
        pass
    store = SqliteStore(path, starting_chips=START)
    with pytest.raises(StoreError, match=f"{len(shipped) + 1:04d}_nicknames"):
        await store.open()
    with pytest.raises(StoreError, match="not open"):
        await store.balance(GUILD, ANN)


async def test_a_failing_migration_leaves_the_database_as_it_was(path):
    shipped = load_migrations()
    broken = Migration(len(shipped) + 1, "broken",
                       ("CREATE TABLE extra (x INTEGER)", "NOT SQL AT ALL"))
    store = SqliteStore(path, starting_chips=START, migrations=[*shipped, broken])
    with pytest.raises(StoreError):
        await store.open()
    assert rows(path, "SELECT name FROM sqlite_master WHERE name IN ('extra', 'accounts')") == []


async def test_an_unopenable_path_raises_store_error(tmp_path):
    store = SqliteStore(tmp_path, starting_chips=START)  # a directory, not a file
    before = set(threading.enumerate())
    with pytest.raises(StoreError, match="cannot"):
        await store.open()
    # aiosqlite stops its worker thread after a failed connect without waiting for it; wait
    # here, or the thread may answer on this test's event loop after it is closed
    for thread in set(threading.enumerate()) - before:
        thread.join(timeout=5)


async def test_the_file_is_in_wal_mode(store, path):
    await store.balance(GUILD, ANN)
    assert rows(path, "PRAGMA journal_mode") == [("wal",)]


async def test_an_in_memory_store_works(tmp_path):
    async with SqliteStore(":memory:", starting_chips=START) as store:
        assert await store.transfer(GUILD, ANN, BEN, 1) == (START - 1, START + 1)
    assert list(tmp_path.iterdir()) == []


async def test_the_ledger_is_append_only(store, path):
    await store.balance(GUILD, ANN)
    with sqlite3.connect(path) as db:
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            db.execute("UPDATE ledger SET delta = 5")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            db.execute("DELETE FROM ledger")
    assert [entry.delta for entry in await store.ledger(GUILD, ANN)] == [START]


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE accounts SET balance = -1",
        "UPDATE accounts SET balance = 1.5",
        "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, reason, created_at)"
        " VALUES (10, 1, 0, 0, 'grant', 'x', 'now')",
        "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, reason, created_at)"
        " VALUES (10, 99, 5, 5, 'grant', 'x', 'now')",
        "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, reason, created_at)"
        " VALUES (10, 1, 5, 5, 'escrow', 'x', 'now')",
        "INSERT INTO escrow_pools (table_id, guild_id, amount) VALUES ('t', 10, -5)",
    ],
    ids=["negative", "fraction", "zero-delta", "no-account", "escrow-no-table", "negative-pool"],
)
async def test_the_schema_refuses_impossible_rows(store, path, statement):
    await store.balance(GUILD, ANN)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA foreign_keys = ON")
        with pytest.raises(sqlite3.IntegrityError):
            db.execute(statement)
    assert await store.audit(GUILD) == (START, 0, START)


async def test_tables_are_saved_replaced_loaded_and_deleted(store):
    assert await store.load_tables() == []
    await store.save_table("b", GUILD, 2, "{}")
    await store.save_table("a", GUILD, 1, '{"v": 1}')
    await store.save_table("a", GUILD, 3, '{"v": 2}')
    assert await store.load_tables() == [("a", GUILD, 3, '{"v": 2}'), ("b", GUILD, 2, "{}")]
    await store.delete_table("a")
    await store.delete_table("never-saved")
    assert await store.load_tables() == [("b", GUILD, 2, "{}")]


async def test_deleting_a_table_keeps_its_escrow_for_the_orphan_return(store):
    await store.escrow(GUILD, ANN, "t", 100)
    await store.save_table("t", GUILD, 1, "{}")
    await store.delete_table("t")
    assert await store.table_escrow("t") == 100


async def test_saved_table_arguments_are_checked(store):
    with pytest.raises(TypeError):
        await store.save_table("t", GUILD, 1, {"not": "text"})
    with pytest.raises(TypeError):
        await store.save_table("t", GUILD, True, "{}")
    with pytest.raises(ValueError):
        await store.delete_table("")
    assert await store.load_tables() == []


async def test_settings_are_set_replaced_and_removed_per_scope(store):
    assert await store.get_setting("user:1", "dm") is None
    await store.set_setting("user:1", "dm", "true")
    await store.set_setting("user:2", "dm", "false")
    await store.set_setting("user:1", "dm", "false")
    await store.set_setting("channel:9", "rules", '{"ante": 2}')
    assert await store.get_setting("user:1", "dm") == "false"
    assert await store.get_setting("user:2", "dm") == "false"
    assert await store.get_setting("channel:9", "rules") == '{"ante": 2}'
    await store.set_setting("user:1", "dm", None)
    await store.set_setting("user:1", "never-set", None)
    assert await store.get_setting("user:1", "dm") is None
    assert await store.get_setting("user:2", "dm") == "false"
    with pytest.raises(TypeError):
        await store.set_setting("user:1", "dm", True)
    with pytest.raises(ValueError):
        await store.get_setting("", "dm")


def test_the_shipped_migrations_are_complete_statements():
    shipped = load_migrations()
    initial, results = shipped[:2]
    assert (initial.version, initial.name, results.name) == (1, "initial", "results")
    triggers = [s for s in initial.statements if s.startswith("CREATE TRIGGER")]
    assert len(triggers) == 2
    assert all(s.rstrip().endswith("END;") for s in triggers)
    assert all(sqlite3.complete_statement(s) for m in shipped for s in m.statements)


def test_split_statements_refuses_an_unfinished_script():
    assert split_statements("-- a comment\nCREATE TABLE a (x);\n-- trailing note\n") == (
        "-- a comment\nCREATE TABLE a (x);",
    )
    with pytest.raises(ValueError, match="incomplete"):
        split_statements("CREATE TABLE a (x);\nCREATE TABLE b (y)")


@pytest.mark.parametrize(
    "names",
    [["0001_initial.sql", "0003_later.sql"], ["0001_a.sql", "0001_b.sql"], ["1_bad.sql"]],
    ids=["gap", "duplicate", "misnamed"],
)
def test_misnumbered_migration_files_are_refused(tmp_path, names):
    for name in names:
        (tmp_path / name).write_text("SELECT 1;\n")
    with pytest.raises(ValueError):
        load_migrations(tmp_path)


async def test_the_burn_migration_keeps_every_ledger_row_its_ids_and_the_triggers(path):
    older = load_migrations()[:3]
    async with SqliteStore(path, starting_chips=START, migrations=older) as store:
        await store.transfer(GUILD, ANN, BEN, 30)
        before = await store.ledger(GUILD, ANN) + await store.ledger(GUILD, BEN)
    async with SqliteStore(path, starting_chips=START) as store:
        assert await store.ledger(GUILD, ANN) + await store.ledger(GUILD, BEN) == before
        assert await store.burn(GUILD, BEN, 30, "admin_take") == START
        last = (await store.ledger(GUILD, BEN))[-1]
        assert last.kind == "burn" and last.id == max(entry.id for entry in before) + 1
        assert await store.audit(GUILD) == (2 * START - 30, 0, 2 * START - 30)
    for statement in ("UPDATE ledger SET delta = 1", "DELETE FROM ledger"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"), \
                sqlite3.connect(path) as db:
            db.execute(statement)
