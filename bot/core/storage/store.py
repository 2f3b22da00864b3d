"""The store: wallets, tables, seats, hands and the ledger in one database, a SQLite file (the
default, ``sqlite.py``) or PostgreSQL (``postgres.py``).

Every chip lives in exactly one place: a wallet, a seat stack, or a hand in progress (the stacks
its players brought in). Every move between places is one transaction that also appends a ledger
row, so ``audit()`` can prove that the places add up to the chips ever granted.

Each query is written once, in the SQL both databases understand (``backend.py`` says what the
backends translate), and runs through the funnel at the bottom of the class (``_all``, ``_one``,
``_run``, ``_run_many``) inside ``_write()``, ``_read()``, ``_report()`` or ``_single()``. The
ledger row every move appends, and the checks and times the domains share, are in ``common.py``.

Concurrency: write transactions never interleave, on either database (SQLite's ``BEGIN
IMMEDIATE``, PostgreSQL's write lock), so another connection or process waits instead of reading
a balance that is about to change. Balance updates are still guarded in SQL (``WHERE balance >=
?`` and the row count) and by CHECK constraints.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from contextvars import ContextVar
from datetime import timedelta
from pathlib import Path

from bot.core.storage.backend import Backend, Connection, Params, Row, is_postgresql
from bot.core.storage.common import (
    MAX_AMOUNT,
    is_amount,
)
from bot.core.storage.errors import (
    AuditFailed,
    DatabaseNotEmpty,
)
from bot.core.storage.facades import Hands, Players, Reports, Seating, Wallets
from bot.core.storage.migrations import TABLES
from bot.core.storage.models import (
    AuditTotals,
)
from bot.core.storage.postgres import PostgresBackend
from bot.core.storage.sqlite import SqliteBackend

COPY_BATCH = 5000  # rows per round trip when a whole database is copied


class Store:
    """Open with ``await Store.open(path_or_url)``; close with ``await store.close()``.

    Methods raise a ``StoreError`` subclass (readable ``str()``) for anything a player can get
    wrong, and then nothing has changed. Times are timezone-aware UTC datetimes.

    A domain whose SQL lives in a module of its own is reached through its facade
    (``facades.py``): ``store.wallets``, ``store.seating``, ``store.hands``,
    ``store.players``, ``store.reports``.
    """

    def __init__(
        self,
        backend: Backend,
        *,
        starting_balance: int,
        daily_amount: int,
        daily_cooldown: timedelta,
    ) -> None:
        # Use ``Store.open``: it opens the backend and migrates the schema.
        self._backend = backend
        # The connection of the transaction the current task is in (each task has its own:
        # on PostgreSQL several transactions of one store run at once).
        self._connection: ContextVar[Connection | None] = ContextVar(
            f"store-{id(self)}", default=None
        )
        self.starting_balance = starting_balance
        self.daily_amount = daily_amount
        self.daily_cooldown = daily_cooldown
        self.wallets = Wallets(backend, self)
        self.seating = Seating(backend, self)
        self.hands = Hands(backend)
        self.players = Players(backend)
        self.reports = Reports(backend)

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        starting_balance: int = 1000,
        daily_amount: int = 200,
        daily_cooldown: timedelta = timedelta(hours=20),
    ) -> Store:
        """Open a SQLite file (created if missing) or, for a ``postgresql://`` URL, a PostgreSQL
        database; apply pending migrations."""
        if not is_amount(starting_balance, allow_zero=True):
            raise ValueError(f"starting_balance must be 0..{MAX_AMOUNT}, not {starting_balance!r}")
        if not is_amount(daily_amount):
            raise ValueError(f"daily_amount must be 1..{MAX_AMOUNT}, not {daily_amount!r}")
        if daily_cooldown <= timedelta(0):
            raise ValueError("daily_cooldown must be positive")
        backend: Backend
        if is_postgresql(path):
            backend = await PostgresBackend.open(str(path))
        else:
            backend = await SqliteBackend.open(path)
        return cls(
            backend,
            starting_balance=starting_balance,
            daily_amount=daily_amount,
            daily_cooldown=daily_cooldown,
        )

    async def close(self) -> None:
        """Wait for the transactions in flight, then close the database. Safe to call twice."""
        await self._backend.close()

    async def audit(self) -> AuditTotals:
        """Check conservation and that every balance equals its ledger history.

        Raises ``AuditFailed`` naming the first mismatch.
        """
        async with self._read():
            return await self._audit()

    async def _audit(self) -> AuditTotals:
        """``audit()`` inside the current transaction."""
        totals = await self._one(
            "SELECT"
            " (SELECT coalesce(sum(minted), 0) FROM ledger) AS granted,"
            " (SELECT coalesce(sum(balance), 0) FROM wallets) AS wallets,"
            " (SELECT coalesce(sum(stack), 0) FROM seats) AS seats,"
            " (SELECT coalesce(sum(starting_stack), 0) FROM hand_seats"
            "  JOIN hands ON hands.id = hand_seats.hand_id"
            "  WHERE hands.ended_at IS NULL) AS live_hands"
        )
        assert totals is not None
        result = AuditTotals(
            int(totals["granted"]),
            int(totals["wallets"]),
            int(totals["seats"]),
            int(totals["live_hands"]),
        )
        if result.granted != result.wallets + result.seats + result.live_hands:
            raise AuditFailed(f"chips not conserved: {result}")
        for description, query in _AUDIT_MISMATCHES:
            bad = await self._one(query)
            if bad is not None:
                raise AuditFailed(f"{description}: {dict(bad)}")
        return result

    # ----------------------------------------------------------------- process facts

    async def get_meta(self, key: str) -> str | None:
        """The value last stored under ``key`` with :meth:`set_meta`, or ``None``."""
        async with self._read():
            row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    async def set_meta(self, key: str, value: str) -> None:
        async with self._write():
            await self._run(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    async def backup(self, path: str | Path) -> None:
        """Copy a SQLite database to ``path`` with SQLite's online backup, while the bot runs
        (PostgreSQL has pg_dump for that: ``RuntimeError``).

        The copy is one consistent snapshot. It is written beside ``path`` and renamed into
        place, so an interrupted backup never leaves a partial file where a good one is expected.
        """
        target = Path(path)
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        try:
            await self._backend.backup(partial)
            partial.replace(target)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise

    async def copy_from(self, source: Store) -> dict[str, int]:
        """Copy every row of ``source`` into this store, which must have none (``stud-bot
        migrate-db``); returns how many rows each table received.

        One transaction, which also runs the audit on the copy before it commits: a copy that
        doesn't add up (``AuditFailed``), or a store that already has rows
        (``DatabaseNotEmpty``), changes nothing. Rows keep their ids, so the seats', hands' and
        ledger's references stay right, and new ids continue after the copied ones.
        """
        copied: dict[str, int] = {}
        async with source._read() as reading, self._write() as writing:
            for table in TABLES:
                rows = (await writing.all(f"SELECT count(*) AS n FROM {table}"))[0]["n"]
                if rows:
                    raise DatabaseNotEmpty(table, int(rows))
            for table in TABLES:
                copied[table] = 0
                columns: list[str] = []
                async for batch in reading.batches(f"SELECT * FROM {table}", COPY_BATCH):
                    columns = list(batch[0].keys())
                    await writing.copy_rows(table, columns, [tuple(row) for row in batch])
                    copied[table] += len(batch)
                if "id" in columns:
                    await writing.ids_continue_after_copy(table)
            await self._audit()
        return copied

    # ----------------------------------------------------------------- internals

    def _write(self) -> AbstractAsyncContextManager[Connection]:
        """One write transaction; no other writer, in any process, runs at the same time."""
        return self._using(self._backend.write())

    def _read(self) -> AbstractAsyncContextManager[Connection]:
        """One read transaction: every query inside sees the same snapshot."""
        return self._using(self._backend.read())

    def _report(self) -> AbstractAsyncContextManager[Connection]:
        """A read transaction for a player's question over many rows: the tables don't wait
        for it (``Backend.report``)."""
        return self._using(self._backend.report())

    def _single(self) -> AbstractAsyncContextManager[Connection]:
        """No transaction: each statement commits on its own."""
        return self._using(self._backend.single())

    @asynccontextmanager
    async def _using(
        self, access: AbstractAsyncContextManager[Connection]
    ) -> AsyncIterator[Connection]:
        """The store's queries run on ``access``'s connection until it ends."""
        async with access as connection:
            token = self._connection.set(connection)
            try:
                yield connection
            finally:
                self._connection.reset(token)

    def _db(self) -> Connection:
        connection = self._connection.get()
        assert connection is not None, (
            "queries run inside _write(), _read(), _report() or _single()"
        )
        return connection

    async def _all(self, sql: str, params: Params = ()) -> list[Row]:
        return await self._db().all(sql, params)

    async def _one(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _run(self, sql: str, params: Params = ()) -> int:
        """Run a write and return how many rows it changed."""
        return await self._db().run(sql, params)

    async def _run_many(self, sql: str, rows: Iterable[Params]) -> int:
        """Run a write once per parameter row; return rows changed in all."""
        return await self._db().run_many(sql, rows)


# Each query returns a row only when something disagrees with the ledger.
_AUDIT_MISMATCHES: tuple[tuple[str, str], ...] = (
    (
        "a wallet balance differs from its ledger",
        """
        SELECT w.guild_id, w.user_id, w.balance, coalesce(l.total, 0) AS ledger
        FROM wallets AS w LEFT JOIN (
            SELECT guild_id, user_id, sum(wallet_delta) AS total FROM ledger GROUP BY 1, 2
        ) AS l USING (guild_id, user_id)
        WHERE w.balance != coalesce(l.total, 0)
        UNION ALL
        SELECT l.guild_id, l.user_id, NULL, l.total
        FROM (SELECT guild_id, user_id, sum(wallet_delta) AS total FROM ledger GROUP BY 1, 2) AS l
        WHERE l.total != 0 AND NOT EXISTS (
            SELECT 1 FROM wallets AS w WHERE w.guild_id = l.guild_id AND w.user_id = l.user_id)
        LIMIT 1
        """,
    ),
    (
        "a seat stack differs from its ledger",
        """
        SELECT s.table_id, s.user_id, s.stack, coalesce(l.total, 0) AS ledger
        FROM seats AS s LEFT JOIN (
            SELECT table_id, user_id, sum(seat_delta) AS total FROM ledger
            WHERE table_id IS NOT NULL GROUP BY 1, 2
        ) AS l USING (table_id, user_id)
        WHERE s.stack != coalesce(l.total, 0)
        UNION ALL
        SELECT l.table_id, l.user_id, NULL, l.total
        FROM (
            SELECT table_id, user_id, sum(seat_delta) AS total FROM ledger
            WHERE table_id IS NOT NULL GROUP BY 1, 2
        ) AS l
        WHERE l.total != 0 AND NOT EXISTS (
            SELECT 1 FROM seats AS s WHERE s.table_id = l.table_id AND s.user_id = l.user_id)
        LIMIT 1
        """,
    ),
    (
        # A live hand holds its players' starting stacks; an ended one holds nothing, so a
        # second payout would show here as a negative balance.
        "a hand's chips differ from its ledger",
        """
        SELECT * FROM (
            SELECT h.id, h.ended_at, coalesce(l.total, 0) AS ledger,
                   CASE WHEN h.ended_at IS NULL THEN
                       (SELECT sum(starting_stack) FROM hand_seats WHERE hand_id = h.id)
                   ELSE 0 END AS expected
            FROM hands AS h LEFT JOIN (
                SELECT hand_id, sum(hand_delta) AS total FROM ledger
                WHERE hand_id IS NOT NULL GROUP BY 1
            ) AS l ON l.hand_id = h.id
        ) AS hands_and_ledger
        WHERE ledger != expected
        LIMIT 1
        """,
    ),
    (
        "a hand was paid out more or less than once per player",
        """
        SELECT hs.hand_id, hs.user_id, count(l.id) AS endings
        FROM hand_seats AS hs JOIN hands AS h ON h.id = hs.hand_id
        LEFT JOIN ledger AS l ON l.hand_id = hs.hand_id AND l.user_id = hs.user_id
            AND l.kind IN ('hand_result', 'hand_void')
        GROUP BY hs.hand_id, hs.user_id, h.ended_at
        HAVING count(l.id) != (CASE WHEN h.ended_at IS NULL THEN 0 ELSE 1 END)
        LIMIT 1
        """,
    ),
    (
        "a wallet's seated chips differ from its seats and live hands",
        """
        SELECT w.guild_id, w.user_id, w.seated, coalesce(s.total, 0) + coalesce(h.total, 0)
        FROM wallets AS w
        LEFT JOIN (
            SELECT t.guild_id, s.user_id, sum(s.stack) AS total
            FROM seats AS s JOIN tables AS t ON t.id = s.table_id GROUP BY 1, 2
        ) AS s USING (guild_id, user_id)
        LEFT JOIN (
            SELECT t.guild_id, hs.user_id, sum(hs.starting_stack) AS total
            FROM hand_seats AS hs JOIN hands ON hands.id = hs.hand_id
            JOIN tables AS t ON t.id = hands.table_id
            WHERE hands.ended_at IS NULL GROUP BY 1, 2
        ) AS h USING (guild_id, user_id)
        WHERE w.seated != coalesce(s.total, 0) + coalesce(h.total, 0)
        LIMIT 1
        """,
    ),
    (
        "a player in a live hand has no seat to return to",
        """
        SELECT hs.hand_id, hs.user_id FROM hand_seats AS hs
        JOIN hands ON hands.id = hs.hand_id
        WHERE hands.ended_at IS NULL AND NOT EXISTS (
            SELECT 1 FROM seats AS s WHERE s.table_id = hands.table_id AND s.user_id = hs.user_id)
        LIMIT 1
        """,
    ),
)
