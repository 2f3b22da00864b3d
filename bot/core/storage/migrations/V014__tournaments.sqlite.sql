-- Tournaments (RULES 11), their entries, and the ledger's prize pools. A tournament's buy-ins are
-- wallet chips held in its prize pool (``tournaments.prize_pool``) until they are paid out or given
-- back, so the ledger gets a fourth place a chip can be, ``pool_delta`` (with the tournament it
-- belongs to), and the kinds of its moves. Tournament chips are not wallet chips (11.1): the tables
-- of a tournament carry its id, and their seats' and hands' chips count in its own audit, not the
-- wallets'.
--
-- The ledger is built again, as in migration 10.

CREATE TABLE tournaments (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,
    organiser_id   INTEGER NOT NULL,
    game           TEXT NOT NULL CHECK (length(game) BETWEEN 1 AND 16),
    structure      TEXT NOT NULL CHECK (length(structure) BETWEEN 1 AND 16),
    curve          TEXT NOT NULL CHECK (length(curve) BETWEEN 1 AND 16),
    level_unit     TEXT NOT NULL CHECK (level_unit IN ('seconds', 'hands')),
    level_length   INTEGER NOT NULL CHECK (level_length > 0),
    starting_stack INTEGER NOT NULL CHECK (starting_stack > 0),
    buy_in         INTEGER NOT NULL CHECK (buy_in >= 0),
    seats          INTEGER NOT NULL CHECK (seats BETWEEN 2 AND 8),
    start_entrants INTEGER CHECK (start_entrants >= 2),
    start_at       TEXT,
    late_level     INTEGER CHECK (late_level >= 1),
    reentry        INTEGER NOT NULL CHECK (reentry IN (0, 1)),
    state          TEXT NOT NULL
                       CHECK (state IN ('registering', 'running', 'finished', 'cancelled')),
    seed           INTEGER NOT NULL,
    prize_pool     INTEGER NOT NULL DEFAULT 0 CHECK (prize_pool >= 0),
    elapsed        INTEGER NOT NULL DEFAULT 0 CHECK (elapsed >= 0),
    message_id     INTEGER,
    settings       TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    started_at     TEXT,
    ended_at       TEXT,
    CHECK ((start_entrants IS NULL) != (start_at IS NULL)),
    CHECK (reentry = 0 OR late_level IS NOT NULL)
);

CREATE INDEX tournaments_by_guild ON tournaments (guild_id, state, id);

CREATE TABLE tournament_entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       INTEGER NOT NULL,
    entries       INTEGER NOT NULL CHECK (entries >= 1),
    registered_at TEXT NOT NULL,
    place         INTEGER CHECK (place >= 1),
    prize         INTEGER CHECK (prize >= 0),
    PRIMARY KEY (tournament_id, user_id)
);

ALTER TABLE tables ADD COLUMN tournament_id INTEGER REFERENCES tournaments (id);

ALTER TABLE tables ADD COLUMN table_number INTEGER CHECK (table_number >= 1);

CREATE INDEX tables_by_tournament ON tables (tournament_id) WHERE tournament_id IS NOT NULL;

CREATE TABLE ledger_v3 (
    id            INTEGER PRIMARY KEY,
    created_at    TEXT NOT NULL,
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN (
             'starting_grant', 'daily_grant', 'admin_grant', 'admin_take',
             'season_reset', 'buy_in', 'cash_out', 'hand_start', 'hand_result',
             'hand_void', 'house_stake', 'house_return', 'tournament_buy_in',
             'tournament_refund', 'tournament_prize')),
    minted        INTEGER NOT NULL DEFAULT 0,
    wallet_delta  INTEGER NOT NULL DEFAULT 0,
    seat_delta    INTEGER NOT NULL DEFAULT 0,
    hand_delta    INTEGER NOT NULL DEFAULT 0,
    table_id      INTEGER REFERENCES tables (id),
    hand_id       INTEGER REFERENCES hands (id),
    reason        TEXT NOT NULL CHECK (length(reason) > 0),
    actor_id      INTEGER,
    pool_delta    INTEGER NOT NULL DEFAULT 0,
    tournament_id INTEGER REFERENCES tournaments (id),
    CHECK (wallet_delta + seat_delta + hand_delta + pool_delta = minted),
    CHECK (CASE
        WHEN kind IN ('starting_grant', 'daily_grant', 'admin_grant') THEN minted > 0
        WHEN kind = 'admin_take' THEN minted < 0
        WHEN kind IN ('season_reset', 'house_stake', 'house_return') THEN minted != 0
        ELSE minted = 0 END),
    CHECK (minted >= 0 OR (seat_delta = 0 AND hand_delta = 0)),
    CHECK (seat_delta = 0 OR table_id IS NOT NULL),
    CHECK (hand_delta = 0 OR hand_id IS NOT NULL),
    CHECK (pool_delta = 0 OR tournament_id IS NOT NULL)
);

INSERT INTO ledger_v3 (id, created_at, guild_id, user_id, kind, minted, wallet_delta, seat_delta, hand_delta, table_id, hand_id, reason, actor_id) SELECT id, created_at, guild_id, user_id, kind, minted, wallet_delta, seat_delta, hand_delta, table_id, hand_id, reason, actor_id FROM ledger;

DROP TABLE ledger;

ALTER TABLE ledger_v3 RENAME TO ledger;

CREATE INDEX ledger_by_wallet ON ledger (guild_id, user_id);

CREATE INDEX ledger_by_hand ON ledger (hand_id) WHERE hand_id IS NOT NULL;

CREATE INDEX ledger_by_table ON ledger (table_id, user_id) WHERE table_id IS NOT NULL;

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;

CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;

CREATE INDEX ledger_by_tournament ON ledger (tournament_id) WHERE tournament_id IS NOT NULL;
