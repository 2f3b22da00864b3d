"""Writes lock their server, not the database, on PostgreSQL: two servers' writes run side by
side (cash tables, tournaments, the house, a player's preferences: every write of the store but
copying a whole database), one server's wait for each other, and a writer frozen inside its
transaction holds the others up for about a second, not for as long as it is frozen; no chip
moves twice when it wakes."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import pytest

from bot.core.storage import Store
from bot.core.storage.backend import Connection, is_postgresql
from bot.core.storage.house import BOT_IDS
from engine import StudHand, shuffled_deck
from engine.codec import encode
from tests.bot.crash_child import BUY_INS, COMMITMENT, GUILD, PLAYERS, SALT, STAKES, play
from tests.databases import Location

ROOT = Path(__file__).resolve().parents[2]
TOURNAMENT_TABLE = {"stakes": [3, 5, 20, 40], "turn_seconds": 60, "countdown_seconds": 0}


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


async def every_write_of_a_server(store: Store, guild: int) -> None:
    """Every kind of write the store has, on one server: the house funded and emptied, a
    computer player staked at a cash table, a tournament from its creation (with a bot) through
    registrations, a late entry, its start, a hand, players out, to its prizes, another called
    off, and the writes that are no server's (a player's preferences, the process's facts, the
    tables' messages). Ids are the server's own, so several servers run it side by side."""
    lobby, thread, cash = guild * 100, guild * 100 + 1, guild * 100 + 2
    alice, bob, carol = guild * 10 + 1, guild * 10 + 2, guild * 10 + 3
    bot, cash_bot = BOT_IDS[0], BOT_IDS[1]
    await store.house_wallet.fund(guild, 1_000, by=alice)
    created = await store.tournaments.create(
        guild,
        lobby,
        alice,
        game="stud",
        structure="standard",
        level_unit="hands",
        level_length=5,
        starting_stack=2000,
        buy_in=100,
        seats=4,
        seed=1,
        start_entrants=3,
        late_level=1,
        bots=[bot],
    )
    tid = created.tournament_id
    await store.tournaments.register(tid, alice, guild_id=guild)
    await store.tournaments.register(tid, bob, guild_id=guild)
    await store.tournaments.unregister(tid, bob, guild_id=guild)
    await store.tournaments.register(tid, bob, guild_id=guild)
    await store.tournaments.add_to_pool(tid, alice, 50, guild_id=guild, grant=False)
    await store.tournaments.set_event(tid, 7)
    assert await store.tournaments.set_reminded(tid)
    await store.tournaments.set_message(tid, 8)
    await store.tournaments.start(tid, {1: (thread, [alice, bob, bot, None])}, TOURNAMENT_TABLE)
    assert await store.tournaments.enter_late(tid, carol, thread, 4) == 1
    await store.tournaments.set_elapsed(tid, 30)
    players = [(alice, 2000), (bob, 2000), (bot, 2000), (carol, 2000)]
    hand = await store.hands.start(thread, players, b"x", commitment="ab" * 32, salt="s")
    await store.hands.settle(hand, b"y", [8000, 0, 0, 0])
    await store.tournaments.after_hand(tid, out={bob: 2, bot: 2, carol: 2}, moves=[], elapsed=60)
    await store.tournaments.finish(
        tid, places={alice: 1, bob: 2, bot: 2, carol: 2}, prizes={alice: 350, bot: 100}
    )
    called_off = await store.tournaments.create(
        guild,
        lobby,
        alice,
        game="razz",
        structure="standard",
        level_unit="hands",
        level_length=5,
        starting_stack=2000,
        buy_in=0,
        seats=4,
        seed=2,
        start_entrants=4,
    )
    await store.tournaments.register(called_off.tournament_id, carol, guild_id=guild)
    assert await store.tournaments.cancel(called_off.tournament_id, guild_id=guild) == {}
    await store.seating.open(cash, guild, alice, max_seats=4, min_buy_in=100, max_buy_in=500)
    await store.seating.seat_bot(cash, cash_bot, 200)
    await store.seating.set_messages({cash: 9})
    assert await store.seating.close(cash) == {cash_bot: 200}
    await store.house_wallet.empty(guild, 100, by=alice)
    await store.players.set_four_colour(alice, True)
    await store.players.set_always_show(alice, True)
    await store.set_meta(f"server {guild}", "written")


async def test_no_write_of_one_server_waits_for_another_servers_writer(
    stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Server 1's writer holds its transaction open (busy: the server cuts off an idle one
    after a second) for as long as server 2 writes everything the store writes: had one of
    those writes taken the whole database's lock, it would wait for server 1's writer, which
    waits for the end of server 2's work, until the test gives up."""
    first, second = stores
    held, release = asyncio.Event(), asyncio.Event()
    locked = second._backend.write

    def write(guild: int | None = None) -> AbstractAsyncContextManager[Connection]:
        # Say which write took the whole database's lock at once, not after the wait.
        assert guild is not None, "a write of the whole database"
        return locked(guild)

    monkeypatch.setattr(second._backend, "write", write)

    async def hold() -> None:
        async with first._backend.write(1) as db:
            held.set()
            while not release.is_set():
                await db.all("SELECT pg_sleep(0.05)")

    holder = asyncio.create_task(hold())
    await held.wait()
    try:
        await asyncio.wait_for(every_write_of_a_server(second, 2), 20)
        # Server 1's own writes do wait for it.
        waiting = asyncio.create_task(second.house_wallet.fund(1, 100, by=1))
        await asyncio.sleep(0.3)
        assert not waiting.done()
    finally:
        release.set()
        await holder
    await asyncio.wait_for(waiting, 5)
    assert (await second.house_wallet.report(1)).balance == 100
    await second.audit()
    # The bot's results came back.
    assert (await second.house_wallet.report(2)).balance == 1_000 - 100
    assert (await second.players.preferences(21)).four_colour
    assert await second.get_meta("server 2") == "written"


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
    other, grants and cash-outs meanwhile, and beside them each server's house and tournaments
    (every write of ``every_write_of_a_server``, and registrations into one tournament from both
    workers at once). The books still balance to the chip (both databases: SQLite's one writer
    is the reference)."""
    first, second = writers

    async def cash_play(number: int) -> None:
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

    async def registrations(number: int) -> None:
        guild = 7000 + number
        created = await second.tournaments.create(
            guild,
            9000 + number,
            81,
            game="stud",
            structure="standard",
            level_unit="hands",
            level_length=5,
            starting_stack=1000,
            buy_in=50,
            seats=8,
            seed=number,
            start_entrants=8,
        )
        entrants = range(81, 87)
        await asyncio.gather(
            *(
                (first, second)[user % 2].tournaments.register(
                    created.tournament_id, user, guild_id=guild
                )
                for user in entrants
            )
        )
        assert (await first.tournaments.get(created.tournament_id)).prize_pool == 50 * 6

    async def server(number: int) -> None:
        await asyncio.gather(
            cash_play(number),
            every_write_of_a_server((first, second)[number % 2], 7000 + number),
            registrations(number),
        )

    await asyncio.gather(*(server(number) for number in range(3)))
    totals = await first.audit()
    assert totals.live_hands == 0
    assert totals.prize_pools == 3 * 50 * 6
    # Each server: its two cash players' starting chips and grants, the house's funds less what
    # was taken out of it, its tournament players' starting chips and its registrants'.
    assert totals.granted == 3 * (2 * 1000 + 4 * 5 + 1_000 - 100 + 3 * 1000 + 6 * 1000)
