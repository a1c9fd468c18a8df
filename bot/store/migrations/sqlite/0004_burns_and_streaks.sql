-- Parlour store, schema 4: chips an admin takes away are burned (ledger kind 'burn'), and
-- the daily claim keeps a streak. SQLite cannot alter a CHECK, so the ledger is rebuilt
-- with every row, id and the append-only triggers kept.

CREATE TABLE ledger_v4 (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    delta         INTEGER NOT NULL CHECK (typeof(delta) = 'integer' AND delta <> 0),
    balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
    kind          TEXT NOT NULL CHECK (kind IN ('grant', 'burn', 'transfer', 'escrow', 'settle',
                                                'orphan_return')),
    reason        TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 64),
    table_id      TEXT,
    other_user_id INTEGER,
    created_at    TEXT NOT NULL,
    FOREIGN KEY (guild_id, user_id) REFERENCES accounts (guild_id, user_id),
    CHECK (kind <> 'grant' OR delta > 0),
    CHECK (kind NOT IN ('burn', 'escrow') OR delta < 0),
    CHECK (kind NOT IN ('settle', 'orphan_return') OR delta > 0),
    CHECK ((kind IN ('escrow', 'settle', 'orphan_return')) = (table_id IS NOT NULL)),
    CHECK ((kind = 'transfer') = (other_user_id IS NOT NULL))
);

INSERT INTO ledger_v4 (id, guild_id, user_id, delta, balance_after, kind, reason, table_id,
                       other_user_id, created_at)
SELECT id, guild_id, user_id, delta, balance_after, kind, reason, table_id, other_user_id,
       created_at
FROM ledger ORDER BY id;

DROP TABLE ledger;

ALTER TABLE ledger_v4 RENAME TO ledger;

CREATE INDEX ledger_by_account ON ledger (guild_id, user_id, id);

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

-- Days in a row the member claimed the daily chips (a claim within 48 h of the last one
-- continues the streak).
ALTER TABLE accounts ADD COLUMN daily_streak INTEGER NOT NULL DEFAULT 0
    CHECK (daily_streak >= 0);
