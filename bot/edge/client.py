"""The Discord client: wires the core to Discord, loads the cogs, restores tables, syncs commands.

Resources are made by the caller and handed in (discord.py's ``advanced_startup`` pattern): the
store is opened before the bot exists and closed after it has stopped, so nothing here needs
to ask what was set up.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.core.clock import Clock
from bot.core.settings import Settings
from bot.core.storage import Store
from bot.core.tables import TableManager
from bot.edge.buttons import route_click
from bot.edge.funnel import StudTree
from bot.edge.presenter import DiscordPresenter
from bot.edge.translator import CommandTranslator

log = logging.getLogger(__name__)

# Loaded in this order at startup; an explicit list, so a stray file in cogs/ is never loaded.
EXTENSIONS = (
    "cogs.tables",
    "cogs.play",
    "cogs.chips",
    "cogs.hands",
    "cogs.admin",
    "cogs.help",
    "cogs.settings",
)


class StudBot(commands.Bot):
    def __init__(
        self, settings: Settings, store: Store, *, clock: Clock | None = None, **options: object
    ) -> None:
        # Slash commands and buttons only: no privileged intents (no message content, members).
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=StudTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **options,  # type: ignore[arg-type]
        )
        self.settings = settings
        self.store = store
        self.tables = TableManager(store, clock=clock)
        self.presenter = DiscordPresenter(self, self.tables)
        # False once shutting down: new interactions are told to come back in a minute.
        self.accepting = True

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CommandTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_listener(route_click, "on_interaction")
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the dev guild %s", len(synced), guild.id)
        restored = await self.tables.restore()
        if restored:
            log.info("restored hands in progress: %s", ", ".join(map(str, restored)))

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guilds", self.user, len(self.guilds))

    async def close(self) -> None:
        """Stop taking interactions, let the changes in flight be saved and shown, disconnect."""
        self.accepting = False
        await self.tables.shutdown()
        await self.presenter.close()
        await super().close()
