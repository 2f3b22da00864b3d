"""Numbered migrations (issue 4, Model): new and old databases both reach the current schema,
on SQLite and on PostgreSQL (issue 13 point 1)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import asyncpg
import pytest

from bot.core.storage import SchemaTooNew, Store
from bot.core.storage import migrations as migrations_module
from bot.core.storage.backend import is_postgresql
from bot.core.storage.migrations import LATEST, TABLES
from tests.databases import Location, migrate_to, raw, version

GUILD, CHANNEL = 1, 10
ALICE, BOB, CAROL = 100, 101, 102
NOW = "2025-01-01T12:00:00.000000Z"


async def wallet_columns(database: Location) -> list[str]:
    async with raw(database) as other:
        return await other.columns("wallets")


async def build_version_1(database: Location) -> None:
    """A database as the first release left it: players seated, one of them mid-hand."""
    assert await migrate_to(database, 1) == 1
    ledger = [
        *(
            (user, "starting_grant", 1000, 1000, 0, 0, "NULL", "NULL")
            for user in (ALICE, BOB, CAROL)
        ),
        (ALICE, "admin_grant", 50, 50, 0, 0, "NULL", "NULL"),
        (ALICE, "buy_in", 0, -300, 300, 0, 1, "NULL"),
        (BOB, "buy_in", 0, -200, 200, 0, 1, "NULL"),
        (CAROL, "buy_in", 0, -150, 150, 0, 1, "NULL"),
        (BOB, "hand_start", 0, 0, -200, 200, 1, 1),
        (CAROL, "hand_start", 0, 0, -150, 150, 1, 1),
    ]
    async with raw(database) as other:
        for statement in (
            "BEGIN",
            "INSERT INTO wallets (guild_id, user_id, balance, created_at) VALUES"
            f" ({GUILD}, {ALICE}, 750, '{NOW}'), ({GUILD}, {BOB}, 800, '{NOW}'),"
            f" ({GUILD}, {CAROL}, 850, '{NOW}')",
            "INSERT INTO tables (id, channel_id, guild_id, opener_id, max_seats, min_buy_in,"
            f" max_buy_in, settings, opened_at) VALUES (1, {CHANNEL}, {GUILD}, {ALICE}, 6, 100,"
            f" 1000, '{{}}', '{NOW}')",
            "INSERT INTO seats (table_id, user_id, position, stack, seated_at) VALUES"
            f" (1, {ALICE}, 0, 300, '{NOW}'), (1, {BOB}, 1, 0, '{NOW}'),"
            f" (1, {CAROL}, 2, 0, '{NOW}')",
            "INSERT INTO hands (id, table_id, state, commitment, salt, started_at, updated_at)"
            f" VALUES (1, 1, '{{\"n\": 4}}', '{'cd' * 32}', 'salt', '{NOW}', '{NOW}')",
            "INSERT INTO hand_seats (hand_id, seat_index, user_id, starting_stack) VALUES"
            f" (1, 0, {BOB}, 200), (1, 1, {CAROL}, 150)",
            "INSERT INTO ledger (created_at, guild_id, user_id, kind, minted, wallet_delta,"
            " seat_delta, hand_delta, table_id, hand_id, reason) VALUES "
            + ", ".join(
                f"('{NOW}', {GUILD}, {user}, '{kind}', {minted}, {wallet}, {seat}, {hand},"
                f" {table}, {hand_id}, 'before the upgrade')"
                for user, kind, minted, wallet, seat, hand, table, hand_id in ledger
            ),
            "COMMIT",
        ):
            await other.execute(statement)


async def test_a_new_database_reaches_the_latest_schema(database: Location) -> None:
    store = await Store.open(database)
    await store.close()
    assert await version(database) == LATEST
    assert "seated" in await wallet_columns(database)
    if not is_postgresql(database):
        with closing(sqlite3.connect(database)) as lite:
            assert lite.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_the_migrations_create_exactly_the_tables_migrate_db_copies(
    database: Location,
) -> None:
    await (await Store.open(database)).close()
    async with raw(database) as other:
        created = set(await other.table_names()) - {"schema_version"}
    assert created == set(TABLES), "add a new table to migrations.TABLES, after those it references"


async def test_version_1_is_migrated_with_its_seated_chips_backfilled(database: Location) -> None:
    await build_version_1(database)
    assert await version(database) == 1
    assert "seated" not in await wallet_columns(database)

    store = await Store.open(database)
    try:
        assert await version(database) == LATEST
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
        assert (live.hand_id, live.state) == (1, b'{"n": 4}')
        await store.settle_hand(1, b"n5", [350, 0])
        assert (await store.wallet(GUILD, BOB)).total == 1150
        await store.audit()
    finally:
        await store.close()

    # Reopening an up-to-date database changes nothing.
    store = await Store.open(database)
    try:
        assert await version(database) == LATEST
        assert (await store.wallet(GUILD, BOB)).total == 1150
        await store.audit()
    finally:
        await store.close()


async def test_a_failing_migration_leaves_the_database_at_the_previous_version(
    database: Location, monkeypatch: pytest.MonkeyPatch
) -> None:
    await build_version_1(database)
    broken = (*migrations_module.MIGRATIONS[1], "SELECT * FROM no_such_table")
    monkeypatch.setattr(
        migrations_module, "MIGRATIONS", (*migrations_module.MIGRATIONS[:1], broken)
    )
    with pytest.raises(
        (sqlite3.OperationalError, asyncpg.UndefinedTableError), match="no_such_table"
    ):
        await Store.open(database)
    assert await version(database) == 1
    assert "seated" not in await wallet_columns(database)

    monkeypatch.undo()
    store = await Store.open(database)
    try:
        assert await version(database) == LATEST
        await store.audit()
    finally:
        await store.close()


async def test_a_database_from_a_newer_bot_is_refused_untouched(database: Location) -> None:
    async with raw(database) as other:
        if is_postgresql(database):
            await other.execute("CREATE TABLE schema_version (version BIGINT NOT NULL)")
            await other.execute(f"INSERT INTO schema_version VALUES ({LATEST + 1})")
        else:
            await other.execute(f"PRAGMA user_version = {LATEST + 1}")
        before = await other.table_names()
    with pytest.raises(SchemaTooNew, match="run a newer version"):
        await Store.open(database)
    assert await version(database) == LATEST + 1
    async with raw(database) as other:
        assert await other.table_names() == before


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
