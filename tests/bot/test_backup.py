"""``stud-bot backup PATH`` copies the database while the bot runs and writes.

The bot's store keeps writing (tables opened, chips granted, seats taken and left) while another
connection, as ``stud-bot backup`` opens one, copies the file; the copy must open on its own and
pass ``audit()``, and hold a state the writer really went through.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.cli import EXIT_SETTINGS
from bot.core.storage import Store
from tests.command_line import stud_bot
from tests.databases import Location

GUILD = 1


async def write_for_a_while(store: Store, started: asyncio.Event, stop: asyncio.Event) -> None:
    """What a busy bot does to its wallets and seats, one transaction after another, from
    before the backup starts until after it has finished (``stop``), however long it takes."""
    await store.seating.open(100, GUILD, 1, max_seats=8, min_buy_in=10, max_buy_in=500)
    step = 0
    while True:
        last = stop.is_set()  # one more round once told: the copy can't hold all the work
        user = 10 + step % 8
        await store.wallets.grant(GUILD, user, 5, reason="backup test", by=1)
        if step % 16 < 8:
            await store.seating.sit(100, user, 50)
        else:
            await store.seating.leave(100, user)
        if step == 10:
            started.set()
        if last:
            return
        step += 1
        # Between transactions the bot's loop serves others (SQLite runs on the loop itself).
        await asyncio.sleep(0)


def ledger_rows(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT count(*) FROM ledger").fetchone()[0])


async def check_copy(copy: Path) -> None:
    """The copy stands alone (no -wal beside it is needed) and its chips add up."""
    with sqlite3.connect(copy) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    reopened = await Store.open(copy)
    try:
        totals = await reopened.audit()
    finally:
        await reopened.close()
    assert totals.granted > 0


async def test_meta_values_are_kept_across_restarts(database: Location) -> None:
    store = await Store.open(database)
    assert await store.get_meta("commands:1:global") is None
    await store.set_meta("commands:1:global", "first")
    await store.set_meta("commands:1:global", "second")
    await store.set_meta("commands:1:7", "other")
    await store.close()
    store = await Store.open(database)
    try:
        assert await store.get_meta("commands:1:global") == "second"
        assert await store.get_meta("commands:1:7") == "other"
    finally:
        await store.close()


@pytest.mark.parametrize("connection", ["another", "the writer's"])
async def test_a_backup_taken_while_the_store_writes_opens_and_passes_the_audit(
    tmp_path: Path, connection: str
) -> None:
    database, copy = tmp_path / "stud.db", tmp_path / "backups" / "copy.db"
    copy.parent.mkdir()
    bot_store = await Store.open(database)
    backup_store = await Store.open(database) if connection == "another" else bot_store
    started, stop = asyncio.Event(), asyncio.Event()
    try:
        writer = asyncio.create_task(write_for_a_while(bot_store, started, stop))
        await started.wait()
        await backup_store.backup(copy)
        assert not writer.done(), "the writer should still be writing as the backup ends"
        stop.set()
        await writer
        await bot_store.audit()
    finally:
        await bot_store.close()
        await backup_store.close()
    await check_copy(copy)
    # A snapshot from the middle: some of the work, not all of it, and no half transaction.
    assert 0 < ledger_rows(copy) < ledger_rows(database)
    assert not (copy.parent / "copy.db.partial").exists()


async def test_a_failed_backup_leaves_no_file_behind(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "stud.db")
    (tmp_path / "a-folder").mkdir()
    try:
        with pytest.raises(sqlite3.OperationalError):
            await store.backup(tmp_path / "missing-folder" / "copy.db")
        with pytest.raises(IsADirectoryError):
            await store.backup(tmp_path / "a-folder")
    finally:
        await store.close()
    # No copy.db.partial, no a-folder.partial: only the database (its WAL gone with the close).
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a-folder", "stud.db"]
    assert list((tmp_path / "a-folder").iterdir()) == []


def test_stud_bot_backup_copies_the_database(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    shell: dict[str, str],
    tmp_path: Path,
) -> None:
    async def a_bot_that_played() -> None:
        store = await Store.open(shell["DATABASE_PATH"])
        started, stop = asyncio.Event(), asyncio.Event()
        writer = asyncio.create_task(write_for_a_while(store, started, stop))
        await started.wait()  # a dozen rounds
        stop.set()
        await writer
        await store.close()

    asyncio.run(a_bot_that_played())
    copy = tmp_path / "stud-backup.db"
    code, out, err = stud_bot(monkeypatch, capsys, shell, "backup", str(copy))
    assert (code, err) == (0, "")
    assert out.startswith(f"backed up {shell['DATABASE_PATH']} to {copy}; its audit passed")
    assert ledger_rows(copy) == ledger_rows(Path(shell["DATABASE_PATH"]))
    asyncio.run(check_copy(copy))
    # Not over the database itself.
    code, _, err = stud_bot(monkeypatch, capsys, shell, "backup", shell["DATABASE_PATH"])
    assert code == EXIT_SETTINGS
    assert err.startswith("stud-bot: ") and "is DATABASE_PATH itself" in err
