-- Parlour store, schema 4, PostgreSQL: chips an admin takes away are burned (ledger kind
-- 'burn'), and the daily claim keeps a streak (as migrations/sqlite/0004, which has to
-- rebuild the ledger; PostgreSQL replaces the two CHECKs in place, rows and ids untouched).

ALTER TABLE ledger
    DROP CONSTRAINT ledger_kind,
    ADD CONSTRAINT ledger_kind CHECK (kind IN ('grant', 'burn', 'transfer', 'escrow', 'settle',
                                               'orphan_return')),
    DROP CONSTRAINT ledger_taking_kinds,
    ADD CONSTRAINT ledger_taking_kinds CHECK (kind NOT IN ('burn', 'escrow') OR delta < 0);

-- Days in a row the member claimed the daily chips (a claim within 48 h of the last one
-- continues the streak).
ALTER TABLE accounts ADD COLUMN daily_streak INTEGER NOT NULL DEFAULT 0
    CHECK (daily_streak >= 0);
