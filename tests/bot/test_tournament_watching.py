"""A face beside the Discord one watches a tournament's lobby through the core: handed each
lobby view as it changes, the same ones the edge's message shows, from the first registration
to the results."""

from __future__ import annotations

from bot.core.storage import Store
from bot.core.views import LobbyView
from tests.bot.tournament_run import Seeded, TournamentRun


async def test_a_face_watches_a_tournament_from_registration_to_its_results(
    store: Store, seeded: Seeded
) -> None:
    run = seeded(TournamentRun(store, seed=7, players=3, seats=3))
    shown: list[LobbyView] = []

    async def show(view: LobbyView) -> int:
        shown.append(view)
        return 900

    run.lobby.on_show = show
    tournament = await run.create(level_hands=2)
    watching = await run.house.tournaments.subscribe(tournament.tournament_id)
    spectator = await run.house.tournaments.subscribe(tournament.tournament_id)
    first = watching.pending()
    assert [view.state for view in first] == ["registering"] and first[0].entrants == ()
    shown.clear()
    for user in run.users:
        await run.house.tournaments.register(1, tournament.tournament_id, user)
    run.director = run.house.tournaments.directors[tournament.tournament_id]
    await run.play()
    await run.clock.until_idle(lambda: run.house.tasks)
    seen = watching.pending()
    assert seen == shown  # the edge's message and the face: the same views, in order
    assert seen[0].state == "registering"
    assert seen[-1].state == "finished" and len(seen[-1].places) == 3
    spectator.close()
    spectator.close()  # closing again does nothing
    assert spectator.pending()[-1] == seen[-1]
    await run.house.tournaments.subscribe(tournament.tournament_id)
    assert watching.pending() == []  # nothing changed since
