"""Tournaments played with their races let loose (``tests/bot/test_tournament_stress.py``): an
event loop that runs its ready callbacks in a seeded random order, a clock that wakes everything
due at one moment together, and random players who act at several tables at once, so that hands
end in the same turn of the loop and the director's steps meet as they would under load."""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import random
from collections import Counter
from typing import Any

import pytest

from bot.core.errors import TableError
from bot.core.house import House
from bot.core.storage import HandEnd, Store
from bot.core.table import LiveHand, Table
from tests.bot.fakes import ManualClock
from tests.bot.tournament_run import COUNTDOWN, TournamentRun, check_the_end


class ShuffledLoop(asyncio.SelectorEventLoop):
    """Each turn runs the callbacks ready at its start in an order drawn from ``rng``, not in
    the order they became ready: tasks woken together run in any order. (CPython's loop keeps
    them in ``_ready`` and runs them in ``_run_once``.)"""

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self._rng = rng

    def _run_once(self) -> None:
        ready: Any = getattr(self, "_ready")  # noqa: B009 - the loop's own queue, not public
        if len(ready) > 1:
            shuffled = list(ready)
            self._rng.shuffle(shuffled)
            ready.clear()
            ready.extend(shuffled)
        super()._run_once()  # type: ignore[misc]


class RacingClock(ManualClock):
    """A :class:`ManualClock` whose ``advance`` wakes every sleeper due at one moment at once
    (in a random order), not one after another with the loop left idle in between: countdowns
    that started together deal together, and their hands can end in one turn of the loop."""

    async def advance(self, seconds: float, house: House) -> None:
        target = self._now + seconds
        await self.until_idle(lambda: house.tasks)
        while self._sleepers and self._sleepers[0][0] <= target:
            when = self._sleepers[0][0]
            self._now = max(self._now, when)
            while self._sleepers and self._sleepers[0][0] == when:
                _, _, future = heapq.heappop(self._sleepers)
                if not future.done():
                    future.set_result(None)
            await asyncio.sleep(0)
            await self.until_idle(lambda: house.tasks)
        self._now = target
        for _ in range(3):
            await asyncio.sleep(0)


async def play_racing(run: TournamentRun, rng: random.Random, max_steps: int = 20_000) -> None:
    """Random decisions at a random few of the tables where someone is to act, all at once,
    until the tournament ends: the audit after every round of them that ended a hand, the
    tables' balance whenever all are between hands (RULES 11.5)."""
    for _ in range(max_steps):
        director = run.director
        assert director is not None
        if director.finished:
            return
        ready = [t for t in run.tables() if t.live is not None and t.actor_id() is not None]
        if not ready:
            await run.clock.until_idle(lambda: run.house.tasks)
            if not director.finished and all(t.live is None for t in run.tables()):
                run.check_balanced()
            await run.clock.advance(COUNTDOWN, run.house)
            continue
        chosen = rng.sample(ready, rng.randint(1, len(ready)))
        lives = [table.live for table in chosen]
        await asyncio.gather(*(_act(run, rng, table) for table in chosen))
        ended = sum(table.live is not live for table, live in zip(chosen, lives, strict=True))
        if ended:
            run.hands += ended
            await run.clock.until_idle(lambda: run.house.tasks)
            await run.store.audit()
            run.audits += ended
    raise AssertionError("the tournament never ended")


async def _act(run: TournamentRun, rng: random.Random, table: Table) -> None:
    actor = table.actor_id()
    assert actor is not None
    spec = rng.choice(table.buttons())
    # A button from a moment ago may find the table moved on, as a player's click may.
    with contextlib.suppress(TableError):
        await run.house.dealer.act(table.channel_id, actor, spec.action, spec.amount)


async def one_tournament(store: Store, seed: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """A sit-and-go of a seeded size and shape played to its end with its races loose, then
    RULES 11's checks: every player out ranked once, places contiguous (or tied), the chips
    (the audits), the pool paid once as 11.7 shares it. Returns how many times a hand ended
    (not hand for hand) while another's end still waited for the director's step: the race
    the director must survive."""
    rng = random.Random(seed)
    players = rng.randint(3, 10)
    run = TournamentRun(store, seed, players=players, seats=rng.randint(2, 4), clock=RacingClock())
    director = await run.register_all(
        level_hands=rng.randint(1, 4), starting_stack=rng.choice([3, 6, 10, 40])
    )
    waiting, met = 0, 0
    hand_ended, after_hand = director.hand_ended, store.tournaments.after_hand

    def ending(table: Table, live: LiveHand, end: HandEnd) -> None:
        nonlocal waiting, met
        if not director.hand_for_hand:
            met += waiting > 0
            waiting += 1
        hand_ended(table, live, end)

    async def stepped(tournament_id: int, **kwargs: Any) -> None:
        nonlocal waiting
        await after_hand(tournament_id, **kwargs)
        waiting = 0

    monkeypatch.setattr(director, "hand_ended", ending)
    monkeypatch.setattr(store.tournaments, "after_hand", stepped)
    await play_racing(run, rng)
    await run.clock.until_idle(lambda: run.house.tasks)
    await check_the_end(run, players)
    ranked = Counter(user for finish in director.record.finishes for user in finish.players)
    assert set(ranked) == set(run.users) and set(ranked.values()) == {1}, ranked
    await run.house.tasks.stop()
    return met
