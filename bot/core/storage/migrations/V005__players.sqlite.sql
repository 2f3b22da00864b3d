-- Players as the bot last saw them. With no Members intent there is no member cache, so the name a
-- player last went by on a server is kept for histories, restored tables and the leaderboard, and
-- each user's deck for the pictures only he sees, wherever he plays.

CREATE TABLE player_names (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    name     TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    seen_at  TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE player_settings (
    user_id     INTEGER PRIMARY KEY,
    four_colour INTEGER NOT NULL CHECK (four_colour IN (0, 1))
);
