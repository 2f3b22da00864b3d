"""The gateway's limits (issue 24 point 4 and the IDENTIFY half of point 2): turns booked in
the database per max_concurrency bucket, session starts counted and a reserve kept, a crash
loop's pauses growing across restarts."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import pytest

from bot.core.storage import Store
from bot.edge.gateway import (
    FREE_STARTS,
    LONGEST_PAUSE,
    LOOP_WINDOW,
    DatabaseTurns,
    SessionStarts,
    pause_after,
    start_pause,
)


@dataclass
class Limits:
    total: int = 1000
    remaining: int = 1000
    reset_after: int = 3_600_000
    max_concurrency: int = 1


class Sleeps:
    def __init__(self) -> None:
        self.slept: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.slept.append(seconds)


def limits_of(limits: Limits) -> Callable[[], Awaitable[Limits]]:
    async def fetch() -> Limits:
        return limits

    return fetch


async def test_shards_of_one_bucket_wait_their_turn_and_other_buckets_do_not(
    store: Store,
) -> None:
    if not store.coordination.shared:
        pytest.skip("IDENTIFY is coordinated in the database on PostgreSQL only (SQLite: a file)")
    sleeps = Sleeps()
    # Two processes (two DatabaseTurns) on one database; Discord allows 2 at once.
    first, second = (
        DatabaseTurns(store.coordination, limits_of(Limits(max_concurrency=2)), sleep=sleeps)
        for _ in range(2)
    )
    await asyncio.gather(first.wait(0), second.wait(1), second.wait(2), first.wait(3))
    # Shards 0 and 2 share bucket 0, 1 and 3 bucket 1: in each, one goes at once, one 5 s on.
    assert sorted(round(s) for s in sleeps.slept) == [5, 5]


async def test_every_session_start_is_counted_and_logged(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    sleeps = Sleeps()
    limits = Limits(remaining=640)
    starts = SessionStarts(
        store.coordination, limits_of(limits), sleep=sleeps, today=lambda: "2026-12-02"
    )
    with caplog.at_level(logging.INFO):
        for shard in range(3):
            await starts.before_identify(shard)
    assert sleeps.slept == []
    assert "shard 2 identifies: session 3 started today (Discord: 640 of 1000 left)" in caplog.text
    assert await store.coordination.count_start("2026-12-02", 0) == 3


async def test_the_last_tenth_of_a_days_starts_waits_for_discords_reset(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    sleeps = Sleeps()
    starts = SessionStarts(store.coordination, limits_of(Limits(remaining=100)), sleep=sleeps)
    await starts.before_identify(0)
    assert sleeps.slept == [3600.0]
    assert "only 100 of Discord's 1000 session starts a day are left" in caplog.text


async def test_a_limit_discord_does_not_answer_never_keeps_a_shard_offline(store: Store) -> None:
    async def down() -> Limits:
        raise OSError("no route")

    sleeps = Sleeps()
    await SessionStarts(store.coordination, down, sleep=sleeps).before_identify(0)
    assert sleeps.slept == []


def test_a_crash_loops_pause_doubles_to_a_ceiling() -> None:
    pauses = [pause_after(n) for n in range(1, 16)]
    assert pauses[:FREE_STARTS] == [0.0] * FREE_STARTS
    assert pauses[FREE_STARTS : FREE_STARTS + 4] == [5.0, 10.0, 20.0, 40.0]
    assert max(pauses) == LONGEST_PAUSE == pauses[-1]
    # At the ceiling the window still holds more starts than are free: the pause stays.
    assert LOOP_WINDOW / LONGEST_PAUSE > FREE_STARTS


async def test_a_crash_loop_is_remembered_across_restarts(store: Store) -> None:
    """Each start is a new process: only the database remembers the ones before."""
    clock = [1_800_000_000.0]
    pauses = []
    for _ in range(FREE_STARTS + 3):
        pause = await start_pause(store.coordination, "0-3", now=lambda: clock[0])
        pauses.append(pause)
        clock[0] += pause + 2  # it starts, connects and dies two seconds later
    assert pauses == [0.0] * FREE_STARTS + [5.0, 10.0, 20.0]
    assert await start_pause(store.coordination, "4-7", now=lambda: clock[0]) == 0.0
    clock[0] += LOOP_WINDOW  # a quiet spell: starting over is free again
    assert await start_pause(store.coordination, "0-3", now=lambda: clock[0]) == 0.0
