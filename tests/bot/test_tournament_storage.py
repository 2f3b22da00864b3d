"""Tournaments in the store (RULES 11.1, 11.4, 11.5, 11.7, 11.9), on
SQLite and PostgreSQL: buy-ins into the prize pool and back, the start at tables of tournament
chips, players moving and going out between hands, the payout once. Every call is audited
(``Audited``): the wallets' audit with the pools counted, and each running tournament's chips."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import pytest

from bot.core.storage import (
    AlreadyRegistered,
    AuditFailed,
    InvalidTableConfig,
    NotEnoughChips,
    NoTournament,
    NotRegistered,
    RegistrationClosed,
    Store,
    Tournament,
    TournamentStarted,
)
from tests.bot.fakes import Audited
from tests.databases import Location, raw, snapshot

GUILD, LOBBY = 1, 10
THREADS = (501, 502, 503)
ALICE, BOB, CAROL, DAN, EVE = 100, 101, 102, 103, 104
STACK = 2000
SETTINGS = {"stakes": [3, 5, 20, 40], "turn_seconds": 60, "countdown_seconds": 0, "lang": "en"}


@pytest.fixture
async def store(database: Location) -> AsyncIterator[Store]:
    opened = await Store.open(database, starting_balance=1000)
    yield cast(Store, Audited(opened))
    await opened.audit()
    await opened.close()


async def new_tournament(store: Store, buy_in: int = 100, **options: Any) -> Tournament:
    settings: dict[str, Any] = {
        "game": "stud",
        "structure": "standard",
        "level_unit": "seconds",
        "level_length": 600,
        "starting_stack": STACK,
        "buy_in": buy_in,
        "seats": 2,
        "seed": 12345,
        "start_entrants": 4,
    }
    return await store.tournaments.create(GUILD, LOBBY, ALICE, **(settings | options))


async def balance(store: Store, user_id: int) -> int:
    return (await store.wallets.get(GUILD, user_id)).balance


async def test_registering_moves_the_buy_in_into_the_pool_and_unregistering_back(
    store: Store,
) -> None:
    tournament = await new_tournament(store)
    for user in (ALICE, BOB):
        tournament = await store.tournaments.register(
            tournament.tournament_id, user, guild_id=GUILD
        )
    assert tournament.prize_pool == 200
    assert await balance(store, ALICE) == 900
    assert (await store.audit()).prize_pools == 200
    with pytest.raises(AlreadyRegistered):
        await store.tournaments.register(tournament.tournament_id, ALICE, guild_id=GUILD)
    assert await store.tournaments.unregister(tournament.tournament_id, BOB, guild_id=GUILD) == 100
    assert await balance(store, BOB) == 1000
    with pytest.raises(NotRegistered):
        await store.tournaments.unregister(tournament.tournament_id, BOB, guild_id=GUILD)
    assert [e.user_id for e in await store.tournaments.entries(tournament.tournament_id)] == [ALICE]
    # Another server's tournament is not found from here.
    with pytest.raises(NoTournament):
        await store.tournaments.register(tournament.tournament_id, CAROL, guild_id=GUILD + 1)


async def test_a_full_sit_and_go_takes_nobody_more_until_its_start(
    store: Store, database: Location
) -> None:
    """Its field is full once as many as it starts with are in, even while its start is still
    to come (a crash or a refused thread delayed it): one more is refused, paying nothing."""
    tournament = await new_tournament(store, start_entrants=2)
    for user in (ALICE, BOB):
        await store.tournaments.register(tournament.tournament_id, user, guild_id=GUILD)
    before = await snapshot(database)
    with pytest.raises(RegistrationClosed):
        await store.tournaments.register(tournament.tournament_id, CAROL, guild_id=GUILD)
    assert await snapshot(database) == before
    # One leaves before the start: the seat is free again.
    await store.tournaments.unregister(tournament.tournament_id, BOB, guild_id=GUILD)
    await store.tournaments.register(tournament.tournament_id, CAROL, guild_id=GUILD)


async def test_a_buy_in_he_cant_pay_changes_nothing(store: Store, database: Location) -> None:
    tournament = await new_tournament(store, buy_in=1500)
    await store.wallets.get(GUILD, BOB)
    before = await snapshot(database)
    with pytest.raises(NotEnoughChips):
        await store.tournaments.register(tournament.tournament_id, BOB, guild_id=GUILD)
    assert await snapshot(database) == before


async def test_a_freeroll_takes_no_chips(store: Store) -> None:
    tournament = await new_tournament(store, buy_in=0)
    await store.tournaments.register(tournament.tournament_id, BOB, guild_id=GUILD)
    assert await balance(store, BOB) == 1000
    assert (await store.tournaments.get(tournament.tournament_id)).prize_pool == 0


async def test_cancelling_gives_every_buy_in_back_in_one_go(store: Store) -> None:
    tournament = await new_tournament(store)
    for user in (ALICE, BOB, CAROL):
        await store.tournaments.register(tournament.tournament_id, user, guild_id=GUILD)
    refunds = await store.tournaments.cancel(tournament.tournament_id, guild_id=GUILD)
    assert refunds == {ALICE: 100, BOB: 100, CAROL: 100}
    assert [await balance(store, user) for user in (ALICE, BOB, CAROL)] == [1000] * 3
    cancelled = await store.tournaments.get(tournament.tournament_id)
    assert (cancelled.state, cancelled.prize_pool) == ("cancelled", 0)
    with pytest.raises(RegistrationClosed):
        await store.tournaments.register(tournament.tournament_id, DAN, guild_id=GUILD)
    with pytest.raises(TournamentStarted):
        await store.tournaments.cancel(tournament.tournament_id, guild_id=GUILD)
    assert await store.tournaments.active() == []


async def test_bad_settings_are_refused(store: Store) -> None:
    for bad in (
        {"seats": 9},
        {"starting_stack": 0},
        {"buy_in": -1},
        {"level_length": 0},
        {"start_entrants": None},
        {"start_entrants": 1},
        {"reentry": True},
        {"seed": -1},
    ):
        with pytest.raises(InvalidTableConfig):
            await new_tournament(store, **bad)


async def started(store: Store) -> Tournament:
    """Four players at two tables of two, 100 each in the pool."""
    tournament = await new_tournament(store, late_level=2, reentry=True)
    for user in (ALICE, BOB, CAROL, DAN):
        await store.tournaments.register(tournament.tournament_id, user, guild_id=GUILD)
    await store.tournaments.start(
        tournament.tournament_id,
        {1: (THREADS[0], [ALICE, BOB]), 2: (THREADS[1], [DAN, CAROL])},
        SETTINGS,
    )
    return await store.tournaments.get(tournament.tournament_id)


async def test_the_start_seats_everyone_with_tournament_chips(store: Store) -> None:
    tournament = await new_tournament(store)
    for user in (ALICE, BOB, CAROL):
        await store.tournaments.register(tournament.tournament_id, user, guild_id=GUILD)
    await store.tournaments.start(
        tournament.tournament_id,
        {1: (THREADS[0], [ALICE, BOB]), 2: (THREADS[1], [None, CAROL])},
        SETTINGS,
    )
    running = await store.tournaments.get(tournament.tournament_id)
    assert running.state == "running" and running.started_at is not None
    assert [
        (t.number, t.channel_id) for t in await store.tournaments.tables(running.tournament_id)
    ] == [
        (1, THREADS[0]),
        (2, THREADS[1]),
    ]
    seats = await store.seating.seats(THREADS[1])
    assert [(s.user_id, s.position, s.stack) for s in seats] == [(CAROL, 1, STACK)]
    # Tournament chips are not wallet chips (11.1): the wallets count none of them.
    assert (await store.wallets.get(GUILD, ALICE)).seated == 0
    totals = await store.audit()
    assert (totals.seats, totals.live_hands, totals.prize_pools) == (0, 0, 300)
    with pytest.raises(RegistrationClosed):
        await store.tournaments.start(tournament.tournament_id, {}, SETTINGS)
    with pytest.raises(TournamentStarted):
        await store.tournaments.cancel(tournament.tournament_id, guild_id=GUILD)
    with pytest.raises(TournamentStarted):
        await store.tournaments.unregister(tournament.tournament_id, BOB, guild_id=GUILD)


async def play_a_hand(store: Store, channel: int, finals: dict[int, int]) -> None:
    seats = await store.seating.seats(channel)
    players = [(s.user_id, s.stack) for s in seats]
    hand_id = await store.hands.start(channel, players, b"x", commitment="ab" * 32, salt="s")
    await store.hands.settle(hand_id, b"y", [finals[user] for user, _ in players])


async def test_a_whole_tournament_moves_knocks_out_and_pays_once(
    store: Store, database: Location
) -> None:
    tournament = await new_tournament(store, seats=3, late_level=1, reentry=True)
    tid = tournament.tournament_id
    for user in (ALICE, BOB, CAROL, DAN):
        await store.tournaments.register(tid, user, guild_id=GUILD)
    await store.tournaments.start(
        tid, {1: (THREADS[0], [ALICE, BOB, None]), 2: (THREADS[1], [CAROL, None, DAN])}, SETTINGS
    )
    # Bob loses everything to Alice; Carol moves to table 1 in the same hand's wake.
    await play_a_hand(store, THREADS[0], {ALICE: 2 * STACK, BOB: 0})
    assert (await store.wallets.get(GUILD, ALICE)).seated == 0
    await store.tournaments.after_hand(tid, out={BOB: 4}, moves=[])
    # Bob re-enters (11.9): another buy-in, a new stack, seated where the director says.
    assert await store.tournaments.enter_late(tid, BOB, THREADS[1], 2) == 2
    assert await balance(store, BOB) == 800
    await play_a_hand(store, THREADS[1], {CAROL: 3 * STACK, DAN: 0, BOB: 0})
    await store.tournaments.after_hand(
        tid, out={DAN: 3, BOB: 3}, moves=[(CAROL, THREADS[1], THREADS[0], 2)], closing=[THREADS[1]]
    )
    assert [t.channel_id for t in await store.tournaments.tables(tid)] == [THREADS[0]]
    assert {s.user_id: s.stack for s in await store.seating.seats(THREADS[0])} == {
        ALICE: 2 * STACK,
        CAROL: 3 * STACK,
    }
    # A prize table that doesn't add up to the pool pays nothing.
    with pytest.raises(AuditFailed):
        await store.tournaments.finish(tid, places={ALICE: 1, CAROL: 2}, prizes={ALICE: 1})
    await play_a_hand(store, THREADS[0], {ALICE: 0, CAROL: 5 * STACK})
    await store.tournaments.finish(
        tid, places={CAROL: 1, ALICE: 2}, prizes={CAROL: 325, ALICE: 175}
    )
    assert [await balance(store, user) for user in (ALICE, BOB, CAROL, DAN)] == [
        1075,
        800,
        1225,
        900,
    ]
    entries = {e.user_id: e for e in await store.tournaments.entries(tid)}
    assert {user: (e.place, e.prize, e.entries) for user, e in entries.items()} == {
        ALICE: (2, 175, 1),
        BOB: (3, 0, 2),
        CAROL: (1, 325, 1),
        DAN: (3, 0, 1),
    }
    done = await store.tournaments.get(tid)
    assert (done.state, done.prize_pool) == ("finished", 0)
    assert await store.tournaments.tables(tid) == []
    before = await snapshot(database)
    with pytest.raises(AuditFailed):
        await store.tournaments.finish(tid, places={}, prizes={CAROL: 500})
    assert await snapshot(database) == before


async def test_players_move_only_between_hands_and_out_only_without_chips(
    store: Store, database: Location
) -> None:
    tournament = await new_tournament(store, seats=3)
    tid = tournament.tournament_id
    for user in (ALICE, BOB, CAROL, DAN):
        await store.tournaments.register(tid, user, guild_id=GUILD)
    await store.tournaments.start(
        tid, {1: (THREADS[0], [ALICE, BOB, None]), 2: (THREADS[1], [CAROL, None, DAN])}, SETTINGS
    )
    await store.hands.start(
        THREADS[1], [(CAROL, STACK), (DAN, STACK)], b"x", commitment="ab" * 32, salt="s"
    )
    before = await snapshot(database)
    with pytest.raises(AuditFailed):
        await store.tournaments.after_hand(tid, out={}, moves=[(CAROL, THREADS[1], THREADS[0], 3)])
    with pytest.raises(AuditFailed):
        await store.tournaments.after_hand(tid, out={ALICE: 4}, moves=[])
    with pytest.raises(RegistrationClosed):  # no late registration in this one
        await store.tournaments.enter_late(tid, EVE, THREADS[0], 3)
    assert await snapshot(database) == before


async def test_the_audit_finds_a_tournament_chip_made_or_lost(
    store: Store, database: Location
) -> None:
    await started(store)
    async with raw(database) as connection:
        await connection.execute(f"UPDATE seats SET stack = stack + 1 WHERE user_id = {CAROL}")
    with pytest.raises(AuditFailed, match="running tournament's chips"):
        await cast(Audited, store).store.audit()
    async with raw(database) as connection:
        await connection.execute(f"UPDATE seats SET stack = stack - 1 WHERE user_id = {CAROL}")
        await connection.execute("UPDATE tournaments SET prize_pool = prize_pool + 5")
    with pytest.raises(AuditFailed):
        await cast(Audited, store).store.audit()
    async with raw(database) as connection:
        await connection.execute("UPDATE tournaments SET prize_pool = prize_pool - 5")


async def test_the_level_clock_and_hands_dealt_are_kept(store: Store) -> None:
    tournament = await started(store)
    await store.tournaments.set_elapsed(tournament.tournament_id, 754)
    await store.tournaments.set_message(tournament.tournament_id, 999)
    again = await store.tournaments.get(tournament.tournament_id)
    assert (again.elapsed, again.message_id) == (754, 999)
    assert await store.tournaments.hands_dealt(THREADS[0]) == 0
    await play_a_hand(store, THREADS[0], {ALICE: STACK + 40, BOB: STACK - 40})
    assert await store.tournaments.hands_dealt(THREADS[0]) == 1
    assert [t.tournament_id for t in await store.tournaments.active()] == [tournament.tournament_id]


async def finished(
    store: Store, players: list[int], prizes: dict[int, int], **options: Any
) -> None:
    """A tournament of ``players`` (in their finishing order) played out at one table and paid
    ``prizes``."""
    tournament = await new_tournament(store, seats=len(players), **options)
    tid = tournament.tournament_id
    for user in players:
        await store.tournaments.register(tid, user, guild_id=GUILD)
    await store.tournaments.start(tid, {1: (THREADS[0], list(players))}, SETTINGS)
    places = {user: place for place, user in enumerate(players, 1)}
    await store.tournaments.finish(tid, places=places, prizes=prizes)


async def test_stats_and_the_tournament_leaderboard_count_finished_tournaments_of_the_season(
    store: Store,
) -> None:
    # Bob re-enters the first: two buy-ins, one tournament played.
    tournament = await new_tournament(store, seats=3, late_level=1, reentry=True)
    tid = tournament.tournament_id
    for user in (ALICE, BOB, CAROL):
        await store.tournaments.register(tid, user, guild_id=GUILD)
    await store.tournaments.start(tid, {1: (THREADS[0], [ALICE, BOB, CAROL])}, SETTINGS)
    await play_a_hand(store, THREADS[0], {ALICE: 2 * STACK, BOB: 0, CAROL: STACK})
    await store.tournaments.after_hand(tid, out={BOB: 3}, moves=[])
    await store.tournaments.enter_late(tid, BOB, THREADS[0], 2)
    await store.tournaments.finish(
        tid, places={ALICE: 1, CAROL: 2, BOB: 3}, prizes={ALICE: 300, CAROL: 100}
    )
    # A freeroll of razz that Bob wins; one cancelled and one running, which count nowhere.
    await finished(store, [BOB, ALICE], {BOB: 0}, buy_in=0, game="razz")
    cancelled = await new_tournament(store)
    await store.tournaments.register(cancelled.tournament_id, DAN, guild_id=GUILD)
    await store.tournaments.cancel(cancelled.tournament_id, guild_id=GUILD)
    running = await new_tournament(store, seats=2)
    for user in (DAN, EVE):
        await store.tournaments.register(running.tournament_id, user, guild_id=GUILD)
    await store.tournaments.start(running.tournament_id, {1: (THREADS[1], [DAN, EVE])}, SETTINGS)

    results = {
        user: (await store.reports.player_stats(GUILD, user)).tournaments
        for user in (ALICE, BOB, CAROL, DAN)
    }
    assert {user: (r.played, r.cashes, r.wins, r.net) for user, r in results.items()} == {
        ALICE: (2, 1, 1, 200),
        BOB: (2, 0, 1, -200),
        CAROL: (1, 1, 0, 0),
        DAN: (0, 0, 0, 0),
    }
    razz = await store.reports.player_stats(GUILD, BOB, game="razz", period="day")
    assert (razz.tournaments.played, razz.tournaments.wins, razz.tournaments.net) == (1, 1, 0)

    board = await store.reports.tournament_board(GUILD, period="week", user_id=BOB)
    assert board.tournaments and board.period == "week"
    assert [(r.rank, r.user_id, r.chips, r.hands, r.wins) for r in board.top] == [
        (1, ALICE, 200, 2, 1),
        (2, CAROL, 0, 1, 0),
        (3, BOB, -200, 2, 1),
    ]
    assert board.caller is not None and (board.caller.rank, board.caller.chips) == (3, -200)
    razz_board = await store.reports.tournament_board(GUILD, game="razz", user_id=DAN, limit=1)
    assert [(r.rank, r.chips) for r in razz_board.top] == [(1, 0)] and razz_board.caller is None
    # Ties share a rank in the razz freeroll, where both netted nothing.
    tied = await store.reports.tournament_board(GUILD, game="razz", user_id=ALICE)
    assert [r.rank for r in tied.top] == [1, 1] and tied.caller is not None
    assert tied.caller.rank == 1
    # Next month's board has none of them yet, and a new season starts from nothing.
    later = datetime.now(UTC) + timedelta(days=32)
    assert (await store.reports.tournament_board(GUILD, period="month", now=later)).top == ()
    await store.wallets.reset_season(GUILD, by=ALICE)
    assert (await store.reports.tournament_board(GUILD, user_id=ALICE)).top == ()
    assert (await store.reports.player_stats(GUILD, ALICE)).tournaments.played == 0
    with pytest.raises(ValueError):
        await store.reports.tournament_board(GUILD, period="year")
