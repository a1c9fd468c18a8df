-- Parlour store, schema 2, PostgreSQL: the results of finished games (as migrations/sqlite/0002).
-- One row per finished table and one per seat; the leaderboard, stats and ratings read them.

CREATE TABLE results (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id    BIGINT NOT NULL,
    channel_id  BIGINT NOT NULL,
    table_id    TEXT NOT NULL,
    game        TEXT NOT NULL CHECK (length(game) BETWEEN 1 AND 32),
    ranked      INTEGER NOT NULL CHECK (ranked IN (0, 1)),   -- members only, nobody replaced
    complete    INTEGER NOT NULL CHECK (complete IN (0, 1)), -- played to the rules' end
    options     TEXT NOT NULL,                               -- JSON of the table's options
    outcome     TEXT NOT NULL,                               -- JSON of engine.core.Outcome
    finished_at TEXT NOT NULL
);

CREATE INDEX results_by_game ON results (guild_id, game, id);

CREATE TABLE result_seats (
    result_id BIGINT NOT NULL REFERENCES results (id),
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    user_id   BIGINT,                         -- NULL: an AI seat
    name      TEXT NOT NULL,                  -- the name shown at the table
    team      INTEGER,                        -- index into the outcome's teams, if any
    place     INTEGER NOT NULL CHECK (place >= 1),
    score     BIGINT NOT NULL,                -- the game's own measure (chips, points)
    chips     BIGINT,                         -- chips won (+) or lost (-), chip games only
    PRIMARY KEY (result_id, seat)
);

CREATE INDEX result_seats_by_member ON result_seats (user_id, result_id);
