"""The Activity's web server (aiohttp): the page, who the page is, and its WebSocket.

Discord's proxy (``https://<application id>.discordsays.com``) is the page's origin and maps the
Activity's root to this server; a reverse proxy in front of it gives it HTTPS (docs/operating.md).
Made in ``main()`` and handed the core (discord.py's ``advanced_startup`` pattern): it serves
while the bot runs and closes every socket when it stops.

- ``GET /`` and the page's files: from the package (``bot/activity/static``).
- ``GET /api/config``: the application id the page's SDK is made with (not a secret).
- ``POST /api/token``: the OAuth2 code exchanged for the user's token (``bot.activity.identity``)
  and a session bound to him, his Activity instance and its channel.
- ``GET /ws``: the table, pushed as it changes, and the page's requests (``page_socket``).

Every path is also answered under ``/.proxy``, the prefix Discord's proxy once required.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Final

import aiohttp
from aiohttp import web

from bot.activity.identity import DiscordApi, Identity, NotProven
from bot.activity.page_socket import PageSocket, Rate, Session
from bot.core.house import House
from bot.core.settings import ActivitySettings, GameDefaults
from words import Texts

log = logging.getLogger(__name__)

STATIC: Final = Path(__file__).with_name("static")
PREFIXES: Final = ("", "/.proxy")
SESSION_SECONDS: Final = 12 * 3600.0  # a page open longer authenticates again
HELLO_SECONDS: Final = 10.0  # a socket that names no session in this long is closed
SOCKET_BYTES: Final = 64 * 1024  # beyond this aiohttp closes the socket (1009)
TOKEN_BODY_BYTES: Final = 4096
A_PERSONS: Final = Rate()  # a socket's messages: as fast as a person clicks


def proxy_origin(client_id: int) -> str:
    """Where Discord serves an application's Activity from: the page's origin."""
    return f"https://{client_id}.discordsays.com"


class ActivityServer:
    def __init__(
        self,
        settings: ActivitySettings,
        house: House,
        texts: Texts,
        game: GameDefaults,
        *,
        application_id: Callable[[], int | None],
        api_base: str,
        bot_token: str,
        origins: Iterable[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        rate: Rate = A_PERSONS,
        static: Path = STATIC,
    ) -> None:
        """``application_id`` is the bot's, known once it has logged in; ``api_base`` Discord's
        API (the bot's own, a fake one in tests). ``origins``: the page origins taken (default:
        Discord's proxy for the application); ``rate``: the messages a socket may send."""
        self.settings = settings
        self._house = house
        self._texts = texts
        self._game = game
        self._application_id = application_id
        self._api_base = api_base.rstrip("/")
        self._bot_token = bot_token
        self._origins = None if origins is None else frozenset(origins)
        self._clock = clock
        self._rate = rate
        self._static = static
        self._sessions: dict[str, Session] = {}
        self._sockets: set[web.WebSocketResponse] = set()
        self._runner: web.AppRunner | None = None
        self._http: aiohttp.ClientSession | None = None
        self.port = settings.port

    # ------------------------------------------------------------------ running

    def app(self) -> web.Application:
        app = web.Application(client_max_size=TOKEN_BODY_BYTES)
        for prefix in PREFIXES:
            app.router.add_get(f"{prefix}/", self._index)
            app.router.add_get(f"{prefix}/api/config", self._config)
            app.router.add_post(f"{prefix}/api/token", self._token)
            app.router.add_get(f"{prefix}/ws", self._socket)
            app.router.add_get(prefix + "/{path:.+}", self._file)
        return app

    async def __aenter__(self) -> ActivityServer:
        self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.settings.host, self.settings.port)
        await site.start()
        if self.settings.port == 0:  # tests: any free port
            self.port = self._runner.addresses[0][1]
        where = f"{self.settings.host}:{self.port}"
        log.info("Activity on %s, public at %s", where, self.settings.url)
        return self

    async def __aexit__(self, *exc: object) -> None:
        for ws in list(self._sockets):
            await ws.close(code=aiohttp.WSCloseCode.GOING_AWAY, message=b"the bot is stopping")
        if self._runner is not None:
            await self._runner.cleanup()
        if self._http is not None:
            await self._http.close()

    # ------------------------------------------------------------------ the page

    async def _index(self, request: web.Request) -> web.StreamResponse:
        index = self._static / "index.html"
        if not index.is_file():
            return web.Response(status=503, text="The Activity's page is not built.\n")
        return web.FileResponse(index, headers={"Cache-Control": "no-cache"})

    async def _file(self, request: web.Request) -> web.StreamResponse:
        root = self._static.resolve()
        path = (root / request.match_info["path"]).resolve()
        if not path.is_relative_to(root) or not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(path)

    async def _config(self, request: web.Request) -> web.Response:
        client_id = self._application_id()
        if client_id is None:
            return web.json_response({"error": "starting"}, status=503)
        return web.json_response({"client_id": str(client_id)})

    # ------------------------------------------------------------------ who the page is

    def _origin_ok(self, request: web.Request) -> bool:
        origins = self._origins
        if origins is None:
            client_id = self._application_id()
            origins = frozenset() if client_id is None else frozenset({proxy_origin(client_id)})
        return request.headers.get("Origin") in origins

    async def _token(self, request: web.Request) -> web.Response:
        lang = self._texts.language("")
        if not self._origin_ok(request):
            return self._refusal("activity_bad_origin", lang, 403)
        try:
            body = await request.json()
            code, instance_id = str(body["code"]), str(body["instance_id"])
            channel_id = int(body["channel_id"])
        except (ValueError, KeyError, TypeError, web.HTTPException):
            return self._refusal("activity_bad_message", lang, 400)
        client_id = self._application_id()
        if client_id is None or self._http is None:
            return self._refusal("activity_discord_down", lang, 503)
        api = DiscordApi(
            self._http, self._api_base, client_id, self.settings.client_secret, self._bot_token
        )
        try:
            identity = await api.prove(code, instance_id, channel_id)
        except NotProven as refused:
            return self._refusal(refused.key, lang, refused.status)
        except (aiohttp.ClientError, TimeoutError, ValueError):
            log.warning("Discord could not be asked who an Activity's user is", exc_info=True)
            return self._refusal("activity_discord_down", lang, 503)
        session = self._new_session(identity)
        return web.json_response(
            {
                "access_token": identity.access_token,
                "session": session.token,
                "user_id": str(identity.user_id),
                "name": identity.name,
            }
        )

    def _new_session(self, identity: Identity) -> Session:
        now = self._clock()
        # Sessions of pages long gone go, a few at a time, as new ones come.
        for token, old in list(self._sessions.items())[:8]:
            if now - old.made > SESSION_SECONDS:
                del self._sessions[token]
        session = Session(
            secrets.token_urlsafe(32), identity, self._texts.language(identity.locale), now
        )
        self._sessions[session.token] = session
        return session

    def _refusal(self, key: str, lang: str, status: int) -> web.Response:
        return web.json_response({"error": self._texts.t(lang, key)}, status=status)

    # ------------------------------------------------------------------ the socket

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=SOCKET_BYTES)
        await ws.prepare(request)
        if not self._origin_ok(request):
            await self._refuse(ws, "activity_bad_origin")
            return ws
        session = await self._hello(ws)
        if session is None:
            return ws
        self._sockets.add(ws)
        try:
            await PageSocket(
                ws,
                session,
                self._house,
                self._texts,
                self._game,
                self._clock,
                self._rate,
            ).run()
        finally:
            self._sockets.discard(ws)
        return ws

    async def _hello(self, ws: web.WebSocketResponse) -> Session | None:
        """The session the page's first message names, if it is good for where it is used."""
        try:
            message = await ws.receive(timeout=HELLO_SECONDS)
            hello = json.loads(message.data) if message.type is web.WSMsgType.TEXT else None
        except (TimeoutError, ValueError):
            hello = None
        if not isinstance(hello, dict) or hello.get("type") != "hello":
            await self._refuse(ws, "activity_bad_session")
            return None
        session = self._sessions.get(str(hello.get("session")))
        if session is None or self._clock() - session.made > SESSION_SECONDS:
            await self._refuse(ws, "activity_bad_session")
            return None
        identity = session.identity
        if str(hello.get("instance_id")) != identity.instance_id or str(
            hello.get("channel_id")
        ) != str(identity.channel_id):
            await self._refuse(ws, "activity_wrong_channel", session.lang)
            return None
        return session

    async def _refuse(self, ws: web.WebSocketResponse, key: str, lang: str = "") -> None:
        reason = self._texts.t(self._texts.language(lang), key)
        await ws.send_str(json.dumps({"type": "error", "reason": reason}, ensure_ascii=False))
        # A close reason is at most 123 bytes: the error message says it in full.
        await ws.close(code=aiohttp.WSCloseCode.POLICY_VIOLATION, message=key.encode())
