"""Edge cases of RULES 11 through the core, on the injected clock and both backends:
players tied out of one hand keep 11.4's order (dealing order, the lowest-numbered table first),
which gives the odd chip, across restarts, and players out in different hands never tie;
hand-for-hand (11.6) holds a round open until every table has played its hand, even one whose
hand is over as it is dealt, and a restart resumes the round where it was; a restart moves each
table's dealer on one seat (1.4)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import pytest

from bot.core.recovery import dealer_position
from bot.core.storage import HandEnd, Store
from bot.core.table import LiveHand, Table
from bot.core.tournament import TournamentDirector
from bot.core.tournament.director import RETRY_SECONDS
from bot.core.tournament.readings import in_dealing_order
from engine.codec import decode
from engine.tournament import Finish, award, prize_table, rank_out
from tests.bot.fakes import GUILD
from tests.bot.tournament_run import BUY_IN, COUNTDOWN, Seeded, TournamentRun
from tests.databases import POSTGRESQL_IN_SLOW_TIER

CASH_TABLE = 9


async def rule_order(store: Store, tournament_id: int, players: Sequence[int]) -> tuple[int, ...]:
    """11.4's order of players tied out, worked out here from the hands they went out in: by
    table number, then from the seat left of the hand's dealer (1.4). Only tournament hands
    are played in these runs, so a player's last hand is the one he went out in."""
    channels = await store.tournaments.threads(tournament_id)  # by table number
    keys: dict[int, tuple[int, int]] = {}
    for player in players:
        hand = await store.hands.last_for(player, finished=True)
        assert hand is not None
        seat = next(p.seat_index for p in hand.players if p.user_id == player)
        after_dealer = (seat - decode(hand.state).dealer - 1) % len(hand.players)
        keys[player] = (channels.index(hand.channel_id), after_dealer)
    return tuple(sorted(players, key=keys.__getitem__))


@POSTGRESQL_IN_SLOW_TIER
async def test_tied_players_keep_the_dealing_order_across_restarts(
    store: Store, seeded: Seeded
) -> None:
    # Small stacks: players often go out together with equal stacks. Crashes come after 3% of
    # the decisions and 30% of the hands' ends (before the director dealt with them).
    run = seeded(TournamentRun(store, seed=10, players=12, seats=3))
    await run.register_all(level_hands=3, starting_stack=40)
    await run.play(crashes=0.03)
    assert run.tournament is not None and run.director is not None
    tid = run.tournament.tournament_id
    entries = await store.tournaments.entries(tid)
    registered = [e.user_id for e in entries]
    # Each director, the restarted ones included, holds every tie in 11.4's order; at least
    # one tie, ranked before a restart, is not in the order of registration (the store's).
    restored: list[Finish] = []
    for index, record in enumerate(run.records):
        for finish in record.finishes:
            if len(finish.players) > 1:
                assert finish.players == await rule_order(store, tid, finish.players)
                if index > 0 and list(finish.players) != sorted(
                    finish.players, key=registered.index
                ):
                    restored.append(finish)
    assert restored, "no tie that the order of registration would get wrong"
    # The prizes were paid as those ties share them (the odd chip to the first).
    final = [f for f in run.director.record.finishes if len(f.players) > 1]
    # A hand at a cash table afterwards, the tied players seated the other way round, changes
    # none of it: the order comes from the hands at the tournament's tables.
    tied = restored[0].players
    await store.seating.open(
        CASH_TABLE,
        GUILD,
        tied[0],
        max_seats=6,
        min_buy_in=100,
        max_buy_in=1000,
        settings={"stakes": [1, 3, 10, 20], "turn_seconds": 45},
    )
    for player in reversed(tied):
        await store.seating.sit(CASH_TABLE, player, 100)
    hand = await store.hands.start(
        CASH_TABLE, [(p, 100) for p in reversed(tied)], b"x", commitment="ab" * 32, salt="s"
    )
    await store.hands.settle(hand, b"x", [100] * len(tied))
    assert await in_dealing_order(store, tid, final) == final
    await store.audit()


async def test_players_out_in_a_hand_the_crash_left_unranked_get_the_dealing_order(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Five players of one ante each at one table: all are all in from the antes, the hand is
    # over as it is dealt and four of them go out tied (equal stacks), at places 2 to 5.
    run = TournamentRun(store, seed=4, players=5, seats=5)

    async def away(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("the database is away")

    # The director can't save what the hand did; the process dies before it can again.
    monkeypatch.setattr(store.tournaments, "after_hand", away)
    monkeypatch.setattr(store.tournaments, "finish", away)
    await run.register_all(level_hands=1000, starting_stack=3)
    (table,) = run.tables()
    # Dealt from the fourth seat on (the third deals): not the order of the seats.
    table.last_dealer = sorted(s.position for s in table.seats.values())[1]
    await run.clock.advance(COUNTDOWN, run.house)
    assert table.live is None and run.director is not None and not run.director.record.finishes
    monkeypatch.undo()
    await run.crash_and_restart()
    await run.clock.until_idle(lambda: run.house.tasks)
    assert run.tournament is not None and run.director is not None and run.director.finished
    tid = run.tournament.tournament_id
    tied = [f for f in run.director.record.finishes if len(f.players) > 1]
    assert tied, "nobody tied"
    for finish in tied:
        assert finish.players == await rule_order(store, tid, finish.players)
        assert list(finish.players) != sorted(
            finish.players, key=lambda p: table.seats[p].position
        ), "the order of the seats would do as well"
    # The odd chips of the shared prizes went to the first dealt.
    expected = award(
        [(f.place, f.players) for f in run.director.record.finishes],
        prize_table(BUY_IN * 5, 5),
    )
    entries = await store.tournaments.entries(tid)
    assert {e.user_id: e.prize for e in entries if e.prize} == expected
    await store.audit()


@POSTGRESQL_IN_SLOW_TIER
async def test_hand_for_hand_waits_for_every_table_even_for_a_hand_over_as_it_is_dealt(
    store: Store, seeded: Seeded
) -> None:
    # Starting stacks of one ante (level 1 lasting the whole tournament): every player is all
    # in from the antes and every hand is over as it is dealt. Three places paid: the bubble,
    # four players left, is at two tables of two.
    run = seeded(TournamentRun(store, seed=0, players=12, seats=3))
    await run.register_all(level_hands=1000, starting_stack=3)
    await run.play()
    assert run.director is not None
    record = run.director.record
    assert record.bubbles and set(record.bubbles) == {2}
    rounds: dict[int, list[int]] = defaultdict(list)
    for table, round_number in record.dealt:
        if round_number is not None:
            rounds[round_number].append(table)
    # 11.6: in every round each of the two tables was dealt one hand: neither dealt again,
    # nor did a round end, before the other had played its hand.
    assert rounds and all(sorted(tables) == [1, 2] for tables in rounds.values()), rounds


@pytest.mark.parametrize("restart", [False, True])
async def test_players_out_in_different_hands_are_ranked_hand_by_hand(
    store: Store, seeded: Seeded, monkeypatch: pytest.MonkeyPatch, restart: bool
) -> None:
    """11.4 ties only players out in the same hand: those out at two tables, not hand for hand,
    whose places wait (the store away, then a retry or a restart) are ranked hand by hand, in
    the order the hands ended, though they all began with the same chips."""
    # Two tables of four, one ante each: every hand is over as it is dealt.
    run = seeded(TournamentRun(store, seed=3, players=8, seats=4))
    director = await run.register_all(level_hands=1000, starting_stack=3)
    ended: list[tuple[Table, LiveHand, HandEnd]] = []
    # Both tables deal and end a hand before the director deals with either.
    monkeypatch.setattr(director, "hand_ended", lambda *args: ended.append(args))
    await run.clock.advance(COUNTDOWN, run.house)
    assert len(ended) == 2 and not director.record.finishes
    monkeypatch.undo()
    if restart:
        await run.crash_and_restart()
    else:

        async def away(*args: Any, **kwargs: Any) -> None:
            raise ConnectionError("the database is away")

        # The first hand's places can't be saved; the second hand ends meanwhile.
        monkeypatch.setattr(store.tournaments, "after_hand", away)
        director.hand_ended(*ended[0])
        await run.clock.until_idle(lambda: run.house.tasks)
        director.hand_ended(*ended[1])
        await run.clock.until_idle(lambda: run.house.tasks)
        monkeypatch.undo()
    await run.clock.advance(max(RETRY_SECONDS), run.house)
    assert run.tournament is not None and run.director is not None
    entries = await store.tournaments.entries(run.tournament.tournament_id)
    hands: dict[int, int] = {}  # the hand each player went out in
    for entry in entries:
        if entry.place is not None:
            hand = await store.hands.last_for(entry.user_id, finished=True)
            assert hand is not None
            hands[entry.user_id] = hand.hand_id
    assert len(set(hands.values())) == 2, "not out at both tables"
    by_hand: dict[int, set[int]] = defaultdict(set)
    for entry in entries:
        if entry.place is not None:
            by_hand[hands[entry.user_id]].add(entry.place)
    ends = {h: (await store.hands.get(h)).ended_at for h in by_hand}
    first, second = sorted(by_hand, key=lambda h: (ends[h], h))
    # Those out in the hand that ended first finish below all of the other's.
    assert min(by_hand[first]) > max(by_hand[second]), by_hand
    await store.audit()


@pytest.mark.parametrize("both_played", [False, True])
@POSTGRESQL_IN_SLOW_TIER
async def test_a_restart_mid_round_resumes_hand_for_hand_where_it_was(
    store: Store, seeded: Seeded, monkeypatch: pytest.MonkeyPatch, both_played: bool
) -> None:
    """11.6 across a restart: the bot goes down once one table has played its hand of the round
    and before the other has dealt its own; after the restart the other deals first, and the
    first waits for it (its hand of the round is played). Or it goes down once both have played
    theirs, before the director ranked the players out: they are ranked before any deals."""
    run = seeded(TournamentRun(store, seed=2, players=12, seats=3))
    await run.register_all(level_hands=1000, starting_stack=3)

    def round_starts(director: TournamentDirector) -> bool:
        """Hand for hand, between rounds: no table has dealt in this one."""
        this_round = director.record.hand_for_hand_rounds
        return (
            director.hand_for_hand
            and all(table.live is None for table in director.tables.values())
            and all(number != this_round for _, number in director.record.dealt)
        )

    await run.play(until=round_starts)

    def round_of(director: TournamentDirector) -> list[int]:
        """The tables dealt in this round."""
        this_round = director.record.hand_for_hand_rounds
        return sorted(n for n, r in director.record.dealt if r == this_round)

    director = run.director
    assert director is not None and director.hand_for_hand and len(director.tables) == 2
    assert all(table.live is None for table in director.tables.values())
    first, second = sorted(director.tables)
    held = director.tables[second]
    if both_played:
        # Both hands of the round end; the director never hears of them.
        monkeypatch.setattr(director, "hand_ended", lambda *args: None)
        await run.play(
            until=lambda d: len(round_of(d)) == 2 and all(t.live is None for t in d.tables.values())
        )
    else:
        dealt = run.house.dealer.start_hand

        async def only_first(table: Table) -> int | None:
            # The crash comes before the second table's countdown ends.
            return None if table is held else await dealt(table)

        monkeypatch.setattr(run.house.dealer, "start_hand", only_first)
        await run.clock.advance(COUNTDOWN, run.house)
    assert round_of(director) == ([first, second] if both_played else [first])
    played = await store.hands.last_at(director.tables[first].channel_id)
    playing = await store.hands.last_at(held.channel_id)
    monkeypatch.undo()
    await run.crash_and_restart()
    await run.clock.until_idle(lambda: run.house.tasks)
    if both_played:
        # The round was over: its players out have their places before anything is dealt.
        restarted = run.director
        assert restarted is not None and not restarted.record.dealt
        entries = await store.tournaments.entries(restarted.tournament.tournament_id)
        assert all(e.place is not None for e in entries if e.user_id not in restarted.left)
        assert len(restarted.left) < 4, "nobody out in the round"
    await run.clock.advance(COUNTDOWN, run.house)
    await run.clock.until_idle(lambda: run.house.tasks)
    after = run.director
    assert after is not None and after.record.dealt, "nothing dealt after the restart"
    if not both_played:
        # The second table plays its hand of that round before the first deals again.
        assert after.record.dealt[0][0] == second, after.record.dealt
        playing = await store.hands.last_at(held.channel_id)
    await run.play()
    # Those out in the round's two hands were ranked as out in one hand (11.4).
    out: list[tuple[int, int]] = []
    for hand_id in (played, playing):
        assert hand_id is not None
        hand = await store.hands.get(hand_id)
        dealer_seat = decode(hand.state).dealer
        players = sorted(hand.players, key=lambda p: (p.seat_index - dealer_seat - 1) % 2)
        out.extend((p.user_id, p.starting_stack) for p in players if p.final_stack == 0)
    assert out and len(out) < 4, "nobody out in the round"
    places = {
        e.user_id: e.place for e in await store.tournaments.entries(after.tournament.tournament_id)
    }
    expected = {user: f.place for f in rank_out(out, 4) for user in f.players}
    assert {user: places[user] for user, _ in out} == expected
    await store.audit()


async def test_a_restart_moves_each_tournament_table_dealer_on_one_seat(store: Store) -> None:
    """RULES 1.4 at a tournament's tables too: after a restart between hands each table deals
    from the seat after its last hand's dealer, not as its first hand."""
    run = TournamentRun(store, seed=6, players=8, seats=4)
    await run.register_all(level_hands=1000)
    await run.play(
        until=lambda d: (
            len(d.record.dealt) >= 4 and all(table.live is None for table in d.tables.values())
        )
    )
    last: dict[int, int] = {}  # channel -> table position of its last hand's dealer
    for table in run.tables():
        hand_id = await store.hands.last_at(table.channel_id)
        assert hand_id is not None
        position = dealer_position(await store.hands.get(hand_id))
        assert position is not None
        last[table.channel_id] = position
    await run.crash_and_restart()
    await run.clock.until_idle(lambda: run.house.tasks)
    await run.clock.advance(COUNTDOWN, run.house)
    for table in run.tables():
        live = table.live
        assert live is not None
        dealt = sorted(table.seats[user].position for user in live.users)
        after = [p for p in dealt if p > last[table.channel_id]]
        dealer = table.seats[live.users[live.hand.dealer]].position
        assert dealer == (after[0] if after else dealt[0])
    await store.audit()
