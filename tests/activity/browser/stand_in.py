"""A stand-in for the bot's Activity server, small enough to script: it serves the built page,
``/api/config`` and ``/api/token`` and speaks the page's side of the socket protocol
(docs/activity.md), so the page is tested in a browser without a bot, a database or Discord.

Each user has an OAuth2 code the fake Discord client hands his page; the token exchange checks
the page's origin and answers his session, as the real server does. A socket's first message
must be a ``hello`` with that session, instance and channel; then the test scripts what the
server says (:meth:`StandIn.push`) and reads what the page asked (:attr:`StandIn.received`).
"""

from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.activity.page_socket import page_words
from words import Texts

CLIENT_ID = "1234567890123456789"
ORIGIN = f"https://{CLIENT_ID}.discordsays.com"
SESSION_ENDED = "Your session has ended: close the Activity and open it again."


@dataclass(frozen=True, slots=True)
class User:
    user_id: str
    name: str
    code: str  # what AUTHORIZE answers his page


@dataclass
class Session:
    user: User
    instance_id: str
    channel_id: str


@dataclass
class StandIn:
    """The server: start it with ``async with``; ``url`` is where it listens."""

    static: Path
    users: tuple[User, ...]
    texts: Texts
    lang: str = "en"
    # Pushed to each user's socket right after the welcome (a test changes it before the
    # page connects): the table as the page first sees it.
    opening: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    received: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    tokens: list[dict[str, Any]] = field(default_factory=list)  # /api/token's requests
    issued: dict[str, str] = field(default_factory=dict)  # access token -> user id
    url: str = ""
    refuse_sessions: bool = False  # every socket's session refused, as an expired one is
    sockets_opened: int = 0

    def __post_init__(self) -> None:
        self._sessions: dict[str, Session] = {}
        self._sockets: dict[str, web.WebSocketResponse] = {}
        self._connected: dict[str, asyncio.Event] = {}
        self._runner: web.AppRunner | None = None

    async def __aenter__(self) -> StandIn:
        app = web.Application()
        app.router.add_get("/", self._index)
        app.router.add_get("/api/config", self._config)
        app.router.add_post("/api/token", self._token)
        app.router.add_get("/ws", self._socket)
        app.router.add_static("/assets", self.static / "assets")
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        for ws in list(self._sockets.values()):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def connected(self, user: User) -> None:
        event = self._connected.setdefault(user.user_id, asyncio.Event())
        await asyncio.wait_for(event.wait(), 20)

    async def drop(self, user: User) -> None:
        """The server goes away (a restart): the socket closes with 1001, Going Away."""
        self._connected[user.user_id].clear()
        await self._sockets.pop(user.user_id).close(code=1001)

    async def push(self, user: User, message: dict[str, Any]) -> None:
        await self._sockets[user.user_id].send_str(json.dumps(message))

    async def request(self, user: User, kind: str, timeout: float = 10) -> dict[str, Any]:
        """The first message of ``kind`` the user's page sent, waiting for it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            for message in self.received.get(user.user_id, []):
                if message.get("type") == kind:
                    return message
            await asyncio.sleep(0.05)
        raise AssertionError(f"the page sent no {kind!r}: {self.received.get(user.user_id)}")

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(self.static / "index.html")

    async def _config(self, request: web.Request) -> web.Response:
        return web.json_response({"client_id": CLIENT_ID})

    async def _token(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.tokens.append({**body, "origin": request.headers.get("Origin")})
        if request.headers.get("Origin") != ORIGIN:
            return web.json_response({"error": "This page works only inside Discord."}, status=403)
        user = next((user for user in self.users if user.code == body.get("code")), None)
        if user is None:
            return web.json_response({"error": "That sign-in was refused."}, status=401)
        session = secrets.token_urlsafe(16)
        access = secrets.token_urlsafe(16)
        self._sessions[session] = Session(user, body["instance_id"], body["channel_id"])
        self.issued[access] = user.user_id
        return web.json_response(
            {"access_token": access, "session": session, "user_id": user.user_id, "name": user.name}
        )

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.sockets_opened += 1
        if request.headers.get("Origin") != ORIGIN:
            await ws.close(code=1008, message=b"origin")
            return ws
        hello = json.loads((await ws.receive()).data)
        session = self._sessions.get(hello.get("session"))
        if (
            self.refuse_sessions
            or hello.get("type") != "hello"
            or session is None
            or session.instance_id != hello.get("instance_id")
            or session.channel_id != hello.get("channel_id")
        ):
            # As the bot's server does: the reason in an error message, then the close.
            await ws.send_str(json.dumps({"type": "error", "reason": SESSION_ENDED}))
            await ws.close(code=1008)
            return ws
        user = session.user
        self._sockets[user.user_id] = ws
        welcome = {
            "type": "welcome",
            "user_id": user.user_id,
            "channel_id": session.channel_id,
            "lang": self.lang,
            "words": page_words(self.texts, self.lang),
        }
        await ws.send_str(json.dumps(welcome))
        for message in self.opening.get(user.user_id, []):
            await ws.send_str(json.dumps(message))
        self._connected.setdefault(user.user_id, asyncio.Event()).set()
        async for frame in ws:
            self.received.setdefault(user.user_id, []).append(json.loads(frame.data))
        return ws
