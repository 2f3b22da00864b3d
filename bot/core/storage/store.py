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

from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from contextvars import ContextVar
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from bot.core.storage import hands, reports, seating, wallets
from bot.core.storage.backend import Backend, Connection, Params, Row, is_postgresql
from bot.core.storage.common import (
    MAX_AMOUNT,
    Move,
    aware,
    is_amount,
    is_int,
    log,
    parse_ts,
    required_ts,
    ts,
    utcnow,
)
from bot.core.storage.errors import (
    AuditFailed,
    ChipsNotConserved,
    DatabaseNotEmpty,
    HandInProgress,
    HandNotFound,
    HandNotLive,
)
from bot.core.storage.facades import Players, Reports, Seating, Wallets
from bot.core.storage.migrations import TABLES
from bot.core.storage.models import (
    AuditTotals,
    HandEnd,
    HandFacts,
    HandPlayer,
    HandRecord,
)
from bot.core.storage.postgres import PostgresBackend
from bot.core.storage.sqlite import SqliteBackend

COPY_BATCH = 5000  # rows per round trip when a whole database is copied
_NO_HAND_ABOVE = 2**63 - 1  # above every hand id (both databases' ids are 64-bit)

# In this order: _to_hands reads them by position.
_HAND_COLUMNS = """
    hands.id, hands.state, hands.version, hands.commitment, hands.salt, hands.started_at,
    hands.updated_at, hands.ended_at, hands.outcome, tables.channel_id, tables.guild_id
"""


class Store:
    """Open with ``await Store.open(path_or_url)``; close with ``await store.close()``.

    Methods raise a ``StoreError`` subclass (readable ``str()``) for anything a player can get
    wrong, and then nothing has changed. Times are timezone-aware UTC datetimes.

    A domain whose SQL lives in a module of its own is reached through its facade
    (``facades.py``): ``store.wallets``, ``store.seating``, ``store.players``,
    ``store.reports``.
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

    # ----------------------------------------------------------------- hands

    async def start_hand(
        self,
        channel_id: int,
        players: Sequence[tuple[int, int]],
        state: bytes,
        *,
        commitment: str,
        salt: str,
        settings: Mapping[str, Any] | None = None,
        now: datetime | None = None,
    ) -> int:
        """Record a new hand and move the players' stacks into it, in one transaction.

        ``players[i] = (user_id, stack)`` for engine seat ``i``: the stacks the StudHand was
        built with, which must equal those seats' current stacks (else ``SeatsChanged``).
        ``state`` is the hand saved before any action (``engine.codec.encode``; the store never
        reads inside it). ``settings``, if given, replace
        the table's (what changes with each hand dealt, as a mixed game's rotation, is saved
        with that hand). Returns the hand id. ``NoTable``, ``HandInProgress``, ``SeatsChanged``.
        """
        users = [user_id for user_id, _ in players]
        if len(set(users)) != len(users) or len(users) < 2:
            raise ValueError("a hand needs at least two different players")
        if any(not is_int(stack) or stack < 0 for _, stack in players):
            raise ValueError("stacks must be whole numbers of chips, not negative")
        now = aware(now)
        _check_state(state)
        async with self._write():
            table = await seating.require_table(self._db(), channel_id)
            if await hands.live_id(self._db(), table["id"]) is not None:
                raise HandInProgress(channel_id)
            rows = await self._all(
                "INSERT INTO hands (table_id, state, commitment, salt, started_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                (table["id"], state, commitment, salt, ts(now), ts(now)),
            )
            hand_id = int(rows[0]["id"])
            await seating.take_stacks(self._db(), table, players)
            if settings is not None:
                await seating.set_settings(self._db(), table, settings)
            await self._run_many(
                "INSERT INTO hand_seats (hand_id, seat_index, user_id, starting_stack)"
                " VALUES (?, ?, ?, ?)",
                [
                    (hand_id, index, user_id, stack)
                    for index, (user_id, stack) in enumerate(players)
                ],
            )
            await log(
                self._db(),
                now,
                *(
                    Move(
                        table["guild_id"],
                        user_id,
                        "hand_start",
                        reason=f"dealt into hand #{hand_id}",
                        seat_delta=-stack,
                        hand_delta=stack,
                        table_id=table["id"],
                        hand_id=hand_id,
                    )
                    for user_id, stack in players
                ),
            )
        return hand_id

    async def save_action(self, hand_id: int, state: bytes) -> int:
        """Replace the hand's saved state after one action (one transaction); returns the new
        version.

        ``HandNotFound``, ``HandNotLive``.
        """
        _check_state(state)
        async with self._single():
            # One statement is a transaction of its own: the busiest write of a table costs
            # one trip to the database instead of three.
            rows = await self._all(
                "UPDATE hands SET state = ?, version = version + 1, updated_at = ?"
                " WHERE id = ? AND ended_at IS NULL RETURNING version",
                (state, ts(utcnow()), hand_id),
            )
        if not rows:
            async with self._read():
                await self._require_live_hand(hand_id)
        return int(rows[0]["version"])

    async def settle_hand(
        self,
        hand_id: int,
        state: bytes,
        final_stacks: Sequence[int],
        *,
        facts: HandFacts | None = None,
        now: datetime | None = None,
    ) -> HandEnd:
        """End the hand: ``final_stacks[i]`` (engine seat order) go back on the seats, seats
        marked leaving are cashed out, and the hand is closed, all in one transaction.

        With ``facts`` (the tables always give them), the same transaction counts the hand in
        its players' stats, in the guild's current season, for the day, week and month of
        ``now`` and the whole season; a hand settled without them (a state the engine can't
        replay, as storage tests write) counts in no stats.

        Exactly once: a hand that already ended raises ``HandNotLive`` and pays nothing.
        ``ChipsNotConserved`` if the final stacks don't add up to the chips that entered.
        """
        if any(not is_int(stack) or stack < 0 for stack in final_stacks):
            raise ValueError("final stacks must be whole numbers of chips, not negative")
        _check_state(state)
        if facts is not None:
            reports.check_facts(facts, len(final_stacks))
        return await self._end_hand(hand_id, state, list(final_stacks), "", facts, aware(now))

    async def void_hand(self, hand_id: int, *, reason: str) -> HandEnd:
        """End the hand giving every player back his starting stack (e.g. a state that can't
        be restored); it counts in no stats. ``HandNotFound``, ``HandNotLive``.
        """
        return await self._end_hand(
            hand_id, None, None, reason.strip() or "hand voided", None, utcnow()
        )

    async def live_hands(self) -> list[HandRecord]:
        """Every hand in progress with its last committed state (restart recovery)."""
        async with self._read():
            rows = await self._all(
                f"SELECT {_HAND_COLUMNS} FROM hands JOIN tables ON tables.id = hands.table_id"
                " WHERE hands.ended_at IS NULL ORDER BY hands.id"
            )
            return await self._to_hands(rows)

    async def get_hand(self, hand_id: int) -> HandRecord:
        """``HandNotFound``."""
        async with self._read():
            rows = await self._all(
                f"SELECT {_HAND_COLUMNS} FROM hands JOIN tables ON tables.id = hands.table_id"
                " WHERE hands.id = ?",
                (hand_id,),
            )
            if not rows:
                raise HandNotFound(hand_id)
            return (await self._to_hands(rows))[0]

    async def last_hand_for(
        self, user_id: int, *, guild_id: int | None = None, finished: bool = False
    ) -> HandRecord | None:
        """The latest hand the player was dealt into (in that guild, if given; one that has
        ended, if ``finished``)."""
        async with self._read():
            rows = await self._all(
                f"SELECT {_HAND_COLUMNS} FROM hand_seats"
                " JOIN hands ON hands.id = hand_seats.hand_id"
                " JOIN tables ON tables.id = hands.table_id"
                " WHERE hand_seats.user_id = :user"
                " AND (CAST(:guild AS BIGINT) IS NULL OR tables.guild_id = :guild)"
                " AND (NOT :finished OR hands.ended_at IS NOT NULL)"
                # The same order as hands.id, but the one hand_seats_by_user is kept in: the
                # walk stops at the first match instead of sorting all of a player's hands
                # (SQLite doesn't see that the two are equal).
                " ORDER BY hand_seats.hand_id DESC LIMIT 1",
                {"user": user_id, "guild": guild_id, "finished": finished},
            )
            hands = await self._to_hands(rows)
        return hands[0] if hands else None

    async def settled_hands_for(
        self,
        user_id: int,
        *,
        guild_id: int,
        limit: int,
        channel_id: int | None = None,
        before: int | None = None,
    ) -> list[HandRecord]:
        """The player's latest ``limit`` settled hands in the guild, newest first; with
        ``channel_id``, only those at that channel's latest table (as ``table_ledger`` finds
        it); with ``before``, only hands numbered below it (the next page, after a page whose
        last hand was ``before``). Voided hands never ended at the table, so they have no
        history to give."""
        if not is_int(limit) or limit < 1:
            raise ValueError(f"limit must be a positive whole number, not {limit!r}")
        below = _NO_HAND_ABOVE if before is None else before
        async with self._report():
            if channel_id is None:
                rows = await self._all(
                    f"SELECT {_HAND_COLUMNS} FROM hand_seats"
                    " JOIN hands ON hands.id = hand_seats.hand_id"
                    " JOIN tables ON tables.id = hands.table_id"
                    " WHERE hand_seats.user_id = ? AND hand_seats.hand_id < ?"
                    " AND tables.guild_id = ? AND hands.outcome = 'settled'"
                    " ORDER BY hand_seats.hand_id DESC LIMIT ?",  # as in last_hand_for
                    (user_id, below, guild_id, limit),
                )
            else:
                table = await seating.latest_table_row(self._db(), channel_id)
                if table is None or table["guild_id"] != guild_id:
                    return []
                rows = await self._all(
                    f"SELECT {_HAND_COLUMNS} FROM hand_seats"
                    " JOIN hands ON hands.id = hand_seats.hand_id"
                    " JOIN tables ON tables.id = hands.table_id"
                    " WHERE hand_seats.user_id = ? AND hands.table_id = ? AND hands.id < ?"
                    " AND hands.outcome = 'settled'"
                    " ORDER BY hands.id DESC LIMIT ?",
                    (user_id, table["id"], below, limit),
                )
            return await self._to_hands(rows)

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

    async def _require_live_hand(self, hand_id: int) -> Row:
        row = await self._one(
            "SELECT hands.*, tables.guild_id, tables.channel_id FROM hands"
            " JOIN tables ON tables.id = hands.table_id WHERE hands.id = ?",
            (hand_id,),
        )
        if row is None:
            raise HandNotFound(hand_id)
        if row["ended_at"] is not None:
            raise HandNotLive(hand_id)
        return row

    async def _end_hand(
        self,
        hand_id: int,
        state: bytes | None,
        final_stacks: list[int] | None,
        void_reason: str,
        facts: HandFacts | None,
        now: datetime,
    ) -> HandEnd:
        """Settle (``final_stacks`` given) or void (None) a live hand in one transaction."""
        async with self._write():
            hand = await self._require_live_hand(hand_id)
            players = await self._all(
                "SELECT seat_index, user_id, starting_stack FROM hand_seats"
                " WHERE hand_id = ? ORDER BY seat_index",
                (hand_id,),
            )
            starting = [int(p["starting_stack"]) for p in players]
            if final_stacks is None:
                finals = starting
            elif len(final_stacks) != len(players):
                raise ValueError(
                    f"hand #{hand_id} has {len(players)} seats, not {len(final_stacks)} stacks"
                )
            else:
                finals = final_stacks
            if sum(finals) != sum(starting):
                raise ChipsNotConserved(hand_id, sum(finals), sum(starting))
            ended = await self._run(
                "UPDATE hands SET state = coalesce(?, state), updated_at = ?, ended_at = ?,"
                " outcome = ? WHERE id = ? AND ended_at IS NULL",
                (
                    state,
                    ts(now),
                    ts(now),
                    "voided" if final_stacks is None else "settled",
                    hand_id,
                ),
            )
            if ended != 1:
                raise HandNotLive(hand_id)
            table = await seating.table_by_id(self._db(), hand["table_id"])
            users = [int(p["user_id"]) for p in players]
            await self._run_many(
                "UPDATE hand_seats SET final_stack = ? WHERE hand_id = ? AND user_id = ?",
                [(final, hand_id, user_id) for user_id, final in zip(users, finals, strict=True)],
            )
            await seating.return_stacks(
                self._db(), table, hand_id, list(zip(users, finals, strict=True))
            )
            await wallets.add_results(
                self._db(),
                table["guild_id"],
                [
                    (user_id, final - start)
                    for user_id, start, final in zip(users, starting, finals, strict=True)
                ],
            )
            await log(
                self._db(),
                now,
                *(
                    Move(
                        table["guild_id"],
                        user_id,
                        "hand_void" if final_stacks is None else "hand_result",
                        reason=void_reason or f"result of hand #{hand_id}: {final - start:+,}",
                        seat_delta=final,
                        hand_delta=-final,
                        table_id=table["id"],
                        hand_id=hand_id,
                    )
                    for user_id, start, final in zip(users, starting, finals, strict=True)
                ),
            )
            if facts is not None:
                nets = [
                    (user_id, final - start)
                    for user_id, start, final in zip(users, starting, finals, strict=True)
                ]
                await reports.count_hand(
                    self._db(), int(table["guild_id"]), hand_id, facts, nets, now
                )
            cashed_out = await seating.cash_out_leaving(self._db(), table, now)
        return HandEnd(
            hand_id,
            dict(zip(users, finals, strict=True)),
            {
                user: final - start
                for user, start, final in zip(users, starting, finals, strict=True)
            },
            cashed_out,
        )

    async def _to_hands(self, rows: Iterable[Row]) -> list[HandRecord]:
        # /history session reads hundreds of hands and thousands of seats through here, so the
        # rows are read by position, and both drivers' integers are ints already.
        rows = list(rows)
        if not rows:
            return []
        ids = [row[0] for row in rows]
        marks = ", ".join("?" * len(ids))
        players: dict[int, list[HandPlayer]] = {hand_id: [] for hand_id in ids}
        for hand_id, seat_index, user_id, starting, final in await self._all(
            "SELECT hand_id, seat_index, user_id, starting_stack, final_stack FROM hand_seats"
            f" WHERE hand_id IN ({marks}) ORDER BY hand_id, seat_index",
            ids,
        ):
            players[hand_id].append(HandPlayer(seat_index, user_id, starting, final))
        return [
            HandRecord(
                hand_id=hand_id,
                channel_id=channel_id,
                guild_id=guild_id,
                state=bytes(state),
                version=version,
                commitment=commitment,
                salt=salt,
                players=tuple(players[hand_id]),
                started_at=required_ts(started_at),
                updated_at=required_ts(updated_at),
                ended_at=parse_ts(ended_at),
                outcome=outcome,
            )
            for (
                hand_id,
                state,
                version,
                commitment,
                salt,
                started_at,
                updated_at,
                ended_at,
                outcome,
                channel_id,
                guild_id,
            ) in rows
        ]


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


def _check_state(state: object) -> None:
    if not isinstance(state, bytes) or not state:
        raise ValueError("a hand's state is the bytes engine.codec.encode wrote")
