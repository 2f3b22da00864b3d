"""``stud-bot migrate-db FROM TO`` moves a database between SQLite and PostgreSQL, and the
command line with ``DATABASE_URL``.

``main()`` runs in-process as in ``test_startup.py``; the databases are a SQLite file and a
PostgreSQL database of the test's own (skipped without a server, see ``tests/databases.py``).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.cli import EXIT_DATABASE, EXIT_SETTINGS
from bot.core.storage import HandFacts, SeatFacts, Store
from bot.core.storage.admin import TABLES
from tests.command_line import closed_port, one_line, stud_bot
from tests.databases import Location, query, snapshot

GUILD = 1
CHANNEL, OLD_CHANNEL = 10, 11
ALICE, BOB, CAROL, ADMIN = 100, 101, 102, 1
COMMITMENT = "ab" * 32
DIRECTIONS = ["sqlite to postgresql", "postgresql to sqlite"]


async def a_played_database(location: Location) -> None:
    """Grants, a closed table with a settled hand (in the stats), an open one mid-hand with a
    player waiting and one leaving, names, a deck choice, a process fact and a new season."""
    store = await Store.open(location)
    try:
        await store.wallets.reset_season(GUILD + 1, by=ADMIN)
        await store.wallets.grant(GUILD, ALICE, 500, reason="prize", by=ADMIN)
        await store.wallets.claim_daily(GUILD, BOB)
        await store.seating.open(
            OLD_CHANNEL, GUILD, ALICE, max_seats=4, min_buy_in=100, max_buy_in=1000
        )
        for user in (ALICE, BOB):
            await store.seating.sit(OLD_CHANNEL, user, 300)
        settled = await store.hands.start(
            OLD_CHANNEL, [(ALICE, 300), (BOB, 300)], b"n0", commitment=COMMITMENT, salt="s"
        )
        facts = HandFacts(
            "stud",
            (
                SeatFacts(dealt=True, vpip=True, showdown=True, collected=450),
                SeatFacts(dealt=True, vpip=True, showdown=True, collected=0),
            ),
        )
        await store.hands.settle(settled, b"n9", [450, 150], facts=facts)
        await store.seating.close(OLD_CHANNEL)
        await store.seating.open(
            CHANNEL,
            GUILD,
            BOB,
            max_seats=6,
            min_buy_in=100,
            max_buy_in=1000,
            settings={"stakes": [1, 3, 10, 20], "lang": "ru"},
        )
        await store.seating.set_messages({CHANNEL: 555})
        for user, stack in ((ALICE, 400), (BOB, 200), (CAROL, 100)):
            await store.seating.sit(CHANNEL, user, stack)
        live = await store.hands.start(
            CHANNEL, [(ALICE, 400), (BOB, 200)], b"n0", commitment=COMMITMENT, salt="t"
        )
        await store.hands.save_action(live, b"n1")
        await store.seating.set_leaving(CHANNEL, BOB, True)
        await store.players.save_name(GUILD, ALICE, "Алиса")
        await store.players.save_name(GUILD + 1, ALICE, "Ally")
        await store.players.set_four_colour(BOB, True)
        await store.set_meta("commands:1:global", "digest")
        # A tournament under way: its pool, its entries, its table of tournament chips.
        tournament = await store.tournaments.create(
            GUILD,
            CHANNEL,
            ALICE,
            game="stud",
            structure="standard",
            level_unit="hands",
            level_length=10,
            starting_stack=1500,
            buy_in=50,
            seats=2,
            seed=7,
            start_entrants=2,
        )
        for user in (ALICE, CAROL):
            await store.tournaments.register(tournament.tournament_id, user, guild_id=GUILD)
        await store.tournaments.start(
            tournament.tournament_id, {1: (OLD_CHANNEL + 1, [CAROL, ALICE])}, {"lang": "en"}
        )
        await store.audit()
    finally:
        await store.close()


async def what_the_store_reads(location: Location) -> dict[str, Any]:
    store = await Store.open(location)
    try:
        return {
            "wallets": [await store.wallets.get(GUILD, user) for user in (ALICE, BOB, CAROL)],
            "tables": await store.seating.tables(),
            "seats": await store.seating.seats(CHANNEL),
            "live": await store.hands.live(),
            "last": [await store.hands.last_for(user, finished=True) for user in (ALICE, BOB)],
            "board": await store.reports.leaderboard(GUILD, user_id=CAROL),
            "winnings": await store.reports.winnings(GUILD, user_id=BOB),
            "stats": await store.reports.player_stats(GUILD, ALICE),
            "seasons": [await store.wallets.season(guild) for guild in (GUILD, GUILD + 1)],
            "names": [
                await store.players.names(guild, [ALICE, BOB]) for guild in (GUILD, GUILD + 1)
            ],
            "decks": [await store.players.four_colour(user) for user in (ALICE, BOB)],
            "meta": await store.get_meta("commands:1:global"),
            "audit": await store.audit(),
        }
    finally:
        await store.close()


async def the_copy_plays_on(location: Location) -> None:
    """The live hand settles where it was; new hands, tables and ledger rows get ids after the
    copied ones."""
    (largest,) = await query(location, "SELECT max(id) AS ledger FROM ledger")
    store = await Store.open(location)
    try:
        (live,) = await store.hands.live()
        assert (live.version, live.state) == (1, b"n1")
        assert await store.hands.save_action(live.hand_id, b"n2") == 2
        end = await store.hands.settle(live.hand_id, b"n3", [600, 0])
        assert end.cashed_out == {BOB: 0}  # he had asked to leave
        following = await store.hands.start(
            CHANNEL, [(ALICE, 600), (CAROL, 100)], b"x", commitment=COMMITMENT, salt="u"
        )
        assert following == live.hand_id + 1
        await store.seating.open(OLD_CHANNEL, GUILD, CAROL, max_seats=2, min_buy_in=1, max_buy_in=9)
        await store.audit()
    finally:
        await store.close()
    tables = await query(location, f"SELECT id FROM tables WHERE channel_id = {OLD_CHANNEL}")
    assert sorted(row["id"] for row in tables) == [1, 4]  # after the tournament's table, 3
    # Two results and two starts (Bob's cash-out of nothing moves no chip: no row).
    new_rows = await query(location, f"SELECT id FROM ledger WHERE id > {largest['ledger']}")
    first = largest["ledger"] + 1
    assert sorted(row["id"] for row in new_rows) == list(range(first, first + 4))


def without_version(rows: dict[str, list[tuple[Any, ...]]]) -> dict[str, list[tuple[Any, ...]]]:
    return {table: rows[table] for table in TABLES}


def locations(direction: str, tmp_path: Path, postgresql_url: str) -> tuple[str, str]:
    sqlite_file = str(tmp_path / "stud.db")
    if direction == "sqlite to postgresql":
        return sqlite_file, postgresql_url
    return postgresql_url, sqlite_file


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_migrate_db_copies_every_row_and_the_copy_plays_on(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    shell: dict[str, str],
    tmp_path: Path,
    postgresql_url: str,
    direction: str,
) -> None:
    source, target = locations(direction, tmp_path, postgresql_url)
    asyncio.run(a_played_database(source))
    before = asyncio.run(snapshot(source))
    reads = asyncio.run(what_the_store_reads(source))

    code, out, err = stud_bot(monkeypatch, capsys, shell, "migrate-db", source, target)

    assert (code, err) == (0, "")
    counts = ", ".join(f"{len(before[table])} {table}" for table in TABLES)
    totals = reads["audit"]
    assert out == (
        f"copied {source} to {target} ({counts}); its audit passed: {totals.granted} chips, "
        f"{totals.wallets} in wallets, {totals.seats} at tables, {totals.live_hands} in hands, "
        f"{totals.prize_pools} in prize pools\n"
    )
    assert all(before[table] for table in TABLES), "every table should have rows to copy"
    # Row for row, ids included; and the store reads back exactly what it read before.
    assert without_version(asyncio.run(snapshot(target))) == without_version(before)
    assert asyncio.run(what_the_store_reads(target)) == reads
    assert asyncio.run(snapshot(source)) == before, "the source is only read"
    asyncio.run(the_copy_plays_on(target))


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_migrate_db_refuses_a_target_with_data_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    shell: dict[str, str],
    tmp_path: Path,
    postgresql_url: str,
    direction: str,
) -> None:
    source, target = locations(direction, tmp_path, postgresql_url)
    asyncio.run(a_played_database(source))
    assert stud_bot(monkeypatch, capsys, shell, "migrate-db", source, target)[0] == 0
    copied = asyncio.run(snapshot(target))

    code, out, err = stud_bot(monkeypatch, capsys, shell, "migrate-db", source, target)

    assert (code, out) == (EXIT_DATABASE, "")
    assert one_line(err) == (
        f"stud-bot: cannot copy into TO={target}: it already has data "
        # The first table copied that has rows is named.
        f"({len(copied['tournaments'])} rows in tournaments): copy into an empty database"
    )
    assert asyncio.run(snapshot(target)) == copied


def test_migrate_db_needs_two_databases_and_an_existing_source(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    shell: dict[str, str],
    tmp_path: Path,
) -> None:
    database = tmp_path / "stud.db"
    asyncio.run(a_played_database(database))
    code, _, err = stud_bot(monkeypatch, capsys, shell, "migrate-db", str(database), "stud.db")
    assert code == EXIT_SETTINGS  # the same file: shell's folder is tmp_path
    assert one_line(err) == "stud-bot: FROM and TO are the same database: name another TO"
    missing = tmp_path / "missing.db"
    code, _, err = stud_bot(
        monkeypatch, capsys, shell, "migrate-db", str(missing), str(tmp_path / "copy.db")
    )
    assert (code, one_line(err)) == (EXIT_SETTINGS, f"stud-bot: FROM={missing} is not a file")
    assert not missing.exists() and not (tmp_path / "copy.db").exists()


def test_an_unreachable_database_url_is_exit_code_4_and_hides_the_password(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    shell: dict[str, str],
) -> None:
    port = closed_port()
    shell["DATABASE_URL"] = f"postgresql://stud:s3cret@127.0.0.1:{port}/stud"
    code, _, err = stud_bot(monkeypatch, capsys, shell, "sync")
    assert code == EXIT_DATABASE
    line = one_line(err)
    assert line.startswith(
        f"stud-bot: cannot use DATABASE_URL=postgresql://stud:***@127.0.0.1:{port}/stud: "
    )
    assert "s3cret" not in err


def test_a_database_url_naming_no_database_is_exit_code_4(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    shell: dict[str, str],
    postgresql_url: str,
) -> None:
    # The server is there (the fixture made a database on it); this database isn't.
    shell["DATABASE_URL"] = postgresql_url + "_missing"
    code, _, err = stud_bot(monkeypatch, capsys, shell, "sync")
    assert code == EXIT_DATABASE
    name = postgresql_url.rpartition("/")[2] + "_missing"
    assert one_line(err) == (
        f"stud-bot: cannot use DATABASE_URL={shell['DATABASE_URL']}: "
        f'database "{name}" does not exist'
    )


def test_backup_with_a_database_url_says_to_use_pg_dump(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    shell: dict[str, str],
    tmp_path: Path,
) -> None:
    shell["DATABASE_URL"] = "postgresql://stud@127.0.0.1:5432/stud"
    code, out, err = stud_bot(monkeypatch, capsys, shell, "backup", str(tmp_path / "copy.db"))
    assert (code, out) == (EXIT_SETTINGS, "")
    assert "back PostgreSQL up with pg_dump" in one_line(err)
    assert not (tmp_path / "copy.db").exists()
