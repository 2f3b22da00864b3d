"""Numbered schema migrations, applied in order at startup.

The file's ``PRAGMA user_version`` is the number of the last migration applied. Each migration
runs in its own ``BEGIN IMMEDIATE`` transaction together with the version bump, so a crash mid-way
leaves the file at the previous version, and the next start simply runs it again. Never edit a
released migration: append a new one.
"""

from __future__ import annotations

from typing import Final

import aiosqlite

from bot.core.storage.errors import SchemaTooNew

# Migration 1: the chips model. Where a chip can be: a wallet, a seat, a live hand. The ledger
# is append-only and every row must balance: what leaves one place enters another, except a
# grant, which mints exactly ``minted`` chips into a wallet.
_CORE: Final = (
    """
    CREATE TABLE wallets (
        guild_id      INTEGER NOT NULL,
        user_id       INTEGER NOT NULL,
        balance       INTEGER NOT NULL CHECK (balance >= 0),
        created_at    TEXT NOT NULL,
        last_daily_at TEXT,
        PRIMARY KEY (guild_id, user_id)
    )
    """,
    """
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
    )
    """,
    # One open table per channel; closed ones stay for their hands' history.
    "CREATE UNIQUE INDEX tables_open_by_channel ON tables (channel_id) WHERE closed_at IS NULL",
    """
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
    )
    """,
    """
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
    )
    """,
    "CREATE UNIQUE INDEX hands_live_by_table ON hands (table_id) WHERE ended_at IS NULL",
    # An ended hand is history: refusing any change is the last guard against paying twice.
    """
    CREATE TRIGGER hands_ended_are_final BEFORE UPDATE ON hands
    WHEN OLD.ended_at IS NOT NULL
    BEGIN SELECT RAISE(ABORT, 'an ended hand cannot change'); END
    """,
    """
    CREATE TABLE hand_seats (
        hand_id        INTEGER NOT NULL REFERENCES hands (id),
        seat_index     INTEGER NOT NULL CHECK (seat_index >= 0),
        user_id        INTEGER NOT NULL,
        starting_stack INTEGER NOT NULL CHECK (starting_stack >= 0),
        final_stack    INTEGER CHECK (final_stack >= 0),
        PRIMARY KEY (hand_id, seat_index),
        UNIQUE (hand_id, user_id)
    )
    """,
    "CREATE INDEX hand_seats_by_user ON hand_seats (user_id, hand_id)",
    """
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
    )
    """,
    "CREATE INDEX ledger_by_wallet ON ledger (guild_id, user_id)",
    "CREATE INDEX ledger_by_hand ON ledger (hand_id) WHERE hand_id IS NOT NULL",
    """
    CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
    BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END
    """,
    """
    CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
    BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END
    """,
)

# Migration 2: the leaderboard ranks wallet + chips at tables. Summing seats per wallet at query
# time can't meet 5 ms with 100,000 wallets, so each wallet keeps its seated chips (seat stacks
# plus stacks brought into live hands) and its total, updated in the same transactions that move
# them; a CHECK keeps the total honest. The total is a plain column, not an expression, so its
# index covers the rank count (SQLite 3.40 won't treat an expression index as covering, which
# makes that count ~50% slower). Adding columns with a CHECK over existing rows needs the table
# rebuilt, in the documented create-copy-drop-rename order.
_LEADERBOARD: Final = (
    """
    CREATE TABLE wallets_v2 (
        guild_id      INTEGER NOT NULL,
        user_id       INTEGER NOT NULL,
        balance       INTEGER NOT NULL CHECK (balance >= 0),
        seated        INTEGER NOT NULL CHECK (seated >= 0),
        total         INTEGER NOT NULL,
        created_at    TEXT NOT NULL,
        last_daily_at TEXT,
        PRIMARY KEY (guild_id, user_id),
        CHECK (total = balance + seated)
    )
    """,
    """
    INSERT INTO wallets_v2 (guild_id, user_id, balance, seated, total, created_at, last_daily_at)
    WITH at_tables (guild_id, user_id, chips) AS (
        SELECT tables.guild_id, seats.user_id, seats.stack
        FROM seats JOIN tables ON tables.id = seats.table_id
        UNION ALL
        SELECT tables.guild_id, hand_seats.user_id, hand_seats.starting_stack
        FROM hand_seats
        JOIN hands ON hands.id = hand_seats.hand_id
        JOIN tables ON tables.id = hands.table_id
        WHERE hands.ended_at IS NULL
    ), seated (guild_id, user_id, chips) AS (
        SELECT guild_id, user_id, sum(chips) FROM at_tables GROUP BY guild_id, user_id
    )
    SELECT w.guild_id, w.user_id, w.balance, coalesce(s.chips, 0),
           w.balance + coalesce(s.chips, 0), w.created_at, w.last_daily_at
    FROM wallets AS w LEFT JOIN seated AS s USING (guild_id, user_id)
    """,
    "DROP TABLE wallets",
    "ALTER TABLE wallets_v2 RENAME TO wallets",
    "CREATE INDEX wallets_by_total ON wallets (guild_id, total DESC, user_id)",
)

# Migration 3: the message that shows each table, so a restart can take its buttons away.
_TABLE_MESSAGE: Final = ("ALTER TABLE tables ADD COLUMN message_id INTEGER",)

# Migration 4: small facts about the process, by key (e.g. the digest of the last command sync).
_META: Final = ("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",)

# Migration 5: players as the bot last saw them. With no Members intent there is no member
# cache, so the name a player last went by on a server is kept for histories, restored tables
# and the leaderboard; and each user's choice of deck for the pictures only he sees (DMs,
# My cards), wherever he plays.
_PLAYERS: Final = (
    """
    CREATE TABLE player_names (
        guild_id INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        name     TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        seen_at  TEXT NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    )
    """,
    """
    CREATE TABLE player_settings (
        user_id     INTEGER PRIMARY KEY,
        four_colour INTEGER NOT NULL CHECK (four_colour IN (0, 1))
    )
    """,
)

# Migration 6: a channel's latest table, and that table's ledger rows and hands, found without
# reading every table's: the session ledger (/table ledger) and a player's hands at one table
# (/history session).
_BY_TABLE: Final = (
    "CREATE INDEX tables_by_channel ON tables (channel_id, id)",
    "CREATE INDEX ledger_by_table ON ledger (table_id, user_id) WHERE table_id IS NOT NULL",
    "CREATE INDEX hands_by_table ON hands (table_id, id)",
)

# Migration 7: each seated player's time bank (issue 12), in seconds; NULL is a full one.
_TIME_BANK: Final = (
    "ALTER TABLE seats ADD COLUMN time_bank REAL CHECK (time_bank IS NULL OR time_bank >= 0)",
)

MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    _CORE,
    _LEADERBOARD,
    _TABLE_MESSAGE,
    _META,
    _PLAYERS,
    _BY_TABLE,
    _TIME_BANK,
)
LATEST: Final = len(MIGRATIONS)


async def schema_version(db: aiosqlite.Connection) -> int:
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def migrate(db: aiosqlite.Connection, target: int = LATEST) -> int:
    """Apply migrations up to ``target`` (tests build old files with a lower one).

    Returns the version reached. ``db`` must be in autocommit mode (``isolation_level=None``).
    """
    current = await schema_version(db)
    if current > LATEST:
        raise SchemaTooNew(
            f"the database is at schema {current} but this bot only knows up to {LATEST}: "
            "run a newer version of the bot"
        )
    for number in range(current + 1, target + 1):
        await db.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the write lock.
            if await schema_version(db) >= number:
                await db.execute("ROLLBACK")
                continue
            for statement in MIGRATIONS[number - 1]:
                await db.execute(statement)
            await db.execute(f"PRAGMA user_version = {number:d}")
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        await db.execute("COMMIT")
    return await schema_version(db)
