"""The fake Discord as its members use it: they type slash commands, click buttons and read what
they were answered and what their channels and DMs show, as discord.py objects; time passes when
the test says. The bot is the real client in this process, connected to :class:`FakeDiscord` on
127.0.0.1, so every request it makes is held to Discord's documented rules (``discord_rules``).

:class:`Server` runs the bot against the fake and lets time pass; :class:`Member` acts in it;
:class:`Result` is what an interaction got. Messages are read as the bot sent them (files listed,
``attachment://`` references kept), as a player's client shows them.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import discord
import pytest
import yarl
from aiohttp import web

from bot.edge.client import StudBot
from tests.e2e.fake_discord import (
    EPHEMERAL,
    EVERYONE_PERMISSIONS,
    JSON,
    Callback,
    FakeDiscord,
    components,
)
from tests.e2e.harness import DiscordTime

T = TypeVar("T")
# What ``Server.settle`` lets pass at once: a wake-up due this soon comes without a test asking
# (a retry's pause, a short delay); a turn clock, a countdown or a bot's pause waits for
# ``Server.advance_time``.
SETTLE_SECONDS = 5.0
QUIET = 0.002  # wall-clock seconds between two looks at whether the bot is idle


class CountedThreads(ThreadPoolExecutor):
    """The loop's default executor, knowing whether any of its work is unfinished."""

    def __init__(self) -> None:
        super().__init__(thread_name_prefix="bot-thread")
        self._work: set[Future[Any]] = set()

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future = super().submit(fn, *args, **kwargs)
        self._work = {f for f in self._work if not f.done()} | {future}
        return future

    @property
    def busy(self) -> bool:
        return any(not future.done() for future in self._work)


class WatchedTime(DiscordTime):
    """The bot's and the fake's clock, knowing which tasks sleep on it (they wait for time,
    not for work)."""

    def __init__(self) -> None:
        super().__init__()
        self.sleeping: set[asyncio.Task[Any]] = set()

    async def sleep(self, seconds: float) -> None:
        task = asyncio.current_task()
        assert task is not None
        self.sleeping.add(task)
        try:
            await super().sleep(seconds)
        finally:
            self.sleeping.discard(task)


class Server:
    """The bot connected to the fake Discord, on a clock that moves when the test says."""

    def __init__(self, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
        self.fake = fake
        self.clock = WatchedTime()
        fake.clock = self.clock
        self.monkeypatch = monkeypatch
        self.errors: list[BaseException] = []  # errors that reached the bot's error handlers
        self._bot: StudBot | None = None
        self._runner: asyncio.Task[None] | None = None
        self._in_flight = 0  # requests to the fake not answered yet
        self._threads = CountedThreads()

    @property
    def bot(self) -> StudBot:
        assert self._bot is not None, "no bot connected"
        return self._bot

    async def start(self) -> None:
        answer = self.fake._rest

        async def counted(request: web.Request) -> web.StreamResponse:
            self._in_flight += 1
            try:
                return await answer(request)
            finally:
                self._in_flight -= 1

        # Requests being answered count as work the bot is doing (``_quiet``), as do the
        # threads it waits on (a computer player thinking, the odds of an all-in).
        self.fake._rest = counted  # type: ignore[method-assign]
        asyncio.get_running_loop().set_default_executor(self._threads)
        await self.fake.start()
        self.monkeypatch.setattr(discord.http.Route, "BASE", self.fake.api_base)
        self.monkeypatch.setattr(
            discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(self.fake.gateway_url)
        )
        fake = self.fake

        async def from_cdn(_http: discord.http.HTTPClient, url: str) -> bytes:
            return fake.attachment_data(url)

        # Attachments are read from the fake, which keeps every file the bot uploaded.
        self.monkeypatch.setattr(discord.http.HTTPClient, "get_from_cdn", from_cdn)

    async def connect(self, bot: StudBot) -> None:
        """Start ``bot`` (made on this server's clock) and wait until it is ready and quiet."""
        self._bot = bot
        bot._connection.guild_ready_timeout = 0.01
        self._record_errors(bot)
        self._runner = asyncio.create_task(bot.start("fake-token"))
        ready = asyncio.ensure_future(bot.wait_until_ready())
        await asyncio.wait({ready, self._runner}, timeout=10, return_when="FIRST_COMPLETED")
        if not ready.done():
            ready.cancel()
            if self._runner.done():
                self._runner.result()  # the reason it stopped
            raise AssertionError("the bot never got ready")
        await self.settle()

    async def disconnect(self) -> None:
        """Close the bot's connection (its store and tables are the test's to stop)."""
        if self._runner is None:
            return
        await self.bot.close()
        await asyncio.wait_for(self._runner, 10)
        self._runner = None
        gc.unfreeze()  # the bot froze what the whole test process had made so far

    async def restart_bot(self, bot: StudBot) -> None:
        """The old process is gone (``stop_like_a_crash``); ``bot`` connects in its place."""
        await self.disconnect()
        await self.connect(bot)

    async def stop(self) -> None:
        await self.disconnect()
        await self.fake.stop()

    def _record_errors(self, bot: StudBot) -> None:
        """Errors reaching the command tree's handler or the client's, as they are handled."""
        tree_handler = bot.tree.on_error
        client_handler = bot.on_error

        async def on_tree_error(
            interaction: discord.Interaction[StudBot], error: discord.app_commands.AppCommandError
        ) -> None:
            self.errors.append(error)
            await tree_handler(interaction, error)

        async def on_error(event: str, /, *args: Any, **kwargs: Any) -> None:
            error = sys.exc_info()[1]  # discord.py calls it while handling the exception
            if error is not None:
                self.errors.append(error)
            await client_handler(event, *args, **kwargs)

        bot.tree.on_error = on_tree_error  # type: ignore[method-assign]
        bot.on_error = on_error  # type: ignore[method-assign]

    async def settle(self) -> None:
        """Let the bot finish what it started (its deliveries, its DMs, its retries), letting
        pass at once the wake-ups due within ``SETTLE_SECONDS``."""
        while True:
            await self._quiet()
            wake = self.clock.next_wake()
            if wake is None or wake - self.clock.now() > SETTLE_SECONDS:
                return
            self.clock.jump_to(wake)

    async def _quiet(self) -> None:
        """Until the bot is idle: nothing to deliver, no request or thread under way, no
        interaction unanswered, and no new request a few turns of the loop later."""
        deadline = time.monotonic() + 30
        seen, calm = -1, 0
        while calm < 3:
            for _ in range(5):
                await asyncio.sleep(0)
            await asyncio.sleep(QUIET)
            count = len(self.fake.requests)
            busy = (
                self._in_flight
                or self._threads.busy
                or not self.bot.presenter.idle
                or self.fake.acknowledgements_due()
                or self._tables_busy()
            )
            calm = 0 if busy or count != seen else calm + 1
            seen = count
            if time.monotonic() > deadline:
                raise AssertionError("the bot never settled")

    def _tables_busy(self) -> bool:
        """A task of the tables' (a computer player's turn, a hand's end) is running, not
        asleep on the clock."""
        sleeping = self.clock.sleeping
        return any(not task.done() and task not in sleeping for task in self.bot.house.tasks)

    async def advance_time(self, seconds: float) -> None:
        """Let ``seconds`` pass: each wake-up due meanwhile comes in order, and what it starts
        is done before the next."""
        target = self.clock.now() + seconds
        await self._quiet()
        while (wake := self.clock.next_wake()) is not None and wake <= target:
            self.clock.jump_to(wake)
            await self._quiet()
        self.clock.jump_to(target)
        await self._quiet()

    # ------------------------------------------------------------------ what members see

    def channel(self, channel_id: int) -> Channel:
        return Channel(self, channel_id)

    def stored(self, message_id: int) -> JSON:
        """A message as the bot last left it."""
        return self.fake.messages[message_id]

    def message(self, data: JSON) -> discord.Message:
        """``data`` as the bot's discord.py reads a message."""
        channel_id = int(data["channel_id"])
        channel: Any = self.bot.get_channel(channel_id) or self.bot.get_partial_messageable(
            channel_id
        )
        return discord.Message(state=self.bot._connection, channel=channel, data=data)  # type: ignore[arg-type]


@dataclass
class Channel:
    server: Server
    id: int

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def name(self) -> str:
        thread = self.server.fake.threads.get(self.id)
        return "stud" if thread is None else str(thread["name"])

    def history(self) -> list[discord.Message]:
        """Every message in the channel, oldest first, ephemeral answers included."""
        fake = self.server.fake
        found = [m for m in fake.messages.values() if int(m["channel_id"]) == self.id]
        return [self.server.message(m) for m in sorted(found, key=lambda m: int(m["id"]))]

    @property
    def threads(self) -> list[Channel]:
        return [Channel(self.server, thread) for thread in self.server.fake.threads_of(self.id)]


@dataclass
class DirectMessages:
    server: Server
    user_id: int

    def history(self) -> list[discord.Message]:
        dms = self.server.fake.dms_to(self.user_id)
        return [self.server.message(m) for m in sorted(dms, key=lambda m: int(m["id"]))]


class Response:
    """A message the bot answered an interaction with, read as it is now (a click on it may
    have edited it since)."""

    def __init__(self, server: Server, message_id: int) -> None:
        self.server = server
        self.id = message_id

    @property
    def data(self) -> JSON:
        return self.server.stored(self.id)

    @property
    def content(self) -> str:
        return str(self.data.get("content") or "")

    @property
    def embeds(self) -> list[discord.Embed]:
        return [discord.Embed.from_dict(embed) for embed in self.data.get("embeds") or []]

    @property
    def components(self) -> list[JSON]:
        return list(self.data.get("components") or [])

    @property
    def ephemeral(self) -> bool:
        return bool(self.data["flags"] & EPHEMERAL)

    @property
    def flags(self) -> discord.MessageFlags:
        return discord.MessageFlags._from_value(self.data["flags"])

    @property
    def attachments(self) -> list[discord.Attachment]:
        return self.server.message(self.data).attachments

    def __repr__(self) -> str:
        return f"<Response {self.id} {self.content!r} ephemeral={self.ephemeral}>"


@dataclass
class Result:
    """What an interaction got: its acknowledgement and the messages answering it."""

    server: Server
    callback: Callback
    clicked: int | None = None  # the message a click was on

    @property
    def acknowledged(self) -> bool:
        return True  # a callback Discord refused raises instead

    @property
    def ephemeral(self) -> bool:
        return self.callback.ephemeral

    @property
    def response(self) -> Response | None:
        """The interaction's own message: the reply, the deferral's answer, or the message a
        click updated."""
        message = self.callback.message
        if message is not None:
            return Response(self.server, int(message["id"]))
        return None if self.clicked is None else Response(self.server, self.clicked)

    @property
    def followups(self) -> list[Response]:
        """The messages sent after the response with the interaction's token."""
        sent = self.server.fake.followups.get(self.callback.interaction_id, [])
        own = self.response
        return [
            Response(self.server, int(f.message["id"]))
            for f in sent
            if f.message is not None and (own is None or int(f.message["id"]) != own.id)
        ]

    def __repr__(self) -> str:
        return f"<Result kind={self.callback.kind} response={self.response!r}>"


def options_data(options: dict[str, Any]) -> Iterator[JSON]:
    for name, value in options.items():
        if isinstance(value, Member):
            yield {"type": 6, "name": name, "value": str(value.id)}
        elif isinstance(value, bool):
            yield {"type": 5, "name": name, "value": value}
        else:
            yield {"type": 3 if isinstance(value, str) else 4, "name": name, "value": value}


@dataclass
class Member:
    """A member of the fake's server: a user with the permissions his roles give him."""

    server: Server
    user: JSON
    permissions: int = EVERYONE_PERMISSIONS
    locale: str = "en-US"

    @property
    def id(self) -> int:
        return int(self.user["id"])

    @property
    def name(self) -> str:
        return str(self.user["username"])

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def dm_channel(self) -> DirectMessages:
        return DirectMessages(self.server, self.id)

    async def slash(self, channel: Channel, command: str, **options: Any) -> Result:
        """``command`` ("sit", "table open", "table bots add") with its options; members and
        booleans among them as Discord sends them."""
        fake = self.server.fake
        guild_id = fake.guild_of(channel.id)
        names = command.split()
        if not fake.offered(names[0], guild_id, self.id, self.permissions):
            raise AssertionError(f"Discord does not offer /{command} to {self.name}")
        leaf = list(options_data(options))
        resolved = [o for o in leaf if o["type"] == 6]
        data: JSON = {"id": str(fake.snowflake()), "name": names[0], "type": 1, "options": leaf}
        if len(names) == 3:
            data["options"] = [
                {
                    "type": 2,
                    "name": names[1],
                    "options": [{"type": 1, "name": names[2], "options": leaf}],
                }
            ]
        elif len(names) == 2:
            data["options"] = [{"type": 1, "name": names[1], "options": leaf}]
        if resolved:
            # As Discord resolves a user option: the user, and the member without his user.
            users = {o["value"]: fake.users[int(o["value"])] for o in resolved}
            members = {user: fake.member_of(users[user]) for user in users}
            data["resolved"] = {"users": users, "members": members}
        callback = await fake.interact(
            self.user,
            2,
            data,
            locale=self.locale,
            permissions=self.permissions,
            channel_id=channel.id,
        )
        return await self._answered(callback)

    async def click(
        self,
        message: discord.Message | Response | JSON,
        *,
        label: str | None = None,
        custom_id: str | None = None,
    ) -> Result:
        """Click the button labelled ``label`` on ``message`` (or send ``custom_id`` from it, a
        button it may not have)."""
        data = self._data(message)
        if custom_id is None:
            found = [
                c["custom_id"]
                for c in components(data)
                if c.get("type") == 2 and c.get("label") == label and "custom_id" in c
            ]
            assert found, f"no button {label!r} on the message"
            custom_id = found[0]
        callback = await self.server.fake.click(self.user, data, custom_id, self.locale)
        return await self._answered(callback, int(data["id"]))

    def _data(self, message: discord.Message | Response | JSON) -> JSON:
        if isinstance(message, dict):
            return message
        return self.server.stored(message.id)

    async def _answered(self, callback: Callback, clicked: int | None = None) -> Result:
        if callback.kind == 5:
            await self.server.fake.answer(callback)  # a deferral's answer comes after the work
        # What the interaction started is done before the member reads it: a refusal's
        # followup, the DMs and channel lines it caused.
        await self.server.settle()
        return Result(self.server, callback, clicked)

    def available_commands(self, channel: Channel) -> tuple[str, ...]:
        """The commands Discord shows this member in ``channel``, subcommands by their path."""
        fake = self.server.fake
        guild_id = fake.guild_of(channel.id)
        shown: list[str] = []
        for command in [*fake.commands.get(guild_id, []), *fake.commands.get(None, [])]:
            if not fake.offered(command["name"], guild_id, self.id, self.permissions):
                continue
            shown.extend(paths(command["name"], command.get("options") or []))
        return tuple(shown)


def paths(name: str, options: list[JSON]) -> Iterator[str]:
    groups = [o for o in options if o.get("type") in (1, 2)]
    if not groups:
        yield name
    for option in groups:
        yield from paths(f"{name} {option['name']}", option.get("options") or [])
