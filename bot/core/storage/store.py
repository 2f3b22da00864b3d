"""The store: wallets, tables, seats, hands and the ledger in one database, a SQLite file (the
default, ``sqlite.py``) or PostgreSQL (``postgres.py``).

Every chip lives in exactly one place: a wallet, a seat stack, or a hand in progress (the stacks
its players brought in). Every move between places is one transaction that also appends a ledger
row, so ``audit()`` can prove that the places add up to the chips ever granted.

``Store`` is the one front door. It opens the database and keeps the economy's settings; what
the bot asks of it goes through a part per domain, each method one transaction::

    store = await Store.open(path_or_url)
    await store.wallets.grant(guild_id, user_id, 500, reason="prize", by=admin_id)
    await store.seating.sit(channel_id, user_id, 200)
    await store.hands.settle(hand_id, state, final_stacks, facts=facts)
    await store.reports.leaderboard(guild_id, user_id=user_id)

Each part lives in its domain's module, beside the SQL it runs: functions that take the
connection of a transaction their caller opened (``db``) and own some tables. ``wallets.py``
(wallets, seasons, grants), ``seating.py`` (tables and seats: buy-ins and cash-outs),
``hands.py`` (hands and their players), ``reports.py`` (stats, leaderboards, a table's ledger),
``players.py`` (names and preferences), ``house.py`` (the house wallet), ``tournaments.py``,
``coordination.py`` (the running bots' shared state), ``audit.py`` (the proof that no chip was
lost) and ``admin.py`` (meta, backup, copying a database); ``common.py`` has the ledger row
writer they share, and ``migrations/`` the schema. A method puts them together in one
transaction: settling a hand ends it (hands), puts the stacks back on the
seats (seating), counts the results in the wallets (wallets) and the hand in the stats
(reports), and cashes out the players leaving (seating), so either all of that happens or none
of it.

Each query is written once, in the SQL both databases understand (``backend.py`` says what the
backends translate), and runs in one of the four kinds of access the backend gives: ``write()``,
a transaction no other writer interleaves with, for every move of chips and every
check-then-write; ``read()``, one snapshot; ``single()``, a statement that commits on its own
(saving an action: one round trip); ``report()``, a player's question over many rows (on SQLite
in a thread of its own, so the tables don't wait). Each method keeps the kind its call has
always used.

Methods raise a ``StoreError`` subclass (readable ``str()``) for anything a player can get
wrong, and then nothing has changed. Times are timezone-aware UTC datetimes. Arguments that can
be checked without the database are checked before the transaction starts.

Concurrency: write transactions never interleave, on either database (SQLite's ``BEGIN
IMMEDIATE``, PostgreSQL's write lock), so another connection or process waits instead of reading
a balance that is about to change. Balance updates are still guarded in SQL (``WHERE balance >=
?`` and the row count) and by CHECK constraints.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import timedelta
from functools import partial
from pathlib import Path

from bot.core.storage import admin
from bot.core.storage.audit import audit
from bot.core.storage.backend import Backend, Connection, is_postgresql
from bot.core.storage.common import MAX_AMOUNT, is_amount
from bot.core.storage.coordination import Coordination
from bot.core.storage.guilds import Guilds
from bot.core.storage.hands import HandRecords
from bot.core.storage.house import HouseWallet
from bot.core.storage.models import AuditTotals
from bot.core.storage.players import PlayerRecords
from bot.core.storage.postgres import PostgresBackend
from bot.core.storage.reports import ReportQueries
from bot.core.storage.seating import SeatRecords
from bot.core.storage.sqlite import SqliteBackend
from bot.core.storage.tournaments import TournamentRecords
from bot.core.storage.wallets import Wallets


class Store:
    """Open with ``await Store.open(path_or_url)``; close with ``await store.close()``.

    ``wallets``, ``seating``, ``hands``, ``players``, ``reports``, ``house_wallet``,
    ``tournaments`` and ``coordination`` are its parts, one per domain; the store itself audits
    the chips, keeps the process's facts (``get_meta``, ``set_meta``), backs a
    SQLite file up and copies a whole database. Methods raise a ``StoreError`` subclass
    (readable ``str()``) for anything a player can get wrong, and then nothing has changed.
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
        self.starting_balance = starting_balance
        self.daily_amount = daily_amount
        self.daily_cooldown = daily_cooldown
        # The parts read the settings above when each call runs.
        self.wallets = Wallets(backend, self)
        guilds = Guilds(backend)
        self.seating = SeatRecords(backend, self, guilds)
        self.hands = HandRecords(backend, guilds)
        self.players = PlayerRecords(backend)
        self.reports = ReportQueries(backend)
        self.coordination = Coordination(backend)
        self.house_wallet = HouseWallet(backend)
        self.tournaments = TournamentRecords(backend, self, guilds)

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

    def observe(self, observer: Callable[[str, float], None]) -> None:
        """Tell ``observer`` the kind ("write", "read", "single", "report") and the seconds of
        every transaction from now on, waiting for the database included (the metrics)."""
        backend = self._backend
        for kind in ("write", "read", "single", "report"):
            begin = getattr(backend, kind)
            setattr(backend, kind, partial(_timed, observer, kind, begin))

    async def close(self) -> None:
        """Wait for the transactions in flight, then close the database. Safe to call twice."""
        await self._backend.close()

    async def audit(self) -> AuditTotals:
        """Check conservation and that every balance equals its ledger history.

        Raises ``AuditFailed`` naming every kind of mismatch found.
        """
        async with self._backend.read() as db:
            return await audit(db)

    async def get_meta(self, key: str) -> str | None:
        """The value last stored under ``key`` with :meth:`set_meta`, or ``None``."""
        async with self._backend.read() as db:
            return await admin.get_meta(db, key)

    async def set_meta(self, key: str, value: str) -> None:
        # The process's facts are no server's, and no write reads them to decide: one upsert,
        # atomic on both databases, waits for no server's writers.
        async with self._backend.single() as db:
            await admin.set_meta(db, key, value)

    async def backup(self, path: str | Path) -> None:
        """Copy a SQLite database to ``path`` with SQLite's online backup, while the bot runs
        (PostgreSQL has pg_dump for that: ``RuntimeError``).

        The copy is one consistent snapshot. It is written beside ``path`` and renamed into
        place, so an interrupted backup never leaves a partial file where a good one is expected.
        """
        await admin.backup(self._backend, Path(path))

    async def copy_from(self, source: Store) -> dict[str, int]:
        """Copy every row of ``source`` into this store, which must have none (``stud-bot
        migrate-db``); returns how many rows each table received.

        One transaction, which also runs the audit on the copy before it commits: a copy that
        doesn't add up (``AuditFailed``), or a store that already has rows
        (``DatabaseNotEmpty``), changes nothing. Rows keep their ids, so the seats', hands' and
        ledger's references stay right, and new ids continue after the copied ones.
        """
        return await admin.copy(source._backend, self._backend)


@asynccontextmanager
async def _timed(
    observer: Callable[[str, float], None],
    kind: str,
    begin: Callable[..., AbstractAsyncContextManager[Connection]],
    *args: int | None,
) -> AsyncIterator[Connection]:
    started = time.perf_counter()
    try:
        async with begin(*args) as db:
            yield db
    finally:
        observer(kind, time.perf_counter() - started)
