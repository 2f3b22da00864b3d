"""The PostgreSQL backend: a pool of asyncpg connections, as large discord.py bots keep one.

Several processes (or shards), on several machines, can share the database. Write
transactions keep SQLite's one writer at a time per server (guild): a transaction of one
server's chips takes that server's advisory lock (and ``backend.WRITE_LOCK`` shared), so the
store's checks hold unchanged while other servers write beside it; reads run in parallel, each
in a repeatable-read snapshot. Queries arrive in the store's shared SQL and are
translated here: ``?`` and ``:name`` become ``$1``, ``$2``...; ``INSERT OR IGNORE`` becomes
``INSERT ... ON CONFLICT DO NOTHING``.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import asyncpg

from bot.core.storage.backend import WRITE_LOCK, Backend, Connection, Params, Row
from bot.core.storage.migrations import migrate

# Connections are opened as needed, up to this many (asyncpg's default size); the server's
# max_connections (100 by default) must cover every process's pool.
POOL_SIZE = 10

_TOKENS = re.compile(
    r"""
    '(?:[^']|'')*'              # a string: its text is not SQL
    | "(?:[^"]|"")*"            # a quoted name
    | --[^\n]*                  # a comment
    | ::                        # a cast, not a parameter
    | \?                        # a positional parameter
    | :[A-Za-z_][A-Za-z0-9_]*   # a named one
    """,
    re.VERBOSE,
)
_INSERT_OR_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+INTO\b", re.IGNORECASE)
_RETURNING = re.compile(r"\bRETURNING\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Query:
    """A query in PostgreSQL's SQL, and the names of its parameters in ``$n`` order (``None``
    for ``?`` parameters, taken in order)."""

    sql: str
    names: tuple[str, ...] | None

    def args(self, params: Params) -> list[Any]:
        if self.names is None:
            return list(params)
        assert isinstance(params, Mapping), "named parameters come in a mapping"
        return [params[name] for name in self.names]


@lru_cache(maxsize=1024)
def translate(sql: str) -> Query:
    """The store's shared SQL as PostgreSQL takes it."""
    names: list[str] = []
    positional = 0

    def parameter(match: re.Match[str]) -> str:
        nonlocal positional
        token = match.group()
        if token == "?":
            positional += 1
            return f"${positional}"
        if token.startswith(":") and token != "::":
            if token[1:] not in names:
                names.append(token[1:])
            return f"${names.index(token[1:]) + 1}"
        return token

    text = _TOKENS.sub(parameter, sql)
    if positional and names:
        raise ValueError(f"a query takes ? or :name parameters, not both: {sql}")
    if _INSERT_OR_IGNORE.match(text):
        text = _INSERT_OR_IGNORE.sub("INSERT INTO", text, count=1)
        returning = _RETURNING.search(text)
        if returning is None:
            text += " ON CONFLICT DO NOTHING"
        else:
            start = returning.start()
            text = f"{text[:start]}ON CONFLICT DO NOTHING {text[start:]}"
    return Query(text, tuple(names) if names else None)


def row_count(status: str) -> int:
    """Rows changed, from a command status such as ``UPDATE 3`` or ``INSERT 0 1``."""
    last = status.rpartition(" ")[2]
    return int(last) if last.isdigit() else 0


class PostgresConnection(Connection):
    def __init__(self, db: asyncpg.Connection | asyncpg.pool.PoolConnectionProxy) -> None:
        self._db = db

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        query = translate(sql)
        return list(await self._db.fetch(query.sql, *query.args(params)))

    async def run(self, sql: str, params: Params = ()) -> int:
        query = translate(sql)
        return row_count(await self._db.execute(query.sql, *query.args(params)))

    async def run_many(self, sql: str, rows: Iterable[Params]) -> int:
        # asyncpg's executemany reports no row counts: one statement per row (the store's
        # batches are a hand's seats, eight at most).
        query = translate(sql)
        changed = 0
        for params in rows:
            changed += row_count(await self._db.execute(query.sql, *query.args(params)))
        return changed

    async def insert_many(self, sql: str, rows: Iterable[Params]) -> None:
        query = translate(sql)
        await self._db.executemany(query.sql, [query.args(params) for params in rows])

    async def batches(self, sql: str, size: int) -> AsyncIterator[list[Row]]:
        batch: list[Row] = []
        async for row in self._db.cursor(translate(sql).sql, prefetch=size):
            batch.append(row)
            if len(batch) == size:
                yield batch
                batch = []
        if batch:
            yield batch

    async def copy_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        await self._db.copy_records_to_table(table, records=rows, columns=list(columns))

    async def ids_continue_after_copy(self, table: str) -> None:
        # An identity column's sequence knows nothing of ids given explicitly.
        await self._db.execute(
            f"SELECT setval(pg_get_serial_sequence($1, 'id'), coalesce(max(id), 0) + 1, false)"
            f" FROM {table}",
            table,
        )


# A writer waiting this long for a lock gives up and tries again; one idle this long inside its
# transaction (frozen: SIGSTOP, a pause, a cut network) is cut off by the server, its
# transaction rolled back, so nobody waits on it for long.
LOCK_TIMEOUT_MS = 1000
IDLE_TIMEOUT_MS = 1000
LOCK_TRIES = 30  # then the write fails as the database being away does
_TIMEOUTS = (
    "set_config('lock_timeout', $1, true),"
    " set_config('idle_in_transaction_session_timeout', $2, true)"
)
# Every write, and migrations, hold WRITE_LOCK: a server's writes share it and take their
# server's lock (its id: a Discord id is far above WRITE_LOCK); others take it alone.
_LOCK_ALL = f"SELECT {_TIMEOUTS}, pg_advisory_xact_lock($3)"
_LOCK_GUILD = f"SELECT {_TIMEOUTS}, pg_advisory_xact_lock_shared($3), pg_advisory_xact_lock($4)"


async def _locked(
    db: asyncpg.pool.PoolConnectionProxy, guild: int | None
) -> asyncpg.transaction.Transaction:
    """A transaction started on ``db`` that holds the write locks for ``guild``."""
    timeouts = (str(LOCK_TIMEOUT_MS), str(IDLE_TIMEOUT_MS), WRITE_LOCK)
    for attempt in range(LOCK_TRIES):
        transaction = db.transaction()
        await transaction.start()
        try:
            if guild is None:
                await db.execute(_LOCK_ALL, *timeouts)
            else:
                await db.execute(_LOCK_GUILD, *timeouts, guild)
        except asyncpg.LockNotAvailableError:
            await transaction.rollback()
            if attempt == LOCK_TRIES - 1:
                raise
            continue
        except BaseException:
            await transaction.rollback()
            raise
        return transaction
    raise AssertionError("unreachable")


class PostgresBackend(Backend):
    dialect = "postgresql"

    def __init__(self, pool: asyncpg.Pool) -> None:
        # Use ``PostgresBackend.open``: it migrates the schema first.
        self._pool = pool

    @classmethod
    async def open(cls, url: str) -> PostgresBackend:
        """Migrate the database's schema, then open the pool."""
        # On a connection of its own: the pool's connections cache query plans, which must not
        # be made before the tables they read exist in their final form.
        db = await asyncpg.connect(url)
        try:
            await migrate(db)
        finally:
            await db.close()
        return cls(await asyncpg.create_pool(url, min_size=1, max_size=POOL_SIZE))

    async def close(self) -> None:
        await self._pool.close()  # waits for the connections in use; a second call does nothing

    @asynccontextmanager
    async def write(self, guild: int | None = None) -> AsyncIterator[Connection]:
        async with self._pool.acquire() as db:
            transaction = await _locked(db, guild)
            try:
                yield PostgresConnection(db)
            except BaseException:
                await transaction.rollback()
                raise
            await transaction.commit()

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        async with (
            self._pool.acquire() as db,
            db.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield PostgresConnection(db)

    def report(self) -> AbstractAsyncContextManager[Connection]:
        # asyncpg waits on the server without holding the loop: a report is a read.
        return self.read()

    @asynccontextmanager
    async def single(self) -> AsyncIterator[Connection]:
        async with self._pool.acquire() as db:
            yield PostgresConnection(db)

    async def backup(self, path: Path) -> None:
        raise RuntimeError(
            "the online backup copies a SQLite file: back a PostgreSQL database up with pg_dump"
        )
