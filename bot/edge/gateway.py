"""The gateway's limits, for a bot spread over processes and machines.

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
- **A crash loop.** A process that keeps dying after it connected (and systemd, or the
  cluster, restarting it) waits longer before each new start: its shards' starts that opened
  a gateway session in the last :data:`LOOP_WINDOW` seconds are counted in the database, so
  the pause grows across restarts (:class:`CrashLoop`). A start that opens none (a refused
  token, no network) spends none of the day's sessions and is not counted; a process that
  stays up :data:`HEALTHY_SECONDS` starts the count over.

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
# A process up this long after its session opened is no crash loop: the count starts over.
HEALTHY_SECONDS: Final = 600.0


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
            try:
                self._concurrency = max(1, (await self._limits()).max_concurrency)
            except Exception:
                # One queue for every shard is never wrong, only slower: asked again next time.
                log.warning("could not read Discord's max_concurrency: one IDENTIFY at a time")
        bucket = shard_id % (self._concurrency or 1)
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


class CrashLoop:
    """The pause before a process of ``shards`` connects, and the count it comes from."""

    def __init__(
        self,
        coordination: Coordination,
        shards: str,
        *,
        now: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._coordination = coordination
        self._shards = shards
        self._now = now
        self._sleep = sleep

    async def pause(self) -> float:
        """Seconds to wait before connecting, said in the log with why."""
        at = self._now()
        since = at - LOOP_WINDOW
        earlier = (await self._coordination.process_starts(since)).get(self._shards, 0)
        pause = pause_after(earlier + 1)
        hours = LOOP_WINDOW / 3600
        if pause:
            log.warning(
                "shards %s keep restarting: %d starts in the last %.0f hours opened a Discord "
                "session and stopped within %.0f minutes, each spending one of Discord's 1,000 "
                "session starts a day. Waiting %.0f s before connecting (the pause doubles with "
                "each such start, up to %.0f minutes; `stud-bot crash-loop --reset` starts the "
                "count over)",
                self._shards,
                earlier,
                hours,
                HEALTHY_SECONDS / 60,
                pause,
                LONGEST_PAUSE / 60,
            )
        else:
            log.info(
                "shards %s: %d earlier starts opened a Discord session in the last %.0f hours; "
                "connecting without a pause",
                self._shards,
                earlier,
                hours,
            )
        return pause

    async def opened(self) -> None:
        """The process's first session opened: count this start, and once the process has
        stayed up :data:`HEALTHY_SECONDS`, start the count over (cancelled if it stops
        before)."""
        await self._coordination.record_process_start(self._shards, self._now())
        await self._sleep(HEALTHY_SECONDS)
        await self._coordination.clear_process_starts(self._shards)
        log.info(
            "shards %s stayed up %.0f minutes: the crash-loop count starts over",
            self._shards,
            HEALTHY_SECONDS / 60,
        )
