"""The Activity's server in this process, the core behind it and the fake Discord beside it, and
pages that talk to it as the real page does (the SDK's part played by the fake Discord:
``tests.e2e.fake_activity``). Test files and ``benchmarks/activity.py`` import this module."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bot.activity.server import ActivityServer
from bot.core.config import TableConfig
from bot.core.house import House
from bot.core.settings import ActivitySettings, GameDefaults
from bot.core.storage import Store
from tests.bot.fakes import Screen
from tests.databases import migrated_sqlite
from tests.e2e.fake_activity import authorize, start_instance
from tests.e2e.fake_discord import JSON, FakeDiscord
from tests.texts import TEXTS

ORIGIN = "https://activity.test"
# How long a frame may take before a test gives up on it: a bound on failing, not a speed
# (a hand's all-in odds are counted in a thread, which takes seconds on a loaded machine).
WAIT = 60.0
GAME = GameDefaults(countdown_seconds=0)  # hands follow one another at once


@dataclass
class Page:
    """One page's socket: every frame it got, in order, and its requests answered."""

    ws: aiohttp.ClientWebSocketResponse
    user_id: int
    frames: list[JSON] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)  # the frames as sent
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _arrived: asyncio.Event = field(default_factory=asyncio.Event)
    closed: tuple[int | None, str] | None = None

    async def read(self) -> None:
        async for message in self.ws:
            if message.type is aiohttp.WSMsgType.TEXT:
                self.texts.append(message.data)
                self.frames.append(json.loads(message.data))
                self._arrived.set()
        self.closed = (self.ws.close_code, str(self.ws.exception() or ""))
        self._arrived.set()

    async def until(self, found: Callable[[JSON], bool], seconds: float = WAIT) -> JSON:
        """The first frame ``found`` picks (waiting for it)."""
        async with asyncio.timeout(seconds):
            while True:
                for frame in self.frames:
                    if found(frame):
                        return frame
                if self.closed is not None:
                    raise AssertionError(f"the socket closed: {self.closed}, {self.frames}")
                self._arrived.clear()
                await self._arrived.wait()

    async def request(self, message: JSON) -> JSON:
        """Send a request; its answer (``done`` or ``refused``)."""
        number = next(self._ids)
        await self.ws.send_str(json.dumps({**message, "id": number}))
        return await self.until(
            lambda f: f.get("id") == number and f["type"] in ("done", "refused")
        )

    def latest(self, kind: str) -> JSON | None:
        return next((f for f in reversed(self.frames) if f["type"] == kind), None)


@dataclass
class Pages:
    """Pages opened at ``server`` in the fake Discord's first channel."""

    fake: FakeDiscord
    server: ActivityServer
    http: aiohttp.ClientSession
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    async def token(self, body: JSON, origin: str = ORIGIN) -> tuple[int, JSON]:
        async with self.http.post(
            f"{self.base}/api/token", json=body, headers={"Origin": origin}
        ) as response:
            return response.status, await response.json()

    async def session(self, user_id: int, *, channel: int | None = None) -> tuple[str, str]:
        """(session, instance id) for ``user_id`` at a page in the Activity of ``channel``
        (default: the fake's first)."""
        channel = channel or self.fake.channel_id
        instance_id = start_instance(self.fake, channel, user_id)
        status, body = await self.token(
            {
                "code": authorize(self.fake, user_id),
                "instance_id": instance_id,
                "channel_id": str(channel),
                "guild_id": str(self.fake.guild_id),
            }
        )
        assert status == 200, body
        return body["session"], instance_id

    async def connect(
        self,
        hello: JSON,
        user_id: int = 0,
        origin: str = ORIGIN,
    ) -> Page:
        ws = await self.http.ws_connect(f"{self.base}/ws", origin=origin)
        await ws.send_str(json.dumps({"type": "hello", **hello}))
        page = Page(ws, user_id)
        self.tasks.append(asyncio.create_task(page.read()))
        return page

    async def page(self, user_id: int) -> Page:
        """A page of ``user_id``'s, past its welcome."""
        session, instance_id = await self.session(user_id)
        hello = {"session": session, "instance_id": instance_id, "channel_id": str(self.channel)}
        page = await self.connect(hello, user_id)
        await page.until(lambda f: f["type"] == "welcome")
        return page

    @property
    def channel(self) -> int:
        return self.fake.channel_id

    def user(self, name: str) -> int:
        return int(self.fake.add_user(name)["id"])

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


@dataclass
class Rig(Pages):
    house: House = field(kw_only=True)
    store: Store = field(kw_only=True)
    screen: Screen = field(kw_only=True)

    async def open_table(self, game: str = "stud", channel: int | None = None) -> None:
        config = TableConfig.from_options(GAME, "en", game=game)
        await self.house.seating.open(self.fake.guild_id, channel or self.channel, 1, config)


@asynccontextmanager
async def activity_rig(
    tmp_path: Path, screen: Screen | None = None, **server: Any
) -> AsyncIterator[Rig]:
    """A core on a new SQLite file, shown on ``screen`` (default: a :class:`Screen` that keeps
    what it is shown), and the Activity's server on a free port, talking to a fake Discord for
    who is who."""
    fake = FakeDiscord()
    fake.activities = True
    await fake.start()
    path = tmp_path / "stud.db"
    await migrated_sqlite(path)
    store = await Store.open(path)
    screen = screen or Screen()
    house = House(store, TEXTS, show=screen.wake)
    activity = activity_server(fake, house, GAME, lambda: fake.app_id, **server)
    # No limit to the connections: each socket holds one (the benchmark opens hundreds).
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http, activity:
        rig = Rig(fake, activity, http, house=house, store=store, screen=screen)
        try:
            yield rig
        finally:
            await rig.close()
            await house.recovery.shutdown()
    await store.close()
    await fake.stop()


def activity_server(
    fake: FakeDiscord,
    house: House,
    game: GameDefaults,
    application_id: Callable[[], int | None],
    **server: Any,
) -> ActivityServer:
    """The Activity's server for ``house`` on a free port, asking ``fake`` who is who."""
    return ActivityServer(
        ActivitySettings(0, fake.client_secret, "https://activity.test"),
        house,
        TEXTS,
        game,
        application_id=application_id,
        api_base=fake.api_base,
        bot_token="fake-token",
        origins={ORIGIN},
        **server,
    )
