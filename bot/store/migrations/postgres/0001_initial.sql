-- Parlour store, schema 1 (DESIGN.md §5), PostgreSQL: accounts, the append-only ledger,
-- table escrow, saved tables and settings. The same schema as migrations/sqlite/0001 in
-- PostgreSQL's own SQL: BIGINT chips and snowflakes, identity ids, a trigger function.
-- Instants are ISO 8601 UTC text, as in SQLite, so both stores share their code.

-- One member's chips on one server.
CREATE TABLE accounts (
    guild_id   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    balance    BIGINT NOT NULL CHECK (balance >= 0),
    last_daily TEXT,                         -- ISO 8601 UTC instant of the last daily claim
    created_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE INDEX accounts_by_balance ON accounts (guild_id, balance DESC, user_id);

-- Every change of a balance, never updated nor deleted (triggers below).
CREATE TABLE ledger (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id      BIGINT NOT NULL,
    user_id       BIGINT NOT NULL,
    delta         BIGINT NOT NULL CHECK (delta <> 0),
    balance_after BIGINT NOT NULL CHECK (balance_after >= 0),
    kind          TEXT NOT NULL,
    reason        TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 64),
    table_id      TEXT,
    other_user_id BIGINT,
    created_at    TEXT NOT NULL,
    FOREIGN KEY (guild_id, user_id) REFERENCES accounts (guild_id, user_id),
    CONSTRAINT ledger_kind
        CHECK (kind IN ('grant', 'transfer', 'escrow', 'settle', 'orphan_return')),
    CHECK (kind <> 'grant' OR delta > 0),
    CONSTRAINT ledger_taking_kinds CHECK (kind <> 'escrow' OR delta < 0),
    CHECK (kind NOT IN ('settle', 'orphan_return') OR delta > 0),
    CHECK ((kind IN ('escrow', 'settle', 'orphan_return')) = (table_id IS NOT NULL)),
    CHECK ((kind = 'transfer') = (other_user_id IS NOT NULL))
);

CREATE INDEX ledger_by_account ON ledger (guild_id, user_id, id);

CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the ledger is append-only';
END;
$$;

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

CREATE TRIGGER ledger_no_truncate BEFORE TRUNCATE ON ledger
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

-- The chips a table holds for its ranked seats: one pool per table.
CREATE TABLE escrow_pools (
    table_id TEXT PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    amount   BIGINT NOT NULL CHECK (amount >= 0)
);

-- Each member's claim on a pool: chips escrowed and not yet settled, and escrowed in total.
CREATE TABLE escrow_contributions (
    table_id    TEXT NOT NULL REFERENCES escrow_pools (table_id) ON DELETE CASCADE,
    user_id     BIGINT NOT NULL,
    outstanding BIGINT NOT NULL CHECK (outstanding >= 0),
    escrowed    BIGINT NOT NULL CHECK (escrowed >= outstanding),
    PRIMARY KEY (table_id, user_id)
);

-- Live tables saved after every applied action (opaque JSON from the runtime).
CREATE TABLE saved_tables (
    table_id   TEXT PRIMARY KEY,
    guild_id   BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    data       TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

-- Small JSON values per scope ("user:123", "channel:456").
CREATE TABLE settings (
    scope TEXT NOT NULL,
    key   TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (scope, key)
);
