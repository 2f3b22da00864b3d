"""Administration: the process's own facts (``meta``), the online backup of a SQLite file, and
copying every row of one database into an empty one (``stud-bot migrate-db``). Owns ``meta``;
the copy reads and writes every table in :data:`TABLES`. ``Store`` is its front door
(``store.get_meta``, ``store.backup``, ``store.copy_from``, ``store.audit``)."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from bot.core.storage.audit import audit
from bot.core.storage.backend import Backend, Connection
from bot.core.storage.common import one
from bot.core.storage.errors import DatabaseNotEmpty

COPY_BATCH = 5000  # rows per round trip when a whole database is copied

# Every table of the game, each after the tables it references: the order in which
# ``stud-bot migrate-db`` copies them (a test checks that none is missing). The running bots'
# coordination (``coordination.TABLES``) is not the game's: the copy leaves it behind.
TABLES: Final = (
    "tournaments",
    "tournament_entries",
    "tournament_registrations",
    "tables",
    "wallets",
    "seats",
    "hands",
    "hand_seats",
    "ledger",
    "meta",
    "player_names",
    "player_settings",
    "seasons",
    "player_stats",
    "recent_hands",
)


async def get_meta(db: Connection, key: str) -> str | None:
    found = await one(db, "SELECT value FROM meta WHERE key = ?", (key,))
    return None if found is None else str(found["value"])


async def set_meta(db: Connection, key: str, value: str) -> None:
    await db.run(
        "INSERT INTO meta (key, value) VALUES (?, ?)"
        " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


async def backup(backend: Backend, target: Path) -> None:
    """Copy the database to ``target`` with the backend's online backup (no transaction of
    ours: the backend takes its own snapshot), written beside it and renamed into place, so an
    interrupted backup never leaves a partial file where a good one is expected."""
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        await backend.backup(partial)
        partial.replace(target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


async def copy(source: Backend, target: Backend) -> dict[str, int]:
    """Copy every row of ``source`` into ``target``, which must have none; returns how many rows
    each table received. One transaction, which also runs the audit on the copy before it
    commits: a copy that doesn't add up (``AuditFailed``), or a target that already has rows
    (``DatabaseNotEmpty``), changes nothing."""
    # Every server's rows at once, into a database nobody else writes yet: the one write
    # that takes the whole database's lock.
    async with source.read() as reading, target.write() as writing:
        if target.dialect == "postgresql":
            # Idle while the source reads a batch, maybe for long: no worker waits on it.
            await writing.run("SET LOCAL idle_in_transaction_session_timeout = 0")
        await require_empty(writing)
        copied = await copy_rows(reading, writing)
        await audit(writing)
    return copied


async def require_empty(db: Connection) -> None:
    """``DatabaseNotEmpty`` unless every table is empty."""
    for table in TABLES:
        rows = (await db.all(f"SELECT count(*) AS n FROM {table}"))[0]["n"]
        if rows:
            raise DatabaseNotEmpty(table, int(rows))


async def copy_rows(reading: Connection, writing: Connection) -> dict[str, int]:
    """Copy every row from ``reading``'s database into ``writing``'s, keeping their ids (new
    ids continue after them); returns how many rows each table received."""
    copied: dict[str, int] = {}
    for table in TABLES:
        copied[table] = 0
        columns: list[str] = []
        async for batch in reading.batches(f"SELECT * FROM {table}", COPY_BATCH):
            columns = list(batch[0].keys())
            await writing.copy_rows(table, columns, [tuple(row) for row in batch])
            copied[table] += len(batch)
        if "id" in columns:
            await writing.ids_continue_after_copy(table)
    return copied
