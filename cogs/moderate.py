"""/moderate close|cancel|bots add|remove: what a server's staff do to any member's table or
tournament, where /table close, /table bots and /tournament cancel act on one's own.

Discord sets who may use a command per top-level command, so these are one command of their own
with Manage Server as its default permission: Discord shows it to no one else unless the server
gives it to a role or a member (Server Settings -> Integrations), and whoever Discord lets use it
may (no check of our own would let a server hand it to a "poker host" role). Grants of chips
(/chips) are not here: creating chips stays with Manage Server whatever the server sets."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.app_commands import Range
from discord.ext import commands

from bot.edge.client import StudBot
from cogs.tables import STYLE_CHOICES, add_bots, close_table, remove_bots
from cogs.tournaments import TOURNAMENT_ID, cancel_tournament


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class ModerateGroup(
    app_commands.Group,
    name="moderate",
    description=(
        "Staff: close any table, call off any tournament, seat or send away computer players"
    ),
):
    def __init__(self, bot: StudBot) -> None:
        super().__init__()
        self.bot = bot

    @app_commands.command(
        name="close", description="Close this channel's table, whoever opened it (between hands)"
    )
    async def close(self, interaction: discord.Interaction) -> None:
        await close_table(self.bot, interaction, can_manage=True)

    @app_commands.command(
        name="cancel", description="Call off any tournament before it starts (every chip back)"
    )
    @app_commands.describe(tournament="The tournament's number")
    async def cancel(self, interaction: discord.Interaction, tournament: TOURNAMENT_ID) -> None:
        await cancel_tournament(self.bot, interaction, tournament, can_manage=True)

    bots = app_commands.Group(
        name="bots", description="Computer players at this channel's table, whoever opened it"
    )

    @bots.command(name="add", description="Seat computer players here, staked by the house")
    @app_commands.describe(
        count="How many computer players (default: 1)", style="How they play (default: tight)"
    )
    @app_commands.choices(style=STYLE_CHOICES)
    async def bots_add(
        self,
        interaction: discord.Interaction,
        count: Range[int, 1, 7] = 1,
        style: str | None = None,
    ) -> None:
        await add_bots(self.bot, interaction, True, count, style)

    @bots.command(name="remove", description="Send computer players here away, after their hand")
    @app_commands.describe(count="How many computer players (default: 1)")
    async def bots_remove(
        self, interaction: discord.Interaction, count: Range[int, 1, 8] = 1
    ) -> None:
        await remove_bots(self.bot, interaction, True, count)


async def setup(bot: commands.Bot) -> None:
    cast(StudBot, bot).tree.add_command(ModerateGroup(cast(StudBot, bot)))
