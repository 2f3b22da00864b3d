"""The gateway's limits (turns to IDENTIFY and the session starts a day): turns booked in
the database per max_concurrency bucket, session starts counted and a reserve kept, a crash
loop's pauses growing across restarts that opened a session, and only those, and starting over
once a process stays up."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import pytest

from bot.core.storage import Store
from bot.edge.gateway import (
    FREE_STARTS,
    HEALTHY_SECONDS,
    LONGEST_PAUSE,
    LOOP_WINDOW,
    CrashLoop,
    DatabaseTurns,
    SessionStarts,
    pause_after,
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


class Clock:
    """Wall-clock seconds a test moves, and sleeps that move it (or wait to be let go)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0
        self.asleep = asyncio.Event()
        self.wake = asyncio.Event()

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.asleep.set()
        await self.wake.wait()
        self.now += seconds


async def _start(store: Store, clock: Clock, shards: str = "0-3", *, opens: bool = True) -> float:
    """A process starts: its pause, then (if it connects) its session opens; it dies 2 s on."""
    loop = CrashLoop(store.coordination, shards, now=clock, sleep=clock.sleep)
    pause = await loop.pause()
    clock.now += pause
    if opens:
        clock.asleep.clear()
        alive = asyncio.create_task(loop.opened())
        await clock.asleep.wait()  # counted, and waiting to be healthy
        alive.cancel()  # ... but it dies first
        await asyncio.gather(alive, return_exceptions=True)
    clock.now += 2
    return pause


async def test_a_crash_loop_is_remembered_across_restarts(store: Store) -> None:
    """Each start is a new process: only the database remembers the ones before."""
    clock = Clock()
    pauses = [await _start(store, clock) for _ in range(FREE_STARTS + 3)]
    assert pauses == [0.0] * FREE_STARTS + [5.0, 10.0, 20.0]
    assert await _start(store, clock, "4-7") == 0.0
    clock.now += LOOP_WINDOW  # a quiet spell: starting over is free again
    assert await _start(store, clock) == 0.0


async def test_starts_that_open_no_session_never_wait_nor_count(store: Store) -> None:
    """A refused token, no network: no session of Discord's spent, nothing to protect."""
    clock = Clock()
    assert [await _start(store, clock, opens=False) for _ in range(10)] == [0.0] * 10
    pauses = [await _start(store, clock) for _ in range(FREE_STARTS + 1)]
    assert pauses == [0.0] * FREE_STARTS + [5.0]


async def test_a_process_that_stays_up_starts_the_count_over(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    for _ in range(FREE_STARTS + 2):
        await _start(store, clock)
    healthy = CrashLoop(store.coordination, "0-3", now=clock, sleep=clock.sleep)
    assert await healthy.pause() == 20.0
    clock.now += 20.0
    clock.wake.set()  # its session opens, and it stays up
    with caplog.at_level(logging.INFO, logger="bot.edge.gateway"):
        await healthy.opened()
    assert clock.now == 1_800_000_000.0 + 5 * 2 + 5 + 10 + 20 + HEALTHY_SECONDS
    assert "stayed up 10 minutes: the crash-loop count starts over" in caplog.text
    clock.wake.clear()
    assert [await _start(store, clock) for _ in range(FREE_STARTS + 1)] == [0.0] * 3 + [5.0]


async def test_the_log_says_why_it_waits_and_for_how_long(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    for _ in range(FREE_STARTS):
        await _start(store, clock)
    with caplog.at_level(logging.INFO, logger="bot.edge.gateway"):
        assert await CrashLoop(store.coordination, "all", now=clock).pause() == 0.0
        assert await CrashLoop(store.coordination, "0-3", now=clock).pause() == 5.0
    calm, waiting = (r.getMessage() for r in caplog.records)
    assert calm == (
        "shards all: 0 earlier starts opened a Discord session in the last 6 hours; "
        "connecting without a pause"
    )
    assert waiting.startswith("shards 0-3 keep restarting: 3 starts in the last 6 hours opened")
    assert "spending one of Discord's 1,000 session starts a day" in waiting
    assert "Waiting 5 s before connecting" in waiting
    assert "`stud-bot crash-loop --reset` starts the count over" in waiting


async def test_without_discords_figure_every_shard_queues_in_one_bucket(store: Store) -> None:
    if not store.coordination.shared:
        pytest.skip("IDENTIFY is coordinated in the database on PostgreSQL only (SQLite: a file)")

    async def down() -> Limits:
        raise OSError("no route")

    sleeps = Sleeps()
    turns = DatabaseTurns(store.coordination, down, sleep=sleeps)
    await turns.wait(0)
    await turns.wait(1)  # bucket 1 of 2 it would be; bucket 0 of 1 it is
    assert [round(s) for s in sleeps.slept] == [5]
