"""The gateway's limits, for a bot spread over processes and machines (issue 24).

- **Turns to IDENTIFY.** Discord lets a bot start one session per 5 seconds in each of its
  ``max_concurrency`` buckets (``GET /gateway/bot``; a shard's bucket is ``shard_id %
  max_concurrency``) and invalidates sessions that come faster. On PostgreSQL every process, on
  whichever machine, books its shard's next moment in the database, on the database server's
  clock (:class:`DatabaseTurns`); on SQLite, one machine's processes share a lock file
  (:class:`bot.edge.identify.IdentifyTurns`).
- **Sessions a day.** Discord allows 1,000 new sessions a day (``session_start_limit``); once
  they are spent, every shard that drops stays offline until the day's reset. Before each
  IDENTIFY the bot asks what is left, and with no more than :data:`RESERVE` of the total left it
  waits for the reset rather than spend the rest (:class:`SessionStarts`). Every session started
  is counted in the database, per UTC day, every process together, and logged.
- **A crash loop.** A process that keeps dying (and systemd, or the cluster, restarting it)
  waits longer before each new start: the starts of its shards in the last
  :data:`LOOP_WINDOW` seconds are counted in the database, so the pause grows across restarts
  (:func:`start_pause`).

Resuming is discord.py's: after a dropped connection it sends RESUME with the session it had,
which costs no session start; only a session Discord refuses to resume is identified anew.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Final, Protocol

from bot.core.storage.coordination import Coordination

log = logging.getLogger(__name__)

INTERVAL: Final = 5.0  # seconds between two IDENTIFYs of one bucket
RESERVE: Final = 0.1  # of the day's session starts, kept back for the shards that drop later
# Starts of the same shards within this many seconds: a crash loop. Long enough that at the
# longest pause the count stays high (24 starts in 6 hours), so the pause never falls back.
LOOP_WINDOW: Final = 6 * 3600.0
FREE_STARTS: Final = 3  # starts within the window that wait for nothing
FIRST_PAUSE: Final = 5.0  # the pause of the first start past them; it doubles with each start
LONGEST_PAUSE: Final = 900.0


class Limits(Protocol):
    """Discord's ``session_start_limit`` (``discord.SessionStartLimits``)."""

    total: int
    remaining: int
    reset_after: int  # milliseconds
    max_concurrency: int


class Turns(Protocol):
    """What the client awaits before each IDENTIFY."""

    interval: float

    async def wait(self, shard_id: int) -> None: ...


class DatabaseTurns:
    """Turns to IDENTIFY booked in PostgreSQL, per ``max_concurrency`` bucket."""

    def __init__(
        self,
        coordination: Coordination,
        limits: Callable[[], Awaitable[Limits]],
        interval: float = INTERVAL,
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.interval = interval
        self._coordination = coordination
        self._limits = limits
        self._concurrency: int | None = None
        self._sleep = sleep

    async def wait(self, shard_id: int) -> None:
        if self._concurrency is None:  # Discord's figure does not change while we run
            self._concurrency = max(1, (await self._limits()).max_concurrency)
        bucket = shard_id % self._concurrency
        wait = await self._coordination.book_identify(bucket, self.interval)
        if wait > 0:
            await self._sleep(wait)


class SessionStarts:
    """Counts every session start, and keeps :data:`RESERVE` of the day's for later."""

    def __init__(
        self,
        coordination: Coordination,
        limits: Callable[[], Awaitable[Limits]],
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        today: Callable[[], str] = lambda: datetime.now(UTC).date().isoformat(),
    ) -> None:
        self._coordination = coordination
        self._limits = limits
        self._sleep = sleep
        self._today = today

    async def before_identify(self, shard_id: int) -> None:
        try:
            limits = await self._limits()
        except Exception:  # Discord will say so itself if the shard may not connect
            log.warning("shard %d: could not read Discord's session start limit", shard_id)
            return
        if limits.remaining <= limits.total * RESERVE:
            wait = limits.reset_after / 1000
            log.error(
                "shard %d: only %d of Discord's %d session starts a day are left; waiting %.0f s "
                "for the reset rather than spend the rest (a crash loop?)",
                shard_id,
                limits.remaining,
                limits.total,
                wait,
            )
            await self._sleep(wait)
        try:
            today = await self._coordination.count_start(self._today(), 1)
        except Exception:  # the count is for the operator: never a reason not to connect
            log.warning("could not count a session start", exc_info=True)
            return
        log.info(
            "shard %d identifies: session %d started today (Discord: %d of %d left)",
            shard_id,
            today,
            limits.remaining,
            limits.total,
        )


def pause_after(starts: int) -> float:
    """Seconds to wait before a start that is the ``starts``-th within :data:`LOOP_WINDOW`."""
    if starts <= FREE_STARTS:
        return 0.0
    return float(min(FIRST_PAUSE * 2 ** (starts - FREE_STARTS - 1), LONGEST_PAUSE))


async def start_pause(
    coordination: Coordination, shards: str, *, now: Callable[[], float] = time.time
) -> float:
    """Record this process's start; the pause it should take before connecting."""
    at = now()
    starts = await coordination.count_process_start(shards, at, since=at - LOOP_WINDOW)
    pause = pause_after(starts)
    if pause:
        log.warning(
            "start %d of shards %s in %.0f hours: waiting %.0f s before connecting, so a "
            "crash loop cannot spend Discord's 1,000 session starts a day",
            starts,
            shards,
            LOOP_WINDOW / 3600,
            pause,
        )
    else:
        log.info("start %d of shards %s in %.0f hours", starts, shards, LOOP_WINDOW / 3600)
    return pause
