"""Discord's invalid-request budget: what the bot spends of it, here and in the whole cluster.

Discord bans an IP for a while once 10,000 of its requests in 10 minutes were answered 401, 403
or 429 (a 429 of a ``shared`` rate limit excepted), every bot on that IP counted together. Every
answer discord.py gets passes through an aiohttp trace (:func:`trace`): the refused ones are
counted here, per second over a sliding 10 minutes, and added (per minute) to the store's count
that every worker of the cluster adds to (:meth:`InvalidRequests.share`), so each process knows
what the whole cluster spent.

At half the budget the bot is *strained*: it logs a warning and puts off what can wait (the
presenter drops cosmetic retries, pauses longer between retries, and tries no closed DM again).
docs/operating.md, "Discord's invalid-request budget", derives the figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from types import SimpleNamespace
from typing import Final, Protocol

import aiohttp

log = logging.getLogger(__name__)

LIMIT: Final = 10_000  # refused requests Discord allows an IP in WINDOW seconds
WINDOW: Final = 600.0
INVALID: Final = frozenset({401, 403, 429})
SHARE_SECONDS: Final = 10.0  # how often a process adds its count to the cluster's and reads it

# Told the status of each answer and the URL it answered (bot.edge.metrics).
Observer = Callable[[int, str], None]


class SharedCounts(Protocol):
    """Where every process adds its counts (``store.coordination``)."""

    async def add_invalid(self, counts: list[tuple[int, int]]) -> None: ...

    async def invalid_since(self, minute: int) -> int: ...


class InvalidRequests:
    """Refused requests over the last :data:`WINDOW` seconds. ``clock`` is wall time (the
    cluster's minutes must mean the same on every machine)."""

    def __init__(self, *, limit: int = LIMIT, clock: Callable[[], float] = time.time) -> None:
        self.limit = limit
        self._clock = clock
        self._seconds: deque[list[int]] = deque()  # [second, count], oldest first
        self._unshared: dict[int, int] = {}  # minute -> refused, not yet added to the store
        self.cluster = 0  # every process's count at the last share (0: never shared)
        self.strained = False

    def record(self, status: int, scope: str = "") -> None:
        """One answer from Discord; only refusals count (not a shared rate limit's 429, which
        Discord does not count against the IP)."""
        if status not in INVALID or (status == 429 and scope == "shared"):
            return
        second = int(self._clock())
        if self._seconds and self._seconds[-1][0] == second:
            self._seconds[-1][1] += 1
        else:
            self._seconds.append([second, 1])
        minute = second // 60
        self._unshared[minute] = self._unshared.get(minute, 0) + 1
        self._check()

    def count(self) -> int:
        """This process's refused requests in the window."""
        oldest = self._clock() - WINDOW
        while self._seconds and self._seconds[0][0] <= oldest:
            self._seconds.popleft()
        return sum(count for _, count in self._seconds)

    @property
    def used(self) -> int:
        """What the budget has spent, as far as this process knows: the cluster's count, or
        this process's own when that is more (not shared yet)."""
        oldest = int(self._clock() - WINDOW) // 60
        unshared = sum(count for minute, count in self._unshared.items() if minute >= oldest)
        return max(self.count(), self.cluster + unshared)

    @property
    def half(self) -> int:
        return self.limit // 2

    def _check(self) -> None:
        used = self.used
        if not self.strained and used >= self.half:
            self.strained = True
            log.warning(
                "Discord refused %d requests in 10 minutes, half of the %d that get the IP "
                "banned: putting off what can wait (cosmetic retries, closed DMs)",
                used,
                self.limit,
            )
        elif self.strained and used < self.half:
            self.strained = False
            log.info("Discord refused %d requests in 10 minutes: back to normal", used)

    async def share(self, shared: SharedCounts) -> None:
        """Add this process's new refusals to the cluster's count, and read the cluster's."""
        sending, self._unshared = self._unshared, {}
        try:
            await shared.add_invalid(sorted(sending.items()))
        except BaseException:
            for minute, count in sending.items():  # added next time
                self._unshared[minute] = self._unshared.get(minute, 0) + count
            raise
        # Whole minutes: the window read is up to one minute longer than Discord's, never less.
        self.cluster = await shared.invalid_since(int(self._clock() - WINDOW) // 60)
        self._check()

    async def keep_sharing(self, shared: SharedCounts, every: float = SHARE_SECONDS) -> None:
        """:meth:`share` every ``every`` seconds until cancelled; a failing database is logged
        and tried again (the process's own count still guards it meanwhile)."""
        while True:
            try:
                await self.share(shared)
            except Exception:
                log.warning("could not share the invalid-request count", exc_info=True)
            await asyncio.sleep(every)


def trace(budget: InvalidRequests, *observers: Observer) -> aiohttp.TraceConfig:
    """An aiohttp trace that counts each answer discord.py gets against ``budget`` and tells
    ``observers`` its status and URL (give it to the client as ``http_trace``)."""
    config = aiohttp.TraceConfig()

    async def on_request_end(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        status = params.response.status
        # A counter must never fail a request.
        with contextlib.suppress(Exception):
            budget.record(status, params.response.headers.get("X-RateLimit-Scope", ""))
            for observer in observers:
                observer(status, params.url.path)

    config.on_request_end.append(on_request_end)
    return config
