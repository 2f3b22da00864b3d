"""Numbered schema migrations, applied in order at startup, the same on SQLite and PostgreSQL.

The number of the last migration applied is a SQLite file's ``PRAGMA user_version``, and the one
row of the ``schema_version`` table in a PostgreSQL database. Each migration runs in its own
transaction together with the version bump, holding the database's write lock (``BEGIN
IMMEDIATE``; PostgreSQL's DDL is transactional too), so a crash mid-way leaves the database at
the previous version, and the next start simply runs it again. Never edit a released migration:
append a new one.

The statements are SQLite's; :func:`for_postgresql` maps their types, and the few that differ
more (triggers) are written for each database (:class:`Dialects`).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Final

import aiosqlite
import asyncpg

from bot.core.storage import coordination, migration_tournaments
from bot.core.storage.backend import WRITE_LOCK
from bot.core.storage.dialects import Dialects, Statement, sqlite_ledger_swap
from bot.core.storage.errors import SchemaTooNew
from bot.core.storage.migration_house import HOUSE_MIGRATION, HOUSE_MINTED_BY_KIND
from bot.core.storage.migration_positions import POSITIONS_MIGRATION
from bot.core.storage.migration_registrations import REGISTRATIONS_MIGRATION
from bot.core.storage.migration_schedule import SCHEDULE_MIGRATION

# PostgreSQL's triggers call a function: this one refuses the change with the message the
# trigger passes (the same messages as SQLite's RAISE), as an integrity error like SQLite's.
_REFUSE_FUNCTION: Final = Dialects(
    sqlite=None,
    postgresql="""
    CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION USING ERRCODE = 'restrict_violation', MESSAGE = TG_ARGV[0];
    END
    $$
    """,
)

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
    _REFUSE_FUNCTION,
    # An ended hand is history: refusing any change is the last guard against paying twice.
    Dialects(
        sqlite="""
        CREATE TRIGGER hands_ended_are_final BEFORE UPDATE ON hands
        WHEN OLD.ended_at IS NOT NULL
        BEGIN SELECT RAISE(ABORT, 'an ended hand cannot change'); END
        """,
        postgresql="""
        CREATE TRIGGER hands_ended_are_final BEFORE UPDATE ON hands FOR EACH ROW
        WHEN (OLD.ended_at IS NOT NULL)
        EXECUTE FUNCTION refuse_change('an ended hand cannot change')
        """,
    ),
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
    Dialects(
        sqlite="""
        CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END
        """,
        postgresql="""
        CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger FOR EACH ROW
        EXECUTE FUNCTION refuse_change('the ledger is append-only')
        """,
    ),
    Dialects(
        sqlite="""
        CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END
        """,
        postgresql="""
        CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger FOR EACH ROW
        EXECUTE FUNCTION refuse_change('the ledger is append-only')
        """,
    ),
    # Row triggers don't see TRUNCATE, which SQLite doesn't have.
    Dialects(
        sqlite=None,
        postgresql="""
        CREATE TRIGGER ledger_no_truncate BEFORE TRUNCATE ON ledger FOR EACH STATEMENT
        EXECUTE FUNCTION refuse_change('the ledger is append-only')
        """,
    ),
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
# and the leaderboard; and each user's deck for the pictures only he sees, wherever he plays.
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
# reading every table's: the session ledger and a player's hands at one table (/history).
_BY_TABLE: Final = (
    "CREATE INDEX tables_by_channel ON tables (channel_id, id)",
    "CREATE INDEX ledger_by_table ON ledger (table_id, user_id) WHERE table_id IS NOT NULL",
    "CREATE INDEX hands_by_table ON hands (table_id, id)",
)

# Migration 7: each seated player's time bank, in seconds; NULL is a full one.
_TIME_BANK: Final = (
    "ALTER TABLE seats ADD COLUMN time_bank REAL CHECK (time_bank IS NULL OR time_bank >= 0)",
)

# Migration 8: a hand's state is bytes: ``engine.codec`` packs a hand in about
# 120 bytes, where its JSON took 1.1 KB. Hands saved before keep their JSON, now as its UTF-8
# bytes, which the same decoder reads: an ended hand is history, never rewritten in a new form,
# and re-encoding years of hands would hold the write lock through a long startup. SQLite keeps
# the column's declared TEXT (changing it means rebuilding the table the ledger references): a
# BLOB is stored as one whatever the declared type, so only the old values are cast, around the
# trigger that keeps ended hands unchanged.
_COMPACT_HANDS: Final = (
    Dialects(sqlite="DROP TRIGGER hands_ended_are_final", postgresql=None),
    Dialects(
        sqlite="UPDATE hands SET state = CAST(state AS BLOB) WHERE typeof(state) = 'text'",
        postgresql="ALTER TABLE hands ALTER COLUMN state TYPE BYTEA"
        " USING convert_to(state, 'UTF8')",
    ),
    Dialects(
        sqlite="""
        CREATE TRIGGER hands_ended_are_final BEFORE UPDATE ON hands
        WHEN OLD.ended_at IS NOT NULL
        BEGIN SELECT RAISE(ABORT, 'an ended hand cannot change'); END
        """,
        postgresql=None,
    ),
)

# Migration 9: stats, counted as each hand settles, in the same
# transaction. A guild's season (``seasons``; no row: the first) starts again at ``/chips reset``
# and keys every figure, so seasons never mix. ``player_stats`` holds one row per player, period
# bucket and game: ``period`` is 'day', 'week' (from Monday) or 'month', each bucket named by its
# first day (``since``: days since 1970-01-01, UTC), or 'all' (``since`` 0) for the whole season;
# ``game`` is the game's key or 'all' for every game together. So any leaderboard is a walk of
# ``player_stats_by_net`` (its top ten) plus a count along it (the caller's rank), and a player's
# figures are a few rows of the primary key, however many hands were played. Only the current
# day, week and month are asked for: a player's past ones are deleted when he next plays.
# ``recent_hands`` keeps each player's last hands of each game, a ring of ``slot``s a settlement
# overwrites in turn, for the chart of his net. Both grow with players, not with hands.
_STATS: Final = (
    """
    CREATE TABLE seasons (
        guild_id   INTEGER PRIMARY KEY,
        season     INTEGER NOT NULL CHECK (season >= 2),
        started_at TEXT NOT NULL
    )
    """,
    """
    CREATE TABLE player_stats (
        guild_id     INTEGER NOT NULL,
        season       INTEGER NOT NULL CHECK (season >= 1),
        user_id      INTEGER NOT NULL,
        period       TEXT NOT NULL CHECK (period IN ('day', 'week', 'month', 'all')),
        since        INTEGER NOT NULL CHECK (since >= 0),
        game         TEXT NOT NULL CHECK (length(game) BETWEEN 1 AND 16),
        hands        INTEGER NOT NULL CHECK (hands > 0),
        won          INTEGER NOT NULL CHECK (won BETWEEN 0 AND hands),
        showdowns    INTEGER NOT NULL CHECK (showdowns BETWEEN 0 AND hands),
        won_showdown INTEGER NOT NULL CHECK (won_showdown BETWEEN 0 AND showdowns),
        vpip         INTEGER NOT NULL CHECK (vpip BETWEEN 0 AND hands),
        net          INTEGER NOT NULL,
        biggest_pot  INTEGER NOT NULL CHECK (biggest_pot >= 0),
        PRIMARY KEY (guild_id, season, user_id, period, since, game),
        CHECK (won_showdown <= won)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX player_stats_by_net"
    " ON player_stats (guild_id, season, period, since, game, net DESC, user_id)",
    """
    CREATE TABLE recent_hands (
        guild_id INTEGER NOT NULL,
        season   INTEGER NOT NULL CHECK (season >= 1),
        user_id  INTEGER NOT NULL,
        game     TEXT NOT NULL CHECK (length(game) BETWEEN 1 AND 16),
        slot     INTEGER NOT NULL CHECK (slot >= 0),
        hand_id  INTEGER NOT NULL,
        day      INTEGER NOT NULL CHECK (day >= 0),
        net      INTEGER NOT NULL,
        PRIMARY KEY (guild_id, season, user_id, game, slot)
    ) WITHOUT ROWID
    """,
)

# Migration 10: admins take chips (``admin_take``, a negative ``minted`` out of a wallet only) and
# start a new season (``season_reset``: each wallet back to the starting chips, the difference
# minted or burned); /daily counts its streak. The ledger's CHECKs change, which SQLite can only
# do by building the table again (create, copy, drop, rename, then its indexes and triggers);
# PostgreSQL swaps the constraints (named as it named them in migration 1).
_LEDGER_KINDS: Final = """kind IN (
                         'starting_grant', 'daily_grant', 'admin_grant', 'admin_take',
                         'season_reset', 'buy_in', 'cash_out', 'hand_start', 'hand_result',
                         'hand_void')"""
_MINTED_BY_KIND: Final = """CASE
            WHEN kind IN ('starting_grant', 'daily_grant', 'admin_grant') THEN minted > 0
            WHEN kind = 'admin_take' THEN minted < 0
            WHEN kind = 'season_reset' THEN minted != 0
            ELSE minted = 0 END"""
_BURNS_FROM_WALLETS: Final = "minted >= 0 OR (seat_delta = 0 AND hand_delta = 0)"
_ECONOMY: Final[tuple[Statement, ...]] = (
    Dialects(
        sqlite=f"""
        CREATE TABLE ledger_v2 (
            id           INTEGER PRIMARY KEY,
            created_at   TEXT NOT NULL,
            guild_id     INTEGER NOT NULL,
            user_id      INTEGER NOT NULL,
            kind         TEXT NOT NULL CHECK ({_LEDGER_KINDS}),
            minted       INTEGER NOT NULL DEFAULT 0,
            wallet_delta INTEGER NOT NULL DEFAULT 0,
            seat_delta   INTEGER NOT NULL DEFAULT 0,
            hand_delta   INTEGER NOT NULL DEFAULT 0,
            table_id     INTEGER REFERENCES tables (id),
            hand_id      INTEGER REFERENCES hands (id),
            reason       TEXT NOT NULL CHECK (length(reason) > 0),
            actor_id     INTEGER,
            CHECK (wallet_delta + seat_delta + hand_delta = minted),
            CHECK ({_MINTED_BY_KIND}),
            CHECK ({_BURNS_FROM_WALLETS}),
            CHECK (seat_delta = 0 OR table_id IS NOT NULL),
            CHECK (hand_delta = 0 OR hand_id IS NOT NULL)
        )
        """,
        postgresql=f"""
        ALTER TABLE ledger
            DROP CONSTRAINT ledger_kind_check,
            DROP CONSTRAINT ledger_check1,
            ADD CONSTRAINT ledger_kind_check CHECK ({_LEDGER_KINDS}),
            ADD CONSTRAINT ledger_minted_check CHECK ({_MINTED_BY_KIND}),
            ADD CONSTRAINT ledger_burn_check CHECK ({_BURNS_FROM_WALLETS})
        """,
    ),
    Dialects(sqlite="INSERT INTO ledger_v2 SELECT * FROM ledger", postgresql=None),
    *sqlite_ledger_swap("ledger_v2"),
    "ALTER TABLE wallets ADD COLUMN daily_streak INTEGER NOT NULL DEFAULT 0"
    " CHECK (daily_streak >= 0)",
)

# 11: a player may show every hand at a showdown (RULES 5.6); by default a loser mucks unseen.
_ALWAYS_SHOW: Final = (
    "ALTER TABLE player_settings ADD COLUMN always_show INTEGER NOT NULL DEFAULT 0"
    " CHECK (always_show IN (0, 1))",
)
# Migration 14: tournaments, in ``migration_tournaments.py``.
_TOURNAMENTS: Final = tuple(
    Dialects(*s) if isinstance(s, tuple) else s
    for s in migration_tournaments.statements(HOUSE_MINTED_BY_KIND, _BURNS_FROM_WALLETS)
)
MIGRATIONS: Final[tuple[tuple[Statement, ...], ...]] = (
    _CORE,
    _LEADERBOARD,
    _TABLE_MESSAGE,
    _META,
    _PLAYERS,
    _BY_TABLE,
    _TIME_BANK,
    _COMPACT_HANDS,
    _STATS,
    _ECONOMY,
    _ALWAYS_SHOW,
    coordination.SCHEMA,
    HOUSE_MIGRATION,
    _TOURNAMENTS,
    SCHEDULE_MIGRATION,  # 15: tournaments at a set time, in ``migration_schedule.py``
    POSITIONS_MIGRATION,  # 16: each hand's seats, in ``migration_positions.py``
    REGISTRATIONS_MIGRATION,  # 17: a trace of every entry, in ``migration_registrations.py``
)
LATEST: Final = len(MIGRATIONS)

# Every table the migrations create, each after the tables it references: the order in which
# ``stud-bot migrate-db`` copies them (a test checks that none is missing).
TABLES: Final = (
    "tournaments",
    "tournament_entries",
    "tournament_registrations",
    "tables",
    "wallets",
    "seats",
    "hands",
    "hand_seats",
    "ledger",
    "meta",
    "player_names",
    "player_settings",
    "seasons",
    "player_stats",
    "recent_hands",
)
# The running bots' coordination, not the game: ``migrate-db`` leaves it behind.
LIVE_TABLES: Final = coordination.TABLES


def for_postgresql(statement: str) -> str:
    """A SQLite statement of this file in PostgreSQL's types."""
    # SQLite numbers an ``id INTEGER PRIMARY KEY`` itself; PostgreSQL does it for an identity
    # column (BY DEFAULT, so that migrate-db can copy rows with their ids). SQLite's integers
    # are 64-bit, and so must be PostgreSQL's: Discord ids need more than 32 bits.
    statement = re.sub(
        r"\bid\s+INTEGER\s+PRIMARY\s+KEY\b",
        "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
        statement,
    )
    # PostgreSQL keeps every table in a heap, with its primary key an index beside it.
    statement = re.sub(r"\)\s*WITHOUT\s+ROWID\s*$", ")", statement)
    return re.sub(r"\bINTEGER\b", "BIGINT", statement)


class _Schema(ABC):
    """Where one database keeps its schema version, and how it runs a migration."""

    @abstractmethod
    async def version(self) -> int: ...

    @abstractmethod
    def exclusive(self) -> AbstractAsyncContextManager[None]:
        """One transaction holding the database's write lock."""

    @abstractmethod
    async def execute(self, statement: Statement) -> None: ...

    @abstractmethod
    async def set_version(self, number: int) -> None: ...


class _SqliteSchema(_Schema):
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0])

    @asynccontextmanager
    async def exclusive(self) -> AsyncIterator[None]:
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise
        await self._db.execute("COMMIT")

    async def execute(self, statement: Statement) -> None:
        text = statement.sqlite if isinstance(statement, Dialects) else statement
        if text is not None:
            await self._db.execute(text)

    async def set_version(self, number: int) -> None:
        await self._db.execute(f"PRAGMA user_version = {number:d}")


class _PostgresSchema(_Schema):
    def __init__(self, db: asyncpg.Connection) -> None:
        self._db = db

    async def version(self) -> int:
        if not await self._db.fetchval("SELECT to_regclass('schema_version') IS NOT NULL"):
            return 0
        return int(await self._db.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))

    @asynccontextmanager
    async def exclusive(self) -> AsyncIterator[None]:
        async with self._db.transaction():
            await self._db.execute("SELECT pg_advisory_xact_lock($1)", WRITE_LOCK)
            await self._db.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)"
            )
            yield

    async def execute(self, statement: Statement) -> None:
        if isinstance(statement, Dialects):
            text = statement.postgresql
        else:
            text = for_postgresql(statement)
        if text is not None:
            await self._db.execute(text)

    async def set_version(self, number: int) -> None:
        await self._db.execute("DELETE FROM schema_version")
        await self._db.execute("INSERT INTO schema_version (version) VALUES ($1)", number)


def _schema(db: aiosqlite.Connection | asyncpg.Connection) -> _Schema:
    return _PostgresSchema(db) if isinstance(db, asyncpg.Connection) else _SqliteSchema(db)


async def schema_version(db: aiosqlite.Connection | asyncpg.Connection) -> int:
    return await _schema(db).version()


async def migrate(db: aiosqlite.Connection | asyncpg.Connection, target: int = LATEST) -> int:
    """Apply migrations up to ``target`` (tests build old databases with a lower one).

    Returns the version reached. A SQLite ``db`` must be in autocommit mode
    (``isolation_level=None``); a PostgreSQL one outside a transaction.
    """
    schema = _schema(db)
    current = await schema.version()
    if current > LATEST:
        raise SchemaTooNew(
            f"the database is at schema {current} but this bot only knows up to {LATEST}: "
            "run a newer version of the bot"
        )
    for number in range(current + 1, target + 1):
        async with schema.exclusive():
            # Another process may have migrated while we waited for the write lock.
            if await schema.version() >= number:
                continue
            for statement in MIGRATIONS[number - 1]:
                await schema.execute(statement)
            await schema.set_version(number)
    return await schema.version()
