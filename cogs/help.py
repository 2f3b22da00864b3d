"""/help: the game in five lines, how a hand goes, the buttons, the commands (playing; chips,
stats and hands), the hand rankings."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.edge.client import StudBot
from bot.edge.funnel import language_of, reply
from bot.edge.presenter import RANKINGS_PICTURE


class Help(commands.Cog):
    def __init__(self, bot: StudBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="help",
        description="How to play: a hand, the buttons, the commands and the hand rankings",
    )
    async def help(self, interaction: discord.Interaction) -> None:
        lang = language_of(interaction)
        t = self.bot.texts.t
        embed = discord.Embed(
            title=t(lang, "help_title"),
            description=t(lang, "help_what"),
            colour=discord.Colour.dark_green(),
        )
        for title, text in (
            ("help_how_title", "help_how"),
            ("help_buttons_title", "help_buttons"),
            ("help_games_title", "help_games"),
            ("help_commands_title", "help_commands"),
            ("help_chips_title", "help_chips"),
            ("help_bots_title", "help_bots"),
            ("help_tournaments_title", "help_tournaments"),
        ):
            embed.add_field(name=t(lang, title), value=t(lang, text), inline=False)
        embed.set_image(url=f"attachment://{RANKINGS_PICTURE}")
        # The player's own deck: the picture is his alone, like his cards.
        four_colour = await self.bot.house.players.four_colour(interaction.user.id)
        picture = await self.bot.presenter.rankings_file(lang, four_colour)
        await reply(interaction, embed=embed, file=picture)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(cast(StudBot, bot)))
