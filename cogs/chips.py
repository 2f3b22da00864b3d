"""/balance, /daily, /leaderboard and /chips grant."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.app_commands import Range
from discord.ext import commands

from bot.core.i18n import language, t
from bot.edge.client import StudBot
from bot.edge.funnel import reply


def guild_id_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class ChipsGroup(app_commands.Group, name="chips", description="Chip administration"):
    def __init__(self, bot: StudBot) -> None:
        super().__init__()
        self.bot = bot

    @app_commands.command(name="grant", description="Give chips to a member (Manage Server)")
    @app_commands.describe(member="Who gets the chips", amount="How many chips")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def grant(
        self,
        interaction: discord.Interaction,
        member: discord.Member,
        amount: Range[int, 1, 1_000_000_000],
    ) -> None:
        wallet = await self.bot.store.grant(
            guild_id_of(interaction),
            member.id,
            amount,
            reason="admin grant",
            by=interaction.user.id,
        )
        await reply(
            interaction,
            t(
                language(interaction.locale),
                "chips_granted",
                name=member.display_name,
                amount=amount,
                wallet=wallet,
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )


class Chips(commands.Cog):
    def __init__(self, bot: StudBot) -> None:
        self.bot = bot

    @app_commands.command(name="balance", description="Your chips")
    @app_commands.guild_only()
    async def balance(self, interaction: discord.Interaction) -> None:
        wallet = await self.bot.store.wallet(guild_id_of(interaction), interaction.user.id)
        await reply(
            interaction,
            t(language(interaction.locale), "balance", wallet=wallet.balance, seated=wallet.seated),
        )

    @app_commands.command(name="daily", description="Collect your daily chips")
    @app_commands.guild_only()
    async def daily(self, interaction: discord.Interaction) -> None:
        claim = await self.bot.store.claim_daily(guild_id_of(interaction), interaction.user.id)
        await reply(
            interaction,
            t(
                language(interaction.locale),
                "daily_granted",
                amount=self.bot.settings.daily_chips,
                wallet=claim.balance,
            ),
        )

    @app_commands.command(
        name="leaderboard", description="Top 10 players on this server and your rank"
    )
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        lang = language(interaction.locale)
        guild_id = guild_id_of(interaction)
        board = await self.bot.store.leaderboard(guild_id, limit=10, user_id=interaction.user.id)
        names = await self.bot.store.names(guild_id, (row.user_id for row in board.top))
        lines = []
        for row in board.top:
            # Names as the bot last saw them (it has no member cache); a mention for a player
            # it never saw, which Discord shows as his name to whoever can see him.
            name = names.get(row.user_id, f"<@{row.user_id}>")
            lines.append(t(lang, "leaderboard_line", rank=row.rank, name=name, chips=row.chips))
        embed = discord.Embed(
            title=t(lang, "leaderboard_title"),
            description="\n".join(lines) or t(lang, "leaderboard_empty"),
        )
        if board.caller is not None:
            embed.set_footer(
                text=t(lang, "leaderboard_you", rank=board.caller.rank, chips=board.caller.chips)
            )
        await reply(interaction, embed=embed)


async def setup(bot: commands.Bot) -> None:
    stud = cast(StudBot, bot)
    stud.tree.add_command(ChipsGroup(stud))
    await bot.add_cog(Chips(stud))
