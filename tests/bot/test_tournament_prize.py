"""Chips an organiser adds to a prize pool (RULES 11.1), through the core on SQLite and
PostgreSQL: from his wallet, or as a logged grant by a member who may manage the server; the
lobby shows them, the payout shares them, a cancel puts every chip back where it came from."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.core.errors import TableError
from bot.core.storage import NotEnoughChips, NoTournament, Store
from engine.tournament import award, prize_table
from tests.bot.fakes import GUILD
from tests.bot.tournament_run import BUY_IN, TournamentRun

ADMIN = 4242


async def balance(store: Store, user: int) -> int:
    return (await store.wallets.get(GUILD, user)).balance


async def granted(store: Store) -> int:
    """Every chip ever granted in the guild's ledger (the audit's total)."""
    return (await store.audit()).granted


async def test_added_chips_are_shown_and_paid_out_with_the_buy_ins(
    store: Store, seeded: Callable[[TournamentRun], TournamentRun]
) -> None:
    run = seeded(TournamentRun(store, seed=7, players=3, seats=3))
    desk = run.house.tournaments
    organiser = run.users[0]
    tournament = await desk.create(
        GUILD,
        77,
        organiser,
        game="stud",
        buy_in=BUY_IN,
        seats=3,
        level_unit="hands",
        level_length=2,
        start_entrants=3,
        starting_stack=100,
    )
    tid = tournament.tournament_id
    added = await desk.add_prize(GUILD, tid, organiser, 150, can_manage=False, grant=False)
    assert added.prize_pool == 150 and await balance(store, organiser) == 850
    admin = await balance(store, ADMIN)
    before = await granted(store)
    await desk.add_prize(GUILD, tid, ADMIN, 50, can_manage=True, grant=True)
    assert await granted(store) == before + 50 and await balance(store, ADMIN) == admin
    with pytest.raises(TableError, match="tournament_add_not_allowed"):
        await desk.add_prize(GUILD, tid, run.users[1], 10, can_manage=False, grant=False)
    with pytest.raises(TableError, match="tournament_add_not_allowed"):
        await desk.add_prize(GUILD, tid, organiser, 10, can_manage=False, grant=True)
    with pytest.raises(NotEnoughChips):
        await desk.add_prize(GUILD, tid, organiser, 10_000, can_manage=False, grant=False)
    for user in run.users:
        await desk.register(GUILD, tid, user)
    lobby = await desk.lobby(tid)
    assert (lobby.prize_pool, lobby.added) == (3 * BUY_IN + 200, 200)
    assert sum(lobby.payouts) == 3 * BUY_IN + 200
    run.tournament = tournament
    run.director = desk.directors[tid]
    await run.play()
    entries = await store.tournaments.entries(tid)
    paid = {e.user_id: e.prize for e in entries if e.prize}
    assert paid == award(
        [(f.place, f.players) for f in run.director.record.finishes],
        prize_table(3 * BUY_IN + 200, 3),
    )
    assert (await store.tournaments.get(tid)).prize_pool == 0
    with pytest.raises(NoTournament):
        await desk.add_prize(GUILD, tid, organiser, 10, can_manage=False, grant=False)
    await store.audit()


async def test_a_cancel_gives_every_chip_back_where_it_came_from(store: Store) -> None:
    run = TournamentRun(store, seed=1, players=3, seats=3)
    desk = run.house.tournaments
    organiser, bob = run.users[:2]
    tid = (
        await desk.create(
            GUILD,
            77,
            organiser,
            game="razz",
            buy_in=BUY_IN,
            seats=3,
            level_unit="hands",
            level_length=2,
            start_entrants=3,
        )
    ).tournament_id
    await desk.register(GUILD, tid, organiser)
    await desk.register(GUILD, tid, bob)
    await desk.add_prize(GUILD, tid, organiser, 150, can_manage=False, grant=False)
    before = await granted(store)
    await desk.add_prize(GUILD, tid, ADMIN, 70, can_manage=True, grant=True)
    refunds = await desk.cancel(GUILD, tid, organiser, can_manage=False)
    assert refunds == {organiser: BUY_IN + 150, bob: BUY_IN}
    assert await balance(store, organiser) == await balance(store, bob) == 1000
    assert await granted(store) == before, "the grant is unmade"
    assert (await store.tournaments.get(tid)).prize_pool == 0
    await store.audit()
