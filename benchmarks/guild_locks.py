"""Write throughput on PostgreSQL with a lock per server (issue 24): workers writing many
servers at once against all of them writing one.

    python -m benchmarks.guild_locks [--writers N] [--seconds S] [--latency MS] [--postgres-url URL]

Two stores (two workers' pools) each run N/2 writer tasks; each writes grants, one transaction
each, for ``--seconds``. A transaction that crosses machines spends network round trips while it
holds its lock: ``--latency`` milliseconds (default 2) inside each, as ``pg_sleep``. Printed: the
transactions a second when every writer writes its own server, when they all write one (one
lock: what every write was before), and their ratio, measured in turn in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import tempfile
import time
from pathlib import Path

from benchmarks.store import database_for_the_run, server_version
from bot.core.storage import Store
from bot.core.storage import wallets as wallet_sql
from bot.core.storage.common import utcnow


async def throughput(
    stores: list[Store], writers: int, servers: int, seconds: float, latency: float
) -> float:
    """Transactions a second, writer ``i`` writing server ``1 + i % servers``."""
    done = 0
    end = time.perf_counter() + seconds

    async def writer(number: int) -> None:
        nonlocal done
        store = stores[number % len(stores)]
        guild = 1 + number % servers
        while time.perf_counter() < end:
            async with store._backend.write(guild) as db:
                await wallet_sql.ensure(db, guild, number, utcnow(), 1000)
                await db.all("SELECT pg_sleep(?)", (latency,))
            done += 1

    await asyncio.gather(*(writer(number) for number in range(writers)))
    return done / seconds


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--latency", type=float, default=2.0, help="ms inside each transaction")
    parser.add_argument("--postgres-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        async with database_for_the_run("postgresql", Path(directory), args.postgres_url) as url:
            print(f"Python {platform.python_version()}, {await server_version(url)}")
            stores = [await Store.open(url) for _ in range(2)]
            try:
                latency = args.latency / 1000
                spread = await throughput(stores, args.writers, args.writers, args.seconds, latency)
                one = await throughput(stores, args.writers, 1, args.seconds, latency)
            finally:
                for store in stores:
                    await store.close()
    print(
        f"{args.writers} writers, {args.latency:g} ms inside each transaction:"
        f" {spread:,.0f} a second on {args.writers} servers, {one:,.0f} on one server;"
        f" ratio {spread / one:.1f}"
    )


if __name__ == "__main__":
    asyncio.run(main())
