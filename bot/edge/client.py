"""The Discord client: wires the core to Discord, loads the cogs, restores tables, syncs commands.

Resources are made by the caller and handed in (discord.py's ``advanced_startup`` pattern): the
store is opened before the bot exists and closed after it has stopped, so nothing here needs
to ask what was set up.

Commands are synced at startup only when they changed: Discord allows 200 command creations a
day per server and rate-limits syncs, and a sync sending what Discord already has spends that
for nothing.
The store keeps, per application and scope, a digest of the payload last sent (the exact JSON
``CommandTree.sync`` would PUT, translations included) and the ids Discord gave the commands;
the ids make the mentions (``</sit:ID>``) that messages name commands with.

The bot is sharded (discord.py's ``AutoShardedBot``): Discord's recommended number of shards, all
in this process, unless the settings name the count (SHARD_COUNT) and the shards this process
runs (SHARD_IDS, as each worker of ``stud-bot cluster`` is told); its tables are then those of the
servers on its shards (:attr:`bot.core.settings.Settings.shards`).
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import json
import logging
from typing import Any

import discord
from aiohttp import web
from discord.ext import commands

from bot.core.clock import Clock, SystemClock
from bot.core.house import House
from bot.core.settings import Settings
from bot.core.shards import shard_ranges
from bot.core.storage import Store
from bot.edge.budget import InvalidRequests, trace
from bot.edge.dms import ClosedDms
from bot.edge.drawing import Drawing, DrawingProcess
from bot.edge.funnel import StudTree
from bot.edge.gateway import DatabaseTurns, SessionStarts, Turns
from bot.edge.lobby import Lobbies
from bot.edge.metrics import CountedDrawing, Metrics
from bot.edge.presenter import DiscordPresenter
from bot.edge.router import on_interaction
from bot.edge.translator import CommandTranslator
from words import EN, Texts

log = logging.getLogger(__name__)

# Loaded in this order at startup; an explicit list, so a stray file in cogs/ is never loaded.
EXTENSIONS = (
    "cogs.tables",
    "cogs.play",
    "cogs.chips",
    "cogs.tournaments",
    "cogs.hands",
    "cogs.help",
    "cogs.settings",
)


class GuildRefused(Exception):
    """Discord refused to take commands for a server (403)."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(
            f"Discord refused the commands for server {guild_id}: the bot is not in it, or was "
            "invited without the applications.commands scope"
        )


def _scope(guild_id: int | None) -> str:
    return "global" if guild_id is None else f"guild {guild_id}"


async def command_payload(
    tree: discord.app_commands.CommandTree, guild_id: int | None
) -> list[dict[str, Any]]:
    """What ``tree.sync(guild=...)`` would PUT for this scope, translations included (built as
    ``sync`` builds it, from the same private list of the tree's commands)."""
    guild = None if guild_id is None else discord.Object(guild_id)
    translator = tree.translator
    assert translator is not None, "load_commands() sets the translator first"
    return [
        await command.get_translated_payload(tree, translator)
        for command in tree._get_all_commands(guild=guild)
    ]


PRIMARY_ENTRY_POINT = 4  # the command type that opens an app's Activity from the App Launcher
DISCORD_LAUNCH_ACTIVITY = 2  # its handler: Discord opens the Activity and says so in the channel


def entry_point(texts: Texts) -> dict[str, Any]:
    """The Activity's Entry Point command, as Discord documents it (global only, one an app;
    docs/interactions/application-commands, "Entry Point Commands"). In servers only: the table
    is a server channel's."""
    description = texts.t(EN, "entry_point_description")
    return {
        "type": PRIMARY_ENTRY_POINT,
        "name": "launch",
        "description": description,
        "description_localizations": {
            code.replace("_", "-"): texts.t(code, "entry_point_description")
            for code in texts.codes
            if code != EN
        },
        "handler": DISCORD_LAUNCH_ACTIVITY,
        "integration_types": [0],
        "contexts": [0],
    }


def payload_digest(payload: list[dict[str, Any]]) -> str:
    """The same for the same commands, whatever order they were added in (Discord keys
    commands by type and name; the list order means nothing to it)."""
    ordered = sorted(payload, key=lambda command: (command.get("type", 1), command["name"]))
    text = json.dumps(ordered, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


class StudBot(commands.AutoShardedBot):
    def __init__(
        self,
        settings: Settings,
        store: Store,
        texts: Texts,
        *,
        clock: Clock | None = None,
        drawing: Drawing | None = None,
        identify_turns: Turns | None = None,
        **options: object,
    ) -> None:
        """``store`` and ``texts`` are made by the caller (``main()``), as is ``drawing``
        (default: a drawing process of its own, started with the first picture)."""
        # Slash commands and buttons only: no privileged intents (no message content, members).
        intents = discord.Intents.none()
        intents.guilds = True
        if settings.shard_ids is not None:
            options["shard_ids"] = list(settings.shard_ids)
        if store.coordination.shared:
            # PostgreSQL: the processes of every machine take turns through the database.
            identify_turns = DatabaseTurns(store.coordination, self.fetch_session_start_limits)
        if identify_turns is not None and settings.shard_count is not None:
            # A shard's connection attempt includes waiting for its turn, which can come after
            # every other shard of the cluster's.
            options.setdefault(
                "shard_connect_timeout", 180.0 + identify_turns.interval * settings.shard_count
            )
        # Every answer Discord gives is counted against its invalid-request budget.
        budget = InvalidRequests()
        metrics = Metrics(budget) if settings.metrics_port else None
        observers = () if metrics is None else (metrics.answered,)
        options.setdefault("http_trace", trace(budget, *observers))
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=StudTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=settings.shard_count,
            **options,  # type: ignore[arg-type]
        )
        self.settings = settings
        self.store = store
        self.texts = texts
        clock = clock or SystemClock()
        self.identify_turns = identify_turns
        self.session_starts = SessionStarts(store.coordination, self.fetch_session_start_limits)
        drawing = DrawingProcess() if drawing is None else drawing
        self.metrics = metrics
        if metrics is not None:
            drawing = CountedDrawing(drawing, metrics.pictures)
            metrics.count_errors(self.http)
            metrics.watch(self)
            store.observe(metrics.transaction)
        self.presenter = DiscordPresenter(
            self,
            clock,
            texts,
            drawing,
            budget=budget,
            dms=ClosedDms(store.coordination, clock=clock.now),
            table_shown=None if metrics is None else metrics.update_seconds.observe,
            launch=settings.activity is not None,
        )
        self.lobbies = Lobbies(self, texts, self.presenter.shown)
        shards = settings.shards
        self.house = House(
            store,
            texts,
            clock=clock,
            owns=None if shards is None else shards.owns,
            bot_delay=settings.bot_delay,
            show=self.presenter.wake,
            lobby=self.lobbies,
        )
        self._sharing: asyncio.Task[None] | None = None
        self._metrics_server: web.AppRunner | None = None
        # False once shutting down: new interactions are told to come back in a minute.
        self.accepting = True
        self._start_up_frozen = False

    async def setup_hook(self) -> None:
        await self.presenter.dms.load()
        self._sharing = asyncio.create_task(
            self.presenter.budget.keep_sharing(self.store.coordination), name="share-budget"
        )
        if self.metrics is not None:
            self._metrics_server = await self.metrics.serve(self.settings.metrics_port, self)
        await self.load_commands()
        self.add_listener(on_interaction)
        # With DEV_GUILD_ID the commands go to that server only (instantly); without it,
        # globally. Never both from a start, so no server sees each command twice.
        ids = await self.sync_commands(self.settings.dev_guild_id)
        # Messages name commands by Discord's mentions now, in each reader's language.
        self.texts.commands_synced(ids)
        restored = await self.house.recovery.restore()
        if restored:
            log.info("restored hands in progress: %s", ", ".join(map(str, restored)))

    async def load_commands(self) -> None:
        await self.tree.set_translator(CommandTranslator(self.texts))
        for extension in EXTENSIONS:
            await self.load_extension(extension)

    def _sync_key(self, guild_id: int | None) -> str:
        # Per application too: a new token for another application starts with no commands.
        return f"commands:{self.application_id}:{'global' if guild_id is None else guild_id}"

    async def sync_commands(self, guild_id: int | None, *, force: bool = False) -> dict[str, int]:
        """Sync the commands to one scope (a guild gets a copy of the global ones) unless the
        last sync there sent the same payload, or ``force``; return their ids by name."""
        guild = None if guild_id is None else discord.Object(guild_id)
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        digest = payload_digest(await self._payload(guild_id))
        key = self._sync_key(guild_id)
        stored = await self.store.get_meta(key)
        if stored is not None and not force:
            last = json.loads(stored)
            if last["digest"] == digest:
                log.info(
                    "commands unchanged since the last sync (%s): not syncing", _scope(guild_id)
                )
                return {name: int(command_id) for name, command_id in last["ids"].items()}
        synced = await self._put(guild)
        ids = {command.name: command.id for command in synced}
        await self.store.set_meta(key, json.dumps({"digest": digest, "ids": ids}))
        log.info("synced %d commands (%s)", len(synced), _scope(guild_id))
        return ids

    async def _payload(self, guild_id: int | None) -> list[dict[str, Any]]:
        """What a sync sends to a scope: the tree's commands, and globally, with the Activity
        on, its Entry Point command (a bulk overwrite that left it out would be refused)."""
        payload = await command_payload(self.tree, guild_id)
        if guild_id is None and self.settings.activity is not None:
            payload.append(entry_point(self.texts))
        return payload

    async def _put(self, guild: discord.Object | None) -> list[discord.app_commands.AppCommand]:
        if guild is None and self.settings.activity is not None:
            # discord.py's tree has no Entry Point command: the same PUT, with it.
            assert self.application_id is not None
            data = await self.http.bulk_upsert_global_commands(
                self.application_id, payload=await self._payload(None)
            )
            return [
                discord.app_commands.AppCommand(data=command, state=self._connection)
                for command in data
                if command.get("type") != PRIMARY_ENTRY_POINT  # not one a message names
            ]
        try:
            return await self.tree.sync(guild=guild)
        except discord.Forbidden:
            if guild is None:
                raise
            raise GuildRefused(guild.id) from None

    async def clear_commands(self, guild_id: int) -> None:
        """Remove every command of this application from one guild (e.g. the copies a
        development start put there, once the global ones are out)."""
        guild = discord.Object(guild_id)
        self.tree.clear_commands(guild=guild)
        await self._put(guild)
        digest = payload_digest(await command_payload(self.tree, guild_id))
        await self.store.set_meta(
            self._sync_key(guild_id), json.dumps({"digest": digest, "ids": {}})
        )
        log.info("removed the commands of %s", _scope(guild_id))

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        shard = shard_id or 0
        # A day's session starts are few: none is spent without being counted and checked.
        await self.session_starts.before_identify(shard)
        if self.identify_turns is None:
            await super().before_identify_hook(shard_id, initial=initial)
        else:
            # The other processes identify too: even this process's first shard waits its turn.
            await self.identify_turns.wait(shard)

    def live_counts(self) -> tuple[int, int, int]:
        """(tables open, players seated, effects waiting in their outboxes), for the metrics."""
        tables = list(self.house.open_tables)
        return (
            len(tables),
            sum(len(table.seats) for table in tables),
            sum(len(table.outbox) for table in tables),
        )

    def shards_ready(self) -> bool:
        """Every shard of this process connected and ready (``/healthz``)."""
        shards = self.shards.values()
        return (
            self.is_ready()
            and not self.is_closed()
            and bool(shards)
            and not any(shard.is_closed() for shard in shards)
        )

    async def on_shard_connect(self, shard_id: int) -> None:
        log.info("shard %d of %s connected", shard_id, self.shard_count)

    async def on_shard_ready(self, shard_id: int) -> None:
        guilds = sum(1 for guild in self.guilds if guild.shard_id == shard_id)
        log.info("shard %d ready in %d guilds", shard_id, guilds)

    async def on_shard_disconnect(self, shard_id: int) -> None:
        log.info("shard %d disconnected", shard_id)

    async def on_shard_resumed(self, shard_id: int) -> None:
        log.info("shard %d resumed", shard_id)

    async def on_ready(self) -> None:
        shards = sorted(self.shards)
        log.info(
            "ready as %s in %d guilds (shards %s of %s)",
            self.user,
            len(self.guilds),
            shard_ranges(shards) if shards else "none",
            self.shard_count,
        )
        if not self._start_up_frozen:
            # What start-up made (modules, commands, the servers' cache) lives as long as the
            # process: the collector's full passes need not scan it again, and stop the loop
            # for a fraction as long (docs/performance.md).
            gc.freeze()
            self._start_up_frozen = True

    async def close(self) -> None:
        """Stop taking interactions, let the changes in flight be saved and shown, disconnect."""
        self.accepting = False
        await self.house.recovery.shutdown()
        await self.presenter.close()
        if self._sharing is not None:
            self._sharing.cancel()
        if self._metrics_server is not None:
            await self._metrics_server.cleanup()
        # The mentions carry this session's command ids.
        self.texts.commands_synced({})
        await super().close()
