"""Storage speed: the leaderboard over many wallets, the commits of a hand, and a server's
history of a million hands: what it takes on disk and how fast /history reads it.

    python -m benchmarks.store [--wallets N] [--rounds N] [--hands N] [--path DIR]
                               [--database sqlite|postgresql] [--postgres-url URL]

1. Leaderboard (target < 5 ms): one guild with N wallets (default 100,000)
   whose totals are spread like a real server's (most near the starting 1,000, a long tail of
   winners, many exact ties), a few hundred of them seated. Timed through
   ``store.reports.leaderboard`` (top 10 plus the caller's rank, the aiosqlite thread hand-off
   included) for three callers: the top player, a typical one (median), and the last one,
   whose rank counts every wallet above him: the worst case.
2. Hand commits: ``store.hands.start``, ``save_action`` and ``settle`` at an 8-seat table, each
   one transaction committed as the store commits it, on the file system of ``--path``
   (default: the system temp dir; point it at the production disk to measure that).
3. History (targets: a settled hand's rows <= 1 KB, every query p95 < 10 ms):
   N settled hands (default 1,000,000) in one guild, in a database of their own, written
   straight into it by ``benchmarks.hands`` (a few thousand hands played by the engine, dealt
   again across a year of 25 channels' tables, with the seats and ledger rows the store writes).
   Printed: the saved hand's bytes, a hand's own rows (its ``hands`` and ``hand_seats`` rows),
   each table on disk with its indexes and the whole database, per hand; then ``last_hand_for``
   (/history), ``settled_hands_for`` (/history last:100 and /history session) and ``get_hand``
   through the store, for the player with the most hands and for players as they ask.
4. Stats and leaderboards by winnings (target < 10 ms) with ``--hands`` settled hands
   (default 1,000,000; 0 skips it) in the same server: every query /stats and /leaderboard make,
   and a settlement with its stats (``benchmarks/stats.py`` says how the data is made).

The wallets are written straight into the database in one transaction, with ledger rows that
balance, so ``audit()`` passes on the result (its time is printed too).

``--database postgresql`` runs the same on a database made for the run (and dropped after) on the
server of ``--postgres-url``, whose user must be allowed to create databases.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import random
import sqlite3
import statistics
import tempfile
import time
import urllib.parse
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, closing
from functools import partial
from pathlib import Path
from typing import Any

import asyncpg

from benchmarks import stats
from benchmarks.hands import HISTORY_TABLES, History, build_history, played_hands
from bot.core.archive import MAX_SESSION_HANDS, SESSION_PAGE
from bot.core.storage import HandRecord, Store
from engine.codec import decode

GUILD = 1
LEADERBOARD_TARGET_MS = 5.0
HISTORY_TARGET_MS = 10.0
HAND_ROW_TARGET = 1024  # bytes: a settled hand's own rows
SEATED_PLAYERS = 400  # at 50 eight-seat tables
NOW = "2025-01-01T12:00:00.000000Z"


WALLET_COLUMNS = ("guild_id", "user_id", "balance", "seated", "total", "created_at")
LEDGER_COLUMNS = ("created_at", "guild_id", "user_id", "kind", "minted", "wallet_delta", "reason")


async def fill_wallets(database: str, count: int, rng: random.Random) -> dict[int, int]:
    """Write ``count`` wallets (and balancing ledger rows) into ``GUILD``; return their chips."""
    users = list(range(10_000, 10_000 + count))
    wallets, ledger = [], []
    for user_id in users:
        # A quarter never played (exactly the starting 1,000, one big tie), some lost part of
        # it, the rest won something, with a long tail of big winners.
        luck = rng.random()
        if luck < 0.25:
            extra = 0
        elif luck < 0.6:
            extra = -rng.randint(1, 990)  # everyone keeps the 10 chips a seat below needs
        else:
            extra = int(rng.paretovariate(1.2) * 100)
        balance = 1000 + extra
        wallets.append((GUILD, user_id, balance, balance, NOW))
        ledger.append((GUILD, user_id, "starting_grant", 1000, 1000, "starting balance"))
        if extra > 0:
            ledger.append((GUILD, user_id, "admin_grant", extra, extra, "benchmark"))
        elif extra < 0:
            # Losses left through a table to other players in reality; here a smaller
            # starting grant stands in for them so that the ledger still balances.
            ledger[-1] = (GUILD, user_id, "starting_grant", balance, balance, "starting balance")
    wallet_rows = [
        (guild, user, balance, 0, total, NOW) for guild, user, balance, total, _ in wallets
    ]
    ledger_rows = [(NOW, *row) for row in ledger]
    if database.startswith("postgresql://"):
        db = await asyncpg.connect(database)
        try:
            async with db.transaction():
                await db.copy_records_to_table(
                    "wallets", records=wallet_rows, columns=WALLET_COLUMNS
                )
                await db.copy_records_to_table(
                    "ledger", records=ledger_rows, columns=LEDGER_COLUMNS
                )
            await db.execute("ANALYZE")
        finally:
            await db.close()
    else:
        with closing(sqlite3.connect(database, isolation_level=None)) as raw:
            raw.execute("BEGIN")
            for table, columns, rows in (
                ("wallets", WALLET_COLUMNS, wallet_rows),
                ("ledger", LEDGER_COLUMNS, ledger_rows),
            ):
                marks = ", ".join("?" * len(columns))
                raw.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows
                )
            raw.execute("COMMIT")
            raw.execute("ANALYZE")
    return {user_id: balance for _, user_id, balance, _, _ in wallets}


@asynccontextmanager
async def database_for_the_run(
    kind: str, directory: Path, server: str, name: str = "bench.db"
) -> AsyncIterator[str]:
    """A new SQLite file ``name`` in ``directory``, or a new database on the PostgreSQL
    ``server``."""
    if kind == "sqlite":
        yield str(directory / name)
        return
    name = f"stud_bench_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f"CREATE DATABASE {name} TEMPLATE template0")
        try:
            yield urllib.parse.urlsplit(server)._replace(path=f"/{name}").geturl()
        finally:
            await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
    finally:
        await admin.close()


async def server_version(database: str) -> str:
    if not database.startswith("postgresql://"):
        return f"SQLite {sqlite3.sqlite_version}"
    db = await asyncpg.connect(database)
    try:
        version: Any = await db.fetchval("SHOW server_version")
    finally:
        await db.close()
    return f"PostgreSQL {version}"


async def timed_ms(rounds: int, run: Callable[[], Awaitable[object]]) -> list[float]:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        await run()
        times.append((time.perf_counter() - start) * 1000)
    return times


def p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def summary(times: list[float]) -> str:
    return (
        f"p50 {statistics.median(times):6.3f} ms   p95 {p95(times):6.3f} ms"
        f"   max {max(times):6.3f} ms"
    )


async def seat_players(store: Store, users: list[int]) -> None:
    for index, user_id in enumerate(users[:SEATED_PLAYERS]):
        channel = 1_000 + index // 8
        if index % 8 == 0:
            await store.seating.open(
                channel, GUILD, user_id, max_seats=8, min_buy_in=10, max_buy_in=1000
            )
        await store.seating.sit(channel, user_id, 10)


async def leaderboard_figures(store: Store, chips: dict[int, int], rounds: int) -> bool:
    # Seating doesn't change a total, so the filled chips still order the players.
    ordered = sorted(chips, key=lambda user_id: (-chips[user_id], user_id))
    callers = {
        "top player": ordered[0],
        "typical player (median)": ordered[len(ordered) // 2],
        "last player (worst case)": ordered[-1],
    }
    worst = 0.0
    for label, caller in callers.items():
        times = await timed_ms(rounds, partial(store.reports.leaderboard, GUILD, user_id=caller))
        rank = (await store.reports.leaderboard(GUILD, user_id=caller)).caller
        assert rank is not None
        print(f"  {label:26} rank {rank.rank:>7,}   {summary(times)}")
        worst = max(worst, p95(times))
    ok = worst < LEADERBOARD_TARGET_MS
    print(
        f"  target p95 < {LEADERBOARD_TARGET_MS} ms for every caller: {'met' if ok else 'MISSED'}"
    )
    return ok


async def hand_figures(store: Store, rounds: int) -> None:
    players = [(900_000 + seat, 100) for seat in range(8)]
    channel = 900
    await store.seating.open(
        channel, GUILD, players[0][0], max_seats=8, min_buy_in=100, max_buy_in=100
    )
    for user_id, stack in players:
        await store.seating.sit(channel, user_id, stack)
    # A finished 8-player hand as the store saves it (the store never reads inside).
    state = max(played_hands(random.Random(1))[8], key=lambda hand: len(hand.state)).state
    starts, saves, settles = [], [], []
    for round_index in range(rounds):
        stacks = [seat.stack for seat in await store.seating.seats(channel)]
        dealt = [(user_id, stack) for (user_id, _), stack in zip(players, stacks, strict=True)]
        start = time.perf_counter()
        hand_id = await store.hands.start(channel, dealt, state, commitment="0" * 64, salt="s")
        starts.append((time.perf_counter() - start) * 1000)
        saves += await timed_ms(5, partial(store.hands.save_action, hand_id, state))
        # The whole table's chips go to one seat, a different one each hand.
        finals = [0] * 8
        finals[round_index % 8] = sum(stacks)
        start = time.perf_counter()
        await store.hands.settle(hand_id, state, finals)
        settles.append((time.perf_counter() - start) * 1000)
    print(f"  hands.start (8 seats)         {summary(starts)}")
    print(f"  hands.save_action (1 action)  {summary(saves)}")
    print(f"  hands.settle (8 seats)        {summary(settles)}")


async def database_bytes(database: str) -> dict[str, int]:
    """Bytes on disk: the whole database ("all"), and by table, each with its indexes."""
    if database.startswith("postgresql://"):
        db = await asyncpg.connect(database)
        try:
            sizes = {
                row["name"]: int(row["bytes"])
                for row in await db.fetch(
                    "SELECT relname AS name, pg_total_relation_size(oid) AS bytes FROM pg_class"
                    " WHERE relname = ANY($1::text[]) AND relkind = 'r'",
                    list(HISTORY_TABLES),
                )
            }
            sizes["all"] = int(await db.fetchval("SELECT pg_database_size(current_database())"))
        finally:
            await db.close()
        return sizes
    with closing(sqlite3.connect(database)) as raw:
        page = raw.execute("PRAGMA page_size").fetchone()[0]
        sizes = {"all": page * raw.execute("PRAGMA page_count").fetchone()[0]}
        # dbstat names each index apart: give it to the table it indexes.
        owners = dict(raw.execute("SELECT name, tbl_name FROM sqlite_schema"))
        try:
            for name, used in raw.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"):
                owner = owners.get(name, name)
                sizes[owner] = sizes.get(owner, 0) + int(used)
        except sqlite3.OperationalError:
            pass  # a SQLite built without the dbstat table: the whole file's size only
    return sizes


async def hand_row_bytes(database: str) -> tuple[float, float] | None:
    """A settled hand's own rows, on average: its ``hands`` row and its ``hand_seats`` rows,
    as stored (SQLite's record, PostgreSQL's tuple with its header), without indexes; ``None``
    from a SQLite built without the dbstat table that measures them."""
    if database.startswith("postgresql://"):
        db = await asyncpg.connect(database)
        try:
            row = await db.fetchrow(
                "SELECT (SELECT avg(pg_column_size(h.*)) FROM hands AS h) AS hand,"
                " (SELECT sum(pg_column_size(s.*)) FROM hand_seats AS s)"
                " / (SELECT count(*) FROM hands) AS seats"
            )
        finally:
            await db.close()
        assert row is not None
        return float(row["hand"]), float(row["seats"])
    with closing(sqlite3.connect(database)) as raw:
        hands = raw.execute("SELECT count(*) FROM hands").fetchone()[0]
        try:
            used = dict(
                raw.execute(
                    "SELECT name, sum(payload) FROM dbstat"
                    " WHERE name IN ('hands', 'hand_seats') GROUP BY name"
                ).fetchall()
            )
        except sqlite3.OperationalError:
            return None
    return used["hands"] / hands, used["hand_seats"] / hands


def callers_of(history: History, rng: random.Random, count: int) -> list[int]:
    """Players in the order they ask: one who plays more asks more."""
    users = list(history.dealt)
    return rng.choices(users, weights=[history.dealt[user] for user in users], k=count)


async def timed_each(calls: Sequence[Callable[[], Awaitable[object]]]) -> list[float]:
    times = []
    for call in calls:
        start = time.perf_counter()
        await call()
        times.append((time.perf_counter() - start) * 1000)
    return times


async def session_pages(
    store: Store, pairs: Sequence[tuple[int, int]]
) -> list[Callable[[], Awaitable[object]]]:
    """The reads /history session makes for each (channel, player): its pages, in order."""
    calls: list[Callable[[], Awaitable[object]]] = []
    for channel, user in pairs:
        read: list[HandRecord] = []
        while len(read) <= MAX_SESSION_HANDS:
            wanted = min(SESSION_PAGE, MAX_SESSION_HANDS + 1 - len(read))
            call = partial(
                store.hands.settled_for,
                user,
                guild_id=GUILD,
                limit=wanted,
                channel_id=channel,
                before=read[-1].hand_id if read else None,
            )
            calls.append(call)
            page = await call()
            read += page
            if len(page) < wanted:
                break
    return calls


async def query_figures(store: Store, history: History, rounds: int, rng: random.Random) -> bool:
    top = max(history.dealt, key=history.dealt.__getitem__)
    asking = callers_of(history, rng, rounds)
    players = (
        (f"the player with most hands ({history.dealt[top]:,})", [top] * rounds),
        ("players as they ask (more hands, more often)", asking),
    )
    # /history session: a player at the last table of a channel, asking at that table.
    latest = {session.channel_id: session for session in history.sessions}
    longest = max(latest.values(), key=lambda session: session.dealt)
    at_tables = (
        (
            f"the longest last table ({longest.dealt:,} hands)",
            [(longest.channel_id, longest.players[0])] * rounds,
        ),
        (
            "a player at a channel's last table",
            [
                (session.channel_id, rng.choice(session.players))
                for session in rng.choices(list(latest.values()), k=rounds)
            ],
        ),
    )
    figures: list[tuple[str, str, list[Callable[[], Awaitable[object]]]]] = []
    for who, users in players:
        figures.append(
            (
                "last hand (store.hands.last_for)",
                who,
                [partial(store.hands.last_for, u, guild_id=GUILD, finished=True) for u in users],
            )
        )
    for who, users in players:
        figures.append(
            (
                "last 100 hands (/history last:100)",
                who,
                [partial(store.hands.settled_for, u, guild_id=GUILD, limit=100) for u in users],
            )
        )
    for who, pairs in at_tables:
        figures.append(
            (
                f"hands at one table (/history session: pages of {SESSION_PAGE},"
                f" up to {MAX_SESSION_HANDS + 1})",
                who,
                await session_pages(store, pairs),
            )
        )
    figures.append(
        (
            "one hand by number (store.hands.get)",
            "any hand",
            [partial(store.hands.get, rng.randint(1, history.hands)) for _ in range(rounds)],
        )
    )
    worst = 0.0
    heading = ""
    for label, who, calls in figures:
        if label != heading:
            print(f"  {label}")
            heading = label
        times = await timed_each(calls)
        print(f"    {who:48} {summary(times)}")
        worst = max(worst, p95(times))
    ok = worst < HISTORY_TARGET_MS
    print(f"  target p95 < {HISTORY_TARGET_MS} ms for each: {'met' if ok else 'MISSED'}")
    # Not a query: what /history last:100 does next is the engine replaying the hands.
    records = await store.hands.settled_for(top, guild_id=GUILD, limit=100)
    replays = []
    for _ in range(10):
        start = time.perf_counter()
        for record in records:
            decode(record.state)
        replays.append((time.perf_counter() - start) * 1000)
    print(f"  (then replaying those 100 hands, engine.codec.decode: {summary(replays)})")
    return ok


async def history_figures(
    kind: str, directory: Path, server: str, count: int, rounds: int, seed: int
) -> bool:
    """A server's history in a database of its own, so that its size is the history's."""
    async with database_for_the_run(kind, directory, server, "history.db") as database:
        await (await Store.open(database)).close()  # the schema
        empty = await database_bytes(database)
        start = time.perf_counter()
        history = await build_history(database, count, seed)
        print(
            f"Wrote {history.hands:,} settled hands ({history.seats:,} seats,"
            f" {history.ledger:,} ledger rows, {len(history.sessions):,} tables,"
            f" {len(history.dealt):,} players) in {time.perf_counter() - start:.0f} s"
        )
        sizes = await database_bytes(database)
        rows = await hand_row_bytes(database)
        per_hand = history.hands
        print(f"Storage per settled hand, {count:,} hands:")
        print(
            f"  saved hand (engine.codec): {history.state_bytes / per_hand:.0f} B on average,"
            f" {history.largest_state} B at most (as to_dict() JSON:"
            f" {history.json_bytes / per_hand:,.0f} B)"
        )
        if rows is None:
            print("  its rows: not measured (this SQLite has no dbstat table)")
        else:
            hand, seats = rows
            met = "met" if hand + seats <= HAND_ROW_TARGET else "MISSED"
            print(
                f"  its rows: hands {hand:.0f} B + hand_seats {seats:.0f} B = {hand + seats:.0f} B"
                f"   target <= {HAND_ROW_TARGET} B: {met}"
            )
        if "hands" in sizes:
            tables = ", ".join(
                f"{table} {(sizes[table] - empty.get(table, 0)) / per_hand:,.0f} B"
                for table in HISTORY_TABLES
            )
            print(f"  on disk with their indexes: {tables}")
        whole = (sizes["all"] - empty["all"]) / per_hand
        print(f"  whole database: {whole:,.0f} B ({sizes['all'] / 2**30:.2f} GiB)")
        store = await Store.open(database)
        try:
            print(f"History queries through the store, {rounds} callers each:")
            ok = await query_figures(store, history, rounds, random.Random(seed))
            start = time.perf_counter()
            await store.audit()
            print(f"audit() over the history: {time.perf_counter() - start:.1f} s")
        finally:
            await store.close()
    return ok


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wallets", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument(
        "--hands", type=int, default=1_000_000, help="settled hands, for stats and history; 0: none"
    )
    parser.add_argument("--path", type=Path, default=None, help="directory for the database")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument(
        "--postgres-url",
        default="postgresql://postgres@127.0.0.1:5432/postgres",
        help="a PostgreSQL server whose user may create databases (with --database postgresql)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.path) as directory:
        async with database_for_the_run(
            args.database, Path(directory), args.postgres_url
        ) as database:
            print(
                f"Python {platform.python_version()}, {await server_version(database)},"
                f" {platform.machine()}"
            )
            await (await Store.open(database)).close()  # the schema
            start = time.perf_counter()
            chips = await fill_wallets(database, args.wallets, random.Random(args.seed))
            print(f"Filled {args.wallets:,} wallets in {time.perf_counter() - start:.1f} s")
            store = await Store.open(database)
            try:
                await seat_players(store, list(chips))
                start = time.perf_counter()
                totals = await store.audit()
                elapsed_ms = (time.perf_counter() - start) * 1000
                print(
                    f"audit() over {args.wallets:,} wallets: {elapsed_ms:.0f} ms"
                    f" ({totals.granted:,} chips granted)"
                )
                print(f"Leaderboard, top 10 + caller's rank, {args.rounds} calls each:")
                await leaderboard_figures(store, chips, args.rounds)
                where = directory if args.database == "sqlite" else "PostgreSQL"
                print(f"Hand commits, {args.rounds} hands, in {where}:")
                await hand_figures(store, args.rounds)
                await store.audit()
                if args.hands:
                    print(f"Stats and leaderboards, {args.hands:,} settled hands in one server:")
                    await stats.figures(store, database, args.hands, args.rounds, GUILD)
            finally:
                await store.close()
        if args.hands:
            await history_figures(
                args.database,
                Path(directory),
                args.postgres_url,
                args.hands,
                args.rounds,
                args.seed,
            )


if __name__ == "__main__":
    asyncio.run(main())
