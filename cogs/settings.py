"""/settings deck and /settings showdown: each player's own choices."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.edge.client import StudBot
from bot.edge.funnel import language_of, reply
from cogs.tables import DECK_CHOICES, FOUR_COLOUR

ALWAYS_SHOW = "show"
# RULES 5.6: a hand that can no longer win is mucked unseen unless its player always shows.
SHOWDOWN_CHOICES = [
    app_commands.Choice(name="Always show my hand", value=ALWAYS_SHOW),
    app_commands.Choice(name="Muck a hand that can't win (default)", value="muck"),
]


class SettingsGroup(app_commands.Group, name="settings", description="Your own settings"):
    def __init__(self, bot: StudBot) -> None:
        super().__init__()
        self.bot = bot

    @app_commands.command(
        name="deck", description="Suit colours on the pictures only you see (DMs, My cards)"
    )
    @app_commands.describe(colours="Two or four suit colours (leave out to see your choice)")
    @app_commands.choices(colours=DECK_CHOICES)
    async def deck(self, interaction: discord.Interaction, colours: str | None = None) -> None:
        user_id = interaction.user.id
        if colours is not None:
            await self.bot.house.players.set_four_colour(user_id, colours == FOUR_COLOUR)
        four_colour = await self.bot.house.players.four_colour(user_id)
        key = "settings_deck_four" if four_colour else "settings_deck_two"
        await reply(interaction, self.bot.texts.t(language_of(interaction), key))

    @app_commands.command(
        name="showdown", description="Show your losing hands at a showdown, or muck them unseen"
    )
    @app_commands.describe(
        hands="Show or muck a hand that can't win (leave out to see your choice)"
    )
    @app_commands.choices(hands=SHOWDOWN_CHOICES)
    async def showdown(self, interaction: discord.Interaction, hands: str | None = None) -> None:
        user_id = interaction.user.id
        players = self.bot.house.players
        if hands is not None:
            await players.set_always_show(user_id, hands == ALWAYS_SHOW)
        key = "settings_show_always" if await players.always_show(user_id) else "settings_muck"
        await reply(interaction, self.bot.texts.t(language_of(interaction), key))


async def setup(bot: commands.Bot) -> None:
    stud = cast(StudBot, bot)
    stud.tree.add_command(SettingsGroup(stud))
