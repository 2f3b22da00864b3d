"""What the store needs from a database, so one text of each query serves SQLite and PostgreSQL.

Queries are written once, in the SQL both understand, with ``?`` or ``:name`` placeholders (and
``INSERT OR IGNORE``, which PostgreSQL spells ``ON CONFLICT DO NOTHING``); a backend translates
what differs. PostgreSQL must know each parameter's type: one that is only tested with ``IS
NULL`` needs a ``CAST(? AS BIGINT)``. Each backend gives four kinds of access, all holding a
:class:`Connection`:

- ``write(guild)``: one transaction that no other writer of that server (any writer, for
  ``guild`` None), in any process, interleaves with: SQLite's ``BEGIN IMMEDIATE``; on
  PostgreSQL a transaction that first takes the server's advisory lock (and the database's
  write lock, shared: a write of no one server takes it alone), so every check-then-write in the
  store holds on both, since a server's chips never leave it. A PostgreSQL writer frozen inside
  its transaction (a stopped process, a cut network) is cut off after a second idle, and one
  waiting for a lock gives up after a second and tries again: the others never wait long;
- ``read()``: one transaction whose queries all see the same snapshot;
- ``single()``: statements that each commit on their own (one guarded UPDATE, say);
- ``report()``: a ``read()`` for a player's question that may read many rows (rankings, stats,
  a page of hands), kept from holding up the tables: on SQLite it runs in a thread of its own.
"""

from __future__ import annotations

import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, TypeAlias

import asyncpg

# Both kinds of row read by column name (``row["id"]``), by position, and into ``dict(row)``.
Row: TypeAlias = sqlite3.Row | asyncpg.Record
Params: TypeAlias = Sequence[Any] | Mapping[str, Any]

# PostgreSQL's counterpart of SQLite's single writer: every write transaction, and every
# migration, takes this transaction-level advisory lock first (the number spells "STUD").
WRITE_LOCK = 0x53545544


class Connection(ABC):
    """A connection inside one of the backend's transactions (or ``single()``)."""

    @abstractmethod
    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row the statement returns (a SELECT, or a write with RETURNING)."""

    @abstractmethod
    async def run(self, sql: str, params: Params = ()) -> int:
        """Run a write; return how many rows it changed."""

    @abstractmethod
    async def run_many(self, sql: str, rows: Iterable[Params]) -> int:
        """Run a write once per parameter row; return how many rows changed in all."""

    @abstractmethod
    async def insert_many(self, sql: str, rows: Iterable[Params]) -> None:
        """Run an insert once per parameter row in one round trip (no row counts)."""

    @abstractmethod
    def batches(self, sql: str, size: int) -> AsyncIterator[list[Row]]:
        """The rows of a query, ``size`` at a time (copying a whole database)."""

    @abstractmethod
    async def copy_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Append rows to ``table`` as fast as the database takes them (keeping their ids)."""

    @abstractmethod
    async def ids_continue_after_copy(self, table: str) -> None:
        """After rows were copied in with their ids, make the next new id follow the largest."""


class Backend(ABC):
    """One database: a SQLite file or a PostgreSQL database."""

    #: "sqlite" or "postgresql"
    dialect: str

    @abstractmethod
    def write(self, guild: int | None = None) -> AbstractAsyncContextManager[Connection]:
        """``guild``: the one server whose rows the transaction changes, so that on PostgreSQL
        only writers of that server wait for it; None: it may change any (it waits for all)."""

    @abstractmethod
    def read(self) -> AbstractAsyncContextManager[Connection]: ...

    @abstractmethod
    def single(self) -> AbstractAsyncContextManager[Connection]: ...

    @abstractmethod
    def report(self) -> AbstractAsyncContextManager[Connection]: ...

    @abstractmethod
    async def close(self) -> None:
        """Wait for the transactions in flight, then close. Safe to call twice."""

    @abstractmethod
    async def backup(self, path: Path) -> None:
        """Copy the database to the SQLite file ``path`` while it is in use (SQLite only)."""


def is_postgresql(location: str | Path) -> bool:
    """Whether a store location names a PostgreSQL database rather than a SQLite file."""
    return isinstance(location, str) and location.startswith(("postgresql://", "postgres://"))
