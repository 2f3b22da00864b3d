"""A face's view of something the core runs (a table, a tournament's lobby): the frozen views
it is handed as they change, in order, for it to take at its own pace."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import Final, Generic, TypeVar

T = TypeVar("T")

# A subscription this far behind keeps the latest views, not every one it missed.
KEPT: Final = 256


class Subscription(Generic[T]):
    """The views handed to one face, in order; ``latest`` says which ones a face that has
    fallen behind may skip (an older picture of the same thing)."""

    def __init__(
        self,
        user_id: int | None,
        close: Callable[[Subscription[T]], None],
        latest: Callable[[T], bool] = lambda item: True,
    ) -> None:
        self.user_id = user_id  # whose subscription (None: a spectator's)
        self._close = close
        self._latest = latest
        self._items: deque[T] = deque()
        self._arrived = asyncio.Event()
        self._ended = False

    def offer(self, item: T) -> None:
        if len(self._items) >= KEPT:
            for old in self._items:
                if self._latest(old):
                    self._items.remove(old)
                    break
        self._items.append(item)
        self._arrived.set()

    def pending(self) -> list[T]:
        """What has come and not been taken, now taken."""
        items, self._items = list(self._items), deque()
        return items

    def __aiter__(self) -> Subscription[T]:
        return self

    async def __anext__(self) -> T:
        """The next view, waiting for it; the iteration stops once what it watches is gone
        and every view handed over before has been taken."""
        while not self._items:
            if self._ended:
                raise StopAsyncIteration
            self._arrived.clear()
            await self._arrived.wait()
        return self._items.popleft()

    def end(self) -> None:
        """What it watches is gone: nothing comes after what has come."""
        self._ended = True
        self._arrived.set()

    def close(self) -> None:
        """Nothing more comes to it (closing it again does nothing)."""
        close, self._close = self._close, lambda subscription: None
        close(self)
