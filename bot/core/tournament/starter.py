"""Starting a sit-and-go once its seats are all taken (RULES 11.1), whatever gets in the way.

The start is the store's one transaction (the tournament running, its tables opened, everyone
seated): a crash before it commits leaves the tournament registering with every seat taken, and
the restart starts it; a crash after it restores it running. What comes before the transaction
can fail too (Discord refusing a thread, the store away): the registration stands, the player is
told the start is delayed, and it is tried again on the clock, and at the next registration.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable, Container

from bot.core.clock import Clock
from bot.core.storage import RegistrationClosed, Store
from bot.core.tasks import Tasks
from bot.core.tournament.director import RETRY_SECONDS

log = logging.getLogger(__name__)


class Starter:
    """The desk's starts of sit-and-gos: one at a time per tournament in this process, so a
    retry and a registration never start one twice (another process's start is refused by the
    store: ``RegistrationClosed``)."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        tasks: Tasks,
        *,
        start: Callable[[int], Awaitable[object]],
        started: Container[int],
        shown: Callable[[int], Awaitable[None]],
    ) -> None:
        """``start`` starts a tournament (the desk's); ``started`` holds the tournaments
        running here; ``shown`` shows a tournament's lobby anew."""
        self._store = store
        self._clock = clock
        self._tasks = tasks
        self._start = start
        self._started = started
        self._shown = shown
        self._locks: dict[int, asyncio.Lock] = {}
        self._retrying: set[int] = set()

    async def when_full(self, tournament_id: int) -> bool:
        """Start it if it is a sit-and-go still registering with all its seats taken; returns
        whether that start failed and is delayed (then tried again on the clock)."""
        delayed = await self._attempt(tournament_id)
        if delayed and tournament_id not in self._retrying:
            self._retrying.add(tournament_id)
            self._tasks.spawn(self._later(tournament_id))
        return delayed

    async def after_restart(self, tournament_id: int) -> None:
        """A restart found it registering: a start the crash stopped before its transaction
        committed happens now, the lobby showing it."""
        if not await self.when_full(tournament_id):
            await self._show(tournament_id)

    async def _attempt(self, tournament_id: int) -> bool:
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            try:
                if tournament_id in self._started:
                    return False
                tournament = await self._store.tournaments.get(tournament_id)
                if tournament.state != "registering" or tournament.start_entrants is None:
                    return False
                entries = await self._store.tournaments.entries(tournament_id)
                if len(entries) < tournament.start_entrants:
                    return False  # someone unregistered meanwhile: the next entry starts it
                await self._start(tournament_id)
                return False
            except RegistrationClosed:
                return False  # another process started it, or it was called off
            except Exception:
                log.warning(
                    "tournament %s: the start failed; trying again", tournament_id, exc_info=True
                )
                return True

    async def _later(self, tournament_id: int) -> None:
        try:
            for attempt in itertools.count():
                await self._clock.sleep(RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)])
                if not await self._attempt(tournament_id):
                    break
        finally:
            self._retrying.discard(tournament_id)
        await self._show(tournament_id)

    async def _show(self, tournament_id: int) -> None:
        try:
            await self._shown(tournament_id)
        except Exception:
            # The next change shows it.
            log.warning("tournament %s: the lobby was not shown", tournament_id, exc_info=True)
