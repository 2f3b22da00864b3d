"""What a table must show, recorded by the core under the table's lock, delivered by the edge.

The core never waits on Discord: it appends effects here and wakes the edge, which delivers them
in order and retries until Discord takes each one. Lines, results and private cards are each
delivered once; the table picture is not a snapshot but a request to draw the table as it is
when the edge gets to it, so consecutive requests fold into one and the latest state wins.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.public import PrivateHand

if TYPE_CHECKING:
    from bot.core.ledger import SessionLedger
    from bot.core.storage import HandEnd
    from bot.core.tables import LiveHand


@dataclass(frozen=True, slots=True)
class Line:
    """One message in the table's channel; ``mention`` is the user it may ping."""

    text: str
    mention: int | None = None


@dataclass(frozen=True, slots=True)
class Picture:
    """Redraw the table message from the table's current state."""


@dataclass(frozen=True, slots=True)
class Results:
    """A finished hand's showdown picture, pots and deck reveal."""

    hand: LiveHand
    end: HandEnd
    next_hand_at: float | None
    # The hand's own last line: the table's log is the next hand's once that one is dealt,
    # which may be before the results are shown (no countdown, or Discord slow to take them).
    last_action: str = ""


@dataclass(frozen=True, slots=True)
class ClearButtons:
    """Take the buttons off an older table message (one from before a restart, say)."""

    message_id: int


@dataclass(frozen=True, slots=True)
class Private:
    """A player's own cards, read when they were dealt (the hand may have moved on since)."""

    user_id: int
    hand_id: int
    cards: PrivateHand
    game: str  # the hand's game ("razz"): a mixed table's player is told which one he plays


@dataclass(frozen=True, slots=True)
class Ledger:
    """The session ledger of a table that has just closed, for its channel."""

    ledger: SessionLedger


Effect = Line | Picture | Results | ClearButtons | Private | Ledger


class Outbox:
    """A table's effects in the order they happened."""

    def __init__(self) -> None:
        self._items: deque[Effect] = deque()
        self.wake: Callable[[], None] = lambda: None  # set by whoever delivers

    def put(self, effect: Effect) -> None:
        # A picture being delivered was taken out: a change made meanwhile still gets drawn.
        if isinstance(effect, Picture) and self._items and isinstance(self._items[-1], Picture):
            return
        self._items.append(effect)
        self.wake()

    def take(self) -> Effect | None:
        """The oldest effect, for delivery; ``put_back`` it if delivery failed."""
        return self._items.popleft() if self._items else None

    def put_back(self, effect: Effect) -> None:
        """Deliver ``effect`` first, before anything recorded since it was taken."""
        self._items.appendleft(effect)

    def __len__(self) -> int:
        return len(self._items)

    def drain(self) -> list[Effect]:
        """Everything pending, oldest first, taken out (a table whose channel is gone)."""
        items = list(self._items)
        self._items.clear()
        return items
