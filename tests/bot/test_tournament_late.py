"""Late registration and re-entry (RULES 11.9, 11.1, 11.7), through the core on the injected
clock, on SQLite and PostgreSQL: while late registration is open a newcomer is seated with a
full starting stack as a moved player is, and a player who went out buys in again; the pool
holds every buy-in, the tournament's chips a starting stack per entry (the audit), the places
are each player's last and the prizes count entries."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from bot.core.errors import TableError
from bot.core.storage import AlreadyRegistered, RegistrationClosed, Store
from bot.core.views import LobbyView
from engine.tournament import Finish, award, places_after_reentry, prize_table
from tests.bot.fakes import GUILD
from tests.bot.tournament_run import BUY_IN, TournamentRun, places_are_each_taken_once
from tests.databases import POSTGRESQL_IN_SLOW_TIER

STACK = 100  # two and a half big bets at level 1: players go out soon
LATE = 1001 + 4  # the fifth player, who comes late


async def test_a_late_entry_and_a_re_entry_play_to_the_end_and_count_in_the_prizes(
    store: Store, seeded: Callable[[TournamentRun], TournamentRun]
) -> None:
    run = seeded(TournamentRun(store, seed=11, players=4, seats=3))
    shown: list[LobbyView] = []

    async def show(view: LobbyView) -> int:
        shown.append(view)
        return 900

    run.lobby.on_show = show
    director = await run.register_all(
        level_hands=4, late_level=2, reentry=True, starting_stack=STACK
    )
    assert run.tournament is not None
    tid = run.tournament.tournament_id
    assert sorted(len(t.seats) for t in run.tables()) == [2, 2]
    late = await run.house.tournaments.lobby(tid)
    assert (late.late_until, late.reentry) == (2, True)

    # A newcomer: a buy-in into the pool, a starting stack at the smaller table (the lowest
    # numbered of equals), in a seat drawn from a logged seed.
    await run.house.tournaments.register(GUILD, tid, LATE)
    table_one = director.tables[1]
    assert table_one.seats[LATE].stack == STACK and len(table_one.seats) == 3
    assert any(
        draw.startswith(f"{run.tournament.seed}:enter:{LATE}:") for draw in director.record.draws
    )
    assert (await store.wallets.get(GUILD, LATE)).balance == 1000 - BUY_IN
    assert (await store.tournaments.get(tid)).prize_pool == 5 * BUY_IN
    assert director.entrants == 5 and LATE in director.left
    await store.audit()
    await run.clock.advance(0, run.house)  # the line reaches the screen
    assert any(line.startswith(f"<@{LATE}> joins the tournament") for line in run.screen.lines)
    with pytest.raises(AlreadyRegistered):
        await run.house.tournaments.register(GUILD, tid, LATE)

    # The first player out buys in again: his place is gone until he goes out again.
    await run.play(until=lambda d: bool(d.record.finishes))
    assert director.next_level()[0] <= 2, "late registration still open for this seed"
    [first] = director.record.finishes
    (out,) = first.players
    await run.house.tournaments.register(GUILD, tid, out)
    assert out in director.left and director.record.finishes == []
    entries = {e.user_id: e for e in await store.tournaments.entries(tid)}
    assert (entries[out].entries, entries[out].place) == (2, None)
    assert (await store.wallets.get(GUILD, out)).balance == 1000 - 2 * BUY_IN
    await store.audit()  # the tournament's chips: a starting stack for each of 6 entries

    # Once the level it names is over, late registration closes.
    await run.play(until=lambda d: d.next_level()[0] > 2)
    assert not director.finished, "it runs past level 2 for this seed"
    with pytest.raises(TableError, match="tournament_late_closed"):
        await run.house.tournaments.register(GUILD, tid, 9999)
    assert (await run.house.tournaments.lobby(tid)).late_until is None
    await run.play()

    done = await store.tournaments.get(tid)
    assert (done.state, done.prize_pool) == ("finished", 0)
    entries = {e.user_id: e for e in await store.tournaments.entries(tid)}
    places = {user: e.place for user, e in entries.items()}
    assert None not in places.values() and len(places) == 5
    places_are_each_taken_once({user: place for user, place in places.items() if place})
    # 11.7's table for six entries (re-entries count), the pool of six buy-ins.
    paid = {user: e.prize for user, e in entries.items() if e.prize}
    assert paid == award(
        [(f.place, f.players) for f in director.record.finishes], prize_table(6 * BUY_IN, 6)
    )
    for user, entry in entries.items():
        wallet = (await store.wallets.get(GUILD, user)).balance
        assert wallet == 1000 - entry.entries * BUY_IN + paid.get(user, 0)
    await store.audit()


async def test_without_re_entry_or_late_registration_a_running_tournament_takes_no_one(
    store: Store, seeded: Callable[[TournamentRun], TournamentRun]
) -> None:
    run = seeded(TournamentRun(store, seed=4, players=3, seats=3))
    director = await run.register_all(level_hands=20, late_level=1, starting_stack=STACK)
    assert run.tournament is not None
    await run.play(until=lambda d: bool(d.record.finishes))
    assert not director.finished and director.next_level()[0] <= 1, "still open for this seed"
    (out,) = director.record.finishes[0].players
    with pytest.raises(RegistrationClosed):
        await run.house.tournaments.register(GUILD, run.tournament.tournament_id, out)
    other = TournamentRun(store, seed=5, players=3, seats=3)
    other.users = [2001, 2002, 2003]
    other.threads = itertools.count(6001)
    await other.register_all(level_hands=4)
    assert other.tournament is not None
    with pytest.raises(RegistrationClosed):
        await other.house.tournaments.register(GUILD, other.tournament.tournament_id, 2004)
    await store.audit()
    await run.house.tasks.stop()
    await other.house.tasks.stop()


def test_a_re_entry_moves_those_out_after_him_or_tied_with_him_one_place_down() -> None:
    finishes = [Finish(6, (1,)), Finish(4, (2, 3)), Finish(3, (4,))]
    assert places_after_reentry(finishes, 2) == [Finish(6, (1,)), Finish(5, (3,)), Finish(4, (4,))]
    assert places_after_reentry(finishes, 1) == [Finish(5, (2, 3)), Finish(4, (4,))]
    assert places_after_reentry(finishes, 9) == finishes


@POSTGRESQL_IN_SLOW_TIER
async def test_entries_survive_crashes_and_the_places_stay_each_once(
    store: Store, seeded: Callable[[TournamentRun], TournamentRun]
) -> None:
    run = seeded(TournamentRun(store, seed=12, players=5, seats=3))
    await run.register_all(level_hands=6, late_level=2, reentry=True, starting_stack=STACK)
    assert run.tournament is not None and run.director is not None
    tid = run.tournament.tournament_id
    await run.house.tournaments.register(GUILD, tid, LATE + 1)
    await run.play(until=lambda d: bool(d.record.finishes), crashes=0.02)
    assert run.director.next_level()[0] <= 2, "still open for this seed"
    (out,) = run.director.record.finishes[0].players
    await run.house.tournaments.register(GUILD, tid, out)
    # A restart right after the re-entry: he is in, with no place, and counts as an entry.
    await run.crash_and_restart()
    assert out in run.director.left and run.director.entrants == 7
    assert all(out not in f.players for f in run.director.record.finishes)
    await run.play(crashes=0.01)
    entries = {e.user_id: e for e in await store.tournaments.entries(tid)}
    places = {user: e.place for user, e in entries.items() if e.place}
    assert len(places) == 6
    places_are_each_taken_once(places)
    done = await store.tournaments.get(tid)
    assert (done.state, done.prize_pool) == ("finished", 0)
    assert sum(e.prize or 0 for e in entries.values()) == 7 * BUY_IN
    await store.audit()
