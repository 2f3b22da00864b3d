"""Numbered schema migrations, applied in order at startup on SQLite and on PostgreSQL.

Each migration is a SQL file of this folder, ``V<number>__<name>.sql``, numbered from 001
without a gap; where the two databases need different SQL, a pair instead,
``V<number>__<name>.sqlite.sql`` and ``V<number>__<name>.postgresql.sql``. To change the schema,
add the next number: a released file is never edited, since the databases it already ran on
would not run it again.

The number of the last migration applied is a SQLite file's ``PRAGMA user_version``, and the one
row of the ``schema_version`` table in a PostgreSQL database. Each migration runs in its own
transaction together with the version bump, holding the database's write lock (``BEGIN
IMMEDIATE``; PostgreSQL's DDL is transactional too), so a crash mid-way leaves the database at
the previous version, and the next start simply runs it again.
"""

from __future__ import annotations

import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Final

import aiosqlite
import asyncpg

from bot.core.storage.backend import WRITE_LOCK
from bot.core.storage.errors import SchemaTooNew

_FILE_NAME: Final = re.compile(r"V(\d{3})__([a-z0-9_]+)(?:\.(sqlite|postgresql))?\.sql")


@dataclass(frozen=True)
class Migration:
    """One numbered migration: its name and the script each database runs."""

    number: int
    name: str
    sqlite: str
    postgresql: str


def load(folder: Traversable) -> tuple[Migration, ...]:
    """The migrations of ``folder`` by number; ``ValueError`` for a misnamed file, a gap in the
    numbers, two names for one number, or a dialect's file without the other's."""
    scripts: dict[int, dict[str, str]] = {}
    names: dict[int, set[str]] = {}
    for entry in folder.iterdir():
        if not entry.name.endswith(".sql"):
            continue
        matched = _FILE_NAME.fullmatch(entry.name)
        if matched is None:
            raise ValueError(f"{entry.name}: not V<3 digits>__<name>[.sqlite|.postgresql].sql")
        number, name, dialect = int(matched[1]), matched[2], matched[3]
        names.setdefault(number, set()).add(name)
        found = scripts.setdefault(number, {})
        for each in (dialect,) if dialect else ("sqlite", "postgresql"):
            if each in found:
                raise ValueError(f"{entry.name}: migration {number} has two {each} scripts")
            found[each] = entry.read_text(encoding="utf-8")
    if sorted(scripts) != list(range(1, len(scripts) + 1)):
        raise ValueError(f"migrations must be numbered 1 to {len(scripts)}: {sorted(scripts)}")
    migrations = []
    for number, found in sorted(scripts.items()):
        if len(names[number]) > 1 or len(found) < 2:
            raise ValueError(f"migration {number} needs one name and a script for each database")
        (name,) = names[number]
        migrations.append(Migration(number, name, found["sqlite"], found["postgresql"]))
    return tuple(migrations)


MIGRATIONS: Final = load(files(__name__))
LATEST: Final = len(MIGRATIONS)


def sqlite_statements(script: str) -> list[str]:
    """A script's statements one by one: Python's sqlite3 runs a script only after committing
    the transaction it is in, and a migration must stay inside its own."""
    statements: list[str] = []
    pending = ""
    *ended, tail = script.split(";")
    for piece in ended:
        pending += piece + ";"
        # A semicolon inside a trigger's body, a string or a comment ends no statement.
        if sqlite3.complete_statement(pending):
            if _has_code(pending):
                statements.append(pending)
            pending = ""
    if _has_code(pending + tail):
        raise ValueError(f"a statement without its closing semicolon: {pending + tail!r}")
    return statements


def _has_code(text: str) -> bool:
    return bool(re.sub(r"--[^\n]*", "", text).strip().strip(";").strip())


class _Schema(ABC):
    """Where one database keeps its schema version, and how it runs a migration."""

    @abstractmethod
    async def version(self) -> int: ...

    @abstractmethod
    def exclusive(self) -> AbstractAsyncContextManager[None]:
        """One transaction holding the database's write lock."""

    @abstractmethod
    async def run(self, migration: Migration) -> None: ...

    @abstractmethod
    async def set_version(self, number: int) -> None: ...


class _SqliteSchema(_Schema):
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0])

    @asynccontextmanager
    async def exclusive(self) -> AsyncIterator[None]:
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise
        await self._db.execute("COMMIT")

    async def run(self, migration: Migration) -> None:
        for statement in sqlite_statements(migration.sqlite):
            await self._db.execute(statement)

    async def set_version(self, number: int) -> None:
        await self._db.execute(f"PRAGMA user_version = {number:d}")


class _PostgresSchema(_Schema):
    def __init__(self, db: asyncpg.Connection) -> None:
        self._db = db

    async def version(self) -> int:
        if not await self._db.fetchval("SELECT to_regclass('schema_version') IS NOT NULL"):
            return 0
        return int(await self._db.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))

    @asynccontextmanager
    async def exclusive(self) -> AsyncIterator[None]:
        async with self._db.transaction():
            await self._db.execute("SELECT pg_advisory_xact_lock($1)", WRITE_LOCK)
            await self._db.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)"
            )
            yield

    async def run(self, migration: Migration) -> None:
        # Without arguments, asyncpg sends the whole script at once, inside the transaction.
        await self._db.execute(migration.postgresql)

    async def set_version(self, number: int) -> None:
        await self._db.execute("DELETE FROM schema_version")
        await self._db.execute("INSERT INTO schema_version (version) VALUES ($1)", number)


def _schema(db: aiosqlite.Connection | asyncpg.Connection) -> _Schema:
    return _PostgresSchema(db) if isinstance(db, asyncpg.Connection) else _SqliteSchema(db)


async def schema_version(db: aiosqlite.Connection | asyncpg.Connection) -> int:
    return await _schema(db).version()


async def migrate(db: aiosqlite.Connection | asyncpg.Connection, target: int = LATEST) -> int:
    """Apply migrations up to ``target`` (tests build old databases with a lower one).

    Returns the version reached. A SQLite ``db`` must be in autocommit mode
    (``isolation_level=None``); a PostgreSQL one outside a transaction.
    """
    schema = _schema(db)
    current = await schema.version()
    if current > LATEST:
        raise SchemaTooNew(
            f"the database is at schema {current} but this bot only knows up to {LATEST}: "
            "run a newer version of the bot"
        )
    for migration in MIGRATIONS[current:target]:
        async with schema.exclusive():
            # Another process may have migrated while we waited for the write lock.
            if await schema.version() >= migration.number:
                continue
            await schema.run(migration)
            await schema.set_version(migration.number)
    return await schema.version()
