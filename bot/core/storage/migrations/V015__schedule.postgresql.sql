-- Tournaments that start at a set time (RULES 11.1). ``start_at`` is migration 14's; what a timed
-- start adds is remembered here so that a restart neither loses nor repeats it: the Discord
-- scheduled event made for the tournament (``event_id``, none without Manage Events) and whether
-- the lobby's channel was reminded of the start (``reminded``).

ALTER TABLE tournaments ADD COLUMN event_id BIGINT;

ALTER TABLE tournaments ADD COLUMN reminded BIGINT NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1));
