-- The house. A server's house wallet (user 0) stakes the computer players (negative user ids) and
-- takes back what they cash out: ``house_stake`` and ``house_return`` rows move chips between two
-- wallets, a row each, so each row's ``minted`` is what enters or leaves its wallet and the pair's
-- add up to zero (the audit checks every guild's). The kinds are new to the ledger's CHECKs.
--
-- The ledger is built again, as in migration 10.

CREATE TABLE ledger_v3 (
    id           INTEGER PRIMARY KEY,
    created_at   TEXT NOT NULL,
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN (
                 'starting_grant', 'daily_grant', 'admin_grant', 'admin_take',
                 'season_reset', 'buy_in', 'cash_out', 'hand_start', 'hand_result',
                 'hand_void', 'house_stake', 'house_return')),
    minted       INTEGER NOT NULL DEFAULT 0,
    wallet_delta INTEGER NOT NULL DEFAULT 0,
    seat_delta   INTEGER NOT NULL DEFAULT 0,
    hand_delta   INTEGER NOT NULL DEFAULT 0,
    table_id     INTEGER REFERENCES tables (id),
    hand_id      INTEGER REFERENCES hands (id),
    reason       TEXT NOT NULL CHECK (length(reason) > 0),
    actor_id     INTEGER,
    CHECK (wallet_delta + seat_delta + hand_delta = minted),
    CHECK (CASE
        WHEN kind IN ('starting_grant', 'daily_grant', 'admin_grant') THEN minted > 0
        WHEN kind = 'admin_take' THEN minted < 0
        WHEN kind IN ('season_reset', 'house_stake', 'house_return') THEN minted != 0
        ELSE minted = 0 END),
    CHECK (minted >= 0 OR (seat_delta = 0 AND hand_delta = 0)),
    CHECK (seat_delta = 0 OR table_id IS NOT NULL),
    CHECK (hand_delta = 0 OR hand_id IS NOT NULL)
);

INSERT INTO ledger_v3 SELECT * FROM ledger;

DROP TABLE ledger;

ALTER TABLE ledger_v3 RENAME TO ledger;

CREATE INDEX ledger_by_wallet ON ledger (guild_id, user_id);

CREATE INDEX ledger_by_hand ON ledger (hand_id) WHERE hand_id IS NOT NULL;

CREATE INDEX ledger_by_table ON ledger (table_id, user_id) WHERE table_id IS NOT NULL;

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;

CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
