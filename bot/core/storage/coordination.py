"""What the bot's processes share beside the game: whose DMs are closed, the invalid
requests Discord counts against the bot's IP, the turns to IDENTIFY and the gateway sessions
started each day.

Every call is one statement that commits on its own (``single()``): none of it moves a chip or
needs the write lock, and each upsert is atomic on both databases, so workers on several
machines add to the same rows without waiting on each other's transactions.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta
from typing import Final

from bot.core.storage.backend import Backend

# What ``migrate-db`` does not copy: a new database starts them afresh, at worst one more DM
# tried per player.
TABLES: Final = (
    "dms_closed",
    "invalid_requests",
    "identify_turns",
    "gateway_starts",
    "process_starts",
)

# Minutes of invalid-request counts kept: Discord's window is ten; older rows are pruned.
MINUTES_KEPT = 15


class Coordination:
    """``store.coordination``: the cluster's live state (not copied by ``migrate-db``)."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend

    @property
    def shared(self) -> bool:
        """Whether other machines may share this database (PostgreSQL): only then can
        IDENTIFY be coordinated here."""
        return self._backend.dialect == "postgresql"

    # ------------------------------------------------------------------ closed DMs

    async def dms_closed(self, since: float) -> dict[int, tuple[float, float]]:
        """Players refused a DM whose back-off ends after ``since``: user id -> (when the
        DM was refused, when one may be tried again)."""
        async with self._backend.single() as db:
            rows = await db.all(
                "SELECT user_id, closed_at, retry_at FROM dms_closed WHERE retry_at > ?",
                (since,),
            )
        return {int(r["user_id"]): (float(r["closed_at"]), float(r["retry_at"])) for r in rows}

    async def close_dms(self, user_id: int, closed_at: float, retry_at: float) -> None:
        async with self._backend.single() as db:
            await db.run(
                "INSERT INTO dms_closed (user_id, closed_at, retry_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE"
                " SET closed_at = excluded.closed_at, retry_at = excluded.retry_at",
                (user_id, closed_at, retry_at),
            )

    async def retry_dms_at(self, user_id: int, retry_at: float) -> None:
        async with self._backend.single() as db:
            await db.run(
                "UPDATE dms_closed SET retry_at = ? WHERE user_id = ?", (retry_at, user_id)
            )

    async def dms_open(self, user_id: int) -> None:
        async with self._backend.single() as db:
            await db.run("DELETE FROM dms_closed WHERE user_id = ?", (user_id,))

    # ------------------------------------------------------------------ invalid requests

    async def add_invalid(self, counts: Iterable[tuple[int, int]]) -> None:
        """Add this process's invalid requests, as (minute since the epoch, count)."""
        rows = [(minute, count) for minute, count in counts if count]
        if not rows:
            return
        async with self._backend.single() as db:
            await db.run_many(
                "INSERT INTO invalid_requests (minute, count) VALUES (?, ?)"
                " ON CONFLICT (minute) DO UPDATE"
                " SET count = invalid_requests.count + excluded.count",
                rows,
            )
            await db.run(
                "DELETE FROM invalid_requests WHERE minute < ?",
                (rows[-1][0] - MINUTES_KEPT,),
            )

    async def invalid_since(self, minute: int) -> int:
        """Every process's invalid requests from ``minute`` (since the epoch) on."""
        async with self._backend.single() as db:
            rows = await db.all(
                "SELECT coalesce(sum(count), 0) AS total FROM invalid_requests WHERE minute >= ?",
                (minute,),
            )
        return int(rows[0]["total"])

    # ------------------------------------------------------------------ the gateway

    async def book_identify(self, bucket: int, interval: float) -> float:
        """PostgreSQL only: book the next moment, at least ``interval`` seconds after the last
        one booked in ``bucket``, for an IDENTIFY; returns the seconds to wait for it. The
        moments are the database server's, so every machine reads them on one clock."""
        async with self._backend.single() as db:
            rows = await db.all(
                """
                WITH now AS (SELECT extract(epoch FROM clock_timestamp())::float8 AS at)
                INSERT INTO identify_turns (bucket, next_at) SELECT ?, at FROM now
                ON CONFLICT (bucket) DO UPDATE SET next_at = greatest(
                    (SELECT at FROM now), identify_turns.next_at + CAST(? AS float8))
                RETURNING next_at - (SELECT at FROM now) AS wait
                """,
                (bucket, interval),
            )
        return max(0.0, float(rows[0]["wait"]))

    async def count_start(self, day: str, sessions: int) -> int:
        """Add ``sessions`` gateway sessions started on ``day`` (UTC, ISO); returns the day's
        total so far, every process counted."""
        async with self._backend.single() as db:
            rows = await db.all(
                "INSERT INTO gateway_starts (day, count) VALUES (?, ?)"
                " ON CONFLICT (day) DO UPDATE SET count = gateway_starts.count + excluded.count"
                " RETURNING count",
                (day, sessions),
            )
            await db.run("DELETE FROM gateway_starts WHERE day < ?", (_week_before(day),))
        return int(rows[0]["count"])

    async def record_process_start(self, shards: str, now: float) -> None:
        """Record that the process of ``shards`` opened a gateway session at ``now``."""
        async with self._backend.single() as db:
            await db.run("DELETE FROM process_starts WHERE started_at < ?", (now - 86400.0,))
            await db.run(
                "INSERT INTO process_starts (shards, started_at) VALUES (?, ?)", (shards, now)
            )

    async def process_starts(self, since: float) -> dict[str, int]:
        """How many starts of each process (by its ``shards``) were recorded from ``since`` on."""
        async with self._backend.single() as db:
            rows = await db.all(
                "SELECT shards, count(*) AS starts FROM process_starts"
                " WHERE started_at >= ? GROUP BY shards ORDER BY shards",
                (since,),
            )
        return {row["shards"]: int(row["starts"]) for row in rows}

    async def clear_process_starts(self, shards: str | None = None) -> int:
        """Forget the starts of the process of ``shards`` (None: of every process); how many."""
        async with self._backend.single() as db:
            if shards is None:
                return await db.run("DELETE FROM process_starts")
            return await db.run("DELETE FROM process_starts WHERE shards = ?", (shards,))


def _week_before(day: str) -> str:
    return (date.fromisoformat(day) - timedelta(days=7)).isoformat()
