"""The names players go by: saved whenever they use the bot on a server."""

from __future__ import annotations

import logging
from typing import cast

import discord
from discord.ext import commands

from bot.edge.client import StudBot

log = logging.getLogger(__name__)


class Players(commands.Cog):
    def __init__(self, bot: StudBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every command and click on a server: remember the player's name there (histories,
        restarts and the leaderboard use it; the bot has no member cache to ask later)."""
        if interaction.guild_id is None:
            return
        try:
            await self.bot.tables.seen(
                interaction.guild_id, interaction.user.id, interaction.user.display_name
            )
        except Exception:
            # A name is worth keeping, not worth failing the player's command for.
            log.warning("could not save a player's name", exc_info=True)


async def setup(bot: commands.Bot) -> None:
    stud = cast(StudBot, bot)
    await bot.add_cog(Players(stud))
