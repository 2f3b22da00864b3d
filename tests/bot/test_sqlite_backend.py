"""The SQLite backend runs its statements on the event loop, for speed: what could block
the loop is kept off it — waiting for another process's write lock, checkpoints, and reports
(a player's question over many rows)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Coroutine, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.core.storage import Store
from bot.core.storage import sqlite as sqlite_backend
from bot.core.storage.sqlite import SqliteBackend

GUILD, USER = 1, 7


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "stud.db"


@pytest.fixture
async def lite(path: Path) -> AsyncIterator[Store]:
    """A store on the SQLite file ``path``."""
    store = await Store.open(path)
    yield store
    await store.close()


def sqlite_of(store: Store) -> SqliteBackend:
    backend = store._backend
    assert isinstance(backend, SqliteBackend)
    return backend


async def ticks_while(task: asyncio.Task[object], seconds: float) -> int:
    """How often a 10 ms timer fired on the loop during ``seconds`` while ``task`` ran."""
    ticks = 0
    deadline = asyncio.get_running_loop().time() + seconds
    while asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.01)
        ticks += 1
    assert not task.done(), "the work should still be waiting or running"
    return ticks


@contextmanager
def another_writer(path: Path) -> Iterator[sqlite3.Connection]:
    """Another process writing, as a cluster worker does: it holds the file's write lock."""
    with closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        yield other


async def waits_for_the_lock(path: Path, work: Coroutine[Any, Any, object]) -> None:
    """``work`` waits while another connection holds the lock, the loop's timers still firing,
    and finishes once the lock is released."""
    with another_writer(path) as other:
        task = asyncio.create_task(work)
        # 0.3 s of 10 ms timers: about 30 if the loop is free, 0 if the wait blocked it.
        assert await ticks_while(task, 0.3) >= 15
        other.execute("COMMIT")
        await asyncio.wait_for(task, 1)


async def test_a_write_waits_for_another_connections_lock_without_blocking_the_loop(
    lite: Store, path: Path
) -> None:
    before = await lite.wallets.balance(GUILD, USER)
    await waits_for_the_lock(path, lite.wallets.grant(GUILD, USER, 5, reason="test", by=1))
    assert await lite.wallets.balance(GUILD, USER) == before + 5
    await lite.audit()


async def test_a_statement_of_its_own_waits_for_the_lock_too(lite: Store, path: Path) -> None:
    """single(): no transaction to begin, the statement itself waits (saving an action does)."""
    backend = sqlite_of(lite)

    async def set_meta() -> None:
        async with backend.single() as connection:
            await connection.run("INSERT INTO meta (key, value) VALUES ('k', 'v')")

    await waits_for_the_lock(path, set_meta())
    assert await lite.get_meta("k") == "v"


async def test_a_write_that_never_gets_the_lock_fails_and_changes_nothing(
    lite: Store, path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_backend, "BUSY_TIMEOUT_MS", 100)
    before = await lite.wallets.balance(GUILD, USER)
    with another_writer(path) as other:
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            await lite.wallets.grant(GUILD, USER, 5, reason="test", by=1)
        other.execute("ROLLBACK")
    assert await lite.wallets.balance(GUILD, USER) == before
    # No transaction was left open: the next write goes through.
    await lite.wallets.grant(GUILD, USER, 5, reason="test", by=1)
    assert await lite.wallets.balance(GUILD, USER) == before + 5


async def test_checkpoints_run_in_a_thread_and_never_inside_a_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_backend, "CHECKPOINT_EVERY", 5)
    threads: list[int] = []
    checkpoint = SqliteBackend._checkpoint

    def recorded(self: SqliteBackend) -> None:
        threads.append(threading.get_ident())
        checkpoint(self)

    monkeypatch.setattr(SqliteBackend, "_checkpoint", recorded)
    path = tmp_path / "stud.db"
    store = await Store.open(path)
    try:
        backend = sqlite_of(store)
        assert backend._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        for _ in range(12):
            await store.wallets.grant(GUILD, USER, 1, reason="test", by=1)
        assert backend._checkpointing is not None
        await backend._checkpointing
        assert threads and threading.get_ident() not in threads
        # Everything committed up to that checkpoint is in the file, not only in the log.
        with closing(sqlite3.connect(path)) as other:
            busy, logged, copied = other.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert busy == 0 and logged == copied
    finally:
        await store.close()
    with closing(sqlite3.connect(path)) as reopened:
        balance = reopened.execute(
            "SELECT balance FROM wallets WHERE guild_id = ? AND user_id = ?", (GUILD, USER)
        ).fetchone()[0]
    assert balance >= 12


# Far longer than the 0.3 s the loop is watched for (docs/performance.md); interrupted after.
LONG_QUERY = (
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) "
    "SELECT count(*) FROM n"
)


async def test_a_long_report_does_not_stop_the_loop(lite: Store) -> None:
    backend = sqlite_of(lite)

    async def count() -> object:
        async with backend.report() as connection:
            return await connection.all(LONG_QUERY)

    task = asyncio.create_task(count())
    assert await ticks_while(task, 0.3) >= 15
    assert backend._reader is not None
    backend._reader.interrupt()
    with pytest.raises(sqlite3.OperationalError, match="interrupt"):
        await task
    # Its transaction ended with it: the next report reads.
    async with backend.report() as connection:
        assert (await connection.all("SELECT 1"))[0][0] == 1


async def test_a_report_reads_while_a_write_is_held_open(lite: Store) -> None:
    """The tables' writes and a report don't wait for each other; the report sees what was
    committed when it began."""
    backend = sqlite_of(lite)
    await lite.wallets.grant(GUILD, USER, 5, reason="test", by=1)
    writing, release = asyncio.Event(), asyncio.Event()

    async def hold_a_write() -> None:
        async with backend.write() as connection:
            await connection.run("INSERT INTO meta (key, value) VALUES ('k', 'v')")
            writing.set()
            await release.wait()

    writer = asyncio.create_task(hold_a_write())
    await writing.wait()
    board = await asyncio.wait_for(lite.reports.leaderboard(GUILD), 1)
    assert [row.user_id for row in board.top] == [USER]
    async with backend.report() as connection:
        assert await connection.all("SELECT value FROM meta WHERE key = 'k'") == []
    release.set()
    await writer
    async with backend.report() as connection:
        assert [tuple(row) for row in await connection.all("SELECT value FROM meta")] == [("v",)]


async def test_a_report_cannot_write(lite: Store) -> None:
    async with sqlite_of(lite).report() as connection:
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            await connection.run("INSERT INTO meta (key, value) VALUES ('k', 'v')")
    assert await lite.get_meta("k") is None


async def test_a_report_whose_end_never_ran_does_not_hold_up_the_next(lite: Store) -> None:
    """A caller cancelled twice can leave the report's transaction open on its snapshot: the
    next report starts a new one and sees what was committed since."""
    backend = sqlite_of(lite)
    reader = await backend._in_report_thread(backend._begin_report)
    # Read to the end: a cursor left mid-statement would hold the snapshot until the garbage
    # collector frees it, whatever the report does.
    await backend._in_report_thread(
        lambda: reader.execute("SELECT count(*) FROM wallets").fetchall()
    )
    await lite.wallets.grant(GUILD, USER, 5, reason="test", by=1)
    board = await lite.reports.leaderboard(GUILD)
    assert [(row.user_id, row.chips) for row in board.top] == [
        (USER, await lite.wallets.balance(GUILD, USER))
    ]
