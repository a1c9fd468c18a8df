-- Parlour store, schema 5, PostgreSQL: /stats reads one member's rows of every game by this
-- index (the primary key starts with the game).
CREATE INDEX member_stats_by_member ON member_stats (guild_id, user_id, game);
