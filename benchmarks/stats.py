"""Stats and leaderboards at a million hands (target p95 < 10 ms), for
``python -m benchmarks.store``.

One guild gets ``hands`` settled hands over the last year, dealt to 2-8 of 20,000 players of
very different appetites (a few play every day, most now and then), in the three games: the
hands and their seats go into ``hands`` and ``hand_seats``, and what settling them would have
counted goes into the stats tables, worked out here the way ``store.hands.settle`` counts (the
same buckets, the same ring of recent hands; a check below compares a few players with what the
store reads back). The rows are written in bulk: one transaction of ``executemany`` on SQLite,
COPY on PostgreSQL. These hands have no ledger rows: the audit is not what this measures.

Then each query the commands make is timed through the store: the leaderboard by winnings for
every period, over every game and over one, for its top, median and last player (whose rank
counts everyone above him: the worst case); a player's stats (/stats, with his chart's hands)
for the busiest player and a typical one; and settling an 8-seat hand with its stats.
"""

from __future__ import annotations

import asyncio
import bisect
import itertools
import random
import sqlite3
import statistics
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from contextlib import closing
from datetime import UTC, date, datetime, timedelta
from functools import partial
from typing import Any

import asyncpg

from bot.core.storage import HandFacts, SeatFacts, Store
from bot.core.storage.reports import RECENT_HANDS

PLAYERS = 20_000
DAYS = 365
GAMES = ("stud", "razz", "hilo")
TARGET_MS = 10.0
STACK = 1_000
EPOCH = date(1970, 1, 1)
# What a player puts into a hand: the ante only, the bring-in, a call of the completion, and
# one to three big bets more (chips of a 1/3/10/20 table).
CONTRIBUTIONS = (1, 4, 11, 31, 51, 91)

Key = tuple[int, str, int]  # (since, game, user) within one period
Figures = list[int]  # hands, won, showdowns, won_showdown, vpip, net, biggest_pot


def _day_number(day: date) -> int:
    return (day - EPOCH).days


def _buckets(day: int) -> dict[str, int]:
    moment = EPOCH + timedelta(days=day)
    return {
        "day": day,
        "week": day - moment.weekday(),
        "month": _day_number(moment.replace(day=1)),
        "all": 0,
    }


class Played:
    """The synthetic hands and everything the stats tables hold for them."""

    def __init__(self, hands: int, first_hand_id: int, today: int, seed: int) -> None:
        rng = random.Random(seed)
        # Appetites: the n-th player plays about 1/(n+20) as often as... a long tail.
        weights = list(itertools.accumulate(1 / (n + 20) ** 0.9 for n in range(PLAYERS)))
        total = weights[-1]
        self.users = [100_000 + n for n in range(PLAYERS)]
        self.first_day = today - DAYS + 1
        self.hands: list[tuple[int, int, str]] = []  # (hand id, day, game)
        self.seats: list[tuple[int, int, int, int, int]] = []  # hand_seats rows
        days: dict[Key, Figures] = {}
        counts: dict[tuple[int, str], int] = defaultdict(int)
        self.ring: dict[tuple[int, str, int], tuple[int, int, int]] = {}
        for number in range(hands):
            hand_id = first_hand_id + number
            day = self.first_day + number * DAYS // hands
            game = GAMES[(number // 8) % 5 % 3]  # stud twice as often as each of the others
            size = rng.choice((2, 3, 4, 5, 5, 6, 6, 7, 8))
            players: list[int] = []
            while len(players) < size:
                user = self.users[bisect.bisect(weights, rng.random() * total)]
                if user not in players:
                    players.append(user)
            put = [rng.choice(CONTRIBUTIONS) for _ in players]
            pot = sum(put)
            showdown = rng.random() < 0.45
            winners = [0, 1] if showdown and rng.random() < 0.1 else [0]
            collected = [0] * size
            for index in winners:
                collected[index] = pot // len(winners)
            collected[0] += pot - sum(collected)
            self.hands.append((hand_id, day, game))
            for seat, user in enumerate(players):
                net = collected[seat] - put[seat]
                shown = showdown and (seat < 2 or put[seat] >= 31)
                figures = (
                    1,
                    int(collected[seat] > 0),
                    int(shown),
                    int(shown and collected[seat] > 0),
                    int(put[seat] > 4),
                    net,
                    collected[seat],
                )
                _add(days, (day, game, user), figures)
                self.seats.append((hand_id, seat, user, STACK, STACK + net))
                counts[user, game] += 1
                slot = (counts[user, game] - 1) % RECENT_HANDS
                self.ring[user, game, slot] = (hand_id, day, net)
        self.periods = _roll_up(days)

    def stats_rows(self, guild: int) -> list[tuple[Any, ...]]:
        """In primary key order, which a WITHOUT ROWID table takes fastest."""
        rows = [
            (guild, 1, user, period, since, game, *f)
            for period, bucket in self.periods.items()
            for (since, game, user), f in bucket.items()
        ]
        rows.sort(key=lambda row: row[2:6])
        return rows

    def ring_rows(self, guild: int) -> list[tuple[Any, ...]]:
        return [
            (guild, 1, user, game, slot, hand_id, day, net)
            for (user, game, slot), (hand_id, day, net) in sorted(self.ring.items())
        ]

    def ranking(self, period: str, since: int, game: str) -> list[int]:
        """The bucket's players, best net first, as the store ranks them."""
        rows = self.periods[period]
        found = [(f[5], user) for (s, g, user), f in rows.items() if s == since and g == game]
        return [user for _, user in sorted(found, key=lambda item: (-item[0], item[1]))]


def _add(rows: dict[Key, Figures], key: Key, figures: Sequence[int]) -> None:
    current = rows.get(key)
    if current is None:
        rows[key] = list(figures)
        return
    for index in range(5):
        current[index] += figures[index]
    current[5] += figures[5]
    current[6] = max(current[6], figures[6])


def _roll_up(days: dict[Key, Figures]) -> dict[str, dict[Key, Figures]]:
    """Each day's figures into its week, month and the season, and every game into 'all'; of
    the days, weeks and months, only each player's last ones, as the store keeps them."""
    periods: dict[str, dict[Key, Figures]] = {name: {} for name in ("day", "week", "month", "all")}
    buckets = {day: _buckets(day) for day in {key[0] for key in days}}
    last: dict[int, int] = {}
    for day, _, user in days:
        last[user] = max(last.get(user, day), day)
    for (day, game, user), figures in days.items():
        for period, since in buckets[day].items():
            if since == buckets[last[user]][period]:
                _add(periods[period], (since, game, user), figures)
    for rows in periods.values():
        for (since, _, user), figures in list(rows.items()):
            _add(rows, (since, "all", user), figures)
    return periods


STATS_COLUMNS = (
    "guild_id", "season", "user_id", "period", "since", "game", "hands", "won", "showdowns",
    "won_showdown", "vpip", "net", "biggest_pot",
)  # fmt: skip
RING_COLUMNS = ("guild_id", "season", "user_id", "game", "slot", "hand_id", "day", "net")
HAND_COLUMNS = (
    "id", "table_id", "state", "version", "commitment", "salt", "started_at", "updated_at",
    "ended_at", "outcome",
)  # fmt: skip
SEAT_COLUMNS = ("hand_id", "seat_index", "user_id", "starting_stack", "final_stack")
TABLE_COLUMNS = (
    "id", "channel_id", "guild_id", "opener_id", "max_seats", "min_buy_in", "max_buy_in",
    "settings", "opened_at", "closed_at",
)  # fmt: skip
TABLES = 100  # the closed tables the hands were played at


def _stamp(day: int, hand_id: int) -> str:
    moment = datetime.combine(EPOCH + timedelta(days=day), datetime.min.time(), UTC)
    moment += timedelta(seconds=hand_id % 86_000)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _rows(played: Played, guild: int, first_table: int) -> dict[str, Iterable[tuple[Any, ...]]]:
    opened = _stamp(played.first_day, 0)
    return {
        "tables": [
            (first_table + n, 5_000 + n, guild, played.users[0], 8, 10, 1000, "{}", opened, opened)
            for n in range(TABLES)
        ],
        "hands": (
            (
                hand_id,
                first_table + hand_id % TABLES,
                "{}",
                0,
                "ab" * 32,
                "s",
                _stamp(day, hand_id),
                _stamp(day, hand_id),
                _stamp(day, hand_id),
                "settled",
            )
            for hand_id, day, _ in played.hands
        ),
        "hand_seats": played.seats,
        "player_stats": played.stats_rows(guild),
        "recent_hands": played.ring_rows(guild),
    }


COLUMNS = {
    "tables": TABLE_COLUMNS,
    "hands": HAND_COLUMNS,
    "hand_seats": SEAT_COLUMNS,
    "player_stats": STATS_COLUMNS,
    "recent_hands": RING_COLUMNS,
}


async def write(database: str, played: Played, guild: int) -> dict[str, int]:
    """Everything in one transaction, in bulk; returns rows written per table."""
    if database.startswith("postgresql://"):
        db = await asyncpg.connect(database)
        try:
            first_table = int(await db.fetchval("SELECT coalesce(max(id), 0) + 1 FROM tables"))
            counts = {}
            async with db.transaction():
                for table, rows in _rows(played, guild, first_table).items():
                    records = list(rows)
                    await db.copy_records_to_table(
                        table, records=records, columns=list(COLUMNS[table])
                    )
                    counts[table] = len(records)
                for table in ("tables", "hands"):
                    await db.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                        f" (SELECT max(id) FROM {table}))"
                    )
            # As autovacuum soon would: without it every index-only scan (the rank counts)
            # reads the heap too, which a table written in bulk has not had set yet.
            await db.execute("VACUUM ANALYZE")
        finally:
            await db.close()
        return counts
    with closing(sqlite3.connect(database, isolation_level=None)) as raw:
        # A cache big enough for the indexes being built, which arrive in no order of theirs.
        raw.execute("PRAGMA cache_size = -2000000")
        first_table = raw.execute("SELECT coalesce(max(id), 0) + 1 FROM tables").fetchone()[0]
        counts = {}
        raw.execute("BEGIN")
        for table, rows in _rows(played, guild, first_table).items():
            marks = ", ".join("?" * len(COLUMNS[table]))
            cursor = raw.executemany(
                f"INSERT INTO {table} ({', '.join(COLUMNS[table])}) VALUES ({marks})", rows
            )
            counts[table] = cursor.rowcount
        raw.execute("COMMIT")
        raw.execute("ANALYZE")
    return counts


async def timed(rounds: int, call: Any) -> list[float]:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        await call()
        times.append((time.perf_counter() - start) * 1000)
    return times


def p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


async def figures(store: Store, database: str, hands: int, rounds: int, guild: int) -> bool:
    """Build the data, check a few players against it, time every query; True if every p95
    met the target."""
    today = datetime.now(UTC).replace(hour=12, minute=0, second=0, microsecond=0)
    start = time.perf_counter()
    played = Played(hands, await _next_hand_id(database), _day_number(today.date()), seed=12)
    print(f"Generated {hands:,} hands in {time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    counts = await write(database, played, guild)
    listed = ", ".join(f"{rows:,} {table}" for table, rows in counts.items())
    print(f"Wrote them in {time.perf_counter() - start:.1f} s: {listed}")
    await _check(store, played, guild, today)
    worst = 0.0
    print(
        f"Leaderboard by winnings, top 10 + caller's rank, {rounds} calls each"
        " (p50/p95 in ms, for the bucket's top, median and last player):"
    )
    buckets = _buckets(_day_number(today.date()))
    for period, since in buckets.items():
        for game in ("all", "razz"):
            ranking = played.ranking(period, since, game)
            callers = (ranking[0], ranking[len(ranking) // 2], ranking[-1])
            line = []
            for caller in callers:
                times = await timed(
                    rounds,
                    partial(
                        store.reports.winnings,
                        guild,
                        period=period,
                        game=None if game == "all" else game,
                        user_id=caller,
                        now=today,
                    ),
                )
                worst = max(worst, p95(times))
                line.append(f"{statistics.median(times):5.2f}/{p95(times):5.2f}")
            label = f"{period}, {'every game' if game == 'all' else game}"
            print(
                f"  {label:18} {len(ranking):>6,} ranked   top {line[0]}   median {line[1]}"
                f"   last {line[2]}"
            )
    print(f"A player's stats with his chart's hands (/stats), {rounds} calls each (p50/p95 in ms):")
    season = played.periods["all"]
    busiest = max((key for key in season if key[1] == "all"), key=lambda key: season[key][0])[2]
    ordered = sorted((f[0], key[2]) for key, f in season.items() if key[1] == "all")
    typical = ordered[len(ordered) // 2][1]
    for label, user in (("busiest player", busiest), ("typical player", typical)):
        line = []
        for period in buckets:
            for one in (None, "razz"):
                times = await timed(
                    rounds,
                    partial(
                        store.reports.player_stats, guild, user, period=period, game=one, now=today
                    ),
                )
                worst = max(worst, p95(times))
                name = f"{period}{'' if one is None else '/razz'}"
                line.append(f"{name} {statistics.median(times):.2f}/{p95(times):.2f}")
        hands_played = season[(0, "all", user)][0]
        print(f"  {label} ({hands_played:,} hands):")
        print("    " + "   ".join(line))
    settles = await _settle_times(store, rounds, guild, today)
    print(
        f"Settling an 8-seat hand with its stats, {rounds} hands:"
        f" p50 {statistics.median(settles):.3f} ms   p95 {p95(settles):.3f} ms"
    )
    ok = worst < TARGET_MS
    print(f"Target p95 < {TARGET_MS} ms for every stats query: {'met' if ok else 'MISSED'}")
    return ok


async def _next_hand_id(database: str) -> int:
    if database.startswith("postgresql://"):
        db = await asyncpg.connect(database)
        try:
            return int(await db.fetchval("SELECT coalesce(max(id), 0) + 1 FROM hands"))
        finally:
            await db.close()
    with closing(sqlite3.connect(database)) as raw:
        return int(raw.execute("SELECT coalesce(max(id), 0) + 1 FROM hands").fetchone()[0])


async def _check(store: Store, played: Played, guild: int, today: datetime) -> None:
    """The store reads back what was written, for a few players (the data is what settling
    would have counted, or the timings would be of something else)."""
    rng = random.Random(1)
    season = played.periods["all"]
    users = rng.sample(sorted({key[2] for key in season}), 20)
    for user in users:
        stats = await store.reports.player_stats(guild, user, now=today)
        expected = season[(0, "all", user)]
        got = stats.total
        assert [
            got.hands, got.won, got.showdowns, got.won_showdown, got.vpip, got.net,
            got.biggest_pot,
        ] == expected, user  # fmt: skip
        ring = sorted(
            (value for (u, _, _), value in played.ring.items() if u == user), reverse=True
        )[:RECENT_HANDS]
        assert stats.recent == tuple(net for _, _, net in reversed(ring)), user
    board = await store.reports.winnings(guild, now=today)
    assert [row.user_id for row in board.top] == played.ranking("all", 0, "all")[:10]


async def _settle_times(store: Store, rounds: int, guild: int, today: datetime) -> list[float]:
    channel = 990_000
    players = [(990_000 + seat, 100) for seat in range(8)]
    await store.seating.open(
        channel, guild, players[0][0], max_seats=8, min_buy_in=1, max_buy_in=10_000
    )
    for user_id, stack in players:
        await store.seating.sit(channel, user_id, stack)
    state = bytes(300)  # about what engine.codec saves of a long 8-seat hand
    times = []
    for number in range(rounds):
        stacks = [seat.stack for seat in await store.seating.seats(channel)]
        dealt = [(user_id, stack) for (user_id, _), stack in zip(players, stacks, strict=True)]
        hand_id = await store.hands.start(channel, dealt, state, commitment="0" * 64, salt="s")
        # The whole table's chips go to one seat, a different one each hand.
        winner = number % 8
        finals = [0] * 8
        finals[winner] = sum(stacks)
        facts = HandFacts(
            "stud",
            tuple(
                SeatFacts(dealt=True, vpip=True, showdown=True, collected=final) for final in finals
            ),
        )
        start = time.perf_counter()
        await store.hands.settle(hand_id, state, finals, facts=facts, now=today)
        times.append((time.perf_counter() - start) * 1000)
        await asyncio.sleep(0)
    return times
