"""/fold /check /call /bet /raise /complete /bringin and /cards: the same as the table buttons."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.app_commands import Range
from discord.ext import commands

from bot.edge.client import StudBot
from bot.edge.funnel import language_of, reply
from bot.edge.permissions import missing_permissions
from cogs.tables import channel_id_of


class Play(commands.Cog):
    def __init__(self, bot: StudBot) -> None:
        self.bot = bot

    async def _act(
        self, interaction: discord.Interaction, action: str, amount: int | None = None
    ) -> None:
        channel_id = channel_id_of(interaction)
        lang = language_of(interaction)
        outcome = await self.bot.house.dealer.act(
            channel_id,
            interaction.user.id,
            action,
            amount,
            lang=lang,
            missing=missing_permissions(interaction),
        )
        t = self.bot.texts.t
        action = t(lang, f"act_{outcome.action}", amount=outcome.amount)
        await reply(interaction, t(lang, "acted", action=action))

    @app_commands.command(name="fold", description="Fold your hand")
    @app_commands.guild_only()
    async def fold(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "fold")

    @app_commands.command(name="check", description="Check")
    @app_commands.guild_only()
    async def check(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "check")

    @app_commands.command(name="call", description="Call the current bet")
    @app_commands.guild_only()
    async def call(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "call")

    @app_commands.command(name="bet", description="Bet (fixed limit: the amount is optional)")
    @app_commands.describe(amount="Chips to put in (fixed limit decides)")
    @app_commands.guild_only()
    async def bet(
        self, interaction: discord.Interaction, amount: Range[int, 1, 1_000_000_000] | None = None
    ) -> None:
        await self._act(interaction, "bet", amount)

    @app_commands.command(name="raise", description="Raise (fixed limit: the total is optional)")
    @app_commands.describe(total="Your street total after the raise")
    @app_commands.guild_only()
    async def raise_(
        self, interaction: discord.Interaction, total: Range[int, 1, 1_000_000_000] | None = None
    ) -> None:
        await self._act(interaction, "raise", total)

    @app_commands.command(name="complete", description="Complete the bring-in to the small bet")
    @app_commands.guild_only()
    async def complete(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "complete")

    @app_commands.command(name="bringin", description="Post the bring-in")
    @app_commands.guild_only()
    async def bringin(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "bring_in")

    @app_commands.command(name="cards", description="See your cards (only you see the reply)")
    @app_commands.guild_only()
    async def cards(self, interaction: discord.Interaction) -> None:
        cards = await self.bot.house.dealer.cards(
            channel_id_of(interaction),
            interaction.user.id,
            name=interaction.user.display_name,
            lang=language_of(interaction),
        )
        await self.bot.presenter.send_cards(interaction, cards)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play(cast(StudBot, bot)))
