"""Turns to IDENTIFY, shared by the processes of a cluster.

Discord lets a bot start one gateway session per 5 seconds (``max_concurrency`` 1, what a bot
has below 150,000 servers) and invalidates the sessions that come faster. discord.py spaces the
shards of one process; the processes of ``stud-bot cluster`` also space themselves, through a
file they all lock briefly to book the next free moment (``--identify-lock``): a restarted
worker then never identifies in the same moment as another one.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

INTERVAL = 5.0  # seconds between two IDENTIFYs of the bot, whichever process sends them
POLL = 0.05  # seconds between tries while another process holds the file


class IdentifyTurns:
    """``await turns.wait()`` before each IDENTIFY.

    The file holds the moment (``time.monotonic()``, the same clock in every process of the
    machine and never set back) booked by the latest IDENTIFY; each caller books the later of
    now and that moment plus ``interval``, and sleeps until then without holding the lock, so a
    stopping process is never stuck waiting for it.
    """

    def __init__(
        self,
        path: Path,
        interval: float = INTERVAL,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.path = path
        self.interval = interval
        self._clock = clock
        self._sleep = sleep

    async def wait(self, shard_id: int = 0) -> None:
        """Every shard in one queue: one machine's processes, ``max_concurrency`` 1."""
        delay = await self.book() - self._clock()
        if delay > 0:
            await self._sleep(delay)

    async def book(self) -> float:
        """Book the next free moment to IDENTIFY at, and return it."""
        while True:
            descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                try:
                    fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    pass
                else:
                    return self._book(descriptor)
            finally:
                os.close(descriptor)  # releases the lock too
            await self._sleep(POLL)

    def _book(self, descriptor: int) -> float:
        try:
            last = float(os.pread(descriptor, 64, 0) or "-inf")
        except ValueError:  # not written by us: nothing booked
            last = float("-inf")
        moment = max(self._clock(), last + self.interval)
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, repr(moment).encode(), 0)
        return moment
