"""Admins' economy tools and the daily streak: taking chips, a new season,
every move in the ledger so that the audit still holds."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import cast

import pytest

from bot.core.storage import (
    DailyNotReady,
    GameStats,
    HandFacts,
    InvalidAmount,
    NothingToTake,
    SeatFacts,
    Store,
)
from bot.core.storage.migrations import LATEST
from tests.bot.fakes import Audited
from tests.databases import INTEGRITY_ERRORS, Location, migrate_to, query, raw, snapshot, version

GUILD, OTHER_GUILD = 1, 2
CHANNEL = 10
ADMIN, ALICE, BOB, CAROL = 1, 100, 101, 102
T0 = datetime(2025, 3, 3, 18, 0, tzinfo=UTC)


@pytest.fixture
async def store(database: Location) -> AsyncIterator[Store]:
    opened = await Store.open(database)
    yield cast(Store, Audited(opened))  # audit() after every call, failing ones too
    await opened.close()


async def ledger(database: Location, kind: str) -> list[tuple[int, int, int, str, int | None]]:
    rows = await query(database, f"SELECT * FROM ledger WHERE kind = '{kind}' ORDER BY id")
    return [
        (row["user_id"], row["minted"], row["wallet_delta"], row["reason"], row["actor_id"])
        for row in rows
    ]


async def seat(store: Store, user_id: int, chips: int) -> None:
    if await store.seating.table(CHANNEL) is None:
        await store.seating.open(CHANNEL, GUILD, ADMIN, max_seats=8, min_buy_in=1, max_buy_in=5000)
    await store.seating.sit(CHANNEL, user_id, chips)


# ----------------------------------------------------------------- /chips take


async def test_take_burns_wallet_chips_and_logs_who_took_them(
    store: Store, database: Location
) -> None:
    await seat(store, ALICE, 300)  # 700 left in the wallet, 300 at the table
    taken = await store.wallets.take(GUILD, ALICE, 200, reason="cheating", by=ADMIN)
    assert (taken.taken, taken.balance) == (200, 500)
    assert await ledger(database, "admin_take") == [(ALICE, -200, -200, "cheating", ADMIN)]
    # More than the wallet has: all it has, never below zero; the seat keeps its chips.
    taken = await store.wallets.take(GUILD, ALICE, 10_000, reason="", by=ADMIN)
    assert (taken.taken, taken.balance) == (500, 0)
    wallet = await store.wallets.get(GUILD, ALICE)
    assert (wallet.balance, wallet.seated) == (0, 300)
    assert (await store.seating.seats(CHANNEL))[0].stack == 300
    totals = await store.audit()
    assert totals.granted == 1000 - 700 and totals.seats == 300


async def test_take_from_an_empty_wallet_or_a_bad_amount_changes_nothing(
    store: Store, database: Location
) -> None:
    await seat(store, BOB, 1000)
    before = await snapshot(database)
    with pytest.raises(NothingToTake, match="no chips to take"):
        await store.wallets.take(GUILD, BOB, 5, reason="", by=ADMIN)
    for amount in (0, -5, 10**12, True):
        with pytest.raises(InvalidAmount):
            await store.wallets.take(GUILD, BOB, amount, reason="", by=ADMIN)
    assert await snapshot(database) == before


async def test_the_ledger_refuses_a_burn_that_is_not_out_of_a_wallet(
    store: Store, database: Location
) -> None:
    await store.wallets.balance(GUILD, ALICE)
    columns = "created_at, guild_id, user_id, kind, minted, wallet_delta, seat_delta, reason"
    async with raw(database) as other:
        for values in (
            "'now', 1, 100, 'admin_take', 5, 5, 0, 'a take that mints'",
            "'now', 1, 100, 'admin_take', -5, 0, -5, 'a take from a seat'",
            "'now', 1, 100, 'admin_grant', -5, -5, 0, 'a negative grant'",
            "'now', 1, 100, 'season_reset', 0, 0, 0, 'a reset of nothing'",
        ):
            with pytest.raises(INTEGRITY_ERRORS, match=r"(?i)check constraint"):
                await other.execute(f"INSERT INTO ledger ({columns}) VALUES ({values})")


# ----------------------------------------------------------------- /chips reset


def facts(*collected: int) -> HandFacts:
    return HandFacts(
        "stud",
        tuple(SeatFacts(dealt=True, vpip=True, showdown=True, collected=c) for c in collected),
    )


async def test_a_new_season_resets_wallets_not_seats_and_starts_the_stats_again(
    store: Store, database: Location
) -> None:
    await store.wallets.grant(GUILD, ALICE, 500, reason="prize", by=ADMIN)  # 1,500
    await store.wallets.take(GUILD, BOB, 400, reason="", by=ADMIN)  # 600
    await store.wallets.balance(GUILD, CAROL)  # 1,000: nothing to do
    await store.wallets.take(OTHER_GUILD, ALICE, 100, reason="", by=ADMIN)
    await seat(store, ALICE, 200)  # 1,300 in the wallet
    await seat(store, BOB, 100)  # 500 in the wallet
    played = await store.hands.start(
        CHANNEL, [(ALICE, 200), (BOB, 100)], b"state", commitment="ab" * 32, salt="s"
    )
    await store.hands.settle(played, b"state", [250, 50], facts=facts(250, 0), now=T0)
    assert (await store.wallets.season(GUILD)).number == 1
    assert (await store.reports.player_stats(GUILD, ALICE)).total.hands == 1
    # A hand in progress across the reset: its chips are at the table, and it counts in the
    # season it ends in.
    live = await store.hands.start(
        CHANNEL, [(ALICE, 250), (BOB, 50)], b"state", commitment="ab" * 32, salt="t"
    )

    reset = await store.wallets.reset_season(GUILD, by=ADMIN, now=T0 + timedelta(hours=1))
    assert (reset.season, reset.wallets, reset.granted, reset.burned) == (2, 2, 500, 300)
    assert sorted(await ledger(database, "season_reset")) == [
        (ALICE, -300, -300, "season 2 starts", ADMIN),
        (BOB, 500, 500, "season 2 starts", ADMIN),
    ]
    for user_id, at_table in ((ALICE, 250), (BOB, 50), (CAROL, 0)):
        wallet = await store.wallets.get(GUILD, user_id)
        assert (wallet.balance, wallet.seated) == (1000, at_table), user_id
    assert (await store.wallets.get(OTHER_GUILD, ALICE)).balance == 900  # another server's season
    season = await store.wallets.season(GUILD)
    assert (season.number, season.started_at) == (2, T0 + timedelta(hours=1))
    assert (await store.wallets.season(OTHER_GUILD)).number == 1
    # The new season's stats and leaderboards start empty; the old season's stay apart.
    stats = await store.reports.player_stats(GUILD, ALICE)
    assert stats.season == 2 and stats.total == GameStats("all") and stats.recent == ()
    assert stats.season_started == T0 + timedelta(hours=1)
    assert (await store.reports.winnings(GUILD, user_id=ALICE)).top == ()
    board = await store.reports.leaderboard(GUILD, user_id=ALICE)
    assert board.season == 2 and board.top[0].chips == 1250
    later = T0 + timedelta(hours=2)
    await store.hands.settle(live, b"state", [300, 0], facts=facts(300, 0), now=later)
    board = await store.reports.winnings(GUILD, user_id=BOB)
    assert board.season == 2 and [(r.user_id, r.chips, r.hands) for r in board.top] == [
        (ALICE, 50, 1),
        (BOB, -50, 1),
    ]
    old = await query(database, "SELECT count(*) AS n FROM player_stats WHERE season = 1")
    assert old[0]["n"] == 8 * 2  # two players, four periods, the game and all games
    assert (await store.wallets.reset_season(GUILD, by=ADMIN)).season == 3


async def test_a_reset_with_every_wallet_at_the_start_only_starts_a_season(
    store: Store, database: Location
) -> None:
    await store.wallets.balance(GUILD, ALICE)
    reset = await store.wallets.reset_season(GUILD, by=ADMIN)
    assert (reset.season, reset.wallets, reset.granted, reset.burned) == (2, 0, 0, 0)
    assert await ledger(database, "season_reset") == []


# ----------------------------------------------------------------- /daily


async def test_the_daily_streak_counts_days_in_a_row_and_restarts_after_a_gap(
    store: Store,
) -> None:
    day = timedelta(hours=20)  # the cooldown
    first = await store.wallets.claim_daily(GUILD, ALICE, T0)
    assert (first.balance, first.streak) == (1200, 1)
    assert (first.next_at, first.streak_until) == (T0 + day, T0 + day + timedelta(hours=24))
    with pytest.raises(DailyNotReady) as early:
        await store.wallets.claim_daily(GUILD, ALICE, T0 + timedelta(hours=3))
    assert early.value.retry_at == T0 + day and early.value.streak == 1
    assert early.value.streak_until == first.streak_until
    second = await store.wallets.claim_daily(GUILD, ALICE, T0 + day)
    third = await store.wallets.claim_daily(GUILD, ALICE, second.streak_until)  # the last moment
    assert (second.streak, third.streak, third.balance) == (2, 3, 1600)
    late = await store.wallets.claim_daily(GUILD, ALICE, third.streak_until + timedelta(seconds=1))
    assert late.streak == 1
    assert (await store.wallets.claim_daily(GUILD, BOB, T0)).streak == 1  # everyone has his own


# ----------------------------------------------------------------- the ledger's new kinds


async def ledger_schema(database: Location) -> list[tuple[str, str]]:
    """The ledger's indexes and triggers, by name and definition."""
    async with raw(database) as other:
        if isinstance(database, str):
            rows = await other.rows(
                "SELECT indexname AS name, indexdef AS sql FROM pg_indexes"
                " WHERE tablename = 'ledger' UNION ALL"
                " SELECT tgname, pg_get_triggerdef(oid) FROM pg_trigger"
                " WHERE tgrelid = 'ledger'::regclass AND NOT tgisinternal"
            )
        else:
            rows = await other.rows(
                "SELECT name, sql FROM sqlite_master WHERE tbl_name = 'ledger'"
                " AND type IN ('index', 'trigger')"
            )
    return sorted((row["name"], row["sql"] or "") for row in rows)


async def test_migration_10_keeps_the_ledger_its_indexes_and_its_guards(
    empty_database: Location,
) -> None:
    database = empty_database
    economy = 10  # the migration that rebuilds the ledger with its new kinds
    assert await migrate_to(database, economy - 1) == economy - 1
    before = await ledger_schema(database)
    assert {"ledger_by_wallet", "ledger_by_hand", "ledger_by_table"} <= {n for n, _ in before}
    async with raw(database) as other:
        await other.execute(
            "INSERT INTO ledger (id, created_at, guild_id, user_id, kind, minted, wallet_delta,"
            " reason) VALUES (7, 'then', 1, 100, 'starting_grant', 1000, 1000, 'start'),"
            " (9, 'then', 1, 100, 'daily_grant', 200, 200, 'daily')"
        )
        await other.execute(
            "INSERT INTO wallets (guild_id, user_id, balance, seated, total, created_at,"
            " last_daily_at) VALUES (1, 100, 1200, 0, 1200, 'then', NULL)"
        )
        rows = await other.rows("SELECT * FROM ledger ORDER BY id")
    store = await Store.open(database)
    try:
        assert await version(database) == LATEST
        # Migration 14 (tournaments) builds the ledger again too, with an index of its own and
        # two columns more.
        after = await ledger_schema(database)
        assert [entry for entry in after if entry[0] != "ledger_by_tournament"] == before
        async with raw(database) as other:
            kept = await other.rows("SELECT * FROM ledger ORDER BY id")
            assert [row | {"pool_delta": 0, "tournament_id": None} for row in rows] == kept
            with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
                await other.execute("DELETE FROM ledger")
        taken = await store.wallets.take(GUILD, 100, 50, reason="", by=ADMIN)
        assert taken.balance == 1150 and (await store.audit()).granted == 1150
        if not isinstance(database, str):
            # SQLite built the ledger again: new rows carry on after the copied ids.
            (row,) = await query(database, "SELECT id FROM ledger WHERE kind = 'admin_take'")
            assert row["id"] == 10
    finally:
        await store.close()
