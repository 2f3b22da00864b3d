"""The core's background work (turn clocks, countdowns, retries, saves), kept in one place."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine, Iterator
from typing import Any

log = logging.getLogger(__name__)


class Tasks:
    """Tasks the tables started: each kept until it ends, a failure logged, all stopped at
    shutdown (a test's clock waits for them to be idle)."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            log.error("table task failed", exc_info=error)

    def __iter__(self) -> Iterator[asyncio.Task[None]]:
        return iter(list(self._tasks))

    async def stop(self) -> None:
        """Cancel every task and wait for each to end."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def cancel(task: asyncio.Task[None] | None) -> None:
    """Cancel ``task`` unless it is the one running (a clock that fired ends by itself)."""
    if task is not None and task is not asyncio.current_task():
        task.cancel()
