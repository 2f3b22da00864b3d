"""Test doubles for the core: a clock that moves only when told, a screen that takes what the
tables put in their outboxes and reports back as the Discord edge does, and a store that audits
itself after every call."""

from __future__ import annotations

import asyncio
import heapq
import inspect
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.core.games import STUD
from bot.core.house import House
from bot.core.outbox import ClearButtons, Effect, Line, Outbox
from bot.core.storage import Store, Tournament
from bot.core.storage.hands import HandRecords
from bot.core.storage.house import HouseWallet
from bot.core.storage.players import PlayerRecords
from bot.core.storage.reports import ReportQueries
from bot.core.storage.seating import SeatRecords
from bot.core.storage.tournaments import TournamentRecords
from bot.core.storage.wallets import Wallets
from bot.core.views import LobbyView, PrivateView, ResultsView, TableView
from engine.stakes import Stakes
from tests.texts import TEXTS

CHANNEL, GUILD = 100, 1
TURN = 60.0


async def seat_directly(store: Store, stacks: list[int], ante: int = 1, game: str = STUD) -> Stakes:
    """Seats holding ``stacks`` (below any buy-in: the store is told directly, as a table's
    busted players would leave it) at a table of ``game``."""
    stakes = Stakes(ante, 3, 10, 20)
    settings = {
        "stakes": stakes.to_dict(),
        "turn_seconds": TURN,
        "countdown_seconds": 0,
        "lang": "en",
        "game": game,
    }
    await store.seating.open(
        CHANNEL, GUILD, 1, max_seats=8, min_buy_in=1, max_buy_in=1000, settings=settings
    )
    for user_id, stack in enumerate(stacks, start=1):
        await store.seating.sit(CHANNEL, user_id, stack)
    return stakes


class ManualClock:
    """``now()`` and ``sleep()`` for the tables; ``advance()`` moves time and wakes sleepers."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._count = 0
        self._sleeping: set[asyncio.Task[object]] = set()
        self._changed = asyncio.Event()

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + max(0.0, seconds), self._count, future))
        self._count += 1
        task = asyncio.current_task()
        assert task is not None
        self._sleeping.add(task)
        self._changed.set()
        try:
            await future
        finally:
            self._sleeping.discard(task)

    async def until_idle(self, tasks: Callable[[], Iterable[asyncio.Task[None]]]) -> None:
        """Wait (for events, not for time) until every task is done or asleep on this clock."""
        while True:
            busy = [t for t in tasks() if not t.done() and t not in self._sleeping]
            if not busy:
                return
            self._changed.clear()
            changed = asyncio.ensure_future(self._changed.wait())
            await asyncio.wait([changed, *busy], return_when=asyncio.FIRST_COMPLETED)
            changed.cancel()

    async def advance(self, seconds: float, house: House) -> None:
        """Move time forward, waking each sleeper in turn and letting the tables settle."""
        target = self._now + seconds
        await self.until_idle(lambda: house.tasks)
        while self._sleepers and self._sleepers[0][0] <= target:
            when, _, future = heapq.heappop(self._sleepers)
            self._now = max(self._now, when)
            if not future.done():
                future.set_result(None)
            await asyncio.sleep(0)
            await self.until_idle(lambda: house.tasks)
        self._now = target
        # What the last wake-up put in an outbox reaches a Screen on the next loop turns.
        for _ in range(3):
            await asyncio.sleep(0)


def new_house(
    store: Store, clock: ManualClock, screen: Screen | None = None, lobby: Lobby | None = None
) -> House:
    """The core as ``main()`` makes it, on ``clock``, shown on ``screen`` (None: nowhere), its
    tournaments on ``lobby`` (None: none is shown or starts)."""
    show = None if screen is None else screen.wake
    return House(store, TEXTS, clock=clock, show=show, lobby=lobby)


def screened(
    store: Store, clock: ManualClock, *, working: bool = True, lobby: Lobby | None = None
) -> tuple[House, Screen]:
    """The core and the screen it shows its tables on."""
    screen = Screen(working=working)
    return new_house(store, clock, screen, lobby), screen


@dataclass
class Lobby:
    """The tournaments' face a test hands the house (``bot.core.tournament.Lobby``; on Discord
    ``bot.edge.lobby.Lobbies``). Each part a test may set; one left out shows nothing, makes no
    event and no thread."""

    on_show: Callable[[LobbyView], Awaitable[int | None]] | None = None
    on_make_thread: Callable[[Tournament, int], Awaitable[int]] | None = None
    on_make_event: Callable[[Tournament], Awaitable[int]] | None = None
    on_set_event: Callable[[Tournament, str], Awaitable[None]] | None = None
    on_say: Callable[[int, str, Sequence[int]], Awaitable[None]] | None = None

    async def show(self, view: LobbyView) -> int | None:
        return None if self.on_show is None else await self.on_show(view)

    async def make_thread(self, tournament: Tournament, number: int) -> int:
        if self.on_make_thread is None:
            raise RuntimeError("this test's lobby makes no thread")
        return await self.on_make_thread(tournament, number)

    async def close_threads(self, channel_ids: Sequence[int]) -> None:
        pass

    async def make_event(self, tournament: Tournament) -> int:
        if self.on_make_event is None:
            raise RuntimeError("this test's lobby makes no event")
        return await self.on_make_event(tournament)

    async def set_event(self, tournament: Tournament, status: str) -> None:
        if self.on_set_event is not None:
            await self.on_set_event(tournament, status)

    async def say(self, channel_id: int, text: str, mentions: Sequence[int]) -> None:
        if self.on_say is not None:
            await self.on_say(channel_id, text, mentions)


@dataclass
class Screen:
    """Delivers every table's outbox at once (or, with ``working=False``, never), reporting
    each effect delivered back to the house, as the Discord edge does."""

    working: bool = True
    lines: list[str] = field(default_factory=list)
    pings: list[int] = field(default_factory=list)
    pictures: int = 0
    private: list[tuple[int, int]] = field(default_factory=list)  # (hand id, user id)
    results: list[ResultsView] = field(default_factory=list)
    cleared: list[int] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)

    def wake(self, outbox: Outbox) -> None:
        asyncio.get_running_loop().call_soon(self.deliver, outbox)

    def deliver(self, outbox: Outbox) -> None:
        while self.working and (effect := outbox.take()) is not None:
            self.effects.append(effect)
            match effect:
                case Line(text=text, mention=mention):
                    self.lines.append(text)
                    if mention is not None:
                        self.pings.append(mention)
                case TableView():
                    self.pictures += 1
                case ResultsView():
                    self.results.append(effect)
                case PrivateView(user_id=user_id, hand_id=hand_id):
                    self.private.append((hand_id, user_id))
                case ClearButtons(message_id=message_id):
                    self.cleared.append(message_id)
            outbox.delivered(effect)

    def start(self, outbox: Outbox) -> None:
        """Discord works again: deliver what waited."""
        self.working = True
        self.deliver(outbox)


# The store's parts that keep the chips and the games (not the cluster's coordination).
_FRONT_DOORS = (
    Wallets,
    SeatRecords,
    HandRecords,
    PlayerRecords,
    ReportQueries,
    HouseWallet,
    TournamentRecords,
)


class Audited:
    """A store whose every coroutine method, its facades' (``store.players``, ...) included,
    is followed by ``audit()``."""

    def __init__(self, store: Store, facade: object = None, root: Audited | None = None) -> None:
        self.store = store
        self.methods = store if facade is None else facade
        self.root = self if root is None else root  # the one that counts the audits
        self.audits = 0

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self.methods, name)
        if isinstance(attribute, _FRONT_DOORS):
            return Audited(self.store, attribute, self.root)
        if name in ("audit", "close") or not inspect.iscoroutinefunction(attribute):
            return attribute

        async def audited(*args: Any, **kwargs: Any) -> Any:
            try:
                return await attribute(*args, **kwargs)
            finally:
                await self.store.audit()
                self.root.audits += 1

        return audited
