"""Write throughput on PostgreSQL with a lock per server: workers writing many servers at once
against all of them writing one, for grants and for a tournament's registrations.

    python -m benchmarks.guild_locks [--writers N] [--seconds S] [--latency MS] [--postgres-url URL]

Two stores (two workers' pools) each run N/2 writer tasks; each makes one write after another
through the store's facades, for ``--seconds``: an admin's grant (``store.wallets.grant``), or a
new player's registration into his server's tournament (``store.tournaments.register``: his
wallet made, the buy-in into the prize pool, his entry and its trace). Each facade takes the
lock it takes in the bot. A transaction that crosses machines spends network round trips while
it holds its lock: ``--latency`` milliseconds (default 2) inside each, as ``pg_sleep``. Printed,
for each kind of write: the transactions a second when every writer writes its own server, when
they all write one, and their ratio; for registrations also every writer on its own server
again, each write taking the whole database's lock as registering did before it took its
server's. All measured in turn in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import platform
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from benchmarks.store import database_for_the_run, server_version
from bot.core.storage import Store
from bot.core.storage.backend import Connection

# One write of writer ``number`` on server ``guild``.
Write = Callable[[Store, int, int], Awaitable[object]]


class Locks:
    """``whole_database``: every write takes the whole database's lock, whatever its server."""

    whole_database = False


def hold_each_write(store: Store, latency: float) -> None:
    """Every write transaction of ``store`` spends ``latency`` seconds inside, holding its
    locks, as one with a round trip or two to a database on another machine does."""
    begin = store._backend.write

    @asynccontextmanager
    async def write(guild: int | None = None) -> AsyncIterator[Connection]:
        async with begin(None if Locks.whole_database else guild) as db:
            await db.all("SELECT pg_sleep(?)", (latency,))
            yield db

    writes: Callable[[int | None], AbstractAsyncContextManager[Connection]] = write
    setattr(store._backend, "write", writes)  # noqa: B010 - an instance's method, replaced


async def throughput(
    stores: list[Store], writers: int, servers: int, seconds: float, write: Write
) -> float:
    """Transactions a second, writer ``i`` writing server ``1 + i % servers``."""
    done = 0
    end = time.perf_counter() + seconds

    async def writer(number: int) -> None:
        nonlocal done
        store = stores[number % len(stores)]
        guild = 1 + number % servers
        while time.perf_counter() < end:
            await write(store, guild, number)
            done += 1

    await asyncio.gather(*(writer(number) for number in range(writers)))
    return done / seconds


async def grant(store: Store, guild: int, number: int) -> None:
    await store.wallets.grant(guild, 1 + number, 1, reason="benchmark", by=1)


async def registrations(store: Store, servers: int) -> Write:
    """A registration of a new player into his server's tournament (open until its start, in a
    day: no field to fill), one tournament a server."""
    tournaments = {}
    for guild in range(1, servers + 1):
        created = await store.tournaments.create(
            guild,
            1000 + guild,
            1,
            game="stud",
            structure="standard",
            level_unit="hands",
            level_length=10,
            starting_stack=1000,
            buy_in=10,
            seats=8,
            seed=guild,
            start_at=datetime.now(UTC) + timedelta(days=1),
        )
        tournaments[guild] = created.tournament_id
    players = itertools.count(1_000_000)

    async def register(store: Store, guild: int, number: int) -> None:
        await store.tournaments.register(tournaments[guild], next(players), guild_id=guild)

    return register


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--latency", type=float, default=2.0, help="ms inside each transaction")
    parser.add_argument("--postgres-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    args = parser.parse_args()
    figures: dict[str, tuple[float, float]] = {}
    before = 0.0
    with tempfile.TemporaryDirectory() as directory:
        async with database_for_the_run("postgresql", Path(directory), args.postgres_url) as url:
            print(f"Python {platform.python_version()}, {await server_version(url)}")
            stores = [await Store.open(url) for _ in range(2)]
            try:
                register = await registrations(stores[0], args.writers)
                for store in stores:
                    hold_each_write(store, args.latency / 1000)
                for name, write in (("grants", grant), ("registrations", register)):
                    spread = await throughput(
                        stores, args.writers, args.writers, args.seconds, write
                    )
                    one = await throughput(stores, args.writers, 1, args.seconds, write)
                    figures[name] = (spread, one)
                Locks.whole_database = True
                before = await throughput(
                    stores, args.writers, args.writers, args.seconds, register
                )
                await stores[0].audit()
            finally:
                for store in stores:
                    await store.close()
    print(f"{args.writers} writers, {args.latency:g} ms inside each transaction:")
    for name, (spread, one) in figures.items():
        print(
            f"  {name}: {spread:,.0f} a second on {args.writers} servers, {one:,.0f} on one"
            f" server; ratio {spread / one:.1f}"
        )
    spread = figures["registrations"][0]
    print(
        f"  registrations, each taking the whole database's lock: {before:,.0f} a second on"
        f" {args.writers} servers; its server's lock gives {spread / before:.1f} times as many"
    )


if __name__ == "__main__":
    asyncio.run(main())
