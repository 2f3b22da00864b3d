"""The SQLite backend: one file in WAL mode through one aiosqlite connection (the default).

One connection, in autocommit mode, with explicit transactions. An asyncio lock keeps coroutines
from interleaving statements inside each other's transactions, and every write transaction is
``BEGIN IMMEDIATE`` (plus a busy timeout), so another connection to the same file waits for the
write lock instead of reading a balance that is about to change.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.core.storage.backend import Backend, Connection, Params, Row
from bot.core.storage.migrations import migrate

BUSY_TIMEOUT_MS = 5000


class SqliteConnection(Connection):
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._db.execute_fetchall(sql, params))

    async def run(self, sql: str, params: Params = ()) -> int:
        cursor = await self._db.execute(sql, params)
        return cursor.rowcount

    async def run_many(self, sql: str, rows: Iterable[Params]) -> int:
        cursor = await self._db.executemany(sql, rows)
        return cursor.rowcount

    async def insert_many(self, sql: str, rows: Iterable[Params]) -> None:
        await self._db.executemany(sql, rows)

    async def batches(self, sql: str, size: int) -> AsyncIterator[list[Row]]:
        async with self._db.execute(sql) as cursor:
            while rows := await cursor.fetchmany(size):
                yield list[Row](rows)

    async def copy_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        marks = ", ".join("?" * len(columns))
        await self._db.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows
        )

    async def ids_continue_after_copy(self, table: str) -> None:
        """Nothing to do: SQLite gives a new row the largest id plus one."""


class SqliteBackend(Backend):
    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection) -> None:
        # Use ``SqliteBackend.open``: it configures the connection and migrates the schema.
        self._db = db
        self._connection = SqliteConnection(db)
        self._lock = asyncio.Lock()
        self._closed = False

    @classmethod
    async def open(cls, path: str | Path) -> SqliteBackend:
        """Open (or create) the file, switch on WAL and foreign keys, apply pending migrations."""
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            db.row_factory = aiosqlite.Row
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
            async with db.execute("PRAGMA journal_mode = WAL") as cursor:
                mode = await cursor.fetchone()
            if mode is None or str(mode[0]).lower() != "wal":
                raise RuntimeError(f"the database must be a file in WAL mode, got {mode!r}")
            # NORMAL: in WAL mode a commit survives the process being killed (the crash test
            # SIGKILLs it) but not a power cut, which may undo the last decisions; each move of
            # chips is one transaction, so they stay conserved and the hand resumes a little
            # earlier. FULL syncs the WAL on every commit: at 125 clicks/s (benchmarks/bot.py)
            # it made saving an action p95 144 ms instead of 46 ms.
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await migrate(db)
        except BaseException:
            await db.close()
            raise
        return cls(db)

    async def close(self) -> None:
        async with self._lock:
            if not self._closed:
                self._closed = True
                await self._db.close()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Connection]:
        """One write transaction, holding SQLite's write lock from its first statement."""
        async with self._lock:
            # BEGIN goes inside the try: a task cancelled while awaiting it still has it run
            # (the connection's thread works through its queue in order), so it must end too.
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                yield self._connection
            except BaseException:
                await self._end_transaction("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        async with self._lock:
            try:
                await self._db.execute("BEGIN")
                yield self._connection
            finally:
                await self._end_transaction("COMMIT")

    @asynccontextmanager
    async def single(self) -> AsyncIterator[Connection]:
        # Autocommit mode: each statement is a transaction of its own.
        async with self._lock:
            yield self._connection

    async def _end_transaction(self, statement: str) -> None:
        """COMMIT or ROLLBACK, unless BEGIN itself failed (e.g. the file stayed locked)."""
        try:
            await self._db.execute(statement)
        except sqlite3.OperationalError as error:
            if "no transaction is active" not in str(error):
                raise

    async def backup(self, path: Path) -> None:
        """SQLite's online backup: all pages in one step, under this connection's lock so no
        transaction of ours is half done (other processes' commits wait or come after)."""
        # check_same_thread: aiosqlite runs the backup on this connection's own thread.
        copy = sqlite3.connect(path, check_same_thread=False)
        try:
            async with self._lock:
                await self._db.backup(copy)
        finally:
            copy.close()
