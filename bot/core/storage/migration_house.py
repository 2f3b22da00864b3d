"""Migration 13, kept beside ``migrations.py``, which lists it: the house's kinds of
ledger rows."""

from __future__ import annotations

from typing import Final

from bot.core.storage.dialects import Dialects, Statement, sqlite_ledger_swap

# Migration 13: the house. A server's house wallet (user 0) stakes the computer
# players (negative user ids) and takes back what they cash out: ``house_stake`` and
# ``house_return`` rows move chips between two wallets, a row each, so each row's ``minted`` is
# what enters or leaves its wallet and the pair's add up to zero (the audit checks every
# guild's). The kinds are new to the ledger's CHECKs, rebuilt as in
# migration 10.
_HOUSE_KINDS: Final = """kind IN (
                         'starting_grant', 'daily_grant', 'admin_grant', 'admin_take',
                         'season_reset', 'buy_in', 'cash_out', 'hand_start', 'hand_result',
                         'hand_void', 'house_stake', 'house_return')"""
HOUSE_MINTED_BY_KIND: Final = """CASE
            WHEN kind IN ('starting_grant', 'daily_grant', 'admin_grant') THEN minted > 0
            WHEN kind = 'admin_take' THEN minted < 0
            WHEN kind IN ('season_reset', 'house_stake', 'house_return') THEN minted != 0
            ELSE minted = 0 END"""
HOUSE_MIGRATION: Final[tuple[Statement, ...]] = (
    Dialects(
        sqlite=f"""
        CREATE TABLE ledger_v3 (
            id           INTEGER PRIMARY KEY,
            created_at   TEXT NOT NULL,
            guild_id     INTEGER NOT NULL,
            user_id      INTEGER NOT NULL,
            kind         TEXT NOT NULL CHECK ({_HOUSE_KINDS}),
            minted       INTEGER NOT NULL DEFAULT 0,
            wallet_delta INTEGER NOT NULL DEFAULT 0,
            seat_delta   INTEGER NOT NULL DEFAULT 0,
            hand_delta   INTEGER NOT NULL DEFAULT 0,
            table_id     INTEGER REFERENCES tables (id),
            hand_id      INTEGER REFERENCES hands (id),
            reason       TEXT NOT NULL CHECK (length(reason) > 0),
            actor_id     INTEGER,
            CHECK (wallet_delta + seat_delta + hand_delta = minted),
            CHECK ({HOUSE_MINTED_BY_KIND}),
            CHECK (minted >= 0 OR (seat_delta = 0 AND hand_delta = 0)),
            CHECK (seat_delta = 0 OR table_id IS NOT NULL),
            CHECK (hand_delta = 0 OR hand_id IS NOT NULL)
        )
        """,
        postgresql=f"""
        ALTER TABLE ledger
            DROP CONSTRAINT ledger_kind_check,
            DROP CONSTRAINT ledger_minted_check,
            ADD CONSTRAINT ledger_kind_check CHECK ({_HOUSE_KINDS}),
            ADD CONSTRAINT ledger_minted_check CHECK ({HOUSE_MINTED_BY_KIND})
        """,
    ),
    Dialects(sqlite="INSERT INTO ledger_v3 SELECT * FROM ledger", postgresql=None),
    *sqlite_ledger_swap("ledger_v3"),
)
