"""What a table must show, recorded by the core under the table's lock, delivered by the edge.

The core never waits on Discord: it appends effects here and wakes the edge, which takes them in
order and reports back what became of each through this same object, the one small interface
between them: :meth:`Outbox.delivered`, :meth:`Outbox.posted` (with the message's id) or
:meth:`Outbox.failed` (with why). Lines, results and private cards are each delivered once; the
table picture is not a snapshot but a request to show the table as it is when the edge takes
it: consecutive requests fold into one, and the view is built at :meth:`Outbox.take`, so the
latest state wins.

Any other face watches a table through a :class:`Subscription` (:meth:`Outbox.subscribe`): it
is handed the table's frozen views as they change, in order, a view per change; a player's own
cards only on his own subscription.
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from bot.core.errors import TableError
from bot.core.ledger import SessionLedger
from bot.core.views import PrivateView, ResultsView, TableView
from bot.core.watching import Subscription
from words import Texts


@dataclass(frozen=True, slots=True)
class Line:
    """One message in the table's channel; ``mention`` is the user it may ping."""

    text: str
    mention: int | None = None


@dataclass(frozen=True, slots=True)
class ClearButtons:
    """Take the buttons off an older table message (one from before a restart, say)."""

    message_id: int


@dataclass(frozen=True, slots=True)
class Ledger:
    """The session ledger of a table that has just closed, for its channel."""

    ledger: SessionLedger


Effect = Line | TableView | ResultsView | ClearButtons | PrivateView | Ledger


Shown = Line | TableView | ResultsView | PrivateView | Ledger


class Why(enum.Enum):
    """Why the edge could not deliver an effect."""

    DISCORD_DOWN = "discord_down"  # 429, 5xx, no answer: the same effect is tried again later
    FORBIDDEN = "forbidden"  # the bot may not show the table: it pauses, the effect waits
    CHANNEL_GONE = "channel_gone"  # deleted: the table closes, every chip goes back
    DMS_CLOSED = "dms_closed"  # a player takes no DMs: the channel says so once a session
    BROKEN = "broken"  # a request Discord will never take (our bug): logged, skipped


class DeliveryReports(Protocol):
    """What the core does with the edge's reports (``bot.core.house.House``)."""

    def delivered(self, outbox: Outbox, effect: Effect) -> None: ...

    def posted(self, outbox: Outbox, effect: Effect, message_id: int) -> None: ...

    def failed(
        self, outbox: Outbox, effect: Effect, why: Why, permissions: Sequence[str]
    ) -> None: ...


class _Redraw:
    """Show the table as it is (built into a :class:`TableView` when taken)."""


_REDRAW: Final = _Redraw()


class Outbox:
    """A table's effects in the order they happened, and the way back for their fate."""

    def __init__(
        self,
        channel_id: int,
        guild_id: int,
        *,
        texts: Texts,
        lang: str,
        view: Callable[[], TableView | None],
        reports: DeliveryReports,
        wake: Callable[[Outbox], None],
    ) -> None:
        self.channel_id = channel_id
        self.guild_id = guild_id
        self.lang = lang  # the channel's lines are in the table's language
        self.closed = False  # the table closed: what is left is its last words
        self.paused: TableError | None = None  # why the table can't be shown, while it can't
        self._texts = texts
        self._view = view
        self._reports = reports
        self._wake = wake
        self._items: deque[Effect | _Redraw] = deque()
        # Counts the changes recorded: a view built now shows every one of them. The edge
        # skips a picture request whose changes it has shown already (a click's answer).
        self.version = 0
        self._subscriptions: list[Subscription[Shown]] = []

    # ------------------------------------------------------------------ the core's side

    def say(self, key: str, *, ping: int | None = None, **params: object) -> None:
        """A line in the table's language; ``ping`` is the user it mentions."""
        self.put(Line(self._texts.t(self.lang, key, **params), ping))

    def redraw(self) -> None:
        if self._subscriptions and (view := self._view()) is not None:
            for subscription in self._subscriptions:
                subscription.offer(view)
        # A picture being delivered was taken out: a change made meanwhile still gets drawn.
        # A request still waiting shows this change too, since the view is built when it is
        # taken; only DMs behind it, which the channel never sees, would leave it out of
        # order: a hand's deal (the table, then its players' cards, then the table again)
        # is one message, not a post and at once an edit.
        self.version += 1
        for item in reversed(self._items):
            if item is _REDRAW:
                return
            if not isinstance(item, PrivateView):
                break
        self._items.append(_REDRAW)
        self.wake()

    def put(self, effect: Effect) -> None:
        self.version += 1
        self._items.append(effect)
        if not isinstance(effect, ClearButtons):  # the Discord message's own business
            for subscription in self._subscriptions:
                if not isinstance(effect, PrivateView) or effect.user_id == subscription.user_id:
                    subscription.offer(effect)
        self.wake()

    def subscribe(self, user_id: int | None = None) -> Subscription[Shown]:
        """Watch the table from now on, as ``user_id`` (None: a spectator); the first view is
        the table as it is."""
        subscription = Subscription[Shown](
            user_id, self._subscriptions.remove, lambda item: isinstance(item, TableView)
        )
        self._subscriptions.append(subscription)
        if (view := self._view()) is not None:
            subscription.offer(view)
        return subscription

    def wake(self) -> None:
        """Have the edge deliver what is here (once the table can be shown)."""
        self._wake(self)

    def close(self) -> None:
        """The table closed: what is left is its last words, and its watchers are told so."""
        self.closed = True
        for subscription in list(self._subscriptions):
            subscription.end()

    def drain(self) -> None:
        """Forget everything pending (a table whose channel is gone)."""
        self._items.clear()

    # ------------------------------------------------------------------ the edge's side

    def view(self) -> TableView | None:
        """The table as it is now (None: it closed)."""
        return self._view()

    def take(self, shown: int = -1) -> Effect | None:
        """The oldest effect, for delivery, or None: nothing left, or the table can't be shown
        (paused). A picture request comes out as the table's view as it is now, unless the edge
        has shown the table at version ``shown`` and nothing changed since."""
        while self.paused is None and self._items:
            item = self._items.popleft()
            if not isinstance(item, _Redraw):
                return item
            if self.version <= shown:
                continue
            view = self._view()
            if view is not None:  # None: the table closed, there is nothing to draw
                return view
        return None

    def delivered(self, effect: Effect) -> None:
        """Discord took ``effect``."""
        self._reports.delivered(self, effect)

    def posted(self, effect: Effect, message_id: int) -> None:
        """Discord took ``effect`` as the new message ``message_id``."""
        self._reports.posted(self, effect, message_id)

    def failed(self, effect: Effect, why: Why, permissions: Sequence[str] = ()) -> None:
        """Discord did not take ``effect``; ``permissions`` names what the bot lacks."""
        if why in (Why.DISCORD_DOWN, Why.FORBIDDEN):
            # First again, before anything recorded since; a picture is drawn anew.
            self._items.appendleft(_REDRAW if isinstance(effect, TableView) else effect)
        self._reports.failed(self, effect, why, permissions)

    def __len__(self) -> int:
        return len(self._items)
