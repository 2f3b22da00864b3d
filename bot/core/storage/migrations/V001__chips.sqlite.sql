-- The chips model. Where a chip can be: a wallet, a seat, a live hand. The ledger is append-only
-- and every row must balance: what leaves one place enters another, except a grant, which mints
-- exactly ``minted`` chips into a wallet.

CREATE TABLE wallets (
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    balance       INTEGER NOT NULL CHECK (balance >= 0),
    created_at    TEXT NOT NULL,
    last_daily_at TEXT,
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE tables (
    id         INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL,
    guild_id   INTEGER NOT NULL,
    opener_id  INTEGER NOT NULL,
    max_seats  INTEGER NOT NULL CHECK (max_seats BETWEEN 2 AND 8),
    min_buy_in INTEGER NOT NULL CHECK (min_buy_in > 0),
    max_buy_in INTEGER NOT NULL CHECK (max_buy_in >= min_buy_in),
    settings   TEXT NOT NULL,
    opened_at  TEXT NOT NULL,
    closed_at  TEXT
);

-- One open table per channel. Closed ones stay for their hands' history.
CREATE UNIQUE INDEX tables_open_by_channel ON tables (channel_id) WHERE closed_at IS NULL;

CREATE TABLE seats (
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    user_id     INTEGER NOT NULL,
    position    INTEGER NOT NULL CHECK (position >= 0),
    stack       INTEGER NOT NULL CHECK (stack >= 0),
    sitting_out INTEGER NOT NULL DEFAULT 0 CHECK (sitting_out IN (0, 1)),
    leaving     INTEGER NOT NULL DEFAULT 0 CHECK (leaving IN (0, 1)),
    seated_at   TEXT NOT NULL,
    PRIMARY KEY (table_id, user_id),
    UNIQUE (table_id, position)
);

CREATE TABLE hands (
    id         INTEGER PRIMARY KEY,
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    state      TEXT NOT NULL,
    version    INTEGER NOT NULL DEFAULT 0,
    commitment TEXT NOT NULL CHECK (length(commitment) > 0),
    salt       TEXT NOT NULL,
    started_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    ended_at   TEXT,
    outcome    TEXT CHECK (outcome IN ('settled', 'voided')),
    CHECK ((ended_at IS NULL) = (outcome IS NULL))
);

CREATE UNIQUE INDEX hands_live_by_table ON hands (table_id) WHERE ended_at IS NULL;

-- An ended hand is history: refusing any change is the last guard against paying twice.
CREATE TRIGGER hands_ended_are_final BEFORE UPDATE ON hands
        WHEN OLD.ended_at IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'an ended hand cannot change'); END;

CREATE TABLE hand_seats (
    hand_id        INTEGER NOT NULL REFERENCES hands (id),
    seat_index     INTEGER NOT NULL CHECK (seat_index >= 0),
    user_id        INTEGER NOT NULL,
    starting_stack INTEGER NOT NULL CHECK (starting_stack >= 0),
    final_stack    INTEGER CHECK (final_stack >= 0),
    PRIMARY KEY (hand_id, seat_index),
    UNIQUE (hand_id, user_id)
);

CREATE INDEX hand_seats_by_user ON hand_seats (user_id, hand_id);

CREATE TABLE ledger (
    id           INTEGER PRIMARY KEY,
    created_at   TEXT NOT NULL,
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN (
                     'starting_grant', 'daily_grant', 'admin_grant',
                     'buy_in', 'cash_out', 'hand_start', 'hand_result', 'hand_void')),
    minted       INTEGER NOT NULL DEFAULT 0,
    wallet_delta INTEGER NOT NULL DEFAULT 0,
    seat_delta   INTEGER NOT NULL DEFAULT 0,
    hand_delta   INTEGER NOT NULL DEFAULT 0,
    table_id     INTEGER REFERENCES tables (id),
    hand_id      INTEGER REFERENCES hands (id),
    reason       TEXT NOT NULL CHECK (length(reason) > 0),
    actor_id     INTEGER,
    CHECK (wallet_delta + seat_delta + hand_delta = minted),
    CHECK ((kind IN ('starting_grant', 'daily_grant', 'admin_grant')) = (minted > 0)),
    CHECK (seat_delta = 0 OR table_id IS NOT NULL),
    CHECK (hand_delta = 0 OR hand_id IS NOT NULL)
);

CREATE INDEX ledger_by_wallet ON ledger (guild_id, user_id);

CREATE INDEX ledger_by_hand ON ledger (hand_id) WHERE hand_id IS NOT NULL;

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;

CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
