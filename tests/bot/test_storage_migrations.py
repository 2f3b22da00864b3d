"""Numbered migrations: new and old databases both reach the current schema, on SQLite and on
PostgreSQL."""

from __future__ import annotations

import dataclasses
import json
import random
import sqlite3
from contextlib import closing
from pathlib import Path

import asyncpg
import pytest

from bot.core.archive import Archive
from bot.core.storage import SchemaTooNew, Store, coordination
from bot.core.storage import migrations as migrations_module
from bot.core.storage.admin import TABLES
from bot.core.storage.backend import is_postgresql
from bot.core.storage.migrations import LATEST, MIGRATIONS, load, sqlite_statements
from engine import RAZZ, Stakes, StudHand
from engine.cards import FULL_DECK
from engine.codec import decode, encode
from engine.fairness import DeckCommitment
from tests.bot.fakes import ManualClock, new_house
from tests.databases import INTEGRITY_ERRORS, Location, migrate_to, query, raw, version
from tests.engine.decks import choose
from tests.texts import TEXTS
from words import EN

GUILD, CHANNEL = 1, 10
ALICE, BOB, CAROL = 100, 101, 102
NOW = "2025-01-01T12:00:00.000000Z"
STAKES = Stakes(1, 3, 10, 20)
SECRET = "5e" * 32


@pytest.fixture
def database(empty_database: Location) -> Location:
    """Every test here starts from a database with no schema at all (``tests/conftest.py``'s
    ``database`` comes migrated already)."""
    return empty_database


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
    assert created == set(TABLES) | set(coordination.TABLES), (
        "add a new table to admin.TABLES, after those it references"
    )


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
        seated = {u: (await store.wallets.get(GUILD, u)).seated for u in (ALICE, BOB, CAROL)}
        assert seated == {ALICE: 300, BOB: 200, CAROL: 150}
        board = await store.reports.leaderboard(GUILD, user_id=BOB)
        assert [(row.rank, row.user_id, row.chips) for row in board.top] == [
            (1, ALICE, 1050),
            (2, BOB, 1000),
            (2, CAROL, 1000),
        ]
        # The hand that was live before the upgrade carries on and settles.
        (live,) = await store.hands.live()
        assert (live.hand_id, live.state) == (1, b'{"n": 4}')
        await store.hands.settle(1, b"n5", [350, 0])
        assert (await store.wallets.get(GUILD, BOB)).total == 1150
        await store.audit()
    finally:
        await store.close()

    # Reopening an up-to-date database changes nothing.
    store = await Store.open(database)
    try:
        assert await version(database) == LATEST
        assert (await store.wallets.get(GUILD, BOB)).total == 1150
        await store.audit()
    finally:
        await store.close()


async def test_a_failing_migration_leaves_the_database_at_the_previous_version(
    database: Location, monkeypatch: pytest.MonkeyPatch
) -> None:
    await build_version_1(database)
    second = MIGRATIONS[1]
    broken = dataclasses.replace(
        second,
        sqlite=second.sqlite + "\nSELECT * FROM no_such_table;",
        postgresql=second.postgresql + "\nSELECT * FROM no_such_table;",
    )
    monkeypatch.setattr(migrations_module, "MIGRATIONS", (MIGRATIONS[0], broken))
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


async def test_entries_made_before_migration_17_are_written_into_the_registrations(
    database: Location,
) -> None:
    """A freeroll's entries had no trace but their rows: the migration writes them in, so the
    audit's count of registrations holds for tournaments already under way."""
    assert await migrate_to(database, 16) == 16
    async with raw(database) as other:
        await other.execute(
            "INSERT INTO tournaments (guild_id, channel_id, organiser_id, game, structure, curve,"
            " level_unit, level_length, starting_stack, buy_in, seats, start_entrants, reentry,"
            " state, seed, settings, created_at) VALUES"
            f" ({GUILD}, {CHANNEL}, {ALICE}, 'stud', 'standard', 'standard', 'hands', 5, 1000,"
            f" 0, 4, 4, 0, 'registering', 1, '{{}}', '{NOW}')"
        )
        for user, entries in ((ALICE, 1), (BOB, 2)):
            await other.execute(
                "INSERT INTO tournament_entries (tournament_id, user_id, entries, registered_at)"
                f" VALUES (1, {user}, {entries}, '{NOW}')"
            )
    store = await Store.open(database)
    try:
        await store.audit()
        rows = await query(
            database,
            "SELECT user_id, entries FROM tournament_registrations ORDER BY user_id",
        )
        assert [(row["user_id"], row["entries"]) for row in rows] == [(ALICE, 1), (BOB, 2)]
        await store.tournaments.unregister(1, BOB, guild_id=GUILD)
        await store.tournaments.register(1, CAROL, guild_id=GUILD)
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
    """The leaderboard depends on this index: neither query may scan or sort the wallets."""
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


def old_hands() -> tuple[StudHand, StudHand]:
    """A heads-up hand played to the end, then the next one a few decisions in."""
    rng = random.Random(8)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    settled = StudHand([500, 500], STAKES, deck, 1)
    while not settled.is_over:
        settled.apply(*choose(settled, rng, 0.4))
    rng.shuffle(deck)
    live = StudHand(settled.stacks, STAKES, deck, 0, variant=RAZZ)
    for _ in range(3):
        live.apply(*choose(live, rng, 0.4))
    assert not live.is_over
    return settled, live


async def build_version_7(database: Location) -> tuple[StudHand, StudHand]:
    """A database as the bot left it before migration 8: hands saved as to_dict() JSON text,
    one settled and one in progress, with the ledger rows that moved their chips."""
    assert await migrate_to(database, 7) == 7
    settled, live = old_hands()
    finals = settled.stacks
    settings = {"stakes": STAKES.to_dict(), "turn_seconds": 60, "countdown_seconds": 0}
    ledger = [
        *((user, "starting_grant", 1000, 1000, 0, 0, "NULL") for user in (ALICE, BOB)),
        *((user, "buy_in", 0, -500, 500, 0, "NULL") for user in (ALICE, BOB)),
        *((user, "hand_start", 0, 0, -500, 500, 1) for user in (ALICE, BOB)),
        *(
            (user, "hand_result", 0, 0, final, -final, 1)
            for user, final in zip((ALICE, BOB), finals, strict=True)
        ),
        *(
            (user, "hand_start", 0, 0, -final, final, 2)
            for user, final in zip((ALICE, BOB), finals, strict=True)
        ),
    ]

    def saved(hand: StudHand) -> str:
        return json.dumps(hand.to_dict(), separators=(",", ":"))

    async with raw(database) as other:
        for statement in (
            "BEGIN",
            "INSERT INTO wallets (guild_id, user_id, balance, seated, total, created_at) VALUES"
            f" ({GUILD}, {ALICE}, 500, {finals[0]}, {500 + finals[0]}, '{NOW}'),"
            f" ({GUILD}, {BOB}, 500, {finals[1]}, {500 + finals[1]}, '{NOW}')",
            "INSERT INTO tables (id, channel_id, guild_id, opener_id, max_seats, min_buy_in,"
            f" max_buy_in, settings, opened_at) VALUES (1, {CHANNEL}, {GUILD}, {ALICE}, 6, 100,"
            f" 1000, '{json.dumps(settings)}', '{NOW}')",
            "INSERT INTO seats (table_id, user_id, position, stack, seated_at) VALUES"
            f" (1, {ALICE}, 0, 0, '{NOW}'), (1, {BOB}, 1, 0, '{NOW}')",
            "INSERT INTO hands (id, table_id, state, version, commitment, salt, started_at,"
            " updated_at, ended_at, outcome) VALUES"
            f" (1, 1, '{saved(settled)}', {len(settled.decisions)},"
            f" '{DeckCommitment(settled.deck, SECRET).digest}', '{SECRET}', '{NOW}', '{NOW}',"
            f" '{NOW}', 'settled'),"
            f" (2, 1, '{saved(live)}', {len(live.decisions)},"
            f" '{DeckCommitment(live.deck, SECRET).digest}', '{SECRET}', '{NOW}', '{NOW}',"
            " NULL, NULL)",
            "INSERT INTO hand_seats (hand_id, seat_index, user_id, starting_stack, final_stack)"
            f" VALUES (1, 0, {ALICE}, 500, {finals[0]}), (1, 1, {BOB}, 500, {finals[1]}),"
            f" (2, 0, {ALICE}, {finals[0]}, NULL), (2, 1, {BOB}, {finals[1]}, NULL)",
            "INSERT INTO ledger (created_at, guild_id, user_id, kind, minted, wallet_delta,"
            " seat_delta, hand_delta, table_id, hand_id, reason) VALUES "
            + ", ".join(
                f"('{NOW}', {GUILD}, {user}, '{kind}', {minted}, {wallet}, {seat}, {hand},"
                f" {'NULL' if kind == 'starting_grant' else 1}, {hand_id}, 'before the upgrade')"
                for user, kind, minted, wallet, seat, hand, hand_id in ledger
            ),
            "COMMIT",
        ):
            await other.execute(statement)
    return settled, live


async def test_hands_saved_as_json_before_migration_8_still_load(database: Location) -> None:
    """Old hands keep their JSON, read by the same decoder as new ones: a
    settled hand's history and fairness check, and a live hand restored and played on, whose
    next saves take the compact form."""
    settled, live = await build_version_7(database)
    store = await Store.open(database)
    try:
        assert await version(database) == LATEST
        await store.audit()
        old = await store.hands.get(1)
        assert old.state == json.dumps(settled.to_dict(), separators=(",", ":")).encode()
        assert decode(old.state).events == settled.events
        archive = Archive(store, TEXTS)
        checked = await archive.verify(GUILD, ALICE, 1, EN)
        assert checked.matches
        history = await archive.history(
            GUILD, ALICE, 1, viewer_name="Alice", channel_name=str, lang=EN
        )
        assert history.text.startswith("PokerStars Hand #1:")
        assert dict(history.net)["Alice"] == settled.stacks[0] - 500

        clock = ManualClock()
        manager = new_house(store, clock)
        assert await manager.recovery.restore() == [2]
        table = manager.seating.get(CHANNEL)
        assert table.live is not None and table.live.hand.events == live.events
        while table.live is not None:
            actor = table.actor_id()
            assert actor is not None
            await manager.dealer.act(CHANNEL, actor, table.buttons()[-1].action)
        replayed = decode((await store.hands.get(2)).state)
        assert replayed.is_over and replayed.decisions[:3] == live.decisions
        (row,) = await query(database, "SELECT state FROM hands WHERE id = 2")
        assert bytes(row["state"]) == encode(replayed)  # saved compact from then on
        await store.audit()
        await manager.recovery.shutdown()
    finally:
        await store.close()
    async with raw(database) as other:
        if is_postgresql(database):
            (column,) = await other.rows(
                "SELECT data_type FROM information_schema.columns"
                " WHERE table_name = 'hands' AND column_name = 'state'"
            )
            assert column["data_type"] == "bytea"
        else:
            kinds = await other.rows("SELECT DISTINCT typeof(state) AS kind FROM hands")
            assert kinds == [{"kind": "blob"}]
        # The ended hand is still history (the trigger survived the cast).
        with pytest.raises(INTEGRITY_ERRORS, match="cannot change"):
            await other.execute("UPDATE hands SET version = 0 WHERE id = 1")


def test_the_migrations_are_the_numbered_files_of_one_folder() -> None:
    assert [m.number for m in MIGRATIONS] == list(range(1, LATEST + 1))
    assert (MIGRATIONS[0].name, MIGRATIONS[-1].name) == ("chips", "registrations")
    # Where the two databases agree, one file serves both.
    assert MIGRATIONS[3].sqlite == MIGRATIONS[3].postgresql
    assert "BIGINT" in MIGRATIONS[0].postgresql and "BIGINT" not in MIGRATIONS[0].sqlite


@pytest.mark.parametrize(
    ("files", "problem"),
    [
        ({"V001__a.sql": "", "V003__c.sql": ""}, "numbered 1 to 2"),
        ({"V001__a.sqlite.sql": ""}, "a script for each database"),
        ({"V001__a.sql": "", "V001__b.sql": ""}, "two sqlite scripts"),
        ({"V001__a.sql": "", "V002__b.sqlite.sql": "", "V002__c.postgresql.sql": ""}, "one name"),
        ({"V1__a.sql": ""}, "not V<3 digits>"),
        ({"V001__a.sql": "", "V001__a.postgresql.sql": ""}, "two postgresql scripts"),
    ],
)
def test_a_folder_of_misnamed_or_missing_migrations_is_refused(
    tmp_path: Path, files: dict[str, str], problem: str
) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "notes.txt").write_text("not a migration: left alone")
    with pytest.raises(ValueError, match=problem):
        load(tmp_path)


def test_a_dialects_pair_and_a_shared_file_make_migrations_in_order(tmp_path: Path) -> None:
    (tmp_path / "V002__meta.sql").write_text("CREATE TABLE meta (key TEXT);")
    (tmp_path / "V001__first.sqlite.sql").write_text("CREATE TABLE a (id INTEGER);")
    (tmp_path / "V001__first.postgresql.sql").write_text("CREATE TABLE a (id BIGINT);")
    first, second = load(tmp_path)
    assert (first.number, first.name, first.sqlite, first.postgresql) == (
        1,
        "first",
        "CREATE TABLE a (id INTEGER);",
        "CREATE TABLE a (id BIGINT);",
    )
    assert (second.number, second.sqlite, second.postgresql) == (
        2,
        *["CREATE TABLE meta (key TEXT);"] * 2,
    )


def test_a_sqlite_script_runs_statement_by_statement() -> None:
    script = (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE t (x TEXT DEFAULT 'a;b');\n\n"
        "CREATE TRIGGER t_fixed BEFORE UPDATE ON t\n"
        "BEGIN SELECT RAISE(ABORT, 'fixed'); END;\n"
        "-- the end\n"
    )
    statements = sqlite_statements(script)
    assert [" ".join(s.split()) for s in statements] == [
        "-- a comment; with a semicolon CREATE TABLE t (x TEXT DEFAULT 'a;b');",
        "CREATE TRIGGER t_fixed BEFORE UPDATE ON t BEGIN SELECT RAISE(ABORT, 'fixed'); END;",
    ]
    with closing(sqlite3.connect(":memory:")) as lite:
        for statement in statements:
            lite.execute(statement)
        lite.execute("INSERT INTO t DEFAULT VALUES")
        with pytest.raises(sqlite3.IntegrityError, match="fixed"):
            lite.execute("UPDATE t SET x = 'c'")
    with pytest.raises(ValueError, match="without its closing semicolon"):
        sqlite_statements("CREATE TABLE t (x TEXT);\nDROP TABLE t")
