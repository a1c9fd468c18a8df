-- Parlour store, schema 6: a live table's game log, kept apart from its snapshot and
-- only appended to: each commit of a change adds one row holding the events the change logged
-- (a JSON array, oldest first), numbered by the game's count of logged events after them, so
-- what a commit writes does not grow with the length of the game. Restoring reads the rows in
-- order; the rows go with the saved table.
CREATE TABLE table_logs (
    table_id TEXT NOT NULL,
    upto     INTEGER NOT NULL,
    events   TEXT NOT NULL,
    PRIMARY KEY (table_id, upto)
);
