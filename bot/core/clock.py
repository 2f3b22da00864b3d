"""Time as the tables see it: injected, so tests advance it instead of waiting for it."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Iterator, Sequence
from typing import Protocol


def pauses(schedule: Sequence[float]) -> Iterator[float]:
    """The pauses between tries of something that may fail for a while: ``schedule`` in turn,
    then its last one for as long as it takes. Every retry of the bot grows this way."""
    yield from schedule
    yield from itertools.repeat(schedule[-1])


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
