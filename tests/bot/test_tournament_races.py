"""Tournaments without races (RULES 11.4-11.6), on the injected clock and both backends: two
tables' hands ending in the same turn of the event loop, the first one's step breaking the
second table; and hand-for-hand at the bubble, a round's hands dealt together and nothing dealt
once a player is out until the places, the breaks and the balancing are done."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import pytest

from bot.core.storage import HandEnd, Store
from bot.core.table import LiveHand, Table
from engine.tournament import rank_out
from tests.bot.tournament_rig import TIE, Rig, all_in
from tests.bot.tournament_run import COUNTDOWN, Seeded, TournamentRun, check_the_end


@pytest.mark.parametrize("busts", [(1,), (2,), (1, 2)], ids=["first", "second", "both"])
async def test_a_step_that_breaks_a_table_whose_hand_just_ended_still_ranks_its_players(
    store: Store,
    seeded: Seeded,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    busts: tuple[int, ...],
) -> None:
    # Four players at two three-seat tables, one ante each: every hand is over as it is dealt.
    # A bust leaves three, who fit at table 1: table 2 breaks after its hand (11.5).
    run = seeded(TournamentRun(store, seed=5, players=4, seats=3))
    rig = Rig(run, monkeypatch)
    director = await run.register_all(level_hands=1000, starting_stack=3)
    first, second = (director.tables[n] for n in (1, 2))
    losers: dict[int, int] = {}  # table -> its player who goes out
    for number, table in ((1, first), (2, second)):
        players = sorted(table.seats)
        rig.next[table.channel_id] = [players[0] if number in busts else TIE]
        if number in busts:
            losers[number] = players[1]
    ended: list[tuple[Table, LiveHand, HandEnd]] = []
    # Both hands end before the director hears of either...
    monkeypatch.setattr(director, "hand_ended", lambda *args: ended.append(args))
    await run.clock.advance(COUNTDOWN, run.house)
    assert [table for table, _, _ in ended] == [first, second]
    monkeypatch.delattr(director, "hand_ended")  # the director's own again
    caplog.set_level(logging.ERROR)
    # ... and then of both in one turn of the loop: the first's step comes before the second's.
    for args in ended:
        director.hand_ended(*args)
    await run.clock.until_idle(lambda: run.house.tasks)
    assert not caplog.records, [r.getMessage() for r in caplog.records]
    # Table 2 broke; every player out has his place, those of the hand that ended first below
    # (11.4: different hands never tie); the players left sit at table 1 with chips.
    assert list(director.tables) == [1] and director.record.breaks == [2]
    assert run.tournament is not None
    entries = await store.tournaments.entries(run.tournament.tournament_id)
    places = {e.user_id: e.place for e in entries if e.place is not None}
    assert places == {losers[n]: 4 - i for i, n in enumerate(sorted(losers))}
    seats = await store.seating.seats(first.channel_id)
    assert (
        {s.user_id for s in seats}
        == set(director.left)
        == {u for u in run.users if u not in places}
    )
    assert all(s.stack > 0 for s in seats)
    assert all(move.player not in places for move in director.record.moves)
    stored = await store.tournaments.tables(run.tournament.tournament_id)
    assert [t.channel_id for t in stored] == [first.channel_id]
    await store.audit()
    await run.play()
    await check_the_end(run, 4)


async def test_a_hand_that_ends_while_a_step_is_saved_has_its_players_ranked_next(
    store: Store, seeded: Seeded, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand ends while the director's step for another is waiting on the store: its players
    out are noted, kept when the step ends (which ranked only its own) and ranked by the next,
    which breaks its table."""
    run = seeded(TournamentRun(store, seed=5, players=4, seats=3))
    rig = Rig(run, monkeypatch)
    director = await run.register_all(level_hands=1000, starting_stack=40)
    first, second = director.tables[1], director.tables[2]
    losers: dict[int, int] = {}  # table -> its player who goes out
    for number, table in ((1, first), (2, second)):
        players = sorted(table.seats)
        rig.next[table.channel_id] = [players[0]]
        losers[number] = players[1]
    await run.clock.advance(COUNTDOWN, run.house)
    assert first.live is not None and second.live is not None
    saving = asyncio.Event()
    steps: list[dict[int, int]] = []
    after_hand = store.tournaments.after_hand

    async def slow(tournament_id: int, **kwargs: Any) -> None:
        steps.append(dict(kwargs["out"]))
        await saving.wait()  # a store slow to answer
        await after_hand(tournament_id, **kwargs)

    monkeypatch.setattr(store.tournaments, "after_hand", slow)
    await all_in(run, [first], settle=False)
    for _ in range(100):
        if steps:
            break
        await asyncio.sleep(0)
    assert steps == [{losers[1]: 4}]
    await all_in(run, [second], settle=False)  # over while the first step waits
    saving.set()
    await run.clock.until_idle(lambda: run.house.tasks)
    assert steps == [{losers[1]: 4}, {losers[2]: 3}]
    assert list(director.tables) == [1] and director.record.breaks == [2]
    assert director.left == set(run.users) - set(losers.values())
    await store.audit()
    await run.play()
    await check_the_end(run, 4)


async def play_on(run: TournamentRun, tables: list[Table], done: Callable[[], bool]) -> None:
    """A second at a time, each hand dealt at ``tables`` played out at once, all in, until
    ``done``."""
    for _ in range(60):
        for table in tables:
            if table.live is not None:
                await all_in(run, [table])
        if done():
            return
        await run.clock.advance(1.0, run.house)
    raise AssertionError("never done")


@pytest.mark.parametrize("busts", [(1,), (2,), (1, 2)], ids=["first", "second", "both"])
async def test_hand_for_hand_at_the_bubble_deals_rounds_together_and_nothing_after_a_bust(
    store: Store, seeded: Seeded, monkeypatch: pytest.MonkeyPatch, busts: tuple[int, ...]
) -> None:
    # Nine players at three-seat tables, three paid: the bubble, four left, is at two tables
    # of two. A bust there leaves three, who fit at one table: table 2 must break (11.5).
    run = seeded(TournamentRun(store, seed=4, players=9, seats=3))
    rig = Rig(run, monkeypatch)
    director = await run.register_all(level_hands=1000, starting_stack=40)
    dealt_at: list[tuple[int, int | None, float]] = []  # (table, round, clock) of each deal
    events: list[str] = []  # deals, hands' ends and steps between hands, in order
    may_deal, hand_ended = director.may_deal, director.hand_ended

    def dealing(table: Table) -> bool:
        if not may_deal(table):
            return False
        number, round_number = director.record.dealt[-1]
        dealt_at.append((number, round_number, run.clock.now()))
        events.append(f"deal {number}")
        return True

    def ending(table: Table, live: LiveHand, end: HandEnd) -> None:
        events.append("end")
        hand_ended(table, live, end)

    monkeypatch.setattr(director, "may_deal", dealing)
    monkeypatch.setattr(director, "hand_ended", ending)
    after_hand = store.tournaments.after_hand

    async def stepped(tournament_id: int, **kwargs: Any) -> None:
        await after_hand(tournament_id, **kwargs)
        events.append("step")

    monkeypatch.setattr(store.tournaments, "after_hand", stepped)
    await run.play(
        until=lambda d: len(d.left) == 5 and all(t.live is None for t in d.tables.values())
    )
    big, small = sorted(director.tables.values(), key=lambda t: -len(t.seats))
    assert [len(big.seats), len(small.seats)] == [3, 2]
    # The bubble comes while the bigger table is between hands, on its own countdown: its hand
    # (a tie) ended a second before the smaller one's, where a player goes out.
    rig.next[big.channel_id] = [TIE]
    rig.next[small.channel_id] = [max(small.seats, key=lambda u: (small.seats[u].stack, -u))]
    await play_on(run, [big], lambda: big.live is None and bool(rig.next[big.channel_id] == []))
    await run.clock.advance(1.0, run.house)
    await play_on(run, [small], lambda: len(director.left) == 4)
    assert director.hand_for_hand and sorted(director.tables) == [1, 2]
    tables = [director.tables[1], director.tables[2]]
    assert [len(t.seats) for t in tables] == [2, 2]
    began: dict[int, int] = {}  # each loser's chips as the round begins
    for number, table in zip((1, 2), tables, strict=True):
        # The bigger stack wins (or the two tie): the other, all in, is out.
        players = sorted(table.seats, key=lambda u: (-table.seats[u].stack, u))
        rig.next[table.channel_id] = [players[0] if number in busts else TIE]
        if number in busts:
            began[players[1]] = table.seats[players[1]].stack
    events.clear()
    breaks = list(director.record.breaks)
    round_number = director.record.hand_for_hand_rounds
    await play_on(run, tables, lambda: len(director.left) < 4)
    # Both hands of the round dealt (at one moment: below), then one step (the places, the
    # break and the moves at once) before anything is dealt again (11.6).
    assert sorted(events[:4]) == ["deal 1", "deal 2", "end", "end"], events
    assert events[4] == "step", events
    assert director.record.breaks == [*breaks, 2] and not director.hand_for_hand
    # Busts at two tables in one round are ranked as in one hand (11.4).
    assert run.tournament is not None
    entries = await store.tournaments.entries(run.tournament.tournament_id)
    places = {e.user_id: e.place for e in entries if e.user_id in began}
    expected = rank_out(sorted(began.items(), key=lambda b: (-b[1], b[0])), 4)
    assert places == {user: f.place for f in expected for user in f.players}
    await run.play()
    await check_the_end(run, 9)
    # Every hand-for-hand round, the first one's included, was dealt at one moment.
    rounds: dict[int, set[float]] = {}
    for _, number, at in dealt_at:
        if number is not None:
            rounds.setdefault(number, set()).add(at)
    assert round_number in rounds and all(len(times) == 1 for times in rounds.values()), rounds
