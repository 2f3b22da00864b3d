"""Tournaments through the core (RULES 11.2-11.7): random players play a
sit-and-go to the end on the injected clock, on SQLite and PostgreSQL. Checked as it goes: the
audit after every hand (the tournament's chips add up to its entrants' starting stacks), tables
balanced within one whenever all are between hands; at the end: places 1..N each once or tied,
the pool paid once and in full as RULES 11.7 says, hand-for-hand played on the bubble, the final
table, levels rising."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.core.errors import TableError
from bot.core.showing import table_view
from bot.core.storage import Store
from bot.core.views import LobbyView
from bot.edge.embeds import idle_embed
from bot.edge.layout import hand_text
from engine.tournament import structure
from tests.bot.tournament_run import COUNTDOWN, TURN, Seeded, TournamentRun, check_the_end
from tests.databases import POSTGRESQL_IN_SLOW_TIER
from tests.texts import TEXTS


@POSTGRESQL_IN_SLOW_TIER
async def test_a_tournament_of_twelve_over_four_tables_plays_to_the_end(
    store: Store, seeded: Seeded
) -> None:
    # Three places paid: the bubble, four players left, is at two tables of three seats.
    run = seeded(TournamentRun(store, seed=21, players=12, seats=3))
    shown: list[LobbyView] = []

    async def show(view: LobbyView) -> int:
        shown.append(view)
        return 900

    run.lobby.on_show = show
    director = await run.register_all(level_hands=3)
    assert sorted(len(t.seats) for t in run.tables()) == [3, 3, 3, 3]
    await run.play()
    await check_the_end(run, 12)
    # The lobby after each hand the director dealt with: the stacks at the tables add up to
    # the entrants' starting stacks, and the places fill in as players go out (11.4).
    running = [view for view in shown if view.state == "running"]
    starting = run.tournament.starting_stack if run.tournament else 0
    assert all(sum(c for _, _, c in view.stacks) == 12 * starting for view in running)
    counts = [len(view.places) for view in running]
    assert counts == sorted(counts) and counts[-1] >= 9
    assert len({view.tables for view in running}) > 1, "the lobby showed tables breaking"
    assert director.record.breaks, "a table broke on the way to the final table"
    assert director.record.moves
    # 11.5: each move is said in both threads; the new one mentions him (Discord notifies
    # him), the old one links to the new thread.
    for move in director.record.moves:
        assert move.player in run.screen.pings
        assert any(
            line.startswith(f"<@{move.player}> joins this table from table {move.from_table}")
            for line in run.screen.lines
        )
        # The threads were made in table order from 5001.
        away = f"moves to table {move.to_table}: <#{5000 + move.to_table}>."
        assert any(line.endswith(away) for line in run.screen.lines)
    assert any("Level 2:" in line for line in run.screen.lines)
    assert any("final table" in line for line in run.screen.lines)
    assert any("Hand-for-hand" in line for line in run.screen.lines)
    assert set(director.record.bubbles) == {2} and director.record.hand_for_hand_rounds >= 1


@POSTGRESQL_IN_SLOW_TIER
async def test_a_tournament_survives_crashes_at_random_points(store: Store, seeded: Seeded) -> None:
    run = seeded(TournamentRun(store, seed=8, players=12, seats=3))
    await run.register_all(level_hands=3)
    await run.play(crashes=0.01)
    assert run.restarts >= 3
    await check_the_end(run, 12)


@pytest.mark.slow
async def test_a_tournament_of_thirty_over_four_tables_plays_to_the_end(
    store: Store, seeded: Seeded
) -> None:
    run = seeded(TournamentRun(store, seed=30, players=30, seats=8))
    await run.register_all(level_hands=4)
    assert sorted(len(t.seats) for t in run.tables()) == [7, 7, 8, 8]
    await run.play()
    # Seven places paid: at the bubble eight are left, who fit at one table of eight: the final
    # table has formed unless its last break waits for a hand (docs/rules.md 11.6).
    await check_the_end(run, 30)


async def test_levels_rise_from_the_next_hand_and_nobody_sits_out(store: Store) -> None:
    run = TournamentRun(store, seed=5, players=4, seats=4)
    director = await run.register_all(level_hands=1)
    (table,) = run.tables()
    await run.clock.advance(COUNTDOWN, run.house)
    first = table.live
    assert first is not None and first.hand.stakes == structure("standard").level(1).stakes
    # Nobody acts: each player's time and time bank run out (RULES 11.3), he checks or folds,
    # and is dealt the next hand all the same, at the next level's stakes (11.2).
    while table.live is first:
        await run.clock.advance(TURN, run.house)
    assert first.hand.timed_out
    await run.clock.advance(COUNTDOWN, run.house)
    assert not any(s.sitting_out for s in table.seats.values())
    live = table.live
    assert live is not None and set(live.users) == set(first.users)
    assert live.hand.stakes == structure("standard").level(2).stakes
    actor = live.users[0]
    # A tournament table takes no /sit, /leave or /sitout (its chips are not the wallets').
    for refused in (
        run.house.seating.leave(table.channel_id, actor),
        run.house.seating.set_sitting_out(table.channel_id, actor, True),
        run.house.seating.sit(table.channel_id, 9999, "Zed", 100),
        # Nor /table bots: its organiser enters computer players when he creates it.
        run.house.computer_players.add(
            table.channel_id, actor, can_manage=True, count=1, style=None
        ),
        run.house.computer_players.remove(table.channel_id, actor, can_manage=True, count=1),
    ):
        with pytest.raises(TableError, match="tournament_table"):
            await refused
    assert director.level(1) >= 2


@POSTGRESQL_IN_SLOW_TIER
async def test_the_director_tries_again_when_the_store_refuses(
    store: Store, monkeypatch: pytest.MonkeyPatch, seeded: Seeded
) -> None:
    run = seeded(TournamentRun(store, seed=3, players=6, seats=3))
    await run.register_all(level_hands=2)
    real = store.tournaments.after_hand
    failures: list[int] = []

    async def refuses_twice(*args: Any, **kwargs: Any) -> None:
        if len(failures) < 2:
            failures.append(1)
            raise ConnectionError("the database is away")
        await real(*args, **kwargs)

    monkeypatch.setattr(store.tournaments, "after_hand", refuses_twice)
    await run.play()
    assert len(failures) == 2
    await check_the_end(run, 6)


async def test_each_thread_is_told_once_when_the_level_rises_also_across_restarts(
    store: Store,
) -> None:
    run = TournamentRun(store, seed=11, players=4, seats=4)
    await run.register_all(level_hands=2)
    screens = [run.screen]
    levels: list[int] = []
    for hand in range(1, 7):
        await run.clock.advance(COUNTDOWN, run.house)
        (table,) = run.tables()
        live = table.live
        assert live is not None
        levels.append(1 + (hand - 1) // 2)
        assert live.hand.stakes == structure("standard").level(levels[-1]).stakes
        # The message and the picture show the level and the hands left of it here.
        view = table_view(table, TEXTS, run.clock.now())
        assert view is not None and view.hand is not None and view.level is not None
        assert (view.level.number, view.level.unit) == (levels[-1], "hands")
        assert view.level.to_next == 2 * levels[-1] - hand and view.level.next_at is None
        assert view.hand.labels.next_game == f"Level {levels[-1]}"
        text = hand_text(view, view.hand, TEXTS)
        assert (
            f"-# Level {levels[-1]} · the next one in 1 hand at this table" in text
            if hand % 2
            else f"-# Level {levels[-1]} · the next one from the next hand" in text
        )
        if hand == 4:
            # A crash in the hand: the new process plays it on at the level it was dealt at.
            await run.crash_and_restart()
            screens.append(run.screen)
            (table,) = run.tables()
            live = table.live
            assert live is not None and live.hand.stakes == structure("standard").level(2).stakes
        while table.live is live:  # nobody acts: every turn times out (11.3)
            await run.clock.advance(1.0, run.house)
        await run.clock.until_idle(lambda: run.house.tasks)
        if hand == 6:
            break
        # A crash between hands: the new process knows which level each thread was told.
        assert table.live is None
        await run.crash_and_restart()
        await run.clock.until_idle(lambda: run.house.tasks)
        screens.append(run.screen)
    assert levels == [1, 1, 2, 2, 3, 3]
    told = [line for screen in screens for line in screen.lines if line.startswith("Level")]
    assert told == [
        "Level 2: limits 30/60, ante 5, bring-in 10, from this hand.",
        "Level 3: limits 50/100, ante 10, bring-in 15, from this hand.",
    ]


async def test_a_table_in_a_level_of_minutes_shows_when_the_next_begins(store: Store) -> None:
    run = TournamentRun(store, seed=12, players=3, seats=3)
    director = await run.register_all(level_hands=120, level_unit="seconds")
    (table,) = run.tables()
    await run.clock.advance(COUNTDOWN, run.house)
    live = table.live
    assert live is not None
    view = table_view(table, TEXTS, run.clock.now())
    assert view is not None and view.hand is not None and view.level is not None
    left = 120 - director.elapsed()
    assert (view.level.number, view.level.unit, view.level.to_next) == (1, "seconds", left)
    assert view.level.next_at == run.clock.now() + left
    assert f"-# Level 1 · the next one <t:{int(run.clock.now() + left)}:R>" in hand_text(
        view, view.hand, TEXTS
    )
    # Two players fold on their time (a minute each at least): the level is over when the
    # hand is, and the table waits for the next hand at the next level.
    while table.live is live:
        await run.clock.advance(TURN, run.house)
    await run.clock.until_idle(lambda: run.house.tasks)
    idle = table_view(table, TEXTS, run.clock.now())
    assert idle is not None and idle.hand is None and idle.level is not None
    assert (idle.level.number, idle.level.to_next, idle.level.next_at) == (1, 0, None)
    embed = idle_embed(idle, TEXTS)
    shown = {field.name: field.value for field in embed.fields}
    assert shown["🏆"] == "Level 1 · the next one from the next hand"
    # Its countdown runs: the next hand is on its way, not waited for (players are seated).
    assert idle.next_hand_at is not None
    assert (embed.title or "").endswith("— the next hand is on its way")
    waiting = idle_embed(replace(idle, next_hand_at=None), TEXTS).title or ""
    assert waiting.endswith("— waiting for players")
    await run.clock.advance(COUNTDOWN, run.house)
    dealt = director.level_clock(table)
    assert table.live is not None and dealt is not None and dealt.number > 1
    stakes = table.live.hand.stakes
    assert stakes == structure("standard").level(dealt.number).stakes
    assert run.screen.lines[-1].startswith(
        f"Level {dealt.number}: limits {stakes.small_bet}/{stakes.big_bet}"
    )


async def test_a_level_of_minutes_keeps_its_time_across_a_crash(store: Store) -> None:
    """RULES 11.8: the level's time is saved as it runs, not only between hands, and the time
    the bot is down is not counted."""
    run = TournamentRun(store, seed=13, players=3, seats=3)
    director = await run.register_all(level_hands=120, level_unit="seconds")
    # 25 seconds of play, all within the first hand (each turn lasts a minute).
    await run.clock.advance(COUNTDOWN + 20, run.house)
    (table,) = run.tables()
    assert table.live is not None and director.elapsed() == 25
    await run.crash_and_restart(down=300.0)
    assert run.director is not None
    # Saved every 10 seconds: at most that is lost, and the 5 minutes down are not counted.
    assert run.director.elapsed() == 20 == (await store.tournaments.get(1)).elapsed
    (table,) = run.tables()
    view = table_view(table, TEXTS, run.clock.now())
    assert view is not None and view.level is not None
    assert (view.level.number, view.level.to_next) == (1, 100)
