"""Owner-only maintenance: global command sync (dev guilds sync by themselves at startup)."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.i18n import language, t
from bot.edge.client import StudBot
from bot.edge.funnel import reply


async def is_bot_owner(interaction: discord.Interaction) -> bool:
    bot = cast(StudBot, interaction.client)
    return await bot.is_owner(interaction.user)


class Admin(commands.Cog):
    def __init__(self, bot: StudBot) -> None:
        self.bot = bot

    @app_commands.command(name="sync", description="Sync commands globally (bot owner)")
    @app_commands.default_permissions(administrator=True)
    @app_commands.check(is_bot_owner)
    async def sync(self, interaction: discord.Interaction) -> None:
        synced = await self.bot.tree.sync()
        await reply(interaction, t(language(interaction.locale), "synced", count=len(synced)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Admin(cast(StudBot, bot)))
