"""A settled hand's own rows take at most 1 KB: its ``hands`` row (saved hand,
commitment, salt, times) and its ``hand_seats`` rows, as each database stores them, for eight
players who rarely fold, up to a hand capped on every street: about 500 bytes in SQLite, 950 in
PostgreSQL, whose every integer is 8 bytes and every row has a 24-byte header.
(``benchmarks.store`` measures a million hands, with their indexes and the ledger.)"""

from __future__ import annotations

import random
import sqlite3
from contextlib import closing

import asyncpg
import pytest

from bot.core.storage import Store
from bot.core.storage.backend import is_postgresql
from engine import Stakes, StudHand
from engine.cards import FULL_DECK
from engine.codec import encode
from engine.fairness import DeckCommitment, new_secret
from tests.databases import Location
from tests.engine.decks import choose

GUILD, CHANNEL = 1, 10
PLAYERS = tuple(range(1000, 1008))
STAKES = Stakes(1, 3, 10, 20)
LIMIT = 1024


async def stored_bytes(database: Location) -> int:
    """Bytes of every row in ``hands`` and ``hand_seats``, as stored."""
    if is_postgresql(database):
        db = await asyncpg.connect(str(database))
        try:
            return int(
                await db.fetchval(
                    "SELECT coalesce((SELECT sum(pg_column_size(h.*)) FROM hands AS h), 0)"
                    " + coalesce((SELECT sum(pg_column_size(s.*)) FROM hand_seats AS s), 0)"
                )
            )
        finally:
            await db.close()
    with closing(sqlite3.connect(database)) as raw:
        try:
            (used,) = raw.execute(
                "SELECT coalesce(sum(payload), 0) FROM dbstat WHERE name IN ('hands', 'hand_seats')"
            ).fetchone()
        except sqlite3.OperationalError:
            pytest.skip("this SQLite is built without the dbstat table that measures rows")
    return int(used)


# Passive hands, then aggressive ones, then one raised whenever it may be: 21 hands in the slow
# tier (and CI), 7 others in the quick one, whose longest still has over 60 decisions.
SAMPLES = [
    pytest.param([0.2] * 10 + [0.5] * 10 + [1.0], 12, id="21 hands", marks=pytest.mark.slow),
    pytest.param([0.2] * 3 + [0.5] * 3 + [1.0], 13, id="7 hands"),
]


@pytest.mark.parametrize(("aggressions", "seed"), SAMPLES)
async def test_long_hands_of_eight_take_at_most_1_kb_each(
    database: Location, aggressions: list[float], seed: int
) -> None:
    store = await Store.open(database, starting_balance=10_000)
    try:
        await store.seating.open(
            CHANNEL, GUILD, PLAYERS[0], max_seats=8, min_buy_in=100, max_buy_in=10_000
        )
        for user in PLAYERS:
            await store.seating.sit(CHANNEL, user, 10_000)
        rng = random.Random(seed)
        sizes: list[int] = []
        decisions: list[int] = []
        for aggression in aggressions:
            stacks = [seat.stack for seat in await store.seating.seats(CHANNEL)]
            deck = list(FULL_DECK)
            rng.shuffle(deck)
            hand = StudHand(stacks, STAKES, deck, len(sizes) % 8)
            secret = new_secret()
            before = await stored_bytes(database)
            hand_id = await store.hands.start(
                CHANNEL,
                list(zip(PLAYERS, stacks, strict=True)),
                encode(hand),
                commitment=DeckCommitment(hand.deck, secret).digest,
                salt=secret,
            )
            while not hand.is_over:
                hand.apply(*choose(hand, rng, aggression))
                if not hand.is_over:
                    await store.hands.save_action(hand_id, encode(hand))
            await store.hands.settle(hand_id, encode(hand), hand.stacks)
            sizes.append(await stored_bytes(database) - before)
            decisions.append(len(hand.decisions))
        await store.audit()
    finally:
        await store.close()
    assert max(decisions) >= 60, "the sample must hold long hands"
    assert max(sizes) <= LIMIT, (sizes, decisions)
