-- Stats, counted as each hand settles, in the same transaction. A guild's season (``seasons``, no
-- row: the first) starts again at ``/chips reset`` and keys every figure, so seasons never mix.
-- ``player_stats`` holds one row per player, period bucket and game: ``period`` is 'day', 'week'
-- (from Monday) or 'month', each bucket named by its first day (``since``: days since 1970-01-01,
-- UTC), or 'all' (``since`` 0) for the whole season. ``game`` is the game's key or 'all' for every
-- game together. So any leaderboard is a walk of ``player_stats_by_net`` (its top ten) plus a count
-- along it (the caller's rank), and a player's figures are a few rows of the primary key, however
-- many hands were played. Only the current day, week and month are asked for: a player's past ones
-- are deleted when he next plays. ``recent_hands`` keeps each player's last hands of each game, a
-- ring of ``slot``s a settlement overwrites in turn, for the chart of his net. Both grow with
-- players, not with hands.

CREATE TABLE seasons (
    guild_id   BIGINT PRIMARY KEY,
    season     BIGINT NOT NULL CHECK (season >= 2),
    started_at TEXT NOT NULL
);

CREATE TABLE player_stats (
    guild_id     BIGINT NOT NULL,
    season       BIGINT NOT NULL CHECK (season >= 1),
    user_id      BIGINT NOT NULL,
    period       TEXT NOT NULL CHECK (period IN ('day', 'week', 'month', 'all')),
    since        BIGINT NOT NULL CHECK (since >= 0),
    game         TEXT NOT NULL CHECK (length(game) BETWEEN 1 AND 16),
    hands        BIGINT NOT NULL CHECK (hands > 0),
    won          BIGINT NOT NULL CHECK (won BETWEEN 0 AND hands),
    showdowns    BIGINT NOT NULL CHECK (showdowns BETWEEN 0 AND hands),
    won_showdown BIGINT NOT NULL CHECK (won_showdown BETWEEN 0 AND showdowns),
    vpip         BIGINT NOT NULL CHECK (vpip BETWEEN 0 AND hands),
    net          BIGINT NOT NULL,
    biggest_pot  BIGINT NOT NULL CHECK (biggest_pot >= 0),
    PRIMARY KEY (guild_id, season, user_id, period, since, game),
    CHECK (won_showdown <= won)
);

CREATE INDEX player_stats_by_net ON player_stats (guild_id, season, period, since, game, net DESC, user_id);

CREATE TABLE recent_hands (
    guild_id BIGINT NOT NULL,
    season   BIGINT NOT NULL CHECK (season >= 1),
    user_id  BIGINT NOT NULL,
    game     TEXT NOT NULL CHECK (length(game) BETWEEN 1 AND 16),
    slot     BIGINT NOT NULL CHECK (slot >= 0),
    hand_id  BIGINT NOT NULL,
    day      BIGINT NOT NULL CHECK (day >= 0),
    net      BIGINT NOT NULL,
    PRIMARY KEY (guild_id, season, user_id, game, slot)
);
