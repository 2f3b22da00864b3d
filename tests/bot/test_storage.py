"""The storage layer: wallets, seats, hands, the ledger, the leaderboard, bad input.

Every store call in these tests goes through ``Audited``, which runs ``audit()`` after it, whether
the call succeeded or raised (conservation checked after every step). Every test
runs on SQLite and on PostgreSQL (the ``database`` fixture).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import pytest

from bot.core.storage import (
    MAX_AMOUNT,
    AlreadySeated,
    BuyInOutOfRange,
    ChipsNotConserved,
    DailyNotReady,
    HandInProgress,
    HandNotFound,
    HandNotLive,
    InvalidAmount,
    InvalidTableConfig,
    NoTable,
    NotEnoughChips,
    NotSeated,
    PlayerInHand,
    SeatsChanged,
    Store,
    StoreError,
    TableExists,
    TableFull,
)
from engine import Card, Stakes, StudHand
from engine.cards import FULL_DECK
from engine.codec import decode, encode
from tests.bot.fakes import Audited
from tests.databases import INTEGRITY_ERRORS, Location, query, raw, snapshot

GUILD = 1
CHANNEL = 10
OTHER_CHANNEL = 11
ALICE, BOB, CAROL, DAN = 100, 101, 102, 103
COMMITMENT = "ab" * 32
T0 = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
async def store(database: Location) -> AsyncIterator[Store]:
    opened = await Store.open(database)
    audited = Audited(opened)
    yield cast(Store, audited)
    await opened.audit()
    await opened.close()


async def ledger(database: Location, *where: str) -> list[dict[str, Any]]:
    clause = " AND ".join(where) or "TRUE"
    return await query(database, f"SELECT * FROM ledger WHERE {clause} ORDER BY id")


async def open_default_table(store: Store, channel: int = CHANNEL, max_seats: int = 6) -> None:
    await store.seating.open(
        channel,
        GUILD,
        ALICE,
        max_seats=max_seats,
        min_buy_in=100,
        max_buy_in=1000,
        settings={"stakes": [1, 3, 10, 20], "turn_seconds": 45},
    )


async def seated_hand(store: Store, stacks: dict[int, int]) -> int:
    """A table with these players and a hand started with their stacks."""
    await open_default_table(store)
    for user_id, stack in stacks.items():
        await store.seating.sit(CHANNEL, user_id, stack)
    return await store.hands.start(
        CHANNEL, list(stacks.items()), b"street 3", commitment=COMMITMENT, salt="salt"
    )


# ----------------------------------------------------------------- wallets


async def test_new_wallet_starts_with_a_logged_grant_once(store: Store, database: Location) -> None:
    assert await store.wallets.balance(GUILD, ALICE) == 1000
    assert await store.wallets.balance(GUILD, ALICE) == 1000
    grants = await ledger(database, "kind = 'starting_grant'")
    assert [(row["user_id"], row["minted"], row["reason"]) for row in grants] == [
        (ALICE, 1000, "starting balance")
    ]
    # Wallets are per guild.
    assert await store.wallets.balance(GUILD + 1, ALICE) == 1000
    assert len(await ledger(database, "kind = 'starting_grant'")) == 2


async def test_daily_once_per_cooldown(store: Store, database: Location) -> None:
    assert (await store.wallets.claim_daily(GUILD, ALICE, T0)).balance == 1200
    before = await snapshot(database)
    with pytest.raises(DailyNotReady) as raised:
        await store.wallets.claim_daily(GUILD, ALICE, T0 + timedelta(hours=19, minutes=59))
    assert raised.value.retry_at == T0 + timedelta(hours=20)
    assert str(raised.value) == "You already took your daily chips: come back in 1 min."
    assert await snapshot(database) == before
    assert (await store.wallets.claim_daily(GUILD, ALICE, T0 + timedelta(hours=20))).balance == 1400
    assert [row["minted"] for row in await ledger(database, "kind = 'daily_grant'")] == [200, 200]


async def test_wallet_reports_when_the_next_daily_is_ready(store: Store) -> None:
    assert (await store.wallets.get(GUILD, ALICE)).next_daily_at is None
    now = datetime.now(UTC)
    await store.wallets.claim_daily(GUILD, ALICE, now)
    wallet = await store.wallets.get(GUILD, ALICE)
    assert wallet.next_daily_at == now + timedelta(hours=20)


async def test_admin_grant_adds_and_logs_reason_and_actor(store: Store, database: Location) -> None:
    assert await store.wallets.grant(GUILD, BOB, 250, reason="tournament prize", by=ALICE) == 1250
    (row,) = await ledger(database, "kind = 'admin_grant'")
    assert (row["user_id"], row["minted"], row["reason"], row["actor_id"]) == (
        BOB,
        250,
        "tournament prize",
        ALICE,
    )


async def test_daily_settings_come_from_open(database: Location) -> None:
    store = await Store.open(
        database, starting_balance=50, daily_amount=7, daily_cooldown=timedelta(hours=1)
    )
    try:
        assert await store.wallets.balance(GUILD, ALICE) == 50
        assert (await store.wallets.claim_daily(GUILD, ALICE, T0)).balance == 57
        assert (
            await store.wallets.claim_daily(GUILD, ALICE, T0 + timedelta(hours=1))
        ).balance == 64
        await store.audit()
    finally:
        await store.close()


# ----------------------------------------------------------------- bad input changes nothing


BadCall = Callable[[Store], Awaitable[object]]

BAD_INPUTS: list[tuple[str, BadCall, type[StoreError], str]] = [
    (
        "zero grant",
        lambda s: s.wallets.grant(GUILD, ALICE, 0, reason="x", by=BOB),
        InvalidAmount,
        "The amount must be a whole number of chips from 1 to 1,000,000,000, not 0.",
    ),
    (
        "negative grant",
        lambda s: s.wallets.grant(GUILD, ALICE, -5, reason="x", by=BOB),
        InvalidAmount,
        "from 1 to",
    ),
    (
        "fractional grant",
        lambda s: s.wallets.grant(GUILD, ALICE, cast(int, 2.5), reason="x", by=BOB),
        InvalidAmount,
        "not 2.5",
    ),
    (
        "boolean grant",
        lambda s: s.wallets.grant(GUILD, ALICE, True, reason="x", by=BOB),
        InvalidAmount,
        "whole number",
    ),
    (
        "huge grant",
        lambda s: s.wallets.grant(GUILD, ALICE, MAX_AMOUNT + 1, reason="x", by=BOB),
        InvalidAmount,
        "1,000,000,001",
    ),
    ("zero buy-in", lambda s: s.seating.sit(CHANNEL, CAROL, 0), InvalidAmount, "not 0"),
    ("negative buy-in", lambda s: s.seating.sit(CHANNEL, CAROL, -100), InvalidAmount, "not -100"),
    (
        "buy-in under the minimum",
        lambda s: s.seating.sit(CHANNEL, CAROL, 99),
        BuyInOutOfRange,
        "The buy-in at this table is from 100 to 1,000 chips, not 99.",
    ),
    (
        "buy-in over the maximum",
        lambda s: s.seating.sit(CHANNEL, CAROL, 1001),
        BuyInOutOfRange,
        "1,001",
    ),
    (
        "second seat at the same table",
        lambda s: s.seating.sit(CHANNEL, ALICE, 100),
        AlreadySeated,
        "You already have a seat at this table.",
    ),
    (
        "more than the wallet holds",
        lambda s: s.seating.sit(OTHER_CHANNEL, BOB, 1000),
        NotEnoughChips,
        "You don't have enough chips: 1,000 needed, 640 in your wallet.",
    ),
    (
        "leaving a table you are not at",
        lambda s: s.seating.leave(CHANNEL, CAROL),
        NotSeated,
        "You aren't seated at this table.",
    ),
    (
        "sitting where there is no table",
        lambda s: s.seating.sit(99, CAROL, 100),
        NoTable,
        "no table",
    ),
    ("leaving where there is no table", lambda s: s.seating.leave(99, ALICE), NoTable, "no table"),
    ("closing where there is no table", lambda s: s.seating.close(99), NoTable, "no table"),
    (
        "a second table in a channel",
        lambda s: s.seating.open(CHANNEL, GUILD, BOB, max_seats=4, min_buy_in=1, max_buy_in=5),
        TableExists,
        "This channel already has a table.",
    ),
    (
        "a table with nine seats",
        lambda s: s.seating.open(99, GUILD, BOB, max_seats=9, min_buy_in=1, max_buy_in=5),
        InvalidTableConfig,
        "2 to 8 seats",
    ),
    (
        "a table whose minimum buy-in is over its maximum",
        lambda s: s.seating.open(99, GUILD, BOB, max_seats=4, min_buy_in=6, max_buy_in=5),
        InvalidTableConfig,
        "buy-in limits",
    ),
    (
        "sitting out a seat you don't have",
        lambda s: s.seating.set_sitting_out(CHANNEL, DAN, True),
        NotSeated,
        "aren't seated",
    ),
    (
        "an unknown hand",
        lambda s: s.hands.save_action(12345, b"x"),
        HandNotFound,
        "There is no hand #12,345.",
    ),
]


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [pytest.param(call, error, message, id=name) for name, call, error, message in BAD_INPUTS],
)
async def test_bad_input_is_a_readable_typed_error_and_changes_nothing(
    store: Store, database: Location, call: BadCall, error: type[StoreError], message: str
) -> None:
    """Each bad input raises its own error with a readable message and changes nothing."""
    await open_default_table(store)
    await open_default_table(store, OTHER_CHANNEL)
    await store.seating.sit(CHANNEL, ALICE, 500)
    await store.seating.sit(CHANNEL, BOB, 360)  # leaves Bob 640 in his wallet
    before = await snapshot(database)
    with pytest.raises(error) as raised:
        await call(store)
    assert message in str(raised.value)
    assert await snapshot(database) == before


async def test_table_full(store: Store, database: Location) -> None:
    await open_default_table(store, max_seats=2)
    await store.seating.sit(CHANNEL, ALICE, 100)
    await store.seating.sit(CHANNEL, BOB, 100)
    before = await snapshot(database)
    with pytest.raises(TableFull, match="all 2 seats are taken"):
        await store.seating.sit(CHANNEL, CAROL, 100)
    assert await snapshot(database) == before


async def test_failed_buy_in_does_not_create_the_wallet(store: Store, database: Location) -> None:
    """A newcomer's wallet and its starting grant roll back with the failed buy-in."""
    await store.seating.open(CHANNEL, GUILD, ALICE, max_seats=2, min_buy_in=2000, max_buy_in=3000)
    before = await snapshot(database)
    with pytest.raises(NotEnoughChips, match="2,000 needed, 1,000 in your wallet"):
        await store.seating.sit(CHANNEL, CAROL, 2000)
    assert await snapshot(database) == before


async def test_error_params_allow_translation(store: Store) -> None:
    await open_default_table(store)
    with pytest.raises(BuyInOutOfRange) as raised:
        await store.seating.sit(CHANNEL, ALICE, 5)
    assert raised.value.code == "buy_in_out_of_range"
    assert raised.value.params == {"amount": 5, "minimum": 100, "maximum": 1000}


# ----------------------------------------------------------------- seats


async def test_buy_in_and_cash_out_move_chips_and_log_them(
    store: Store, database: Location
) -> None:
    await open_default_table(store)
    seat = await store.seating.sit(CHANNEL, ALICE, 300)
    assert (seat.position, seat.stack) == (0, 300)
    assert (await store.seating.sit(CHANNEL, BOB, 200)).position == 1
    wallet = await store.wallets.get(GUILD, ALICE)
    assert (wallet.balance, wallet.seated) == (700, 300)
    assert await store.seating.leave(CHANNEL, ALICE) == 300
    assert await store.wallets.balance(GUILD, ALICE) == 1000
    assert [s.user_id for s in await store.seating.seats(CHANNEL)] == [BOB]
    # The freed position is reused.
    assert (await store.seating.sit(CHANNEL, CAROL, 100)).position == 0
    moves = [
        (row["kind"], row["wallet_delta"], row["seat_delta"])
        for row in await ledger(database, f"user_id = {ALICE}", "kind != 'starting_grant'")
    ]
    assert moves == [("buy_in", -300, 300), ("cash_out", 300, -300)]
    with pytest.raises(NotSeated):
        await store.seating.leave(CHANNEL, ALICE)  # leaving twice


async def test_sitting_out_and_leaving_flags(store: Store) -> None:
    await open_default_table(store)
    await store.seating.sit(CHANNEL, ALICE, 300)
    assert (await store.seating.set_sitting_out(CHANNEL, ALICE, True)).sitting_out
    assert (await store.seating.set_leaving(CHANNEL, ALICE, True)).leaving
    (seat,) = await store.seating.seats(CHANNEL)
    assert seat.sitting_out and seat.leaving
    assert not (await store.seating.set_sitting_out(CHANNEL, ALICE, False)).sitting_out


async def test_close_table_cashes_everyone_out(store: Store) -> None:
    await open_default_table(store)
    await store.seating.sit(CHANNEL, ALICE, 300)
    await store.seating.sit(CHANNEL, BOB, 150)
    assert await store.seating.close(CHANNEL) == {ALICE: 300, BOB: 150}
    assert await store.seating.table(CHANNEL) is None
    assert await store.seating.seats(CHANNEL) == []
    assert (
        await store.wallets.balance(GUILD, ALICE) == await store.wallets.balance(GUILD, BOB) == 1000
    )
    # The channel can have a new table.
    await open_default_table(store)
    assert [table.channel_id for table in await store.seating.tables()] == [CHANNEL]


async def test_table_settings_round_trip(store: Store) -> None:
    await open_default_table(store)
    table = await store.seating.table(CHANNEL)
    assert table is not None
    assert table.settings == {"stakes": [1, 3, 10, 20], "turn_seconds": 45}
    assert (table.max_seats, table.min_buy_in, table.max_buy_in) == (6, 100, 1000)


# ----------------------------------------------------------------- concurrency


async def concurrent_buy_ins(first: Store, second: Store) -> list[object]:
    results = await asyncio.gather(
        first.seating.sit(CHANNEL, ALICE, 600),
        second.seating.sit(OTHER_CHANNEL, ALICE, 600),
        return_exceptions=True,
    )
    return list(results)


async def test_two_concurrent_buy_ins_over_the_balance_one_connection(store: Store) -> None:
    """Two buy-ins at once together exceed the wallet: one wins, one gets NotEnoughChips."""
    await open_default_table(store, CHANNEL)
    await open_default_table(store, OTHER_CHANNEL)
    results = await concurrent_buy_ins(store, store)
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], NotEnoughChips)
    assert str(errors[0]) == "You don't have enough chips: 600 needed, 400 in your wallet."
    assert await store.wallets.balance(GUILD, ALICE) == 400


async def test_two_concurrent_buy_ins_over_the_balance_two_connections(database: Location) -> None:
    """Two buy-ins over the balance at once, across two connections to one file (BEGIN
    IMMEDIATE, not a Python lock, keeps them apart), repeated to vary the interleaving."""
    first, second = await Store.open(database), await Store.open(database)
    try:
        await open_default_table(first, CHANNEL)
        await open_default_table(first, OTHER_CHANNEL)
        for _ in range(10):
            results = await concurrent_buy_ins(first, second)
            errors = [r for r in results if isinstance(r, Exception)]
            assert len(errors) == 1 and isinstance(errors[0], NotEnoughChips), results
            assert await second.wallets.balance(GUILD, ALICE) == 400
            await first.audit()
            for channel in (CHANNEL, OTHER_CHANNEL):
                if any(seat.user_id == ALICE for seat in await first.seating.seats(channel)):
                    await first.seating.leave(channel, ALICE)
        # Two daily claims at once: one grant.
        daily = await asyncio.gather(
            first.wallets.claim_daily(GUILD, BOB, T0),
            second.wallets.claim_daily(GUILD, BOB, T0),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in daily) == ["DailyClaim", "DailyNotReady"]
        assert await first.wallets.balance(GUILD, BOB) == 1200
        await first.audit()
    finally:
        await first.close()
        await second.close()


# ----------------------------------------------------------------- hands


async def test_start_hand_moves_stacks_into_the_hand(store: Store) -> None:
    hand_id = await seated_hand(store, {ALICE: 300, BOB: 200})
    assert [seat.stack for seat in await store.seating.seats(CHANNEL)] == [0, 0]
    # The chips still count as seated (for the leaderboard): they're at the table.
    assert (await store.wallets.get(GUILD, ALICE)).seated == 300
    totals = await store.audit()
    assert (totals.seats, totals.live_hands) == (0, 500)
    record = await store.hands.get(hand_id)
    assert record.is_live and record.version == 0 and record.state == b"street 3"
    assert [(p.seat_index, p.user_id, p.starting_stack) for p in record.players] == [
        (0, ALICE, 300),
        (1, BOB, 200),
    ]
    assert (record.commitment, record.salt) == (COMMITMENT, "salt")


async def test_hand_rules_while_live(store: Store, database: Location) -> None:
    hand_id = await seated_hand(store, {ALICE: 300, BOB: 200})
    await store.seating.sit(CHANNEL, CAROL, 100)  # joins during the hand: not in it
    before = await snapshot(database)
    with pytest.raises(PlayerInHand, match="you can leave when it ends"):
        await store.seating.leave(CHANNEL, ALICE)
    with pytest.raises(HandInProgress):
        await store.seating.close(CHANNEL)
    with pytest.raises(HandInProgress):
        await store.hands.start(
            CHANNEL, [(CAROL, 100), (DAN, 0)], b"x", commitment=COMMITMENT, salt="s"
        )
    with pytest.raises(ChipsNotConserved, match="600 paid out but 500 entered"):
        await store.hands.settle(hand_id, b"x", [400, 200])
    assert await snapshot(database) == before
    assert await store.seating.leave(CHANNEL, CAROL) == 100  # not dealt in: free to go


async def test_stale_stack_rolls_back_the_whole_start(store: Store, database: Location) -> None:
    """The second player's stack no longer matches: the first's move is undone too."""
    await open_default_table(store)
    await store.seating.sit(CHANNEL, ALICE, 300)
    await store.seating.sit(CHANNEL, BOB, 200)
    before = await snapshot(database)
    with pytest.raises(SeatsChanged):
        await store.hands.start(
            CHANNEL, [(ALICE, 300), (BOB, 250)], b"x", commitment=COMMITMENT, salt="s"
        )
    with pytest.raises(SeatsChanged):
        await store.hands.start(
            CHANNEL, [(ALICE, 300), (CAROL, 200)], b"x", commitment=COMMITMENT, salt="s"
        )
    assert await snapshot(database) == before


async def test_save_action_bumps_the_version(store: Store) -> None:
    hand_id = await seated_hand(store, {ALICE: 300, BOB: 200})
    assert await store.hands.save_action(hand_id, b"n1") == 1
    assert await store.hands.save_action(hand_id, b"n2") == 2
    record = await store.hands.get(hand_id)
    assert (record.version, record.state) == (2, b"n2")


async def test_settlement_pays_exactly_once(store: Store, database: Location) -> None:
    hand_id = await seated_hand(store, {ALICE: 300, BOB: 200, CAROL: 100})
    end = await store.hands.settle(hand_id, b"over", [450, 150, 0])
    assert end.final_stacks == {ALICE: 450, BOB: 150, CAROL: 0}
    assert end.net == {ALICE: 150, BOB: -50, CAROL: -100}
    assert end.cashed_out == {}
    assert [seat.stack for seat in await store.seating.seats(CHANNEL)] == [450, 150, 0]
    assert (await store.wallets.get(GUILD, ALICE)).total == 1150
    before = await snapshot(database)
    with pytest.raises(HandNotLive, match=f"Hand #{hand_id} is already over."):
        await store.hands.settle(hand_id, b"over", [450, 150, 0])
    with pytest.raises(HandNotLive):
        await store.hands.void(hand_id, reason="late")
    with pytest.raises(HandNotLive):
        await store.hands.save_action(hand_id, b"late")
    assert await snapshot(database) == before
    record = await store.hands.get(hand_id)
    assert (record.outcome, record.state) == ("settled", b"over")
    assert [p.final_stack for p in record.players] == [450, 150, 0]
    assert len(await ledger(database, f"hand_id = {hand_id}", "kind = 'hand_result'")) == 3


async def test_concurrent_settlements_pay_once(database: Location) -> None:
    first, second = await Store.open(database), await Store.open(database)
    try:
        hand_id = await seated_hand(first, {ALICE: 300, BOB: 200})
        results = await asyncio.gather(
            first.hands.settle(hand_id, b"x", [500, 0]),
            second.hands.settle(hand_id, b"x", [500, 0]),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["HandEnd", "HandNotLive"]
        assert [seat.stack for seat in await first.seating.seats(CHANNEL)] == [500, 0]
        await first.audit()
    finally:
        await first.close()
        await second.close()


async def test_void_returns_every_chip(store: Store) -> None:
    hand_id = await seated_hand(store, {ALICE: 300, BOB: 200})
    await store.hands.save_action(hand_id, b"n1")
    end = await store.hands.void(hand_id, reason="state could not be restored")
    assert end.final_stacks == {ALICE: 300, BOB: 200} and end.net == {ALICE: 0, BOB: 0}
    assert [seat.stack for seat in await store.seating.seats(CHANNEL)] == [300, 200]
    record = await store.hands.get(hand_id)
    assert (record.outcome, record.state) == ("voided", b"n1")


async def test_players_leaving_are_cashed_out_when_the_hand_ends(store: Store) -> None:
    hand_id = await seated_hand(store, {ALICE: 300, BOB: 200})
    await store.seating.set_leaving(CHANNEL, BOB, True)
    end = await store.hands.settle(hand_id, b"x", [100, 400])
    assert end.cashed_out == {BOB: 400}
    assert [seat.user_id for seat in await store.seating.seats(CHANNEL)] == [ALICE]
    assert await store.wallets.balance(GUILD, BOB) == 1200


async def test_last_hand_for_a_player(store: Store) -> None:
    assert await store.hands.last_for(ALICE) is None
    first = await seated_hand(store, {ALICE: 300, BOB: 200})
    await store.hands.settle(first, b"x", [300, 200])
    second = await store.hands.start(
        CHANNEL, [(ALICE, 300), (BOB, 200)], b"x", commitment=COMMITMENT, salt="s"
    )
    last = await store.hands.last_for(ALICE, guild_id=GUILD)
    assert last is not None and last.hand_id == second
    # /history's "my last hand" while the next one is being played: the one that ended.
    ended = await store.hands.last_for(ALICE, guild_id=GUILD, finished=True)
    assert ended is not None and ended.hand_id == first
    assert await store.hands.last_for(ALICE, guild_id=GUILD + 1) is None
    assert await store.hands.last_for(CAROL) is None
    with pytest.raises(HandNotFound):
        await store.hands.get(second + 1)


async def test_the_last_hand_at_a_table_is_its_open_tables_latest(store: Store) -> None:
    """What a restart moves the dealer on from (RULES 1.4): the channel's open table's latest
    hand, ended or not; a closed table's hands are no longer the channel's."""
    assert await store.hands.last_at(CHANNEL) is None
    first = await seated_hand(store, {ALICE: 300, BOB: 200})
    assert await store.hands.last_at(CHANNEL) == first
    await store.hands.settle(first, b"x", [300, 200])
    second = await store.hands.start(
        CHANNEL, [(ALICE, 300), (BOB, 200)], b"x", commitment=COMMITMENT, salt="s"
    )
    assert await store.hands.last_at(CHANNEL) == second
    assert await store.hands.last_at(CHANNEL + 1) is None
    await store.hands.settle(second, b"x", [300, 200])
    await store.seating.close(CHANNEL)
    assert await store.hands.last_at(CHANNEL) is None
    await open_default_table(store)
    assert await store.hands.last_at(CHANNEL) is None


async def test_a_real_engine_hand_saved_after_every_action(store: Store) -> None:
    """The engine's state round-trips through the store at every step of a full hand."""
    stacks = {ALICE: 300, BOB: 200, CAROL: 250}
    await open_default_table(store)
    for user_id, stack in stacks.items():
        await store.seating.sit(CHANNEL, user_id, stack)
    deck: list[Card] = list(FULL_DECK)
    random.Random(7).shuffle(deck)
    hand = StudHand(list(stacks.values()), Stakes(1, 3, 10, 20), deck, dealer=2)
    hand_id = await store.hands.start(
        CHANNEL, list(stacks.items()), encode(hand), commitment=COMMITMENT, salt="s"
    )
    rng = random.Random(3)
    while not hand.is_over:
        legal = hand.legal()
        if legal.bring_in is not None:
            hand.bring_in()
        elif legal.raise_to and rng.random() < 0.3:
            hand.raise_to(legal.raise_to[0])
        elif legal.check:
            hand.check()
        else:
            hand.call()
        await store.hands.save_action(hand_id, encode(hand))
        restored = decode((await store.hands.get(hand_id)).state)
        assert restored.events == hand.events and encode(restored) == encode(hand)
    await store.hands.settle(hand_id, encode(hand), hand.stacks)
    assert [seat.stack for seat in await store.seating.seats(CHANNEL)] == hand.stacks
    assert sum(hand.stacks) == sum(stacks.values())


# ----------------------------------------------------------------- restart recovery


async def test_restart_lists_live_hands_with_their_last_state(database: Location) -> None:
    """Close, reopen, and the hand in progress is there as last saved."""
    store = await Store.open(database)
    hand_id = await seated_hand(store, {ALICE: 300, BOB: 200})
    await store.hands.save_action(hand_id, b"n1")
    await store.hands.save_action(hand_id, b"n2")
    await store.seating.open(OTHER_CHANNEL, GUILD, BOB, max_seats=2, min_buy_in=1, max_buy_in=9)
    await store.close()

    store = await Store.open(database)
    try:
        await store.audit()
        (live,) = await store.hands.live()
        assert (live.hand_id, live.channel_id, live.guild_id) == (hand_id, CHANNEL, GUILD)
        assert (live.version, live.state) == (2, b"n2")
        assert [p.user_id for p in live.players] == [ALICE, BOB]
        assert [t.channel_id for t in await store.seating.tables()] == [CHANNEL, OTHER_CHANNEL]
        await store.hands.settle(hand_id, b"n3", [0, 500])
        assert await store.hands.live() == []
        await store.audit()
    finally:
        await store.close()


# ----------------------------------------------------------------- leaderboard


async def test_leaderboard_ranks_wallet_plus_seated_chips(store: Store) -> None:
    """Totals include seat stacks and chips in a live hand; ties share a rank."""
    rng = random.Random(11)
    expected: dict[int, int] = {}
    for user_id in range(1000, 1030):
        bonus = rng.choice([0, 0, 50, 100, 250, 400])
        if bonus:
            await store.wallets.grant(GUILD, user_id, bonus, reason="test", by=ALICE)
        else:
            await store.wallets.balance(GUILD, user_id)
        expected[user_id] = 1000 + bonus
    await store.wallets.grant(GUILD + 1, 999, 10**6, reason="another guild", by=ALICE)
    await open_default_table(store)
    await store.seating.sit(
        CHANNEL, 1000, 900
    )  # all but 100 (or more) of his chips are at the table
    await store.seating.sit(CHANNEL, 1001, 500)
    await store.seating.sit(CHANNEL, 1002, 400)
    hand_id = await store.hands.start(
        CHANNEL, [(1000, 900), (1001, 500)], b"x", commitment=COMMITMENT, salt="s"
    )
    await store.hands.settle(hand_id, b"x", [1400, 0])
    expected[1000] += 500
    expected[1001] -= 500
    await store.hands.start(
        CHANNEL, [(1000, 1400), (1002, 400)], b"x", commitment=COMMITMENT, salt="s"
    )

    ordered = sorted(expected.items(), key=lambda item: (-item[1], item[0]))
    board = await store.reports.leaderboard(GUILD, limit=10, user_id=1001)
    assert [(row.user_id, row.chips) for row in board.top] == ordered[:10]
    for row in board.top:
        assert row.rank == 1 + sum(1 for chips in expected.values() if chips > row.chips)
    assert len({row.rank for row in board.top}) < 10, "the data should include ties"
    assert board.caller is not None
    assert board.caller.chips == expected[1001]
    assert board.caller.rank == 1 + sum(1 for chips in expected.values() if chips > expected[1001])
    assert board.caller.rank == len(expected)  # he lost 500: last
    assert (await store.reports.leaderboard(GUILD, limit=3)).caller is None
    assert (await store.reports.leaderboard(GUILD, user_id=424242)).caller is None
    assert len((await store.reports.leaderboard(GUILD, limit=3)).top) == 3
    assert [row.user_id for row in (await store.reports.leaderboard(GUILD + 1)).top] == [999]


# ----------------------------------------------------------------- the ledger itself


async def test_ledger_and_ended_hands_cannot_be_rewritten(store: Store, database: Location) -> None:
    hand_id = await seated_hand(store, {ALICE: 300, BOB: 200})
    await store.hands.settle(hand_id, b"x", [300, 200])
    async with raw(database) as other:
        with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
            await other.execute("UPDATE ledger SET wallet_delta = wallet_delta + 1")
        with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
            await other.execute("DELETE FROM ledger")
        with pytest.raises(INTEGRITY_ERRORS, match="cannot change"):
            await other.execute("UPDATE hands SET ended_at = NULL, outcome = NULL")
        with pytest.raises(INTEGRITY_ERRORS, match=r"(?i)check constraint"):
            await other.execute(
                "INSERT INTO ledger (created_at, guild_id, user_id, kind, wallet_delta, reason)"
                " VALUES ('now', 1, 1, 'buy_in', 5, 'chips from nowhere')"
            )


async def test_audit_catches_a_chip_created_outside_the_ledger(
    store: Store, database: Location
) -> None:
    from bot.core.storage import AuditFailed

    await store.wallets.balance(GUILD, ALICE)
    async with raw(database) as other:
        # A wallet's total must always be its balance plus its seated chips.
        with pytest.raises(INTEGRITY_ERRORS, match=r"(?i)check constraint"):
            await other.execute("UPDATE wallets SET balance = balance + 1")
        await other.execute("UPDATE wallets SET balance = balance + 1, total = total + 1")
        with pytest.raises(AuditFailed, match="not conserved"):
            await store.audit()
        await other.execute("UPDATE wallets SET balance = balance - 1, total = total - 1")


async def test_every_step_was_audited(database: Location) -> None:
    """The fixture's wrapper really runs audit() after calls, including failing ones."""
    opened = await Store.open(database)
    audited = Audited(opened)
    store = cast(Store, audited)
    try:
        await store.wallets.balance(GUILD, ALICE)
        with pytest.raises(NoTable):
            await store.seating.sit(CHANNEL, ALICE, 100)
        assert audited.audits == 2
    finally:
        await opened.close()


async def test_cancelled_calls_happen_entirely_or_not_at_all(store: Store) -> None:
    """The bot cancels tasks (timers, shutdown): a call cancelled at any point must leave no
    half-done move and no open transaction behind."""
    await open_default_table(store)
    # Cancel anywhere from before the first statement to after the commit: up to twice as
    # long as a sit takes on this database (about a millisecond on SQLite).
    started = time.perf_counter()
    await store.seating.sit(CHANNEL, ALICE, 100)
    await store.seating.leave(CHANNEL, ALICE)
    longest = time.perf_counter() - started
    rng = random.Random(5)
    outcomes = set()
    for attempt in range(60):
        user_id = 5000 + attempt
        task = asyncio.ensure_future(store.seating.sit(CHANNEL, user_id, 100))
        # Some cancelled before the call starts (on SQLite, whose statements run on the loop,
        # a call once started never yields to a cancellation unless the file is busy).
        delay = rng.uniform(-longest / 4, longest)
        if delay > 0:
            await asyncio.sleep(delay)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        seated = any(seat.user_id == user_id for seat in await store.seating.seats(CHANNEL))
        outcomes.add(seated)
        assert await store.wallets.balance(GUILD, user_id) == (900 if seated else 1000)
        if seated:
            assert await store.seating.leave(CHANNEL, user_id) == 100
    assert outcomes == {True, False}, "cancellations should land both before and after commits"
    # Still usable afterwards.
    assert (await store.seating.sit(CHANNEL, ALICE, 100)).stack == 100
