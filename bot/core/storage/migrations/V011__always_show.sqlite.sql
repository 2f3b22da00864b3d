-- A player may show every hand at a showdown (RULES 5.6). By default a loser mucks unseen.

ALTER TABLE player_settings ADD COLUMN always_show INTEGER NOT NULL DEFAULT 0 CHECK (always_show IN (0, 1));
