"""A server's history of settled hands, written straight into a store's database for the storage
benchmark (``benchmarks.store``).

Hands are played by the engine, as friends play them (many fold on 3rd street, a few raise, now
and then a clock runs out; mostly Stud, some Razz and Stud Hi-Lo), and stored as the bot stores
them: the saved hand (``engine.codec``), its seats, and the ledger rows that move the chips in
and out of it, with the texts the store writes. Playing a million hands would take the engine
minutes, so a few thousand are played once and dealt again across the history.

Tables play in ``CHANNELS`` channels at once, one after another in each, with 2 to 8 players
who sit at one table at a time; some players play far more than others. Each player buys in
once per table and cashes out when it closes, so the ledger balances and ``Store.audit()``
holds on the result.
"""

from __future__ import annotations

import itertools
import json
import random
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg

from engine import DEFAULT_STAKES, RAZZ, STUD_HI_LO, STUD_HIGH, StudHand
from engine.cards import FULL_DECK
from engine.codec import encode

GUILD = 1
CHANNELS = 25
PLAYERS = 3000
FIRST_USER = 2_000_000
SAMPLES_PER_SIZE = 400  # hands played for each number of players
BATCH = 20_000  # hands written per round trip
START = datetime(2022, 1, 1, tzinfo=UTC)
SECONDS_PER_HAND = 30  # across the server: a million hands is about a year
COMMITMENT = "ab" * 32  # a SHA-256 digest's length
SETTINGS = json.dumps(
    {"stakes": DEFAULT_STAKES.to_dict(), "turn_seconds": 45, "countdown_seconds": 10},
    separators=(",", ":"),
)

HAND_COLUMNS = (
    "id", "table_id", "state", "version", "commitment", "salt", "started_at", "updated_at",
    "ended_at", "outcome",
)  # fmt: skip
SEAT_COLUMNS = ("hand_id", "seat_index", "user_id", "starting_stack", "final_stack")
LEDGER_COLUMNS = (
    "created_at", "guild_id", "user_id", "kind", "minted", "wallet_delta", "seat_delta",
    "hand_delta", "table_id", "hand_id", "reason",
)  # fmt: skip
TABLE_COLUMNS = (
    "id", "channel_id", "guild_id", "opener_id", "max_seats", "min_buy_in", "max_buy_in",
    "settings", "opened_at", "closed_at",
)  # fmt: skip
WALLET_COLUMNS = ("guild_id", "user_id", "balance", "seated", "total", "created_at")
# The tables a history fills, and whose sizes the benchmark shows.
HISTORY_TABLES = ("hands", "hand_seats", "ledger")


@dataclass(frozen=True, slots=True)
class Played:
    """One hand the engine played: what the store keeps of it."""

    state: bytes
    json_bytes: int  # what it took as to_dict() JSON
    decisions: int
    starting: tuple[int, ...]
    final: tuple[int, ...]


@dataclass(slots=True)
class Session:
    """One table: its channel, its players and the hands dealt there (ids, in order)."""

    table_id: int
    channel_id: int
    players: list[int]
    hands_left: int
    dealt: int = 0  # hands dealt there
    first_hand: int = 0
    last_hand: int = 0
    opened_at: datetime = START
    closed_at: datetime = START
    bought_in: dict[int, int] = field(default_factory=dict)  # buy-ins: the stacks he brought
    won: dict[int, int] = field(default_factory=dict)  # chips won (+) or lost (-) here


@dataclass(slots=True)
class History:
    """What was built, for the benchmark to choose its players, tables and hands from."""

    hands: int = 0
    seats: int = 0  # hand_seats rows
    ledger: int = 0  # ledger rows
    dealt: dict[int, int] = field(default_factory=dict)  # user id -> hands dealt
    sessions: list[Session] = field(default_factory=list)
    state_bytes: int = 0  # the saved hands' bytes, all together
    json_bytes: int = 0  # what they took as to_dict() JSON
    largest_state: int = 0


def play_like_friends(hand: StudHand, rng: random.Random) -> None:
    while hand.actor is not None:
        legal = hand.legal()
        roll = rng.random()
        if roll < 0.01:
            hand.timeout()
        elif legal.bring_in is not None:
            if legal.raise_to and roll < 0.2:
                hand.raise_to(legal.raise_to[0])
            else:
                hand.bring_in()
        elif legal.raise_to and roll < 0.17:
            hand.raise_to(rng.choice(legal.raise_to))
        elif legal.call is not None and roll < (0.4 if hand.street == 3 else 0.17):
            hand.fold()
        elif legal.check:
            hand.check()
        else:
            hand.call()


def played_hands(rng: random.Random) -> dict[int, list[Played]]:
    """``SAMPLES_PER_SIZE`` hands for each table size from 2 to 8 players."""
    games = (STUD_HIGH,) * 14 + (RAZZ,) * 3 + (STUD_HI_LO,) * 3
    played: dict[int, list[Played]] = {}
    for size in range(2, 9):
        played[size] = []
        for _ in range(SAMPLES_PER_SIZE):
            stacks = [rng.choice((100, 200, 300, 500, 1000)) + rng.randint(-80, 600)
                      for _ in range(size)]  # fmt: skip
            deck = list(FULL_DECK)
            rng.shuffle(deck)
            hand = StudHand(stacks, DEFAULT_STAKES, deck, size - 1, variant=rng.choice(games))
            play_like_friends(hand, rng)
            played[size].append(
                Played(
                    encode(hand),
                    len(json.dumps(hand.to_dict(), separators=(",", ":"))),
                    len(hand.decisions),
                    tuple(stacks),
                    tuple(hand.stacks),
                )
            )
    return played


def _ts(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True, slots=True)
class _Deal:
    hand_id: int
    session: Session
    players: list[int]  # in engine seat order
    hand: Played


def _deals(count: int, played: dict[int, list[Played]], seed: int) -> Iterator[_Deal]:
    """The history hand by hand: which table each next hand is at and who plays it. The same
    ``seed`` deals the same history, so it can be dealt once to learn the tables and the
    wallets, and again to write the hands after them."""
    rng = random.Random(seed)
    users = list(range(FIRST_USER, FIRST_USER + PLAYERS))
    # Some play every evening, most now and then.
    weights = list(itertools.accumulate(1 / (rank + 1) ** 0.8 for rank in range(PLAYERS)))
    seated: set[int] = set()
    tables = 0

    def new_session(channel_id: int) -> Session:
        nonlocal tables
        size = rng.choice((2, 3, 4, 5, 5, 6, 6, 7, 7, 8, 8, 8))
        players: list[int] = []
        while len(players) < size:
            (user,) = rng.choices(users, cum_weights=weights)
            if user not in seated and user not in players:
                players.append(user)
        seated.update(players)
        tables += 1
        return Session(tables, channel_id, players, rng.randint(20, 1500))

    open_now = [new_session(9000 + channel) for channel in range(CHANNELS)]
    for hand_id in range(1, count + 1):
        index = rng.randrange(CHANNELS)
        session = open_now[index]
        if session.hands_left == 0:
            seated.difference_update(session.players)
            session = open_now[index] = new_session(session.channel_id)
        session.hands_left -= 1
        session.dealt += 1
        now = START + timedelta(seconds=hand_id * SECONDS_PER_HAND)
        if session.first_hand == 0:
            session.first_hand, session.opened_at = hand_id, now - timedelta(minutes=5)
        session.last_hand, session.closed_at = hand_id, now + timedelta(minutes=5)
        players = list(session.players)
        if len(players) > 2 and rng.random() < 0.1:
            players.pop(rng.randrange(len(players)))  # one of them sits this hand out
        hand = rng.choice(played[len(players)])
        for user, start, final in zip(players, hand.starting, hand.final, strict=True):
            session.bought_in[user] = session.bought_in.get(user, 0) + start
            session.won[user] = session.won.get(user, 0) + final - start
        yield _Deal(hand_id, session, players, hand)


def _schedule(count: int, played: dict[int, list[Played]], seed: int, history: History) -> None:
    """Deal the history without writing it: its tables, who played how many hands."""
    sessions: dict[int, Session] = {}
    for deal in _deals(count, played, seed):
        sessions[deal.session.table_id] = deal.session
        for user in deal.players:
            history.dealt[user] = history.dealt.get(user, 0) + 1
    history.sessions = sorted(sessions.values(), key=lambda session: session.table_id)


def _opening_rows(history: History) -> list[tuple[Any, ...]]:
    return [
        (session.table_id, session.channel_id, GUILD, session.players[0], 8, 100, 10**6,
         SETTINGS, _ts(session.opened_at), _ts(session.closed_at))
        for session in history.sessions
    ]  # fmt: skip


def _hand_rows(
    count: int, played: dict[int, list[Played]], seed: int, history: History
) -> Iterator[tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]]:
    """Batches of (hands, hand_seats, ledger) rows."""
    hands: list[tuple[Any, ...]] = []
    seats: list[tuple[Any, ...]] = []
    ledger: list[tuple[Any, ...]] = []
    for deal in _deals(count, played, seed):
        hand_id, table_id, hand = deal.hand_id, deal.session.table_id, deal.hand
        now = START + timedelta(seconds=hand_id * SECONDS_PER_HAND)
        started, ended = _ts(now), _ts(now + timedelta(seconds=SECONDS_PER_HAND * CHANNELS))
        hands.append(
            (hand_id, table_id, hand.state, hand.decisions, COMMITMENT,
             f"{hand_id:064x}", started, ended, ended, "settled")
        )  # fmt: skip
        history.state_bytes += len(hand.state)
        history.json_bytes += hand.json_bytes
        history.largest_state = max(history.largest_state, len(hand.state))
        for index, user in enumerate(deal.players):
            start, final = hand.starting[index], hand.final[index]
            seats.append((hand_id, index, user, start, final))
            ledger.append(
                (started, GUILD, user, "hand_start", 0, 0, -start, start, table_id, hand_id,
                 f"dealt into hand #{hand_id}")
            )  # fmt: skip
            ledger.append(
                (ended, GUILD, user, "hand_result", 0, 0, final, -final, table_id, hand_id,
                 f"result of hand #{hand_id}: {final - start:+,}")
            )  # fmt: skip
        if len(hands) == BATCH or hand_id == count:
            history.hands += len(hands)
            history.seats += len(seats)
            history.ledger += len(ledger)
            yield hands, seats, ledger
            hands, seats, ledger = [], [], []


def _closing_rows(history: History) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Wallets, and the ledger rows that seat each player and cash him out.

    A player buys in with every stack he brings to the table's hands (the hands are dealt
    again from a sample, so one's final stack is not the next one's start) and cashes out
    what he won on top; a grant as large as all his buy-ins starts his wallet."""
    ledger: list[tuple[Any, ...]] = []
    granted: dict[int, int] = {}
    balance: dict[int, int] = {}
    for session in history.sessions:
        opened, closed = _ts(session.opened_at), _ts(session.closed_at)
        for user, bought in session.bought_in.items():
            cashed = bought + session.won[user]
            granted[user] = granted.get(user, 0) + bought
            balance[user] = balance.get(user, 0) + session.won[user]
            ledger.append(
                (opened, GUILD, user, "buy_in", 0, -bought, bought, 0, session.table_id, None,
                 f"sat down in channel {session.channel_id}")
            )  # fmt: skip
            if cashed:
                ledger.append(
                    (closed, GUILD, user, "cash_out", 0, cashed, -cashed, 0, session.table_id,
                     None, f"table closed in channel {session.channel_id}")
                )  # fmt: skip
    created = _ts(START)
    wallets: list[tuple[Any, ...]] = []
    for user, grant in granted.items():
        chips = grant + balance[user]
        wallets.append((GUILD, user, chips, 0, chips, created))
        ledger.append(
            (created, GUILD, user, "starting_grant", grant, grant, 0, 0, None, None,
             "starting balance")
        )  # fmt: skip
    history.ledger += len(ledger)
    return wallets, ledger


async def build_history(database: str, count: int, seed: int) -> History:
    """Write ``count`` settled hands, their tables, wallets and ledger into a migrated, empty
    database (a SQLite path or a PostgreSQL URL)."""
    played = played_hands(random.Random(seed))
    history = History()
    _schedule(count, played, seed + 1, history)
    if database.startswith("postgresql://"):
        await _fill_postgresql(database, count, played, seed + 1, history)
    else:
        _fill_sqlite(database, count, played, seed + 1, history)
    return history


def _fill_sqlite(
    path: str, count: int, played: dict[int, list[Played]], seed: int, history: History
) -> None:
    def insert(raw: sqlite3.Connection, table: str, columns: Sequence[str], rows: Any) -> None:
        marks = ", ".join("?" * len(columns))
        raw.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)

    with closing(sqlite3.connect(path, isolation_level=None)) as raw:
        raw.execute("PRAGMA foreign_keys = ON")
        raw.execute("BEGIN")
        insert(raw, "tables", TABLE_COLUMNS, _opening_rows(history))
        for hands, seats, ledger in _hand_rows(count, played, seed, history):
            insert(raw, "hands", HAND_COLUMNS, hands)
            insert(raw, "hand_seats", SEAT_COLUMNS, seats)
            insert(raw, "ledger", LEDGER_COLUMNS, ledger)
        wallets, ledger = _closing_rows(history)
        insert(raw, "wallets", WALLET_COLUMNS, wallets)
        insert(raw, "ledger", LEDGER_COLUMNS, ledger)
        raw.execute("COMMIT")
        raw.execute("ANALYZE")


async def _fill_postgresql(
    url: str, count: int, played: dict[int, list[Played]], seed: int, history: History
) -> None:
    db = await asyncpg.connect(url)
    try:
        async with db.transaction():
            await db.copy_records_to_table(
                "tables", records=_opening_rows(history), columns=TABLE_COLUMNS
            )
            for hands, seats, ledger in _hand_rows(count, played, seed, history):
                await db.copy_records_to_table("hands", records=hands, columns=HAND_COLUMNS)
                await db.copy_records_to_table("hand_seats", records=seats, columns=SEAT_COLUMNS)
                await db.copy_records_to_table("ledger", records=ledger, columns=LEDGER_COLUMNS)
            wallets, ledger = _closing_rows(history)
            await db.copy_records_to_table("wallets", records=wallets, columns=WALLET_COLUMNS)
            await db.copy_records_to_table("ledger", records=ledger, columns=LEDGER_COLUMNS)
            for table in ("tables", "hands"):
                await db.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), max(id)) FROM {table}"
                )
        await db.execute("ANALYZE")
    finally:
        await db.close()
