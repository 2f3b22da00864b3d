"""Who takes no DMs: a player whose DM Discord refused (403) is not DMed again for hours.

Each refused DM is an invalid request (:mod:`bot.edge.budget`); trying every hand, a thousand
tables with one such player each would spend Discord's whole budget in ten minutes. So a refusal
is remembered in the store (a restart keeps it, and every worker of a cluster reads it at
start): no DM to that player until :data:`BACK_OFF` has passed, or until he shows his DMs may be
open by asking for his cards (**My cards** or ``/cards``). Even then, no sooner than
:data:`REOPEN_GAP` after the last refusal: a player who clicks My cards every hand costs at most
one refused DM per ten minutes. While the budget is strained, no closed DM is tried again at all.

A worker that learns of a refusal another worker had meanwhile tries once itself; the database
stays the one record.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Final

from bot.core.storage.coordination import Coordination

log = logging.getLogger(__name__)

BACK_OFF: Final = 6 * 3600.0  # seconds before a refused player is DMed again unasked
REOPEN_GAP: Final = 600.0  # the least time between two refused DMs to one player


class ClosedDms:
    def __init__(
        self, coordination: Coordination, *, clock: Callable[[], float] = time.time
    ) -> None:
        self._store = coordination
        self._clock = clock
        self._closed: dict[int, tuple[float, float]] = {}  # user id -> (refused at, retry at)
        self._turns: dict[int, asyncio.Lock] = {}  # user id -> his DMs' turns
        self._waiting: dict[int, int] = {}  # user id -> DMs of his sending or waiting to

    async def load(self) -> None:
        """Read the refusals whose back-off still runs (at start)."""
        self._closed = await self._store.dms_closed(since=self._clock())
        if self._closed:
            log.info("%d players take no DMs (refused within the back-off)", len(self._closed))

    @asynccontextmanager
    async def turn(self, user_id: int) -> AsyncIterator[None]:
        """One DM to a player at a time: the next one asks :meth:`may_try` only once the one
        before is answered, so two DMs in flight at once never both meet his closed DMs."""
        lock = self._turns.setdefault(user_id, asyncio.Lock())
        self._waiting[user_id] = self._waiting.get(user_id, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._waiting[user_id] -= 1
            if not self._waiting[user_id]:
                del self._waiting[user_id], self._turns[user_id]

    def may_try(self, user_id: int, *, strained: bool = False) -> bool:
        """Whether a DM to this player may be sent now."""
        closed = self._closed.get(user_id)
        if closed is None:
            return True
        return not strained and self._clock() >= closed[1]

    async def refused(self, user_id: int) -> None:
        """Discord refused a DM to him (403): none again for :data:`BACK_OFF`."""
        now = self._clock()
        self._closed[user_id] = (now, now + BACK_OFF)
        await self._save(self._store.close_dms(user_id, now, now + BACK_OFF))

    async def asked(self, user_id: int) -> None:
        """He asked for his cards: his DMs may be open again; try the next one (not sooner
        than :data:`REOPEN_GAP` after the last refusal)."""
        closed = self._closed.get(user_id)
        if closed is None:
            return
        retry_at = max(self._clock(), closed[0] + REOPEN_GAP)
        if retry_at < closed[1]:
            self._closed[user_id] = (closed[0], retry_at)
            await self._save(self._store.retry_dms_at(user_id, retry_at))

    async def delivered(self, user_id: int) -> None:
        """A DM reached him: his DMs are open."""
        if self._closed.pop(user_id, None) is not None:
            await self._save(self._store.dms_open(user_id))

    @staticmethod
    async def _save(write: Awaitable[None]) -> None:
        # The memory above already decides for this process: a failing database costs at
        # most a DM tried once more after a restart, never a stalled table.
        try:
            await write
        except Exception:
            log.warning("could not save whether a player takes DMs", exc_info=True)
