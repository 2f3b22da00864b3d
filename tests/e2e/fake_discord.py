"""A small fake Discord on 127.0.0.1: enough REST and gateway for the unmodified bot.

The bot connects with ``bot.start()`` after ``discord.http.Route.BASE`` and
``DiscordWebSocket.DEFAULT_GATEWAY`` point here. Players act by sending INTERACTION_CREATE over the
gateway; every message, DM, upload and interaction callback the bot makes is recorded so tests can
check what a Discord user would have seen. Unknown routes answer 404 and are recorded, so a test
can assert the bot used only what this fake implements.

It also misbehaves as Discord does, on demand: ``faults`` (a :class:`FaultPlan`) answers chosen
routes with 429, 5xx, 403 or slowly; ``rate_limits`` keeps per-route buckets with Discord's
headers and 429s; :meth:`FakeDiscord.drop_gateway` cuts the gateway, which
accepts a RESUME (replaying missed events) or invalidates the session (``resume_policy``); an
interaction callback later than ``callback_window`` seconds is refused as Discord refuses it.
Every REST request, interaction, command sync and gateway session step is recorded with its time
on the fake's ``clock``: by default ``time.monotonic()``, with its slow answers waited out by
``asyncio.sleep``; the fault tests hand in a clock whose time they can move
(:class:`tests.e2e.harness.DiscordTime`), shared with the bot.

It shards as Discord does: ``GET /gateway/bot`` recommends ``shard_count`` shards, each IDENTIFY
with ``[shard_id, shard_count]`` opens that shard's session, and each server's events (its
GUILD_CREATE, its interactions) go on the session of shard ``(guild_id >> 22) % shard_count``
only. :meth:`FakeDiscord.add_guild` adds servers; the ``n``-th server is on shard ``n % count``
for any count up to 10. A client that names no shard is shard 0 of 1: it gets every server.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import struct
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

import yarl
from aiohttp import WSMsgType, web

from bot.core.clock import Clock
from tests.e2e.discord_rules import (
    CREATE_EVENTS,
    IS_COMPONENTS_V2,
    MANAGE_EVENTS,
    OLD_MESSAGE_EDIT_CODE,
    OLD_MESSAGE_SECONDS,
    REQUEST_BYTES_MAX,
    SCHEDULED,
    TOO_LARGE_CODE,
    as_returned,
    event_move_problem,
    event_problems,
    message_problems,
    sync_problems,
)
from tests.e2e.fake_activity import activity_answer, launch_refused, launched
from tests.e2e.faults import (
    FORBIDDEN_MESSAGES,
    FaultKind,
    FaultPlan,
    RateLimit,
    bucket_headers,
    rate_limited,
    route_hash,
    route_matches,
)

JSON = dict[str, Any]
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
ATTACH_FILES = 1 << 15
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
EVERYONE_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | (1 << 14) | ATTACH_FILES | (1 << 16)
ALL_PERMISSIONS = (1 << 53) - 1
MANAGE_GUILD = 1 << 5
ADMINISTRATOR = 1 << 3
EPHEMERAL = 1 << 6
LOADING = 1 << 7  # a deferred response's "thinking" message
# Discord keeps a session's recent events for a RESUME; an older sequence gets INVALID_SESSION.
BACKLOG = 1000
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Server ids: the n-th is (GUILD_EPOCH + n) << 22, so it lands on shard n % count for every
# count dividing 2520 (1 to 10 among them); below the other snowflakes, so none is reused.
GUILD_EPOCH = (1_200_000_000_000_000_000 >> 22) // 2520 * 2520


class WallClock:
    """The fake's time unless it is handed another: the monotonic clock (the benchmarks compare
    its records with ``time.monotonic()``) and asyncio's sleep."""

    def now(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


def json_response(data: object, status: int = 200) -> web.Response:
    # discord.py only parses JSON when the content type is exactly "application/json".
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def error(status: int, code: int, message: str) -> web.Response:
    return json_response({"message": message, "code": code}, status)


def invalid(problems: list[str]) -> web.Response:
    """Discord's 400 for a body it refuses, with the fake's reasons in Discord's shape (a
    field's ``_errors``), which discord.py reads into the exception's text."""
    errors = [{"code": "BASE_TYPE_INVALID", "message": problem} for problem in problems]
    return json_response(
        {"message": "Invalid Form Body", "code": 50035, "errors": {"body": {"_errors": errors}}},
        400,
    )


class CallbackTooLate(Exception):
    """The bot answered an interaction after ``callback_window``: "Unknown interaction"."""


class CommandNotShown(Exception):
    """Discord offers the member no such command: its default permissions are more than the
    member's and the server gave it to him in no override (Server Settings -> Integrations), so
    no interaction is ever sent."""


@dataclass(frozen=True)
class RequestRecord:
    method: str
    path: str  # without the /api/v10 prefix or the query string
    status: int
    at: float  # when it arrived
    fault: FaultKind | None = None  # the injected fault that answered (or delayed) it


@dataclass
class InteractionRecord:
    id: int
    kind: int
    user_id: int
    channel_id: int
    created: float  # when INTERACTION_CREATE was dispatched
    first_callback: float | None = None  # the first callback request, however it was answered
    acknowledged: float | None = None  # the callback that was accepted (in time, not faulted)

    @property
    def latency(self) -> float | None:
        """Seconds from creation to the first callback request (None: never answered)."""
        return None if self.first_callback is None else self.first_callback - self.created


@dataclass(frozen=True)
class CommandSync:
    method: str  # GET or PUT (bulk overwrite)
    guild_id: int | None  # None: global commands
    at: float
    names: tuple[str, ...] = ()  # the commands a PUT sent


@dataclass(frozen=True)
class GatewayStep:
    what: str  # IDENTIFY, RESUME, RESUMED, INVALID_SESSION, DROPPED, CLOSED <code>
    at: float
    shard: int = 0


@dataclass
class GatewaySession:
    """A shard's gateway session, as Discord keeps it between connections for a RESUME."""

    shard: int
    count: int
    named: bool  # the IDENTIFY named its shard, so READY names it back
    id: str
    ws: web.WebSocketResponse | None = None
    transport: asyncio.Transport | None = None
    sequence: int = 0
    backlog: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=BACKLOG))

    @property
    def live(self) -> bool:
        return self.ws is not None and not self.ws.closed


@dataclass
class Upload:
    channel_id: int
    filename: str
    data: bytes
    message_id: int = 0  # the message that took it
    attachment_id: int = 0  # the attachment it became


DISPOSITION_FIELD = re.compile(rb'(\w+)="([^"]*)"')


def multipart(content_type: str, body: bytes) -> tuple[JSON, list[Upload]]:
    """A multipart/form-data body as discord.py sends it: ``payload_json`` and the files."""
    boundary = content_type.partition("boundary=")[2].partition(";")[0].strip().strip('"')
    payload: JSON = {}
    files: list[Upload] = []
    # Between the first delimiter and the closing one; each part is CRLF, headers, a blank
    # line, the data, CRLF.
    for part in body.split(b"--" + boundary.encode())[1:-1]:
        head, _, data = part[2:-2].partition(b"\r\n\r\n")
        fields = {key.lower(): value for key, value in DISPOSITION_FIELD.findall(head)}
        if fields.get(b"name") == b"payload_json":
            payload = json.loads(data)
        else:
            files.append(Upload(0, fields.get(b"filename", b"").decode(), data))
    return payload, files


@dataclass
class Callback:
    kind: int
    data: JSON
    files: list[Upload]
    message: JSON | None = None
    interaction_id: int = 0

    @property
    def ephemeral(self) -> bool:
        return bool(self.data.get("flags", 0) & EPHEMERAL)

    @property
    def content(self) -> str:
        return str(self.data.get("content") or "")


@dataclass
class FakeDiscord:
    guild_locale: str = "en-US"
    closed_dms: set[int] = field(default_factory=set)
    port: int = 0
    messages: dict[int, JSON] = field(default_factory=dict)  # message id -> message
    uploads: list[Upload] = field(default_factory=list)
    unknown_routes: list[str] = field(default_factory=list)
    users: dict[int, JSON] = field(default_factory=dict)
    dm_channels: dict[int, int] = field(default_factory=dict)  # dm channel id -> user id
    synced: list[JSON] = field(default_factory=list)  # the last bulk overwrite, either scope
    refused_syncs: list[list[str]] = field(default_factory=list)  # each refused PUT's problems
    # First answers to a "thinking" deferral sent as POST /webhooks/{app}/{token}, which Discord
    # documents as deprecated for that (the answer edits @original): refused, and counted here.
    deprecated_followups: list[int] = field(default_factory=list)
    old_message_age: float = OLD_MESSAGE_SECONDS  # older messages take no more edits
    # Accepted interaction callbacks by type (6: a deferred update, 7: the update itself, ...)
    callback_kinds: dict[int, int] = field(default_factory=dict)
    faults: FaultPlan = field(default_factory=FaultPlan)
    rate_limits: list[RateLimit] = field(default_factory=list)  # none: every request answered
    callback_window: float = 3.0  # Discord's limit for the first interaction callback
    followup_window: float = 15 * 60.0  # the interaction token's life for followups
    resume_policy: Literal["resume", "invalidate"] = "resume"
    shard_count: int = 1  # what GET /gateway/bot recommends
    requests: list[RequestRecord] = field(default_factory=list)
    interactions: dict[int, InteractionRecord] = field(default_factory=dict)
    commands: dict[int | None, list[JSON]] = field(default_factory=dict)  # scope -> commands
    command_requests: list[CommandSync] = field(default_factory=list)
    gateway_steps: list[GatewayStep] = field(default_factory=list)
    app_permissions: dict[int, int] = field(default_factory=dict)  # channel -> bits; default all
    # (command, user id): a command the server gave a member whatever its default permissions,
    # as an override in Server Settings -> Integrations does.
    command_overrides: set[tuple[str, int]] = field(default_factory=set)
    # Called with the channel id whenever the bot posts or edits a message with an embed there
    # (a table picture or the results): the benchmark times interactions with it.
    on_update: Callable[[int], None] | None = None
    # When requests and interactions arrive and how long slow answers take (set before start())
    clock: Clock = field(default_factory=WallClock)
    # The app's Activity (docs/activities): its OAuth2 secret, the codes the Embedded App SDK's
    # authorize gave (code -> user id), the access tokens they became, and the running
    # instances (instance id -> (channel id, the users in it)). LAUNCH_ACTIVITY needs it on.
    activities: bool = False
    client_secret: str = "fake-client-secret"
    oauth_codes: dict[str, int] = field(default_factory=dict)
    access_tokens: dict[str, int] = field(default_factory=dict)
    activity_instances: dict[str, tuple[int, set[int]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._ids = itertools.count(1_300_000_000_000_000_000)
        self.app_id = self.snowflake()
        self.bot_user = {
            "id": str(self.app_id),
            "username": "Stud",
            "discriminator": "0",
            "global_name": None,
            "avatar": None,
            "bot": True,
        }
        self.owner_id = self.snowflake()
        self.guild_ids: list[int] = []
        self._channel_guild: dict[int, int] = {}  # channel id -> its server
        self.threads: dict[int, JSON] = {}  # thread id -> the thread as Discord returns it
        self.events: dict[int, JSON] = {}  # scheduled event id -> the event as Discord returns it
        # The bot's permissions on a server (its roles'), where no channel counts: its events.
        self.guild_app_permissions: dict[int, int] = {}
        self.channel_ids: list[int] = []
        self.sessions: dict[int, GatewaySession] = {}  # shard id -> its latest session
        self._count = self.shard_count  # the shard count the bot identified with
        self.guild_id = self.add_guild()  # the first server, where most tests play
        self.channel_id = self.channel_ids[0]
        self._callbacks: dict[int, asyncio.Future[Callback]] = {}
        # interaction id -> the followups sent with its token, oldest first
        self.followups: dict[int, list[Callback]] = {}
        self._followed: dict[int, asyncio.Event] = {}
        self._interaction_channels: dict[int, int] = {}
        self._by_channel: dict[int, list[int]] = {}  # channel id -> message ids, oldest first
        self._created: dict[int, float] = {}  # message id -> when, on the fake's clock
        self._originals: dict[int, int] = {}  # interaction id -> its response's message id
        self._clicked: dict[int, int] = {}  # a click's interaction id -> the message clicked
        self._session_ids = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self._slow: set[asyncio.Task[None]] = set()  # the waits of slow answers in progress
        self.identified = asyncio.Event()
        # Set while every shard that identified is connected (READY or RESUMED), cleared by a drop
        self.connected = asyncio.Event()

    def snowflake(self) -> int:
        return next(self._ids)

    # ------------------------------------------------------------------ server

    async def start(self) -> None:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        # A slow answer nobody waits for any more (the client gave up) ends now, not later.
        for wait in self._slow:
            wait.cancel()
        for session in self.sessions.values():
            if session.ws is not None:
                await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # ------------------------------------------------------------------ world

    def add_user(self, name: str) -> JSON:
        user: JSON = {
            "id": str(self.snowflake()),
            "username": name,
            "discriminator": "0",
            "global_name": name.title(),
            "avatar": None,
            "bot": False,
        }
        self.users[int(user["id"])] = user
        return user

    def member_of(self, user: JSON) -> JSON:
        """A member as an interaction's resolved data has it (no user inside)."""
        return {k: v for k, v in self._member(user).items() if k not in ("user", "deaf", "mute")}

    def _member(self, user: JSON, permissions: int = EVERYONE_PERMISSIONS) -> JSON:
        return {
            "user": user,
            "roles": [],
            "nick": None,
            "joined_at": "2026-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": str(permissions),
        }

    def add_guild(self) -> int:
        """Another server the bot is in, with a text channel of its own (``channels_of``).
        Before the bot connects: it arrives with its shard's GUILD_CREATE."""
        guild_id = (GUILD_EPOCH + len(self.guild_ids)) << 22
        self.guild_ids.append(guild_id)
        self.add_channel(guild_id)
        return guild_id

    def add_channel(self, guild_id: int | None = None) -> int:
        """Another text channel, in the first server unless ``guild_id`` names another (before
        the bot connects: it arrives with GUILD_CREATE)."""
        channel_id = self.snowflake()
        self.channel_ids.append(channel_id)
        self._channel_guild[channel_id] = guild_id or self.guild_id
        return channel_id

    async def create_channel(self, permissions: int | None = None) -> int:
        """A text channel made in the first server while the bot is connected (CHANNEL_CREATE),
        where the bot has ``permissions`` (default: all)."""
        channel_id = self.add_channel()
        if permissions is not None:
            self.app_permissions[channel_id] = permissions
        await self.dispatch("CHANNEL_CREATE", self._channel(channel_id))
        return channel_id

    def guild_of(self, channel_id: int) -> int:
        return self._channel_guild[channel_id]

    def channels_of(self, guild_id: int) -> list[int]:
        return [c for c in self.channel_ids if self._channel_guild[c] == guild_id]

    def shard_of(self, guild_id: int) -> int:
        """The shard a server's events go on, by the shard count the bot identified with."""
        return (guild_id >> 22) % self._count

    def live_shards(self) -> set[int]:
        """The shards whose session is connected now."""
        return {shard for shard, session in self.sessions.items() if session.live}

    def app_permissions_in(self, channel_id: int) -> int:
        return self.app_permissions.get(channel_id, ALL_PERMISSIONS)

    async def set_app_permissions(self, channel_id: int, permissions: int) -> None:
        """The bot's permissions in a channel, as interactions there carry them in
        ``app_permissions``; the bot's own posts there are refused (403) without them."""
        self.app_permissions[channel_id] = permissions
        if self.sessions:
            await self.dispatch("CHANNEL_UPDATE", self._channel(channel_id))

    def _channel(self, channel_id: int | None = None) -> JSON:
        channel_id = channel_id or self.channel_id
        overwrites = []
        if channel_id in self.app_permissions:
            # A member overwrite, so the bot's own permission check agrees with app_permissions.
            denied = ALL_PERMISSIONS & ~self.app_permissions[channel_id]
            overwrites.append(
                {"id": str(self.app_id), "type": 1, "allow": "0", "deny": str(denied)}
            )
        return {
            "id": str(channel_id),
            "type": 0,
            "name": "stud",
            "guild_id": str(self._channel_guild[channel_id]),
            "position": 0,
            "permission_overwrites": overwrites,
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": None,
            "flags": 0,
        }

    def _guild(self, guild_id: int) -> JSON:
        return {
            "id": str(guild_id),
            "name": "Casino" if guild_id == self.guild_id else f"Casino {guild_id >> 22}",
            "owner_id": str(self.owner_id),
            "icon": None,
            "preferred_locale": self.guild_locale,
            "features": [],
            "roles": [
                {
                    "id": str(guild_id),
                    "name": "@everyone",
                    "permissions": str(EVERYONE_PERMISSIONS),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "channels": [self._channel(channel_id) for channel_id in self.channels_of(guild_id)],
            "members": [self._member(self.bot_user)],
            "member_count": 1 + len(self.users),
            "threads": [],
            "emojis": [],
            "stickers": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "large": False,
            "unavailable": False,
            "joined_at": "2026-01-01T00:00:00+00:00",
            "premium_tier": 0,
            "mfa_level": 0,
            "verification_level": 0,
            "explicit_content_filter": 0,
            "default_message_notifications": 0,
            "system_channel_flags": 0,
            "nsfw_level": 0,
        }

    # ------------------------------------------------------------------ gateway

    def _step(self, what: str, shard: int = 0) -> None:
        self.gateway_steps.append(GatewayStep(what, self.clock.now(), shard))

    def _update_connected(self) -> None:
        if self.sessions and all(session.live for session in self.sessions.values()):
            self.connected.set()
        else:
            self.connected.clear()

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45_000}}))
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                continue
            payload = json.loads(message.data)
            if payload["op"] == 1:
                await ws.send_str(json.dumps({"op": 11, "d": None}))
            elif payload["op"] == 2:
                await self._identify(ws, request, payload["d"])
            elif payload["op"] == 6:
                await self._resume(ws, request, payload["d"])
        for session in self.sessions.values():
            if session.ws is ws:
                session.ws = None
        self._update_connected()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, request: web.Request, data: JSON) -> None:
        named = data.get("shard")
        shard, count = (int(named[0]), int(named[1])) if named else (0, 1)
        if not 0 <= shard < count:
            self._step("CLOSED 4010", shard)  # Discord's "Invalid shard"
            await ws.close(code=4010)
            return
        self._step("IDENTIFY", shard)
        self._count = count
        # A new session: whatever the shard's old one still held is gone, as on Discord.
        session = GatewaySession(
            shard, count, bool(named), f"fake-session-{next(self._session_ids)}"
        )
        session.ws, session.transport = ws, request.transport
        self.sessions[shard] = session
        guilds = [guild for guild in self.guild_ids if self.shard_of(guild) == shard]
        ready: JSON = {
            "v": 10,
            "user": self.bot_user,
            "guilds": [{"id": str(guild), "unavailable": True} for guild in guilds],
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.app_id), "flags": 0},
        }
        if named:
            ready["shard"] = [shard, count]
        await self._send(session, "READY", ready)
        for guild in guilds:
            await self._send(session, "GUILD_CREATE", self._guild(guild))
        self.identified.set()
        self._update_connected()

    async def _resume(self, ws: web.WebSocketResponse, request: web.Request, data: JSON) -> None:
        session = next((s for s in self.sessions.values() if s.id == data["session_id"]), None)
        shard = 0 if session is None else session.shard
        self._step("RESUME", shard)
        seen = int(data.get("seq") or 0)
        kept = session is not None and (not session.backlog or session.backlog[0][0] <= seen + 1)
        if self.resume_policy == "invalidate" or session is None or not kept:
            # d=false: not resumable; discord.py closes and IDENTIFYs afresh.
            self._step("INVALID_SESSION", shard)
            await ws.send_str(json.dumps({"op": 9, "d": False}))
            return
        # Replay until caught up (events dispatched meanwhile join the backlog), then go live.
        while missed := [(s, text) for s, text in session.backlog if s > seen]:
            for _, text in missed:
                await ws.send_str(text)
            seen = missed[-1][0]
        session.ws, session.transport = ws, request.transport
        await self._send(session, "RESUMED", {})
        self._step("RESUMED", shard)
        self._update_connected()

    async def drop_gateway(self, code: int | None = None, shard: int = 0) -> None:
        """Cut a shard's gateway connection: abruptly (no close frame) when ``code`` is None,
        else with that close code. Events dispatched until the bot is back wait for its RESUME."""
        session = self.sessions.get(shard)
        ws, transport = (None, None) if session is None else (session.ws, session.transport)
        assert session and ws is not None and transport is not None, "the bot is not connected"
        session.ws = None
        self._update_connected()
        if code is None:
            self._step("DROPPED", shard)
            transport.abort()
        else:
            self._step(f"CLOSED {code}", shard)
            await ws.close(code=code)

    async def dispatch(self, event: str, data: JSON, *, shard: int | None = None) -> None:
        """Send an event on the session of ``shard``: by default the shard of the server the
        event names (``guild_id``), or shard 0 for an event of no server."""
        if shard is None:
            guild = data.get("guild_id")
            shard = 0 if guild is None else self.shard_of(int(guild))
        session = self.sessions.get(shard)
        assert session is not None, f"the bot never connected shard {shard}"
        await self._send(session, event, data)

    async def _send(self, session: GatewaySession, event: str, data: JSON) -> None:
        session.sequence += 1
        text = json.dumps({"op": 0, "t": event, "s": session.sequence, "d": data})
        session.backlog.append((session.sequence, text))
        if session.live:
            assert session.ws is not None
            await session.ws.send_str(text)

    # ------------------------------------------------------------------ REST

    async def _body(self, request: web.Request) -> tuple[Any, list[Upload]]:
        # The raw header, not request.content_type: aiohttp parses that with the email package,
        # which cost the benchmark's Discord more than all else it does for an upload.
        content_type = request.headers.get("Content-Type", "")
        if content_type.startswith("multipart/"):
            return multipart(content_type, await request.read())
        if content_type.startswith("application/x-www-form-urlencoded"):
            return dict(await request.post()), []  # OAuth2's token endpoint
        if request.can_read_body:
            return await request.json(), []
        return {}, []

    def _message(self, channel_id: int, data: JSON, files: list[Upload], **extra: Any) -> JSON:
        message_id = extra.pop("id", None) or self.snowflake()
        attachments = self._attachments(channel_id, files)
        message = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "author": self.bot_user,
            "content": data.get("content") or "",
            "embeds": data.get("embeds") or [],
            "components": data.get("components") or [],
            "attachments": attachments,
            "timestamp": datetime.now(UTC).isoformat(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": self._mentioned(data),
            "mention_roles": [],
            "pinned": False,
            "type": 0,
            "flags": data.get("flags", 0) or 0,
            **extra,
        }
        return message

    def _mentioned(self, data: JSON) -> list[JSON]:
        """The users a message notifies: those it mentions that its ``allowed_mentions`` (if
        it has any) lets through, as Discord fills ``mentions``."""
        mentioned = [int(found) for found in re.findall(r"<@!?(\d+)>", data.get("content") or "")]
        allowed = data.get("allowed_mentions")
        if allowed is not None and "users" not in allowed.get("parse", []):
            users = {int(user) for user in allowed.get("users", [])}
            mentioned = [user for user in mentioned if user in users]
        return [self.users[user] for user in dict.fromkeys(mentioned) if user in self.users]

    def _attachments(self, channel_id: int, files: list[Upload]) -> list[JSON]:
        """The files' attachment objects, with signed CDN URLs as Discord's (they expire)."""
        made = []
        for upload in files:
            attachment_id = upload.attachment_id = self.snowflake()
            path = f"attachments/{channel_id}/{attachment_id}/{upload.filename}"
            signed = f"{path}?ex={int(time.time()) + 86400:x}&is={attachment_id:x}&hm=0"
            attachment: JSON = {
                "id": str(attachment_id),
                "filename": upload.filename,
                "size": len(upload.data),
                "url": f"https://cdn.invalid/{signed}",
                "proxy_url": f"https://media.invalid/{signed}",
                "content_type": "text/plain",
            }
            if upload.data.startswith(PNG_SIGNATURE):
                width, height = struct.unpack(">II", upload.data[16:24])
                attachment.update(content_type="image/png", width=width, height=height)
            made.append(attachment)
        return made

    def attachment_data(self, url: str) -> bytes:
        """What the CDN serves at an attachment's URL: the file as the bot uploaded it."""
        attachment_id = int(yarl.URL(url).path.split("/")[3])
        return next(u.data for u in self.uploads if u.attachment_id == attachment_id)

    def _keep(self, files: list[Upload], message: JSON) -> None:
        """Record uploads a message took (an ephemeral one's: only its recipient sees them)."""
        ephemeral = bool(message["flags"] & EPHEMERAL)
        for upload in files:
            upload.channel_id = 0 if ephemeral else int(message["channel_id"])
            upload.message_id = int(message["id"])
            self.uploads.append(upload)

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        arrived = self.clock.now()
        method = request.method
        path = "/" + request.match_info["tail"]
        if (request.content_length or 0) > REQUEST_BYTES_MAX:
            # Read and dropped: a body left unread keeps aiohttp's server lingering over the
            # connection, and the fake's stop waits for it (10 s).
            while await request.content.readany():
                pass
            response = error(413, TOO_LARGE_CODE, "Request entity too large")
            self.requests.append(RequestRecord(method, path, response.status, arrived))
            return response
        body, files = await self._body(request)
        if route_matches("POST /interactions/{id}/{token}/callback", method, path, ()):
            record = self.interactions.get(int(path.split("/")[2]))
            if record is not None and record.first_callback is None:
                record.first_callback = arrived
        authorization = request.headers.get("Authorization", "")
        response, kind = await self._respond(method, path, body, files, arrived, authorization)
        self.requests.append(RequestRecord(method, path, response.status, arrived, kind))
        return response

    async def _respond(
        self,
        method: str,
        path: str,
        body: Any,
        files: list[Upload],
        arrived: float,
        authorization: str = "",
    ) -> tuple[web.Response, FaultKind | None]:
        """The answer after rate limits and faults, and the kind of fault that shaped it."""
        headers: dict[str, str] = {}
        for bucket in self.rate_limits:
            if route_matches(bucket.route, method, path, self.dm_channels):
                remaining, reset_after = bucket.take(path, arrived)
                if remaining < 0:
                    return rate_limited(reset_after, route_hash(bucket.route), bucket.limit), 429
                headers = bucket_headers(
                    route_hash(bucket.route), bucket.limit, remaining, reset_after
                )
                break
        fault = self.faults.pick(method, path, self.dm_channels)
        if fault is not None and fault.kind != "slow":
            return fault.response(), fault.kind
        if fault is not None:
            wait = asyncio.ensure_future(self.clock.sleep(self.faults.delay(fault)))
            self._slow.add(wait)
            try:
                await asyncio.wait({wait})  # ended by stop() too: then it answers at once
            finally:
                self._slow.discard(wait)
        response = self._answer(method, path, body, files, arrived, authorization)
        response.headers.update(headers)
        return response, None if fault is None else fault.kind

    def requests_to(self, route: str) -> list[RequestRecord]:
        """Recorded requests matching a route pattern such as "POST /channels/{id}/messages"."""
        dms = self.dm_channels
        return [r for r in self.requests if route_matches(route, r.method, r.path, dms)]

    def _answer(
        self,
        method: str,
        path: str,
        body: Any,
        files: list[Upload],
        arrived: float,
        authorization: str = "",
    ) -> web.Response:
        parts = path.strip("/").split("/")
        if (activity := activity_answer(self, method, parts, body, authorization)) is not None:
            return activity
        if method == "GET" and path == "/users/@me":
            return json_response(self.bot_user)
        if method == "GET" and path == "/gateway/bot":
            limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
            return json_response(
                {"url": self.gateway_url, "shards": self.shard_count, "session_start_limit": limit}
            )
        if method == "GET" and path == "/oauth2/applications/@me":
            owner = {**self.bot_user, "id": str(self.owner_id), "bot": False, "username": "owner"}
            return json_response(
                {
                    "id": str(self.app_id),
                    "name": "Stud",
                    "icon": None,
                    "description": "",
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "owner": owner,
                    "verify_key": "0" * 64,
                    "flags": 0,
                    "team": None,
                }
            )
        if method == "GET" and parts[0] == "users" and len(parts) == 2:
            user = self.users.get(int(parts[1]))
            return json_response(user) if user else json_response({"code": 10013}, 404)
        if method in ("GET", "PUT") and parts[0] == "applications" and parts[-1] == "commands":
            # /applications/{app}/commands or /applications/{app}/guilds/{guild}/commands
            guild_id = int(parts[3]) if len(parts) == 5 else None
            if method == "GET":
                self.command_requests.append(CommandSync(method, guild_id, arrived))
                return json_response(self.commands.get(guild_id, []))
            names = tuple(command["name"] for command in body)
            self.command_requests.append(CommandSync(method, guild_id, arrived, names))
            if problems := sync_problems(body, guild=guild_id is not None):
                # Discord refuses the whole overwrite: "Invalid Form Body".
                self.refused_syncs.append(problems)
                return invalid(problems)
            return json_response(self._overwrite_commands(guild_id, body))
        if method == "POST" and path == "/users/@me/channels":
            user_id = int(body["recipient_id"])
            if user_id in self.closed_dms:
                return json_response(
                    {"code": 50007, "message": "Cannot send messages to this user"}, 403
                )
            channel_id = self.snowflake()
            self.dm_channels[channel_id] = user_id
            return json_response(
                {"id": str(channel_id), "type": 1, "recipients": [self.users[user_id]]}
            )
        if parts[0] == "guilds" and len(parts) >= 3 and parts[2] == "scheduled-events":
            return self._event(method, int(parts[1]), parts[3:], body, arrived)
        if parts[0] == "channels" and (
            (method == "POST" and parts[2:] == ["threads"])
            or (method == "PATCH" and len(parts) == 2)
        ):
            return self._thread(method, int(parts[1]), body, arrived)
        if parts[0] == "channels" and parts[2] == "messages":
            channel_id = int(parts[1])
            refused = self._refused(method, channel_id, files)
            if refused is not None:
                return refused
            if method == "GET" and len(parts) == 4:
                found = self.messages.get(int(parts[3]))
                if found is None:
                    return error(404, 10008, "Unknown Message")
                return json_response(as_returned(found))
            if method == "POST" and len(parts) == 3:
                message = self._message(channel_id, body, files)
                if problems := message_problems(message):
                    return invalid(problems)
                if (thread := self.threads.get(channel_id)) is not None:
                    # As on Discord, a message in an archived thread reopens it (one not locked:
                    # the bot locks none).
                    thread["thread_metadata"]["archived"] = False
                self._keep(files, message)
                self._store(message, arrived)
                self._by_channel.setdefault(channel_id, []).append(int(message["id"]))
                self._updated(message)
                return json_response(as_returned(message))
            if method == "PATCH" and len(parts) == 4:
                message_id = int(parts[3])
                if message_id not in self.messages:
                    return error(404, 10008, "Unknown Message")
                if arrived - self._created[message_id] > self.old_message_age:
                    # Not a rate limit discord.py waits out (no Via header): it raises at once.
                    return error(
                        429,
                        OLD_MESSAGE_EDIT_CODE,
                        "Maximum number of edits to messages older than 1 hour reached."
                        " Try again later.",
                    )
                return self._edited(self._edit(message_id, channel_id, body, files))
        if method == "POST" and parts[0] == "interactions" and parts[-1] == "callback":
            return self._callback(int(parts[1]), body, files, arrived)
        if parts[0] == "webhooks" and len(parts) in (3, 5):
            return self._webhook(method, parts, body, files, arrived)
        return self._unknown(method, path)

    def _webhook(
        self, method: str, parts: list[str], body: JSON, files: list[Upload], arrived: float
    ) -> web.Response:
        """An interaction's token: a followup (POST) or the edit of its response (PATCH
        /messages/@original), within the token's life."""
        interaction_id = int(parts[2].removeprefix("token-"))
        if arrived - self.interactions[interaction_id].created > self.followup_window:
            return error(401, 50027, "Invalid Webhook Token")
        original = self._originals.get(interaction_id)
        if method == "POST" and len(parts) == 3:
            if original is not None and self.messages[original]["flags"] & LOADING:
                self.deprecated_followups.append(interaction_id)
                return error(
                    400,
                    0,
                    "fake Discord: the first answer to a deferred interaction edits"
                    " /messages/@original (a followup there is deprecated)",
                )
            message = self._message(self._interaction_channels[interaction_id], body, files)
            if problems := message_problems(message):
                return invalid(problems)
            self._keep(files, message)
            self._store(message, arrived)
        elif method == "PATCH" and len(parts) == 5 and parts[4] == "@original":
            if original is None:
                return error(404, 10008, "Unknown Message")
            channel_id = self._interaction_channels[interaction_id]
            edited = self._edit(original, channel_id, body, files, loaded=True)
            if isinstance(edited, list):
                return invalid(edited)
            message = edited
            body = {**body, "flags": message["flags"]}
        else:
            return self._unknown(method, "/" + "/".join(parts))
        followup = Callback(0, body, files, message, interaction_id)
        self.followups.setdefault(interaction_id, []).append(followup)
        self._followed.setdefault(interaction_id, asyncio.Event()).set()
        return json_response(as_returned(message))

    def _thread(self, method: str, channel_id: int, body: JSON, arrived: float) -> web.Response:
        """POST /channels/{id}/threads: a public thread under a text channel, whose messages
        are recorded as any channel's; PATCH /channels/{thread}: archive or reopen it."""
        if method == "PATCH":
            thread = self.threads.get(channel_id)
            if thread is None:
                return self._unknown(method, f"/channels/{channel_id}")
            for key in ("archived", "locked"):
                if key in body:
                    thread["thread_metadata"][key] = bool(body[key])
            return json_response(thread)
        if channel_id not in self.channel_ids:
            return error(404, 10003, "Unknown Channel")
        permissions = self.app_permissions_in(channel_id)
        if not permissions & VIEW_CHANNEL or not permissions & CREATE_PUBLIC_THREADS:
            return error(403, 50013, FORBIDDEN_MESSAGES[50013])
        if body.get("type", 11) != 11 or not 1 <= len(body.get("name", "")) <= 100:
            return invalid(["a public thread (type 11) named in 1 to 100 characters"])
        thread_id = self.snowflake()
        guild_id = self._channel_guild[channel_id]
        self._channel_guild[thread_id] = guild_id
        stamp = datetime.fromtimestamp(arrived, UTC).isoformat()
        self.threads[thread_id] = {
            "id": str(thread_id),
            "type": 11,
            "guild_id": str(guild_id),
            "parent_id": str(channel_id),
            "owner_id": str(self.app_id),
            "name": body["name"],
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": body.get("auto_archive_duration", 1440),
                "archive_timestamp": stamp,
                "locked": False,
            },
        }
        return json_response(self.threads[thread_id], 201)

    def _event(
        self, method: str, guild_id: int, rest: list[str], body: JSON, arrived: float
    ) -> web.Response:
        """A server's scheduled events: POST makes one (Create Events), GET reads one, PATCH
        changes one (its status only by Discord's moves), DELETE removes it; each within
        Discord's documented limits (``discord_rules``)."""
        if guild_id not in self.guild_ids:
            return error(404, 10004, "Unknown Guild")
        granted = self.guild_app_permissions.get(guild_id, ALL_PERMISSIONS)
        if method == "POST" and not rest:
            if not granted & (CREATE_EVENTS | MANAGE_EVENTS):
                return error(403, 50013, FORBIDDEN_MESSAGES[50013])
            if problems := event_problems(body, arrived):
                return invalid(problems)
            event_id = self.snowflake()
            self.events[event_id] = {
                **body,
                "id": str(event_id),
                "guild_id": str(guild_id),
                "channel_id": None,
                "creator_id": str(self.app_id),
                "entity_id": None,
                "status": SCHEDULED,
                "user_count": 0,
            }
            return json_response(self.events[event_id])
        event = self.events.get(int(rest[0])) if len(rest) == 1 else None
        if event is None or int(event["guild_id"]) != guild_id:
            return error(404, 10070, "Unknown Guild Scheduled Event")
        if method == "GET":
            return json_response(event)
        if not granted & (CREATE_EVENTS | MANAGE_EVENTS):
            return error(403, 50013, FORBIDDEN_MESSAGES[50013])
        if method == "DELETE":
            del self.events[int(event["id"])]
            return web.Response(status=204)
        if method == "PATCH":
            if "status" in body and (
                problem := event_move_problem(event["status"], body["status"])
            ):
                return invalid([problem])
            changed = {**event, **body}
            # A start already past is no fault of an edit (the event may be under way).
            problems = event_problems(changed, arrived)
            if problems := [p for p in problems if not p.startswith("scheduled_start_time")]:
                return invalid(problems)
            event.update(body)
            return json_response(event)
        return self._unknown(method, f"/guilds/{guild_id}/scheduled-events/{rest[0]}")

    def threads_of(self, channel_id: int) -> list[int]:
        """The threads made under a channel, oldest first."""
        return [t for t, thread in self.threads.items() if int(thread["parent_id"]) == channel_id]

    def _store(self, message: JSON, arrived: float) -> None:
        self.messages[int(message["id"])] = message
        self._created[int(message["id"])] = arrived

    def _edit(
        self,
        message_id: int,
        channel_id: int,
        body: JSON,
        files: list[Upload],
        *,
        loaded: bool = False,
    ) -> JSON | list[str]:
        """A message edited as Discord edits one: the fields sent replace theirs; attachments
        are those the edit lists by id (all of them when it lists none and uploads nothing)
        and the files it uploads. What Discord would refuse in the result, if anything."""
        old = self.messages[message_id]
        merged = {**old, **{k: v for k, v in body.items() if k in ("content", "embeds")}}
        if "components" in body:
            merged["components"] = body["components"]
        # Only the flags a client may set change (IS_COMPONENTS_V2, here); the rest stay.
        flags = old["flags"] & ~LOADING if loaded else old["flags"]
        if "flags" in body:
            flags = flags & ~IS_COMPONENTS_V2 | int(body["flags"] or 0) & IS_COMPONENTS_V2
        message = self._message(channel_id, {**merged, "flags": flags}, [], id=message_id)
        if "attachments" in body:
            kept = {str(attachment["id"]) for attachment in body["attachments"]}
            message["attachments"] = [a for a in old["attachments"] if a["id"] in kept] + message[
                "attachments"
            ]
        elif not files:
            message["attachments"] = old["attachments"]
        message["attachments"] += self._attachments(channel_id, files)
        if problems := message_problems(message, old["flags"]):
            return problems
        self._keep(files, message)
        message["timestamp"] = old["timestamp"]
        message["edited_timestamp"] = datetime.now(UTC).isoformat()
        self.messages[message_id] = message
        self._updated(message)
        return message

    def _edited(self, edited: JSON | list[str]) -> web.Response:
        return invalid(edited) if isinstance(edited, list) else json_response(as_returned(edited))

    def _unknown(self, method: str, path: str) -> web.Response:
        self.unknown_routes.append(f"{method} {path}")
        return json_response({"code": 0, "message": f"fake Discord has no {method} {path}"}, 404)

    def _overwrite_commands(self, guild_id: int | None, body: list[JSON]) -> list[JSON]:
        """Bulk overwrite: as on Discord, a command keeps its id when its name and type stay."""
        old = {(c.get("type", 1), c["name"]): c["id"] for c in self.commands.get(guild_id, [])}
        scope = {} if guild_id is None else {"guild_id": str(guild_id)}
        commands = [
            {
                **command,
                **scope,
                "id": old.get((command.get("type", 1), command["name"])) or str(self.snowflake()),
                "application_id": str(self.app_id),
            }
            for command in body
        ]
        self.commands[guild_id] = commands
        self.synced = commands
        return commands

    def _refused(self, method: str, channel_id: int, files: list[Upload]) -> web.Response | None:
        """Discord's 403 when the bot lacks a permission for a post or edit in a guild channel."""
        if channel_id in self.dm_channels:
            return None
        permissions = self.app_permissions_in(channel_id)
        if not permissions & VIEW_CHANNEL:
            return error(403, 50001, FORBIDDEN_MESSAGES[50001])
        if method == "POST" and not permissions & SEND_MESSAGES:
            return error(403, 50013, FORBIDDEN_MESSAGES[50013])
        if files and not permissions & ATTACH_FILES:
            return error(403, 50013, FORBIDDEN_MESSAGES[50013])
        return None

    def _updated(self, message: JSON) -> None:
        channel_id = int(message["channel_id"])
        shown = message["embeds"] or message["flags"] & IS_COMPONENTS_V2
        if self.on_update is not None and shown and channel_id in self.channel_ids:
            self.on_update(channel_id)

    def _callback(
        self, interaction_id: int, body: JSON, files: list[Upload], arrived: float
    ) -> web.Response:
        record = self.interactions.get(interaction_id)
        if record is None or arrived - record.created > self.callback_window:
            future = self._callbacks.pop(interaction_id, None)
            if future is not None and record is not None:
                late = arrived - record.created
                future.set_exception(CallbackTooLate(f"interaction answered after {late:.2f} s"))
            return error(404, 10062, "Unknown interaction")
        if record.acknowledged is not None:
            return error(400, 40060, "Interaction has already been acknowledged.")
        kind = int(body["type"])
        data = body.get("data") or {}
        message = None
        if refused := launch_refused(self, kind, record.kind):
            return refused
        if kind == 7:
            # UPDATE_MESSAGE: the answer to a click is the edit of the message it was on.
            clicked = self._clicked.get(interaction_id)
            if clicked is None:
                return error(400, 50035, "Invalid Form Body: no message to update")
            channel_id = self._interaction_channels[interaction_id]
            edited = self._edit(clicked, channel_id, data, files)
            if isinstance(edited, list):
                return invalid(edited)
            message = edited
        record.acknowledged = arrived
        self.callback_kinds[kind] = self.callback_kinds.get(kind, 0) + 1
        future = self._callbacks.pop(interaction_id)
        if kind in (6, 7) and interaction_id in self._clicked:
            # A click's response is the message it was on: editing @original edits that one.
            self._originals[interaction_id] = self._clicked[interaction_id]
        if kind in (4, 5):
            # A deferral's response is a "thinking" message its first answer replaces.
            shown = data if kind == 4 else {"flags": (data.get("flags") or 0) | LOADING}
            message = self._message(self._interaction_channels[interaction_id], shown, files)
            self._keep(files, message)
            self._store(message, arrived)
            self._originals[interaction_id] = int(message["id"])
        callback = Callback(kind, data, files, message, interaction_id)
        future.set_result(callback)
        instance = launched(self, kind, record.channel_id, record.user_id)
        interaction = {
            "id": str(interaction_id),
            "type": kind,
            "activity_instance_id": instance,
            "response_message_id": message["id"] if message else None,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": callback.ephemeral,
        }
        resource: JSON = {"type": kind}
        if message is not None and kind == 4:
            resource["message"] = as_returned(message)
        if instance is not None:
            resource["activity_instance"] = {"id": instance}
        return json_response({"interaction": interaction, "resource": resource})

    # ------------------------------------------------------------------ players

    async def interact(
        self,
        user: JSON,
        kind: int,
        data: JSON,
        *,
        message: JSON | None = None,
        locale: str = "en-US",
        permissions: int = EVERYONE_PERMISSIONS,
        channel_id: int | None = None,
    ) -> Callback:
        """Send an INTERACTION_CREATE and wait for the bot's first callback; raises
        :class:`CallbackTooLate` if that comes after ``callback_window`` seconds."""
        interaction_id = self.snowflake()
        channel_id = channel_id or self.channel_id
        guild_id = self._channel_guild[channel_id]
        self._interaction_channels[interaction_id] = channel_id
        self.interactions[interaction_id] = InteractionRecord(
            interaction_id, kind, int(user["id"]), channel_id, self.clock.now()
        )
        future: asyncio.Future[Callback] = asyncio.get_running_loop().create_future()
        self._callbacks[interaction_id] = future
        payload = {
            "id": str(interaction_id),
            "application_id": str(self.app_id),
            "type": kind,
            "data": data,
            "guild_id": str(guild_id),
            "channel_id": str(channel_id),
            "channel": self._channel(channel_id),
            "member": self._member(user, permissions),
            "token": f"token-{interaction_id}",
            "version": 1,
            "locale": locale,
            "guild_locale": self.guild_locale,
            "app_permissions": str(self.app_permissions_in(channel_id)),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id)},
            "context": 0,
            "attachment_size_limit": 25 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = as_returned(message)
            if kind == 3:
                self._clicked[interaction_id] = int(message["id"])
        await self.dispatch("INTERACTION_CREATE", payload)
        return await asyncio.wait_for(future, 10)

    def acknowledgements_due(self) -> bool:
        """Some interaction still waits for the bot's first callback."""
        return any(not future.done() for future in self._callbacks.values())

    async def answer(self, callback: Callback, timeout: float = 10) -> Callback:
        """What the player was told: the reply itself, or the first followup of a deferral."""
        if callback.kind == 4:
            return callback

        followed = self._followed.setdefault(callback.interaction_id, asyncio.Event())
        await asyncio.wait_for(followed.wait(), timeout)
        return self.followups[callback.interaction_id][0]

    async def slash(
        self,
        user: JSON,
        command: str,
        locale: str = "en-US",
        channel_id: int | None = None,
        permissions: int = EVERYONE_PERMISSIONS,
        **options: int | str,
    ) -> Callback:
        """``command`` is "sit", "table open" or "table bots add"; integer and string options;
        ``permissions`` the member's. Raises :class:`CommandNotShown` for a command Discord
        would not offer him."""
        names = command.split()
        guild_id = self._channel_guild[channel_id or self.channel_id]
        if not self.offered(names[0], guild_id, int(user["id"]), permissions):
            raise CommandNotShown(command)
        leaf = [
            {"type": 3 if isinstance(value, str) else 4, "name": name, "value": value}
            for name, value in options.items()
        ]
        data: JSON = {"id": str(self.snowflake()), "name": names[0], "type": 1}
        options_: list[JSON] = leaf
        if len(names) == 3:
            options_ = [
                {
                    "type": 2,
                    "name": names[1],
                    "options": [{"type": 1, "name": names[2], "options": leaf}],
                }
            ]
        elif len(names) == 2:
            options_ = [{"type": 1, "name": names[1], "options": leaf}]
        data["options"] = options_
        return await self.interact(
            user, 2, data, locale=locale, permissions=permissions, channel_id=channel_id
        )

    def offered(self, name: str, guild_id: int, user_id: int, permissions: int) -> bool:
        """Whether Discord offers a member the synced command ``name`` on a server: one with
        default member permissions needs them all (or Administrator) or the server's override.
        A command never synced is offered, so tests can send what the bot does not have."""
        synced = [*self.commands.get(guild_id, []), *self.commands.get(None, [])]
        command = next((c for c in synced if c["name"] == name), None)
        if command is None or command.get("default_member_permissions") is None:
            return True
        needed = int(command["default_member_permissions"])
        return (
            (needed != 0 and permissions & needed == needed)
            or bool(permissions & ADMINISTRATOR)
            or (name, user_id) in self.command_overrides
        )

    async def click(
        self, user: JSON, message: JSON, custom_id: str, locale: str = "en-US"
    ) -> Callback:
        data = {"custom_id": custom_id, "component_type": 2}
        # A click comes from the channel of the message it is on, as on Discord.
        channel_id = int(message["channel_id"])
        return await self.interact(
            user, 3, data, message=message, locale=locale, channel_id=channel_id
        )

    # ------------------------------------------------------------------ reading

    def channel_messages(self, channel_id: int | None = None) -> list[JSON]:
        wanted = channel_id or self.channel_id
        return [
            m
            for m in self.messages.values()
            if int(m["channel_id"]) == wanted and not m["flags"] & EPHEMERAL
        ]

    def dms_to(self, user_id: int) -> list[JSON]:
        return [
            m
            for m in self.messages.values()
            if self.dm_channels.get(int(m["channel_id"])) == user_id
        ]

    def table_message(self, channel_id: int | None = None) -> JSON | None:
        """The newest channel message with action buttons."""
        for message_id in reversed(self._by_channel.get(channel_id or self.channel_id, [])):
            message = self.messages[message_id]
            if buttons(message):
                return message
        return None


def components(message: JSON) -> list[JSON]:
    """Every component of a message, nested ones included (Components V2 nests them)."""
    found: list[JSON] = []
    todo = list(message.get("components", []))
    while todo:
        component = todo.pop(0)
        found.append(component)
        todo[:0] = component.get("components", [])
    return found


def buttons(message: JSON) -> dict[str, str]:
    """Action buttons of a message: label -> custom id."""
    return {
        child["label"]: child["custom_id"]
        for child in components(message)
        if str(child.get("custom_id", "")).startswith("stud:a:")
    }


def message_text(message: JSON) -> str:
    """What a message says: its content, embeds and (Components V2) text displays."""
    texts = [message.get("content") or "", json.dumps(message.get("embeds") or [])]
    texts += [c["content"] for c in components(message) if c.get("type") == 10]
    return "\n".join(texts)
