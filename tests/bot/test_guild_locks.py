"""Writes lock their server, not the database (issue 24 point 2), on PostgreSQL: two servers'
writes run side by side, one server's wait for each other, and a writer frozen inside its
transaction holds the others up for about a second, not for as long as it is frozen; no chip
moves twice when it wakes."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.storage import Store
from bot.core.storage.backend import is_postgresql
from engine import StudHand, shuffled_deck
from engine.codec import encode
from tests.bot.crash_child import BUY_INS, COMMITMENT, GUILD, PLAYERS, SALT, STAKES, play
from tests.databases import Location

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def writers(database: Location) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores on one database, as two workers have."""
    first, second = await Store.open(database), await Store.open(database)
    yield first, second
    await first.close()
    await second.close()


@pytest.fixture
def stores(database: Location, writers: tuple[Store, Store]) -> tuple[Store, Store]:
    """Two stores on one PostgreSQL database."""
    if not is_postgresql(database):
        pytest.skip("a lock per server is PostgreSQL's: SQLite has one writer at a time")
    return writers


async def test_two_servers_write_side_by_side_and_one_servers_writes_wait(
    stores: tuple[Store, Store],
) -> None:
    first, second = stores
    held = asyncio.Event()
    release = asyncio.Event()

    async def hold(guild: int) -> None:
        async with first._backend.write(guild):
            held.set()
            await release.wait()

    holder = asyncio.create_task(hold(1))
    await held.wait()
    # Another server's write goes through while server 1's transaction is open.
    await asyncio.wait_for(second.wallets.grant(2, 7, 100, reason="test", by=1), 2)
    # Server 1's waits for it.
    same = asyncio.create_task(second.wallets.grant(1, 7, 100, reason="test", by=1))
    await asyncio.sleep(0.3)
    assert not same.done()
    release.set()
    await asyncio.wait_for(same, 2)
    await holder
    await second.audit()


# PostgreSQL's idle_in_transaction_session_timeout runs on its own clock, which ours can't move.
@pytest.mark.slow
async def test_a_writer_idle_inside_its_transaction_is_cut_off_after_a_second(
    stores: tuple[Store, Store],
) -> None:
    first, second = stores

    async def freeze() -> None:
        async with first._backend.write(1) as db:
            await db.run("INSERT INTO meta (key, value) VALUES ('frozen', 'yes')")
            await asyncio.sleep(3)  # frozen, as far as the database can tell
            await db.run("SELECT 1")

    frozen = asyncio.create_task(freeze())
    await asyncio.sleep(0.2)
    started = time.monotonic()
    await second.wallets.grant(1, 7, 100, reason="test", by=1)
    assert time.monotonic() - started < 2
    with pytest.raises(Exception):  # noqa: B017 - asyncpg names the cut-off session variously
        await frozen
    assert await second.get_meta("frozen") is None  # its transaction never committed
    await second.wallets.grant(1, 8, 100, reason="test", by=1)  # the pool mends itself
    await first.wallets.grant(1, 8, 100, reason="test", by=1)


@pytest.mark.slow
async def test_a_worker_stopped_inside_a_settlement_stops_the_others_under_two_seconds(
    stores: tuple[Store, Store], database: Location
) -> None:
    _, other = stores
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.bot.freeze_child",
        str(database),
        "7",
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdout is not None
    try:
        assert await asyncio.wait_for(child.stdout.readline(), 30) == b"inside\n"
        os.kill(child.pid, signal.SIGSTOP)
        # Another worker writes the same server meanwhile: each write waits under 2 s.
        waits = []
        for user_id in range(900, 906):
            started = time.monotonic()
            await other.wallets.grant(GUILD, user_id, 10, reason="test", by=1)
            waits.append(time.monotonic() - started)
        assert max(waits) < 2, waits
        os.kill(child.pid, signal.SIGCONT)
        rest = await asyncio.wait_for(child.stdout.read(), 30)
        assert await child.wait() == 0
    finally:
        if child.returncode is None:
            os.kill(child.pid, signal.SIGCONT)
            child.kill()
            await child.wait()
    lines = rest.decode().split()
    assert lines[0] == "failed" and lines[-1] == "settled", lines
    # Settled once: the chips of the hand went back once, every chip is where the ledger says.
    totals = await other.audit()
    assert totals.live_hands == 0
    wallets = {user: await other.wallets.balance(GUILD, user) for user in PLAYERS}
    seats = {seat.user_id: seat.stack for seat in await other.seating.seats(500)}
    assert sum(wallets.values()) + sum(seats.values()) == 4 * 1000
    assert sum(seats.values()) == sum(BUY_INS)


async def test_several_writers_on_several_servers_lose_no_chip(
    writers: tuple[Store, Store],
) -> None:
    """Two workers write three servers at once: tables, hands dealt by one and settled by the
    other, grants and cash-outs meanwhile. The books still balance to the chip (both
    databases: SQLite's one writer is the reference)."""
    first, second = writers

    async def server(number: int) -> None:
        guild, channel = 7000 + number, 8000 + number
        players = (71, 72)
        await first.seating.open(
            channel, guild, players[0], max_seats=8, min_buy_in=100, max_buy_in=1000
        )
        await asyncio.gather(
            first.seating.sit(channel, players[0], 400),
            second.seating.sit(channel, players[1], 300),
        )
        for seed in range(4):
            seats = {seat.user_id: seat.stack for seat in await second.seating.seats(channel)}
            hand = StudHand(
                stacks=[seats[p] for p in players],
                stakes=STAKES,
                deck=shuffled_deck(),
                dealer=1,
            )
            dealer, settler = (first, second) if seed % 2 else (second, first)
            hand_id = await dealer.hands.start(
                channel,
                [(p, seats[p]) for p in players],
                encode(hand),
                commitment=COMMITMENT,
                salt=SALT,
            )
            play(hand, seed)
            await asyncio.gather(
                settler.hands.settle(hand_id, encode(hand), hand.stacks),
                dealer.wallets.grant(guild, players[seed % 2], 5, reason="test", by=1),
            )
        await second.seating.leave(channel, players[0])

    await asyncio.gather(*(server(number) for number in range(3)))
    totals = await first.audit()
    assert totals.live_hands == 0
    assert totals.granted == 3 * (2 * 1000 + 4 * 5)
