-- The cluster's live state (``coordination.py``): who takes no DMs and until when, the invalid
-- requests Discord counted against the bot's IP per minute, the turns to IDENTIFY per
-- max_concurrency bucket, the gateway sessions started per UTC day and the processes started
-- lately. Times are seconds since the epoch.

CREATE TABLE dms_closed (
    user_id       BIGINT PRIMARY KEY,
    closed_at     DOUBLE PRECISION NOT NULL,
    retry_at      DOUBLE PRECISION NOT NULL
);

CREATE TABLE invalid_requests (
    minute        BIGINT PRIMARY KEY,
    count         BIGINT NOT NULL CHECK (count >= 0)
);

CREATE TABLE identify_turns (
    bucket        BIGINT PRIMARY KEY,
    next_at       DOUBLE PRECISION NOT NULL
);

CREATE TABLE gateway_starts (
    day           TEXT PRIMARY KEY,
    count         BIGINT NOT NULL CHECK (count >= 0)
);

CREATE TABLE process_starts (
    shards        TEXT NOT NULL,
    started_at    DOUBLE PRECISION NOT NULL
);

CREATE INDEX process_starts_by_shards ON process_starts (shards, started_at);
