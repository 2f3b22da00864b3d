"""The house wallet and its computer players' chips, on both databases:
admins fund and empty it, bots buy in from it and cash out to it through the ledger, a bot's
results move like any seat's, nothing is created, the audit holds after every call, and
leaderboards, stats and seasons are people's."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import cast

import pytest

from bot.core.storage import HandFacts, HouseEmpty, NothingToTake, SeatFacts, Store
from bot.core.storage.house import BOT_IDS, HOUSE
from tests.bot.fakes import Audited
from tests.databases import Location, query

GUILD = 1
CHANNEL = 10
ADMIN, ALICE = 1, 100
BOT = BOT_IDS[0]


@pytest.fixture
async def store(database: Location) -> AsyncIterator[Store]:
    opened = await Store.open(database)
    yield cast(Store, Audited(opened))  # audit() after every call, failing ones too
    await opened.close()


async def moves(database: Location, *kinds: str) -> list[tuple[int, str, int, int]]:
    marks = ", ".join(f"'{kind}'" for kind in kinds)
    rows = await query(database, f"SELECT * FROM ledger WHERE kind IN ({marks}) ORDER BY id")
    return [(r["user_id"], r["kind"], r["minted"], r["wallet_delta"]) for r in rows]


def facts(*collected: int) -> HandFacts:
    return HandFacts(
        "stud",
        tuple(SeatFacts(dealt=True, vpip=True, showdown=True, collected=c) for c in collected),
    )


async def test_admins_fund_and_empty_the_house_by_logged_grants(
    store: Store, database: Location
) -> None:
    assert (await store.house_wallet.report(GUILD)).balance == 0  # no starting chips for the house
    assert await store.house_wallet.fund(GUILD, 5_000, by=ADMIN) == 5_000
    taken = await store.house_wallet.empty(GUILD, 1_000, by=ADMIN)
    assert (taken.taken, taken.balance) == (1_000, 4_000)
    assert await moves(database, "admin_grant", "admin_take") == [
        (HOUSE, "admin_grant", 5_000, 5_000),
        (HOUSE, "admin_take", -1_000, -1_000),
    ]
    report = await store.house_wallet.report(GUILD)
    assert (report.balance, report.at_tables, report.funded, report.result) == (4_000, 0, 4_000, 0)
    await store.house_wallet.empty(GUILD, 10_000, by=ADMIN)
    with pytest.raises(NothingToTake):
        await store.house_wallet.empty(GUILD, 1, by=ADMIN)


async def test_a_bot_buys_in_from_the_house_and_its_results_go_back_to_it(
    store: Store, database: Location
) -> None:
    await store.seating.open(CHANNEL, GUILD, ADMIN, max_seats=4, min_buy_in=100, max_buy_in=500)
    with pytest.raises(HouseEmpty):
        await store.seating.seat_bot(CHANNEL, BOT, 200)  # an empty house seats nobody
    assert await store.seating.seats(CHANNEL) == []
    await store.house_wallet.fund(GUILD, 300, by=ADMIN)
    seat = await store.seating.seat_bot(CHANNEL, BOT, 200)
    assert (seat.user_id, seat.stack) == (BOT, 200)
    with pytest.raises(HouseEmpty):
        await store.seating.seat_bot(CHANNEL, BOT_IDS[1], 200)  # 100 left
    await store.seating.sit(CHANNEL, ALICE, 200)
    report = await store.house_wallet.report(GUILD)
    assert (report.balance, report.at_tables) == (100, 200)

    # Alice wins 50 of the bot's chips.
    hand = await store.hands.start(
        CHANNEL, [(ALICE, 200), (BOT, 200)], b"state", commitment="ab" * 32, salt="s"
    )
    await store.hands.settle(hand, b"state", [250, 150], facts=facts(100, 0))
    assert await store.seating.leave(CHANNEL, BOT) == 150
    report = await store.house_wallet.report(GUILD)
    assert (report.balance, report.at_tables, report.result) == (250, 0, -50)
    assert (await store.wallets.get(GUILD, BOT)).balance == 0  # a bot keeps nothing
    assert await moves(database, "house_stake", "house_return") == [
        (HOUSE, "house_stake", -200, -200),
        (BOT, "house_stake", 200, 200),
        (BOT, "house_return", -150, -150),
        (HOUSE, "house_return", 150, 150),
    ]
    # People only: the leaderboards and stats rank Alice, never the house or its bot.
    board = await store.reports.leaderboard(GUILD, user_id=ALICE)
    assert [row.user_id for row in board.top] == [ALICE]
    winnings = await store.reports.winnings(GUILD, user_id=ALICE)
    assert [(row.user_id, row.chips) for row in winnings.top] == [(ALICE, 50)]
    # A new season leaves the house's chips alone.
    await store.wallets.reset_season(GUILD, by=ADMIN)
    assert (await store.house_wallet.report(GUILD)).balance == 250


async def test_closing_a_table_returns_a_bots_stack_to_the_house(store: Store) -> None:
    await store.seating.open(CHANNEL, GUILD, ADMIN, max_seats=4, min_buy_in=100, max_buy_in=500)
    await store.house_wallet.fund(GUILD, 1_000, by=ADMIN)
    for bot in BOT_IDS[:3]:
        await store.seating.seat_bot(CHANNEL, bot, 300)
    assert (await store.house_wallet.report(GUILD)).balance == 100
    cashed = await store.seating.close(CHANNEL)
    assert cashed == {BOT_IDS[0]: 300, BOT_IDS[1]: 300, BOT_IDS[2]: 300}
    report = await store.house_wallet.report(GUILD)
    assert (report.balance, report.at_tables, report.result) == (1_000, 0, 0)


async def test_only_computer_players_are_staked(store: Store) -> None:
    await store.seating.open(CHANNEL, GUILD, ADMIN, max_seats=4, min_buy_in=100, max_buy_in=500)
    await store.house_wallet.fund(GUILD, 1_000, by=ADMIN)
    with pytest.raises(ValueError, match="negative"):
        await store.seating.seat_bot(CHANNEL, ALICE, 200)
