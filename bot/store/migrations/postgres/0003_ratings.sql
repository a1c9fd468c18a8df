-- Parlour store, schema 3, PostgreSQL: what the boards and /stats read (as
-- migrations/sqlite/0003), kept up to date by the commit that records each result.

-- A member's skill in one game on one server (bot.ratings: Plackett-Luce).
CREATE TABLE ratings (
    guild_id BIGINT NOT NULL,
    game     TEXT NOT NULL,
    user_id  BIGINT NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    display  DOUBLE PRECISION NOT NULL,         -- mu - 3 sigma, the value shown and ranked
    games    INTEGER NOT NULL CHECK (games >= 1), -- rated results
    PRIMARY KEY (guild_id, game, user_id)
);

CREATE INDEX ratings_by_display ON ratings (guild_id, game, display DESC, user_id);

-- Each rated result's change of each member's rating (history for /stats, audit).
CREATE TABLE rating_changes (
    result_id    BIGINT NOT NULL REFERENCES results (id),
    guild_id     BIGINT NOT NULL,
    game         TEXT NOT NULL,
    user_id      BIGINT NOT NULL,
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu           DOUBLE PRECISION NOT NULL,
    sigma        DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (result_id, user_id)
);

CREATE INDEX rating_changes_by_member ON rating_changes (guild_id, game, user_id, result_id);

-- Ranked results per member and game ('' = every game together).
CREATE TABLE member_stats (
    guild_id    BIGINT NOT NULL,
    game        TEXT NOT NULL,
    user_id     BIGINT NOT NULL,
    games       INTEGER NOT NULL CHECK (games >= 1),
    wins        INTEGER NOT NULL CHECK (wins BETWEEN 0 AND games),
    net_chips   BIGINT NOT NULL,                -- chips won - lost at chip tables
    best_place  INTEGER CHECK (best_place >= 1), -- best place of a complete game, if any
    streak      INTEGER NOT NULL CHECK (streak >= 0),      -- wins in a row, up to now
    best_streak INTEGER NOT NULL CHECK (best_streak >= streak),
    PRIMARY KEY (guild_id, game, user_id)
);

CREATE INDEX member_stats_by_wins ON member_stats (guild_id, game, wins DESC, user_id);
CREATE INDEX member_stats_by_games ON member_stats (guild_id, game, games DESC, user_id);

-- The last name a member was seen with (boards name members who left the server by it).
CREATE TABLE member_names (
    guild_id BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    name     TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
