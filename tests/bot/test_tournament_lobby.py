"""The lobby the desk gives the edge (RULES 11.1, 11.4, 11.7): entrants and payouts while it
registers, the tables once it runs, every place and prize at the end."""

from __future__ import annotations

import pytest

from bot.core.storage import NoTournament, Store
from bot.core.views import LobbyView
from tests.bot.fakes import GUILD
from tests.bot.tournament_run import BUY_IN, TournamentRun
from tests.databases import POSTGRESQL_IN_SLOW_TIER


@POSTGRESQL_IN_SLOW_TIER
async def test_the_lobby_follows_a_sit_and_go_from_creation_to_its_results(store: Store) -> None:
    run = TournamentRun(store, seed=7, players=3, seats=3)
    shown: list[LobbyView] = []

    async def show(view: LobbyView) -> int:
        shown.append(view)
        return 900

    run.lobby.on_show = show
    await run.register_all(level_hands=2)
    first = shown[0]
    assert (first.state, first.entrants, first.payouts, first.message_id) == (
        "registering",
        (),
        (),
        None,
    )
    assert shown[1].entrants == (1001,) and shown[1].payouts == (BUY_IN,)
    assert shown[1].message_id == 900, "the message posted first is the one edited after"
    started = shown[-1]
    assert started.state == "running" and started.entrants == (1001, 1002, 1003)
    assert started.tables == ((1, 5001),) and started.places == ()
    assert sum(started.payouts) == started.prize_pool == 3 * BUY_IN
    assert started.level == 1 and started.level_unit == "hands" and started.to_next_level == 2
    # The private list is read for the clicking player's server only: another's is not found.
    tid = started.tournament_id
    assert (await run.house.tournaments.lobby(tid, GUILD)).entrants == started.entrants
    with pytest.raises(NoTournament):
        await run.house.tournaments.lobby(tid, GUILD + 1)
    assert sorted(user for _, user, _ in started.stacks) == [1001, 1002, 1003]
    await run.play()
    # After each hand the director dealt with, the lobby again (11.2, 11.4): the chips at the
    # tables always add up to the entrants' starting stacks, and the places fill as players go.
    running = [view for view in shown if view.state == "running"]
    assert len(running) > 3
    stack = started.starting_stack
    for view in running:
        assert sum(chips for _, _, chips in view.stacks) == 3 * stack
        assert view.level is not None and view.stakes is not None and view.to_next_level >= 1
        out = {user for _, user, _ in view.places}
        playing = {user for _, user, chips in view.stacks if chips}
        assert not out & playing and out | playing == {1001, 1002, 1003}
    assert {view.level for view in running} >= {1, 2}, "the levels rose in the lobby"
    counts = [len(view.places) for view in running]
    assert counts == sorted(counts), "a place, once shown, stays"
    end = shown[-1]
    assert end.state == "finished" and end.tables == ()
    assert [place for place, _, _ in end.places] == [1, 2, 3]
    assert {user for _, user, _ in end.places} == {1001, 1002, 1003}
    assert sum(prize for _, _, prize in end.places) == 3 * BUY_IN
    await store.audit()


async def test_a_lobby_that_cannot_be_shown_changes_nothing(store: Store) -> None:
    """A Discord error while showing the lobby leaves the registration as it was."""
    run = TournamentRun(store, seed=7, players=2, seats=2)

    async def broken(view: LobbyView) -> int:
        raise RuntimeError("Discord is down")

    run.lobby.on_show = broken
    director = await run.register_all(level_hands=2)
    assert len(director.tables) == 1
    assert len(await store.tournaments.entries(director.tournament.tournament_id)) == 2
