"""/balance, /daily, /leaderboard, /stats and /chips grant, take and reset."""

from __future__ import annotations

from typing import Final, cast

import discord
from discord import app_commands
from discord.app_commands import Choice, Range
from discord.ext import commands

from bot.core.errors import TableError
from bot.core.games import HI_LO, RAZZ_GAME, STUD
from bot.edge.client import StudBot
from bot.edge.embeds import leaderboard_embed
from bot.edge.funnel import full_time, language_of, relative_time, reply

NET: Final = "net"
WALLET: Final = "wallet"
TOURNAMENTS: Final = "tournaments"
BY_CHOICES: Final = [
    Choice(name="Chips won at the tables", value=NET),
    Choice(name="Chips in wallet and at tables", value=WALLET),
    Choice(name="Tournament prizes minus buy-ins", value=TOURNAMENTS),
]
# Calendar periods in UTC, weeks from Monday (the store's stats buckets).
PERIOD_CHOICES: Final = [
    Choice(name="Today", value="day"),
    Choice(name="This week", value="week"),
    Choice(name="This month", value="month"),
    Choice(name="The whole season", value="all"),
]
STATS_GAME_CHOICES: Final = [
    Choice(name="Seven Card Stud", value=STUD),
    Choice(name="Razz", value=RAZZ_GAME),
    Choice(name="Stud Hi-Lo", value=HI_LO),
]
BOARD_SIZE: Final = 10


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
        wallet = await self.bot.store.wallets.grant(
            guild_id_of(interaction),
            member.id,
            amount,
            reason="admin grant",
            by=interaction.user.id,
        )
        await reply(
            interaction,
            self.bot.texts.t(
                language_of(interaction),
                "chips_granted",
                name=member.display_name,
                amount=amount,
                wallet=wallet,
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(
        name="take",
        description="Take chips from a member's wallet, never below zero (Manage Server)",
    )
    @app_commands.describe(
        member="Whose wallet loses the chips",
        amount="How many chips to take (at most what the wallet has)",
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def take(
        self,
        interaction: discord.Interaction,
        member: discord.Member,
        amount: Range[int, 1, 1_000_000_000],
    ) -> None:
        taken = await self.bot.store.wallets.take(
            guild_id_of(interaction),
            member.id,
            amount,
            reason="admin take",
            by=interaction.user.id,
        )
        await reply(
            interaction,
            self.bot.texts.t(
                language_of(interaction),
                "chips_taken" if taken.taken == amount else "chips_taken_all",
                name=member.display_name,
                taken=taken.taken,
                wallet=taken.balance,
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(
        name="reset",
        description=(
            "A new season: every wallet back to the starting chips, stats anew (Manage Server)"
        ),
    )
    @app_commands.describe(confirm="Yes: reset every wallet of this server")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def reset(self, interaction: discord.Interaction, confirm: bool) -> None:
        if not confirm:
            raise TableError("season_reset_unconfirmed")
        reset = await self.bot.store.wallets.reset_season(
            guild_id_of(interaction), by=interaction.user.id
        )
        await reply(
            interaction,
            self.bot.texts.t(
                language_of(interaction),
                "season_started",
                season=reset.season,
                wallets=reset.wallets,
                start=self.bot.store.starting_balance,
                granted=reset.granted,
                burned=reset.burned,
            ),
        )

    house = app_commands.Group(
        name="house", description="The house wallet that stakes computer players"
    )

    @house.command(name="fund", description="Put chips in the house wallet (Manage Server)")
    @app_commands.describe(amount="How many chips")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def house_fund(
        self, interaction: discord.Interaction, amount: Range[int, 1, 1_000_000_000]
    ) -> None:
        wallet = await self.bot.store.house_wallet.fund(
            guild_id_of(interaction), amount, by=interaction.user.id
        )
        await reply(
            interaction,
            self.bot.texts.t(
                language_of(interaction), "house_funded", amount=amount, wallet=wallet
            ),
        )

    @house.command(name="empty", description="Take chips out of the house wallet (Manage Server)")
    @app_commands.describe(amount="How many chips (the house's own, never its bots' at tables)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def house_empty(
        self, interaction: discord.Interaction, amount: Range[int, 1, 1_000_000_000]
    ) -> None:
        taken = await self.bot.store.house_wallet.empty(
            guild_id_of(interaction), amount, by=interaction.user.id
        )
        text = self.bot.texts.t(
            language_of(interaction), "house_emptied", taken=taken.taken, wallet=taken.balance
        )
        await reply(interaction, text)

    @house.command(name="show", description="The house's chips and its computer players' results")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def house_show(self, interaction: discord.Interaction) -> None:
        await reply(interaction, await house_text(self.bot, interaction))


async def house_text(bot: StudBot, interaction: discord.Interaction) -> str:
    """The house's wallet and its computer players' result, in the reader's language."""
    report = await bot.store.house_wallet.report(guild_id_of(interaction))
    return bot.texts.t(
        language_of(interaction),
        "house_report",
        balance=report.balance,
        at_tables=report.at_tables,
        funded=report.funded,
        result=report.result,
    )


class Chips(commands.Cog):
    def __init__(self, bot: StudBot) -> None:
        self.bot = bot

    @app_commands.command(name="balance", description="Your chips")
    @app_commands.guild_only()
    async def balance(self, interaction: discord.Interaction) -> None:
        wallet = await self.bot.store.wallets.get(guild_id_of(interaction), interaction.user.id)
        await reply(
            interaction,
            self.bot.texts.t(
                language_of(interaction), "balance", wallet=wallet.balance, seated=wallet.seated
            ),
        )

    @app_commands.command(name="daily", description="Collect your daily chips")
    @app_commands.guild_only()
    async def daily(self, interaction: discord.Interaction) -> None:
        lang = language_of(interaction)
        claim = await self.bot.store.wallets.claim_daily(
            guild_id_of(interaction), interaction.user.id
        )
        t = self.bot.texts.t
        text = " ".join(
            (
                t(
                    lang,
                    "daily_granted",
                    amount=self.bot.settings.daily_chips,
                    wallet=claim.balance,
                ),
                t(lang, "daily_streak", streak=claim.streak),
                t(
                    lang,
                    "daily_next",
                    when=relative_time(claim.next_at.timestamp()),
                    until=full_time(claim.streak_until.timestamp()),
                ),
            )
        )
        await reply(interaction, text)

    @app_commands.command(
        name="leaderboard",
        description="Top 10 by chips won at the tables, by wallet or by tournaments, and your rank",
    )
    @app_commands.describe(
        by=(
            "Chips won at the tables (default), chips in wallet and at tables, or tournament"
            " results"
        ),
        period="Today, this week or this month (UTC), or the whole season (default)",
        game="One game only (default: every game)",
    )
    @app_commands.choices(by=BY_CHOICES, period=PERIOD_CHOICES, game=STATS_GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        by: str = NET,
        period: str | None = None,
        game: str | None = None,
    ) -> None:
        lang = language_of(interaction)
        guild_id = guild_id_of(interaction)
        user_id = interaction.user.id
        if by == WALLET:
            if period is not None or game is not None:
                raise TableError("leaderboard_wallet_now")
            board = await self.bot.store.reports.leaderboard(
                guild_id, limit=BOARD_SIZE, user_id=user_id
            )
        elif by == TOURNAMENTS:
            board = await self.bot.store.reports.tournament_board(
                guild_id, period=period or "all", game=game, limit=BOARD_SIZE, user_id=user_id
            )
        else:
            board = await self.bot.store.reports.winnings(
                guild_id, period=period or "all", game=game, limit=BOARD_SIZE, user_id=user_id
            )
        names = await self.bot.store.players.names(guild_id, (row.user_id for row in board.top))
        await reply(interaction, embed=leaderboard_embed(board, names, self.bot.texts, lang))

    @app_commands.command(
        name="stats",
        description="Your stats or a member's: hands, wins, VPIP, net and a chart of it",
    )
    @app_commands.describe(
        member="Whose stats (default: yours)",
        period="Today, this week or this month (UTC), or the whole season (default)",
        game="One game only (default: every game)",
        house="The house's chips and results instead (its computer players)",
    )
    @app_commands.choices(period=PERIOD_CHOICES, game=STATS_GAME_CHOICES)
    @app_commands.guild_only()
    async def stats(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        period: str = "all",
        game: str | None = None,
        house: bool = False,
    ) -> None:
        if house:
            await reply(interaction, await house_text(self.bot, interaction))
            return
        lang = language_of(interaction)
        who = member or interaction.user
        stats = await self.bot.store.reports.player_stats(
            guild_id_of(interaction), who.id, period=period, game=game
        )
        embed, picture = await self.bot.presenter.stats_message(stats, who.display_name, lang)
        await reply(interaction, embed=embed, file=picture)


async def setup(bot: commands.Bot) -> None:
    stud = cast(StudBot, bot)
    stud.tree.add_command(ChipsGroup(stud))
    await bot.add_cog(Chips(stud))
