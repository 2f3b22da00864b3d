"""Numbered migrations (issue 4, Model): fresh and old files both reach the current schema."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import aiosqlite
import pytest

from bot.core.storage import SchemaTooNew, Store
from bot.core.storage import migrations as migrations_module
from bot.core.storage.migrations import LATEST, migrate

GUILD, CHANNEL = 1, 10
ALICE, BOB, CAROL = 100, 101, 102
NOW = "2025-01-01T12:00:00.000000Z"


def pragma(path: Path, name: str) -> object:
    with closing(sqlite3.connect(path)) as raw:
        return raw.execute(f"PRAGMA {name}").fetchone()[0]


def wallet_columns(path: Path) -> list[str]:
    with closing(sqlite3.connect(path)) as raw:
        return [row[1] for row in raw.execute("PRAGMA table_info(wallets)")]


async def build_version_1(path: Path) -> None:
    """A file as the first release left it: players seated, one of them mid-hand."""
    async with aiosqlite.connect(path, isolation_level=None) as db:
        assert await migrate(db, target=1) == 1
        await db.execute("BEGIN")
        await db.executemany(
            "INSERT INTO wallets (guild_id, user_id, balance, created_at) VALUES (?, ?, ?, ?)",
            [(GUILD, ALICE, 750, NOW), (GUILD, BOB, 800, NOW), (GUILD, CAROL, 850, NOW)],
        )
        await db.execute(
            "INSERT INTO tables (id, channel_id, guild_id, opener_id, max_seats, min_buy_in,"
            " max_buy_in, settings, opened_at) VALUES (1, ?, ?, ?, 6, 100, 1000, '{}', ?)",
            (CHANNEL, GUILD, ALICE, NOW),
        )
        await db.executemany(
            "INSERT INTO seats (table_id, user_id, position, stack, seated_at)"
            " VALUES (1, ?, ?, ?, ?)",
            [(ALICE, 0, 300, NOW), (BOB, 1, 0, NOW), (CAROL, 2, 0, NOW)],
        )
        await db.execute(
            "INSERT INTO hands (id, table_id, state, commitment, salt, started_at, updated_at)"
            " VALUES (1, 1, '{\"n\": 4}', ?, 'salt', ?, ?)",
            ("cd" * 32, NOW, NOW),
        )
        await db.executemany(
            "INSERT INTO hand_seats (hand_id, seat_index, user_id, starting_stack)"
            " VALUES (1, ?, ?, ?)",
            [(0, BOB, 200), (1, CAROL, 150)],
        )
        ledger = [
            *(
                (user, "starting_grant", 1000, 1000, 0, 0, None, None)
                for user in (ALICE, BOB, CAROL)
            ),
            (ALICE, "admin_grant", 50, 50, 0, 0, None, None),
            (ALICE, "buy_in", 0, -300, 300, 0, 1, None),
            (BOB, "buy_in", 0, -200, 200, 0, 1, None),
            (CAROL, "buy_in", 0, -150, 150, 0, 1, None),
            (BOB, "hand_start", 0, 0, -200, 200, 1, 1),
            (CAROL, "hand_start", 0, 0, -150, 150, 1, 1),
        ]
        await db.executemany(
            "INSERT INTO ledger (created_at, guild_id, user_id, kind, minted, wallet_delta,"
            " seat_delta, hand_delta, table_id, hand_id, reason)"
            f" VALUES ('{NOW}', {GUILD}, ?, ?, ?, ?, ?, ?, ?, ?, 'before the upgrade')",
            ledger,
        )
        await db.execute("COMMIT")


async def test_fresh_file_reaches_the_latest_schema_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "fresh.db"
    store = await Store.open(path)
    await store.close()
    assert pragma(path, "user_version") == LATEST
    assert pragma(path, "journal_mode") == "wal"
    assert "seated" in wallet_columns(path)


async def test_version_1_file_is_migrated_with_its_seated_chips_backfilled(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    await build_version_1(path)
    assert pragma(path, "user_version") == 1
    assert "seated" not in wallet_columns(path)

    store = await Store.open(path)
    try:
        assert pragma(path, "user_version") == LATEST
        totals = await store.audit()
        assert (totals.granted, totals.wallets, totals.seats, totals.live_hands) == (
            3050,
            2400,
            300,
            350,
        )
        # Seat stacks and stacks inside the live hand both count as seated.
        seated = {u: (await store.wallet(GUILD, u)).seated for u in (ALICE, BOB, CAROL)}
        assert seated == {ALICE: 300, BOB: 200, CAROL: 150}
        board = await store.leaderboard(GUILD, user_id=BOB)
        assert [(row.rank, row.user_id, row.chips) for row in board.top] == [
            (1, ALICE, 1050),
            (2, BOB, 1000),
            (2, CAROL, 1000),
        ]
        # The hand that was live before the upgrade carries on and settles.
        (live,) = await store.live_hands()
        assert (live.hand_id, live.state) == (1, {"n": 4})
        await store.settle_hand(1, {"n": 5}, [350, 0])
        assert (await store.wallet(GUILD, BOB)).total == 1150
        await store.audit()
    finally:
        await store.close()

    # Reopening an up-to-date file changes nothing.
    store = await Store.open(path)
    try:
        assert pragma(path, "user_version") == LATEST
        assert (await store.wallet(GUILD, BOB)).total == 1150
        await store.audit()
    finally:
        await store.close()


async def test_a_failing_migration_leaves_the_file_at_the_previous_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.db"
    await build_version_1(path)
    broken = (*migrations_module.MIGRATIONS[1], "SELECT * FROM no_such_table")
    monkeypatch.setattr(
        migrations_module, "MIGRATIONS", (*migrations_module.MIGRATIONS[:1], broken)
    )
    with pytest.raises(sqlite3.OperationalError, match="no_such_table"):
        await Store.open(path)
    assert pragma(path, "user_version") == 1
    assert "seated" not in wallet_columns(path)

    monkeypatch.undo()
    store = await Store.open(path)
    try:
        assert pragma(path, "user_version") == LATEST
        await store.audit()
    finally:
        await store.close()


async def test_a_file_from_a_newer_bot_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    with closing(sqlite3.connect(path)) as raw:
        raw.execute(f"PRAGMA user_version = {LATEST + 1}")
    with pytest.raises(SchemaTooNew, match="run a newer version"):
        await Store.open(path)
    assert pragma(path, "user_version") == LATEST + 1
    with closing(sqlite3.connect(path)) as raw:
        assert raw.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0


async def test_leaderboard_queries_use_the_total_index(tmp_path: Path) -> None:
    """Issue 4 point 5 depends on this index: neither query may scan or sort the wallets."""
    path = tmp_path / "plan.db"
    await (await Store.open(path)).close()
    with closing(sqlite3.connect(path)) as raw:
        top = raw.execute(
            "EXPLAIN QUERY PLAN SELECT user_id, total AS chips FROM wallets"
            " WHERE guild_id = ? ORDER BY total DESC, user_id LIMIT ?",
            (GUILD, 10),
        ).fetchall()
        rank = raw.execute(
            "EXPLAIN QUERY PLAN SELECT count(*) AS n FROM wallets WHERE guild_id = ? AND total > ?",
            (GUILD, 1000),
        ).fetchall()
    top_plan = " ".join(row[-1] for row in top)
    rank_plan = " ".join(row[-1] for row in rank)
    assert "COVERING INDEX wallets_by_total" in top_plan and "TEMP B-TREE" not in top_plan
    assert "COVERING INDEX wallets_by_total" in rank_plan
