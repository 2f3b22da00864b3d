"""The Bot subclass: opens the store, loads the cogs, restores tables, syncs commands."""

from __future__ import annotations

import logging
from datetime import timedelta

import discord
from discord.ext import commands

from bot.components import ActionButton, CardsButton, answer_orphan_click
from bot.errors import StudTree
from bot.i18n import CommandTranslator
from bot.presenter import DiscordPresenter
from bot.settings import Settings
from bot.storage import Store
from bot.tables import TableManager

log = logging.getLogger(__name__)

# Loaded in this order at startup; an explicit list, so a stray file in cogs/ is never loaded.
EXTENSIONS = (
    "cogs.tables",
    "cogs.play",
    "cogs.chips",
    "cogs.hands",
    "cogs.admin",
)


class StudBot(commands.Bot):
    store: Store
    tables: TableManager
    presenter: DiscordPresenter

    def __init__(self, settings: Settings, **options: object) -> None:
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

    async def setup_hook(self) -> None:
        self.store = await Store.open(
            self.settings.database_path,
            starting_balance=self.settings.starting_chips,
            daily_amount=self.settings.daily_chips,
            daily_cooldown=timedelta(hours=self.settings.daily_cooldown_hours),
        )
        self.presenter = DiscordPresenter(self)
        self.tables = TableManager(self.store, self.presenter)
        await self.tree.set_translator(CommandTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(ActionButton, CardsButton)
        self.add_listener(answer_orphan_click, "on_interaction")
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
        if hasattr(self, "tables"):
            await self.tables.shutdown()
            await self.presenter.close()
        await super().close()
        if hasattr(self, "store"):
            await self.store.close()
