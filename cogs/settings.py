"""/settings deck and /settings showdown, and the names players go by: saved whenever they use
the bot on a server."""

from __future__ import annotations

import logging
from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.edge.client import StudBot
from bot.edge.funnel import language_of, reply
from bot.edge.router import is_action_click
from cogs.tables import DECK_CHOICES, FOUR_COLOUR

log = logging.getLogger(__name__)

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


class Players(commands.Cog):
    def __init__(self, bot: StudBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every command and click on a server: remember the player's name there (histories,
        restarts and the leaderboard use it; the bot has no member cache to ask later). A click
        on a table's action button is the exception: the dealer takes the name with it, so the
        click enters the core once."""
        if interaction.guild_id is None or is_action_click(interaction):
            return
        try:
            await self.bot.house.players.seen(
                interaction.guild_id, interaction.user.id, interaction.user.display_name
            )
        except Exception:
            # A name is worth keeping, not worth failing the player's command for.
            log.warning("could not save a player's name", exc_info=True)


async def setup(bot: commands.Bot) -> None:
    stud = cast(StudBot, bot)
    stud.tree.add_command(SettingsGroup(stud))
    await bot.add_cog(Players(stud))
