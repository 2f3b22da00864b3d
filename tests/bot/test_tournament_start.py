"""A sit-and-go's start, whatever cuts it short, through the core on the
injected clock, on SQLite and PostgreSQL: the start is one transaction (all of it or nothing);
a crash between the last registration and the start, or during it, leaves the tournament
registering with every seat taken, and the restart starts it from its seed; a thread Discord
refuses delays the start (the player is told), which is tried again on the clock and at the next
registration, the threads made already used again; a store away just after the start's
transaction delays its tables, tried again on the clock."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from bot.core.storage import Store, Tournament
from bot.core.storage import tournaments as stored
from bot.core.views import LobbyView
from bot.edge.lobby import registered_text
from engine.tournament import seat_entrants
from tests.bot.fakes import GUILD
from tests.bot.tournament_run import BUY_IN, Seeded, TournamentRun, check_the_end
from tests.databases import POSTGRESQL_IN_SLOW_TIER
from tests.texts import TEXTS

PLAYERS = 9
SEATS = 4  # three tables: 3, 3, 3


async def seated_as_its_seed_says(run: TournamentRun) -> dict[int, int]:
    """The store's tables and seats are those the tournament's seed draws (11.5), each player
    once with a starting stack; returns table number -> its thread."""
    assert run.tournament is not None
    tid = run.tournament.tournament_id
    tournament = await run.store.tournaments.get(tid)
    entries = await run.store.tournaments.entries(tid)
    drawn = seat_entrants(
        [e.user_id for e in entries], tournament.seats, Random(f"{tournament.seed}:start")
    )
    tables = await run.store.tournaments.tables(tid)
    assert [t.number for t in tables] == sorted(drawn)
    for table in tables:
        seats = await run.store.seating.seats(table.channel_id)
        assert sorted((s.user_id, s.position) for s in seats) == sorted(
            stored.positions(drawn[table.number])
        )
        assert {s.stack for s in seats} == {tournament.starting_stack}
    return {t.number: t.channel_id for t in tables}


async def all_but_the_last_start(run: TournamentRun) -> int:
    """Every user but the last registered through the desk; the last one's registration
    committed by the store alone, as when the process died right after it. Its id."""
    tournament = await run.create(level_hands=3)
    tid = tournament.tournament_id
    for user in run.users[:-1]:
        await run.house.tournaments.register(GUILD, tid, user)
    await run.store.tournaments.register(tid, run.users[-1], guild_id=GUILD)
    return tid


@POSTGRESQL_IN_SLOW_TIER
async def test_a_crash_between_the_last_registration_and_the_start_starts_it_at_the_restart(
    store: Store, seeded: Seeded
) -> None:
    run = seeded(TournamentRun(store, seed=5, players=PLAYERS, seats=SEATS))
    tid = await all_but_the_last_start(run)
    assert (await store.tournaments.get(tid)).state == "registering"
    await store.audit()
    await run.crash_and_restart()
    assert (await store.tournaments.get(tid)).state == "running"
    threads = await seated_as_its_seed_says(run)
    assert run.director is not None
    assert {n: t.channel_id for n, t in run.director.tables.items()} == threads
    await run.play(crashes=0.01)
    await check_the_end(run, PLAYERS)


@POSTGRESQL_IN_SLOW_TIER
async def test_a_start_that_fails_in_its_transaction_leaves_nothing_and_the_restart_starts_it(
    store: Store, seeded: Seeded, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = seeded(TournamentRun(store, seed=6, players=PLAYERS, seats=SEATS))
    tournament = await run.create(level_hands=3)
    tid = tournament.tournament_id
    for user in run.users[:-1]:
        await run.house.tournaments.register(GUILD, tid, user)
    real_seat = stored.seat
    seated: list[int] = []

    async def dies_midway(db: Any, table: Any, user_id: int, *args: Any) -> None:
        # Half the players seated, then the process goes: the transaction never commits.
        if len(seated) == PLAYERS // 2:
            raise ConnectionError("killed mid-transaction")
        seated.append(user_id)
        await real_seat(db, table, user_id, *args)

    monkeypatch.setattr(stored, "seat", dies_midway)
    entered = await run.house.tournaments.register(GUILD, tid, run.users[-1])
    assert entered.start_delayed
    # Nothing of the start was kept: registering, no table, no seat, every chip in the pool.
    assert (await store.tournaments.get(tid)).state == "registering"
    assert await store.tournaments.tables(tid) == []
    assert await store.seating.tables() == []
    await store.audit()
    monkeypatch.setattr(stored, "seat", real_seat)
    await run.crash_and_restart()  # before the retry
    await seated_as_its_seed_says(run)
    await run.play()
    await check_the_end(run, PLAYERS)


class RefusingThreads:
    """The edge's thread maker, refusing the calls ``refused`` (counted from 1) as Discord
    may; the threads it made are ``made`` (table number, thread), from 7001."""

    def __init__(self, refused: set[int]) -> None:
        self.made: list[tuple[int, int]] = []
        self.refused = refused
        self._calls = 0

    async def __call__(self, tournament: Tournament, number: int) -> int:
        self._calls += 1
        if self._calls in self.refused:
            raise ConnectionError("Discord refused the thread")
        self.made.append((number, 7001 + len(self.made)))
        return self.made[-1][1]


@POSTGRESQL_IN_SLOW_TIER
async def test_a_thread_refused_delays_the_start_which_comes_on_the_clock(
    store: Store, seeded: Seeded
) -> None:
    run = seeded(TournamentRun(store, seed=7, players=PLAYERS, seats=SEATS))
    tournament = await run.create(level_hands=3)
    tid = tournament.tournament_id
    shown: list[LobbyView] = []

    async def show(view: LobbyView) -> int:
        shown.append(view)
        return 900

    run.lobby.on_show = show
    # Table 1's thread is made, table 2's refused: the start waits.
    threads = RefusingThreads({2})
    run.lobby.on_make_thread = threads
    for user in run.users[:-1]:
        assert not (await run.house.tournaments.register(GUILD, tid, user)).start_delayed
    entered = await run.house.tournaments.register(GUILD, tid, run.users[-1])
    assert entered.start_delayed
    assert (await store.tournaments.get(tid)).state == "registering"
    await store.audit()
    # The registering player is told he is in and the start is delayed, in his language.
    english = registered_text(TEXTS, "en", entered)
    assert f"registered for tournament #{tid}" in english and "delayed" in english
    russian = registered_text(TEXTS, "ru", entered)
    assert f"турнир №{tid}" in russian and "откладывается" in russian
    await run.clock.advance(1.0, run.house)  # the first retry
    assert (await store.tournaments.get(tid)).state == "running"
    assert tid in run.house.tournaments.directors
    # Table 1's thread, made before the refusal, is the one it plays in: none left empty.
    assert threads.made == [(1, 7001), (2, 7002), (3, 7003)]
    assert await seated_as_its_seed_says(run) == {1: 7001, 2: 7002, 3: 7003}
    assert shown[-1].state == "running" and len(shown[-1].tables) == 3
    run.director = run.house.tournaments.directors[tid]
    run.records.append(run.director.record)
    await run.play()
    await check_the_end(run, PLAYERS)


async def test_a_delayed_start_comes_with_the_next_registration_or_waits_for_a_full_field(
    store: Store, seeded: Seeded
) -> None:
    run = seeded(TournamentRun(store, seed=9, players=PLAYERS + 1, seats=SEATS))
    *first, last, late = run.users
    # A field of nine, which a tenth user joins while its start is delayed.
    run.tournament = await run.house.tournaments.create(
        GUILD,
        77,
        run.users[0],
        game="stud",
        buy_in=BUY_IN,
        seats=SEATS,
        level_unit="hands",
        level_length=3,
        start_entrants=PLAYERS,
    )
    tid = run.tournament.tournament_id
    threads = RefusingThreads({1})
    run.lobby.on_make_thread = threads
    for user in first:
        await run.house.tournaments.register(GUILD, tid, user)
    assert (await run.house.tournaments.register(GUILD, tid, last)).start_delayed
    # He leaves before the retry: the field isn't full, and the retry starts nothing.
    await run.house.tournaments.unregister(GUILD, tid, last)
    await run.clock.advance(60.0, run.house)
    assert (await store.tournaments.get(tid)).state == "registering" and threads.made == []
    # The next registration fills it: started at once, without waiting for the clock.
    assert not (await run.house.tournaments.register(GUILD, tid, late)).start_delayed
    assert (await store.tournaments.get(tid)).state == "running"
    entries = await store.tournaments.entries(tid)
    assert sorted(e.user_id for e in entries) == sorted([*first, late])
    await store.audit()
    await seated_as_its_seed_says(run)
    await run.house.tasks.stop()


@POSTGRESQL_IN_SLOW_TIER
async def test_tables_the_store_cannot_read_just_after_the_start_open_on_the_clock(
    store: Store, seeded: Seeded, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = seeded(TournamentRun(store, seed=10, players=PLAYERS, seats=SEATS))
    tid = (await run.create(level_hands=3)).tournament_id
    for user in run.users[:-1]:
        await run.house.tournaments.register(GUILD, tid, user)
    real = store.seating.seats
    failures: list[int] = []

    async def away(channel_id: int) -> Any:
        if len(failures) < 2:
            failures.append(channel_id)
            raise ConnectionError("the database is away")
        return await real(channel_id)

    monkeypatch.setattr(store.seating, "seats", away)
    answers: list[bool] = []

    async def last_registers() -> None:
        entered = await run.house.tournaments.register(GUILD, tid, run.users[-1])
        answers.append(entered.start_delayed)

    # Started in the store, its tables wait for the store: the registration with them.
    run.house.tasks.spawn(last_registers())
    await run.clock.advance(0, run.house)
    assert (await store.tournaments.get(tid)).state == "running" and answers == []
    await run.clock.advance(6.0, run.house)  # the pauses between tries
    assert len(failures) == 2 and answers == [False]
    run.director = run.house.tournaments.directors[tid]
    run.records.append(run.director.record)
    assert len(run.director.tables) == 3
    await run.play()
    await check_the_end(run, PLAYERS)
