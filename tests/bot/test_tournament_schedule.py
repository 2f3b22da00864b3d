"""Tournaments at a set time, through the core on the injected clock, on
SQLite and PostgreSQL: the Discord event made and kept in step, the reminder shortly before the
start (once, across restarts), the start on time, or the call-off with every buy-in back when
too few registered; a start missed while the bot was down comes at once after the restart."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest

from bot.core.errors import TableError
from bot.core.house import House
from bot.core.storage import Store, Tournament, TournamentEntry
from bot.core.tournament.desk import REMINDER_SECONDS
from bot.core.views import LobbyView
from tests.bot.fakes import GUILD, Lobby, ManualClock, Screen, new_house

LOBBY = 77
BUY_IN = 100
ANN, BOB, CAT = 1001, 1002, 1003
START_IN = 1800.0  # seconds


@dataclass
class Edge:
    """What the Discord edge would do for the desk, recorded."""

    lines: list[tuple[int, str, tuple[int, ...]]] = field(default_factory=list)
    events: list[tuple[int, str]] = field(default_factory=list)  # (event, status or "made")
    threads: itertools.count[int] = field(default_factory=lambda: itertools.count(5001))
    events_allowed: bool = True
    screen: Screen = field(default_factory=Screen)
    lobby: Lobby = field(default_factory=Lobby)

    def house(self, store: Store, clock: ManualClock) -> House:
        """A new process's core, shown on a screen of its own, its tournaments on this edge."""
        self.screen = Screen()
        self.lobby = Lobby(
            on_make_thread=self.make_thread,
            on_make_event=self.make_event,
            on_set_event=self.set_event,
            on_say=self.say,
        )
        return new_house(store, clock, self.screen, self.lobby)

    async def say(self, channel_id: int, text: str, mentions: Sequence[int]) -> None:
        self.lines.append((channel_id, text, tuple(mentions)))

    async def make_event(self, tournament: Tournament) -> int:
        self.events.append((4200 + tournament.tournament_id, "made"))
        return 4200 + tournament.tournament_id

    async def set_event(self, tournament: Tournament, status: str) -> None:
        assert tournament.event_id is not None
        self.events.append((tournament.event_id, status))

    async def make_thread(self, tournament: Tournament, number: int) -> int:
        return next(self.threads)


async def timed(house: House, clock: ManualClock, *, event: bool = True) -> Tournament:
    return await house.tournaments.create(
        GUILD,
        LOBBY,
        ANN,
        game="stud",
        buy_in=BUY_IN,
        seats=4,
        level_unit="hands",
        level_length=5,
        start_at=datetime.fromtimestamp(clock.now() + START_IN, UTC),
        event=event,
    )


async def restart(house: House, store: Store, clock: ManualClock, edge: Edge) -> House:
    """The process dies where it is; a new one restores what the store holds."""
    edge.screen.working = False
    await house.tasks.stop()
    fresh = edge.house(store, clock)
    await fresh.recovery.restore()
    return fresh


async def test_reminded_before_and_started_at_the_time_with_its_event_in_step(
    store: Store,
) -> None:
    clock, edge = ManualClock(), Edge()
    house = edge.house(store, clock)
    shown: list[LobbyView] = []

    async def show(view: LobbyView) -> int:
        shown.append(view)
        return 900

    edge.lobby.on_show = show
    tournament = await timed(house, clock)
    tid = tournament.tournament_id
    assert tournament.event_id == 4200 + tid and edge.events == [(4200 + tid, "made")]
    assert (await store.tournaments.get(tid)).event_id == 4200 + tid
    lobby = await house.tournaments.lobby(tid)
    assert lobby.start_at == int(clock.now() + START_IN)
    for user in (ANN, BOB):
        await house.tournaments.register(GUILD, tid, user)
    await clock.advance(START_IN - REMINDER_SECONDS - 1, house)
    assert edge.lines == []
    await clock.advance(1, house)
    [(channel, text, mentions)] = edge.lines
    stamp = int(tournament.start_at.timestamp()) if tournament.start_at else 0
    assert channel == LOBBY and mentions == (ANN, BOB)
    assert text == f"Tournament #{tid} starts <t:{stamp}:R>: <@{ANN}> <@{BOB}>"
    assert (await store.tournaments.get(tid)).reminded
    # Registration stays open until the start, and a late comer is in it.
    await house.tournaments.register(GUILD, tid, CAT)
    await clock.advance(REMINDER_SECONDS - 1, house)
    assert (await store.tournaments.get(tid)).state == "registering"
    await clock.advance(1, house)
    assert (await store.tournaments.get(tid)).state == "running"
    director = house.tournaments.directors[tid]
    assert director.left == {ANN, BOB, CAT}
    assert shown[-1].state == "running", "the lobby shows it under way"
    assert edge.events[-1] == (4200 + tid, "active") and len(edge.lines) == 1
    await house.tasks.stop()


async def test_too_few_at_the_time_calls_it_off_with_the_buy_ins_back(store: Store) -> None:
    clock, edge = ManualClock(), Edge()
    house = edge.house(store, clock)
    tid = (await timed(house, clock)).tournament_id
    await house.tournaments.register(GUILD, tid, BOB)
    assert (await store.wallets.get(GUILD, BOB)).balance == 1000 - BUY_IN
    await clock.advance(START_IN, house)
    done = await store.tournaments.get(tid)
    assert (done.state, done.prize_pool) == ("cancelled", 0)
    assert (await store.wallets.get(GUILD, BOB)).balance == 1000
    assert edge.lines[-1][1].startswith(f"Tournament #{tid} is called off: fewer than two")
    assert edge.events[-1] == (4200 + tid, "cancelled")
    assert tid not in house.tournaments.directors
    await store.audit()


async def test_the_organisers_cancel_cancels_the_event_and_the_start_never_comes(
    store: Store,
) -> None:
    clock, edge = ManualClock(), Edge()
    house = edge.house(store, clock)
    tid = (await timed(house, clock)).tournament_id
    for user in (ANN, BOB):
        await house.tournaments.register(GUILD, tid, user)
    await house.tournaments.cancel(GUILD, tid, ANN, can_manage=False)
    assert edge.events[-1] == (4200 + tid, "cancelled")
    await clock.advance(START_IN + 1, house)
    assert edge.lines == [] and (await store.tournaments.get(tid)).state == "cancelled"


async def test_without_the_right_to_make_events_it_is_made_without_one(store: Store) -> None:
    clock, edge = ManualClock(), Edge()
    house = edge.house(store, clock)
    tid = (await timed(house, clock, event=False)).tournament_id
    assert (await store.tournaments.get(tid)).event_id is None and edge.events == []
    for user in (ANN, BOB):
        await house.tournaments.register(GUILD, tid, user)
    await clock.advance(START_IN, house)
    assert (await store.tournaments.get(tid)).state == "running" and edge.events == []
    await house.tasks.stop()


@pytest.mark.parametrize("ahead", [0.0, 29.0, 30 * 24 * 3600.0])
async def test_a_start_not_ahead_or_too_far_is_refused(store: Store, ahead: float) -> None:
    clock = ManualClock()
    house = Edge().house(store, clock)
    with pytest.raises(TableError, match="tournament_bad_time"):
        await house.tournaments.create(
            GUILD,
            LOBBY,
            ANN,
            game="stud",
            buy_in=0,
            seats=4,
            level_unit="hands",
            level_length=5,
            start_at=datetime.fromtimestamp(clock.now() + ahead, UTC),
        )
    assert await store.tournaments.active() == []


async def test_a_restart_before_the_reminder_still_reminds_once_and_starts(store: Store) -> None:
    clock, edge = ManualClock(), Edge()
    house = edge.house(store, clock)
    tid = (await timed(house, clock)).tournament_id
    for user in (ANN, BOB):
        await house.tournaments.register(GUILD, tid, user)
    await clock.advance(60, house)
    house = await restart(house, store, clock, edge)
    await clock.advance(START_IN - REMINDER_SECONDS - 60, house)
    assert len(edge.lines) == 1
    # A second restart after the reminder sends none again.
    house = await restart(house, store, clock, edge)
    await clock.advance(REMINDER_SECONDS, house)
    assert len(edge.lines) == 1
    assert (await store.tournaments.get(tid)).state == "running"
    assert edge.events[-1] == (4200 + tid, "active")
    await house.tasks.stop()


async def test_a_start_missed_while_down_comes_at_once_after_the_restart(store: Store) -> None:
    clock, edge = ManualClock(), Edge()
    house = edge.house(store, clock)
    tid = (await timed(house, clock)).tournament_id
    for user in (ANN, BOB):
        await house.tournaments.register(GUILD, tid, user)
    edge.screen.working = False
    await house.tasks.stop()  # down before the reminder, and until after the start
    await clock.advance(START_IN + 600, house)
    house = await restart(house, store, clock, edge)
    await clock.advance(0, house)
    assert (await store.tournaments.get(tid)).state == "running"
    assert edge.lines == [], "no reminder of a start already past"
    await house.tasks.stop()


async def test_a_store_away_at_the_start_delays_it_and_never_drops_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock, edge = ManualClock(), Edge()
    house = edge.house(store, clock)
    tid = (await timed(house, clock)).tournament_id
    for user in (ANN, BOB):
        await house.tournaments.register(GUILD, tid, user)
    real = store.tournaments.entries
    failures: list[int] = []

    async def away(tournament_id: int) -> list[TournamentEntry]:
        if len(failures) < 2:
            failures.append(tournament_id)
            raise ConnectionError("the database is away")
        return await real(tournament_id)

    await clock.advance(START_IN - REMINDER_SECONDS + 1, house)  # reminded already
    monkeypatch.setattr(store.tournaments, "entries", away)
    await clock.advance(REMINDER_SECONDS, house)
    assert (await store.tournaments.get(tid)).state == "registering" and failures
    await clock.advance(10, house)  # the pauses between tries
    assert len(failures) == 2
    assert (await store.tournaments.get(tid)).state == "running"
    await house.tasks.stop()
