"""The SQLite backend: one file in WAL mode, its statements run on the event loop itself.

A statement here takes tens of microseconds (the file is in the page cache, and in WAL mode a
commit only appends to the log): less than handing it to a thread and back, which is what
aiosqlite does for every statement. Measured in ``benchmarks/bot.py`` at 70 clicks/s: a thread
hop per statement made saving an action p95 185 ms (a hand's settlement held the store for
a dozen hops, each waiting for the GIL behind the other tables' work), on the loop it is 3 ms, and
the bot's CPU per click fell by a sixth. What could block the loop is kept off it:

- waiting for another process's write lock: the busy timeout is 0, and a statement or a
  transaction's start that finds the file locked tries again after a short ``asyncio.sleep``,
  for up to ``BUSY_TIMEOUT_MS``;
- checkpoints (copying the log into the file, with an fsync): automatic checkpoints are off on
  this connection, and every ``CHECKPOINT_EVERY`` write transactions one runs on a connection of
  its own in a thread (PASSIVE: it never holds up a writer);
- migrations, backups and closing run in threads (aiosqlite for the migrations);
- a player's question that may read many rows (rankings, stats, a ledger, a page of hands:
  ``report()``): a read-only connection of its own, in a thread of its own; WAL lets it read
  while the loop's connection writes, and sqlite3 lets go of the GIL while it steps.

One connection, in autocommit mode, with explicit transactions. An asyncio lock keeps coroutines
from interleaving statements inside each other's transactions, and every write transaction is
``BEGIN IMMEDIATE``, so another connection to the same file waits for the write lock instead of
reading a balance that is about to change.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final, Protocol, TypeVar

import aiosqlite

from bot.core.clock import pauses
from bot.core.storage.backend import Backend, Connection, Params, Row
from bot.core.storage.migrations import migrate

log = logging.getLogger(__name__)
T = TypeVar("T")

BUSY_TIMEOUT_MS: Final = 5000
BUSY_RETRY_SECONDS: Final = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05)  # then 0.05 until the timeout
CHECKPOINT_EVERY: Final = 500  # write transactions (SQLite by itself checkpoints every 1,000 pages)


class Call(Protocol):
    """How a connection runs a statement."""

    def __call__(self, statement: Callable[[], T], /) -> Awaitable[T]: ...


class SqliteConnection(Connection):
    """``call`` runs each statement: on the loop, waiting out a busy file (``_unless_busy``),
    or in the report thread."""

    def __init__(self, db: sqlite3.Connection, call: Call) -> None:
        self._db = db
        self._call = call

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        return await self._call(lambda: self._db.execute(sql, params).fetchall())

    async def run(self, sql: str, params: Params = ()) -> int:
        return await self._call(lambda: self._db.execute(sql, params).rowcount)

    async def run_many(self, sql: str, rows: Iterable[Params]) -> int:
        rows = list(rows)  # a retry needs them again
        return await self._call(lambda: self._db.executemany(sql, rows).rowcount)

    async def insert_many(self, sql: str, rows: Iterable[Params]) -> None:
        await self.run_many(sql, rows)

    async def batches(self, sql: str, size: int) -> AsyncIterator[list[Row]]:
        cursor = await self._call(lambda: self._db.execute(sql))
        try:
            # Inside a transaction whose snapshot is taken, a step never finds the file busy.
            while rows := await self._call(lambda: cursor.fetchmany(size)):
                yield rows
        finally:
            cursor.close()

    async def copy_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        marks = ", ".join("?" * len(columns))
        await self.run_many(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)

    async def ids_continue_after_copy(self, table: str) -> None:
        """Nothing to do: SQLite gives a new row the largest id plus one."""


async def _unless_busy(statement: Callable[[], T]) -> T:
    """Run ``statement``; while another process holds the file (a statement of ``single()``,
    or a transaction's start), try again after a short ``asyncio.sleep``, for up to
    ``BUSY_TIMEOUT_MS``: the loop never blocks on the lock. A busy statement did nothing."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BUSY_TIMEOUT_MS / 1000
    backoff = pauses(BUSY_RETRY_SECONDS)
    while True:
        try:
            return statement()
        except sqlite3.OperationalError as error:
            if not _is_busy(error) or loop.time() >= deadline:
                raise
        await asyncio.sleep(next(backoff))


def _connect(path: str | Path) -> sqlite3.Connection:
    # check_same_thread: backups and closing run in a thread, always under the backend's lock.
    db = sqlite3.connect(path, timeout=0, isolation_level=None, check_same_thread=False)
    db.row_factory = sqlite3.Row
    # NORMAL: in WAL mode a commit survives the process being killed (the crash test SIGKILLs
    # it) but not a power cut, which may undo the last decisions; each move of chips is one
    # transaction, so they stay conserved and the hand resumes a little earlier. FULL syncs the
    # log on every commit: at 125 clicks/s (benchmarks/bot.py) it made saving an action p95
    # 144 ms instead of 46 ms.
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA foreign_keys = ON")
    return db


def _is_busy(error: sqlite3.OperationalError) -> bool:
    return error.sqlite_errorcode in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _end_transaction(db: sqlite3.Connection, statement: str) -> None:
    """COMMIT or ROLLBACK, unless no transaction is open (BEGIN itself failed, or SQLite ended
    it on an error)."""
    if db.in_transaction:
        db.execute(statement)


def _report_checkpoint(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and (error := task.exception()) is not None:
        # The log keeps growing until one succeeds; nothing is lost meanwhile.
        log.warning("SQLite checkpoint failed: %s", error)


class SqliteBackend(Backend):
    dialect = "sqlite"

    def __init__(self, path: str | Path, db: sqlite3.Connection) -> None:
        # Use ``SqliteBackend.open``: it configures the file and migrates the schema.
        self._path = path
        self._db = db
        self._connection = SqliteConnection(db, _unless_busy)
        self._lock = asyncio.Lock()
        self._closed = False
        self._writes_since_checkpoint = 0
        self._checkpointing: asyncio.Task[None] | None = None
        # Reports: one at a time, on a connection that only their thread uses (opened there).
        self._reporting = asyncio.Lock()
        self._report_thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite-report")
        self._reader: sqlite3.Connection | None = None

    @classmethod
    async def open(cls, path: str | Path) -> SqliteBackend:
        """Open (or create) the file, switch on WAL, apply pending migrations."""
        async with aiosqlite.connect(path, isolation_level=None) as setup:
            await setup.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
            async with setup.execute("PRAGMA journal_mode = WAL") as cursor:
                mode = await cursor.fetchone()
            if mode is None or str(mode[0]).lower() != "wal":
                raise RuntimeError(f"the database must be a file in WAL mode, got {mode!r}")
            await setup.execute("PRAGMA foreign_keys = ON")
            await migrate(setup)
        db = _connect(path)
        # Checkpoints run in a thread (see the module's docstring), never inside a commit here.
        db.execute("PRAGMA wal_autocheckpoint = 0")
        return cls(path, db)

    async def close(self) -> None:
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._checkpointing is not None:
                await self._checkpointing
            async with self._reporting:
                await self._in_report_thread(self._close_reader)
            self._report_thread.shutdown()
            # The last connection to close checkpoints the whole log: a thread's work.
            await asyncio.to_thread(self._db.close)

    @asynccontextmanager
    async def write(self, guild: int | None = None) -> AsyncIterator[Connection]:
        """One write transaction, holding SQLite's write lock (the whole file's, whatever
        ``guild``) from its first statement."""
        async with self._lock:
            await self._begin("BEGIN IMMEDIATE")
            try:
                yield self._connection
            except BaseException:
                self._end_transaction("ROLLBACK")
                raise
            try:
                self._db.execute("COMMIT")
            except BaseException:
                self._end_transaction("ROLLBACK")  # a failed commit (disk full) undoes it all
                raise
            self._checkpoint_now_and_then()

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        async with self._lock:
            # The snapshot is taken at the first read: done here, where a busy file can wait.
            await self._begin("BEGIN", "SELECT 1 FROM sqlite_master LIMIT 1")
            try:
                yield self._connection
            finally:
                self._end_transaction("COMMIT")

    @asynccontextmanager
    async def single(self) -> AsyncIterator[Connection]:
        # Autocommit mode: each statement is a transaction of its own.
        async with self._lock:
            yield self._connection

    @asynccontextmanager
    async def report(self) -> AsyncIterator[Connection]:
        """A read transaction in the report thread: neither the loop nor the tables' writes
        wait for it, however many rows it reads."""
        async with self._reporting:
            if self._closed:
                raise RuntimeError("the store is closed")
            reader = await self._in_report_thread(self._begin_report)
            try:
                yield SqliteConnection(reader, self._in_report_thread)
            finally:
                await self._in_report_thread(lambda: _end_transaction(reader, "COMMIT"))

    async def _in_report_thread(self, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._report_thread, work)

    def _begin_report(self) -> sqlite3.Connection:
        reader = self._open_reader()
        if reader.in_transaction:
            # A report cancelled twice did not end its transaction. A ROLLBACK is not enough: a
            # statement it left unfinished keeps the old snapshot, so the reader starts anew.
            self._close_reader()
            reader = self._open_reader()
        reader.execute("BEGIN")
        return reader

    def _open_reader(self) -> sqlite3.Connection:
        if self._reader is None:
            # Its own thread may block: it waits out a busy file as SQLite itself does.
            reader = sqlite3.connect(
                self._path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None
            )
            reader.row_factory = sqlite3.Row
            reader.execute("PRAGMA query_only = ON")
            self._reader = reader
        return self._reader

    def _close_reader(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    async def _begin(self, *statements: str) -> None:
        """Start a transaction, waiting (without blocking the loop) while the file is busy."""

        def begin() -> None:
            try:
                for statement in statements:
                    self._db.execute(statement)
            except sqlite3.OperationalError:
                self._end_transaction("ROLLBACK")
                raise

        await _unless_busy(begin)

    def _end_transaction(self, statement: str) -> None:
        _end_transaction(self._db, statement)

    def _checkpoint_now_and_then(self) -> None:
        self._writes_since_checkpoint += 1
        running = self._checkpointing is not None and not self._checkpointing.done()
        if self._writes_since_checkpoint < CHECKPOINT_EVERY or running:
            return
        self._writes_since_checkpoint = 0
        self._checkpointing = asyncio.get_running_loop().create_task(
            asyncio.to_thread(self._checkpoint), name="sqlite-checkpoint"
        )
        self._checkpointing.add_done_callback(_report_checkpoint)

    def _checkpoint(self) -> None:
        db = sqlite3.connect(self._path, timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    async def backup(self, path: Path) -> None:
        """SQLite's online backup: all pages in one step, under this connection's lock so no
        transaction of ours is half done (other processes' commits wait or come after)."""
        copy = sqlite3.connect(path, check_same_thread=False)
        try:
            async with self._lock:
                await asyncio.to_thread(self._db.backup, copy)
        finally:
            copy.close()
