"""The databases the storage tests run on: a SQLite file, and a PostgreSQL database of their own.

PostgreSQL comes from the server at ``STUD_TEST_POSTGRES_URL`` (default
``postgresql://postgres@127.0.0.1:5432/postgres``: a user who may create databases). Without a
server the PostgreSQL tests are skipped, saying how to run them; in CI (``CI=true``) they fail
instead, so a CI machine without the server can't pass them unnoticed.

A database at the latest schema comes from a template migrated once: for PostgreSQL a template
database on the server named after a hash of the migrations (``stud_tpl_<hash>``, so a template
of other migrations is never used; it is kept for the next run, from any checkout), for SQLite a
file migrated once per test session and copied for each test. On PostgreSQL the tests of one
process (one pytest-xdist worker) share one copy, emptied before each test: every connection to
it ended, every row deleted, its sequences restarted and the template's rows put back, so each
test finds it as new (creating and dropping a database a test cost the server most of a
second). A test that changed its tables' list gets a new copy. An empty database (the
migrations' own tests) is a copy of ``template0`` or a new file, created and dropped for the test.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import hashlib
import os
import shutil
import sqlite3
import tempfile
import urllib.parse
import uuid
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias, TypeVar

import aiosqlite
import asyncpg
import pytest

from bot.core.storage import Store, migrations
from bot.core.storage.backend import is_postgresql
from bot.core.storage.migrations import MIGRATIONS, migrate, schema_version

BACKENDS = ("sqlite", "postgresql")
# For a long scenario played on both databases (a tournament to its end): its PostgreSQL run in
# the slow tier only, its SQLite run in both. Only where the quick tier still runs every line of
# the storage that scenario runs on PostgreSQL in other tests (CONTRIBUTING.md, "Tests, in
# tiers"). Put on the test; the ids stay [sqlite] and [postgresql].
POSTGRESQL_IN_SLOW_TIER = pytest.mark.parametrize(
    "database", ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)], indirect=True
)
ADMIN_URL = os.environ.get(
    "STUD_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)
# What a store is opened with: a SQLite file's path or a PostgreSQL URL.
Location: TypeAlias = str | Path
# What a change the schema refuses raises, on either database.
INTEGRITY_ERRORS = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)
T = TypeVar("T")

_unreachable: list[str] = []  # the reason, once a connection failed: don't wait for it again
# Held while a session looks for the PostgreSQL template and, if missing, builds it.
TEMPLATE_LOCK = zlib.crc32(b"stud test template")
_templates: dict[str, str | Path] = {}  # what this session made sure exists, by backend


def template_name() -> str:
    """The PostgreSQL template for these migrations: another text, another template."""
    # The runner counts too: it decides what the scripts do.
    texts = [Path(str(migrations.__file__)).read_text(encoding="utf-8")]
    texts += (migration.postgresql for migration in MIGRATIONS)
    digest = hashlib.sha256("".join(texts).encode()).hexdigest()
    return f"stud_tpl_{digest[:16]}"


def _url(name: str) -> str:
    return urllib.parse.urlsplit(ADMIN_URL)._replace(path=f"/{name}").geturl()


async def _admin() -> asyncpg.Connection:
    if not _unreachable:
        try:
            return await asyncpg.connect(ADMIN_URL, timeout=5)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            server = urllib.parse.urlsplit(ADMIN_URL).netloc.rpartition("@")[2]
            _unreachable.append(
                f"PostgreSQL not reachable at {server} ({error}); start it, or set "
                "STUD_TEST_POSTGRES_URL to a server where this user may create databases"
            )
    if os.environ.get("CI") == "true":
        pytest.fail(f"{_unreachable[0]} (CI=true: the PostgreSQL tests must run)")
    pytest.skip(_unreachable[0])


async def _exists(admin: asyncpg.Connection, name: str) -> bool:
    return bool(await admin.fetchval("SELECT true FROM pg_database WHERE datname = $1", name))


async def _migrated_template(admin: asyncpg.Connection) -> str:
    """The template at the latest schema, built first if no session has built it yet.

    Sessions on one server (several checkouts, parallel runs) take turns under an advisory lock;
    the template is built under a name of its own and renamed when complete, so none ever copies
    a half-migrated one, and if two built it at once (locks are per admin database) the second
    rename fails and its copy is dropped. Nobody may connect to it: a copy of a template fails
    while anyone is connected to it.
    """
    name = template_name()
    if _templates.get("postgresql") == name:
        return name
    await admin.execute("SELECT pg_advisory_lock($1)", TEMPLATE_LOCK)
    try:
        if not await _exists(admin, name):
            building = f"{name}_building_{uuid.uuid4().hex[:8]}"
            await admin.execute(f"CREATE DATABASE {building} TEMPLATE template0")
            try:
                db = await asyncpg.connect(_url(building))
                try:
                    await migrate(db)
                finally:
                    await db.close()
                await admin.execute(
                    f"ALTER DATABASE {building} WITH ALLOW_CONNECTIONS false IS_TEMPLATE true"
                )
                await admin.execute(f"ALTER DATABASE {building} RENAME TO {name}")
            except asyncpg.DuplicateDatabaseError:
                pass  # another session's template got there first: the same migrations
            finally:
                if await _exists(admin, building):  # not renamed: failed, or not needed
                    await admin.execute(f"ALTER DATABASE {building} WITH IS_TEMPLATE false")
                    await admin.execute(f"DROP DATABASE {building} WITH (FORCE)")
    finally:
        await admin.execute("SELECT pg_advisory_unlock($1)", TEMPLATE_LOCK)
    _templates["postgresql"] = name
    return name


async def _create(admin: asyncpg.Connection, template: str) -> str:
    name = f"stud_test_{uuid.uuid4().hex[:16]}"
    await admin.execute(f"CREATE DATABASE {name} TEMPLATE {template}")
    # The tests stop clients, never the server: a commit need not wait for the disk.
    await admin.execute(f"ALTER DATABASE {name} SET synchronous_commit = off")
    return name


async def _drop(admin: asyncpg.Connection, name: str) -> None:
    # FORCE: a killed child's connections may not have been noticed yet.
    await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


def _on_server(work: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
    """``work`` on an admin connection of its own, in the calling thread."""

    async def run() -> T:
        admin = await asyncpg.connect(ADMIN_URL, timeout=5)
        try:
            return await work(admin)
        finally:
            await admin.close()

    return asyncio.run(run())


@dataclass
class _Shared:
    """The process's migrated database, as the template made it: its tables and their rows."""

    name: str
    tables: list[str]
    rows: dict[str, list[asyncpg.Record]]
    sequences: list[str]


_shared: list[_Shared] = []  # once a test of this process asked for a migrated database


async def _tables(db: asyncpg.Connection) -> list[str]:
    rows = await db.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
    )
    return [row["tablename"] for row in rows]


async def _share(template: str) -> _Shared:
    admin = await _admin()
    try:
        name = await _create(admin, template)
    finally:
        await admin.close()
    db = await asyncpg.connect(_url(name))
    try:
        tables = await _tables(db)
        rows = {table: await db.fetch(f"SELECT * FROM {table}") for table in tables}
        sequences = await db.fetch(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema()"
        )
    finally:
        await db.close()
    return _Shared(
        name,
        tables,
        {table: found for table, found in rows.items() if found},
        [row["sequencename"] for row in sequences],
    )


async def _emptied(shared: _Shared) -> bool:
    """``shared`` as the template made it; False if a test changed its list of tables."""
    db = await asyncpg.connect(_url(shared.name))
    try:
        # A stopped or killed test's connections may hold locks the truncation would wait for.
        await db.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        if await _tables(db) != shared.tables:
            return False
        async with db.transaction():
            # Replica: no trigger fires, neither the append-only ledger's nor a foreign key's,
            # so every row goes in any order. Deleting took 6 ms here; a truncation of every
            # table 0.4 s (it makes each table's files anew).
            await db.execute("SET LOCAL session_replication_role = replica")
            await db.execute(
                "; ".join(
                    [f"DELETE FROM {table}" for table in shared.tables]
                    + [f"ALTER SEQUENCE {sequence} RESTART" for sequence in shared.sequences]
                )
            )
            for table, rows in shared.rows.items():
                await db.copy_records_to_table(table, records=[tuple(row) for row in rows])
    finally:
        await db.close()
    return True


async def _migrated_postgresql() -> str:
    """The process's database at the latest schema, as new."""
    if _shared:
        if await _emptied(_shared[0]):
            return _url(_shared[0].name)
        await _drop_now(_shared.pop().name)
    admin = await _admin()
    try:
        template = await _migrated_template(admin)
    finally:
        await admin.close()
    _shared.append(await _share(template))
    return _url(_shared[0].name)


async def _drop_now(name: str) -> None:
    admin = await _admin()
    try:
        await _drop(admin, name)
    finally:
        await admin.close()


def finish() -> None:
    """At the end of the session: drop the process's shared database."""
    while _shared:
        _on_server(functools.partial(_drop, name=_shared.pop().name))


async def create_postgresql() -> str:
    """A new, empty PostgreSQL database of its own; returns its URL."""
    admin = await _admin()
    try:
        # template0: nobody is ever connected to it, so a copy can't fail on a busy template.
        name = await _create(admin, "template0")
    finally:
        await admin.close()
    return _url(name)


async def drop_postgresql(url: str) -> None:
    name = urllib.parse.urlsplit(url).path.lstrip("/")
    assert name.startswith("stud_test_"), "only what create_postgresql made"
    await _drop_now(name)


async def migrated_sqlite(path: Path) -> None:
    """A SQLite file at ``path`` already at the latest schema: a copy of one migrated once."""
    template = _templates.get("sqlite")
    if template is None:
        folder = tempfile.mkdtemp(prefix="stud-template-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        template = Path(folder) / "template.db"
        await (await Store.open(template)).close()  # migrated; closing folds the log in
        _templates["sqlite"] = template
    shutil.copyfile(template, path)


@asynccontextmanager
async def new_database(backend: str, path: Path, *, migrated: bool) -> AsyncIterator[Location]:
    """A new database, empty or (``migrated``) at the latest schema: the SQLite file ``path``,
    or on PostgreSQL the process's shared one emptied (``migrated``) or one of its own (dropped
    afterwards)."""
    if backend == "sqlite":
        if migrated:
            await migrated_sqlite(path)
        yield path
        return
    if migrated:
        yield await _migrated_postgresql()
        return
    url = await create_postgresql()
    try:
        yield url
    finally:
        await drop_postgresql(url)


class Raw:
    """A connection to the store's database of the test's own, outside the store: every
    statement commits by itself. Statements take no parameters (tests write literals)."""

    def __init__(self, sqlite: sqlite3.Connection | None, pg: asyncpg.Connection | None) -> None:
        self._sqlite = sqlite
        self._pg = pg

    @classmethod
    async def open(cls, location: Location) -> Raw:
        if is_postgresql(location):
            return cls(None, await asyncpg.connect(str(location)))
        connection = sqlite3.connect(location, isolation_level=None)
        connection.row_factory = sqlite3.Row
        return cls(connection, None)

    async def close(self) -> None:
        if self._pg is not None:
            await self._pg.close()
        if self._sqlite is not None:
            self._sqlite.close()

    async def rows(self, sql: str) -> list[dict[str, Any]]:
        if self._pg is not None:
            return [dict(row) for row in await self._pg.fetch(sql)]
        assert self._sqlite is not None
        return [dict(row) for row in self._sqlite.execute(sql).fetchall()]

    async def execute(self, sql: str) -> None:
        if self._pg is not None:
            await self._pg.execute(sql)
        else:
            assert self._sqlite is not None
            self._sqlite.execute(sql)

    async def columns(self, table: str) -> list[str]:
        if self._pg is not None:
            sql = (
                "SELECT column_name AS name FROM information_schema.columns"
                f" WHERE table_schema = current_schema() AND table_name = '{table}'"
                " ORDER BY ordinal_position"
            )
        else:
            sql = f"SELECT name FROM pragma_table_info('{table}')"
        return [row["name"] for row in await self.rows(sql)]

    async def table_names(self) -> list[str]:
        if self._pg is not None:
            sql = "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()"
        else:
            sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
        return sorted(row["name"] for row in await self.rows(sql))


@asynccontextmanager
async def raw(location: Location) -> AsyncIterator[Raw]:
    connection = await Raw.open(location)
    try:
        yield connection
    finally:
        await connection.close()


async def migrate_to(location: Location, target: int) -> int:
    """Bring a database to schema ``target`` as an older bot would have left it."""
    if is_postgresql(location):
        db = await asyncpg.connect(str(location))
        try:
            return await migrate(db, target=target)
        finally:
            await db.close()
    async with aiosqlite.connect(location, isolation_level=None) as lite:
        return await migrate(lite, target=target)


async def version(location: Location) -> int:
    """The database's schema version, as the migrations record it."""
    if is_postgresql(location):
        db = await asyncpg.connect(str(location))
        try:
            return await schema_version(db)
        finally:
            await db.close()
    async with aiosqlite.connect(location) as lite:
        return await schema_version(lite)


async def query(location: Location, sql: str) -> list[dict[str, Any]]:
    """The rows of one query, read through a connection of its own (as another process would)."""
    async with raw(location) as connection:
        return await connection.rows(sql)


async def snapshot(location: Location) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in order, to show that something changed nothing."""
    async with raw(location) as connection:
        return {
            name: sorted(
                (tuple(row.values()) for row in await connection.rows(f"SELECT * FROM {name}")),
                key=lambda row: [(value is None, value) for value in row],
            )
            for name in await connection.table_names()
        }


# What a schema is made of, read from each database's catalogue, in a stable order. SQLite keeps
# each object's SQL as written; PostgreSQL describes its own in a canonical form.
_POSTGRESQL_CATALOGUE = {
    "columns": "SELECT table_name, column_name, ordinal_position, data_type, is_nullable,"
    " column_default, is_identity, identity_generation FROM information_schema.columns"
    " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position",
    "constraints": "SELECT c.conrelid::regclass::text AS tbl, c.conname, c.contype,"
    " pg_get_constraintdef(c.oid) AS def FROM pg_constraint c"
    " JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = current_schema()"
    " ORDER BY 1, 2",
    "indexes": "SELECT tablename, indexname, indexdef FROM pg_indexes"
    " WHERE schemaname = current_schema() ORDER BY 1, 2",
    "triggers": "SELECT tgrelid::regclass::text AS tbl, tgname, pg_get_triggerdef(t.oid) AS def"
    " FROM pg_trigger t WHERE NOT tgisinternal ORDER BY 1, 2",
    "functions": "SELECT proname, pg_get_functiondef(p.oid) AS def FROM pg_proc p"
    " JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = current_schema()"
    " ORDER BY 1",
    "sequences": "SELECT sequencename, data_type, start_value, increment_by FROM pg_sequences"
    " WHERE schemaname = current_schema() ORDER BY 1",
}


def _squashed(value: Any) -> Any:
    """Text with its runs of blanks as one space: the same schema however its SQL was laid out.
    (A constraint's kind is PostgreSQL's one-byte ``"char"``, which asyncpg reads as bytes.)"""
    if isinstance(value, bytes):
        value = value.decode()
    return " ".join(value.split()) if isinstance(value, str) else value


async def catalogue(location: Location) -> dict[str, Any]:
    """The database's schema: its tables, columns and their types, constraints, indexes,
    triggers and functions, and its version, as plain lists (comparable with a JSON file)."""
    async with raw(location) as connection:
        if is_postgresql(location):
            found: dict[str, Any] = {
                part: [
                    [_squashed(value) for value in row.values()]
                    for row in await connection.rows(sql)
                ]
                for part, sql in _POSTGRESQL_CATALOGUE.items()
            }
        else:
            objects = await connection.rows(
                'SELECT type, name, tbl_name AS "table", sql FROM sqlite_master ORDER BY type, name'
            )
            for entry in objects:
                entry["sql"] = _squashed(entry["sql"])
                if entry["type"] == "table":
                    entry["columns"] = [
                        list(row.values())
                        for row in await connection.rows(
                            'SELECT name, type, "notnull", dflt_value, pk'
                            f" FROM pragma_table_info('{entry['name']}')"
                        )
                    ]
            found = {"objects": objects}
    found["version"] = await version(location)
    return found
