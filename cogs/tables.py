"""/table open|close|info|ledger, /sit, /leave, /sitout, /sitin: thin adapters over the table
manager."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final, cast

import discord
from discord import app_commands
from discord.app_commands import Choice, Range, locale_str
from discord.ext import commands

from bot.core.config import TableConfig
from bot.core.errors import BotLacksPermissions
from bot.core.games import HI_LO, MAX_EVERY, MIXED, RAZZ_GAME, STUD
from bot.core.views import opened_params
from bot.edge.client import StudBot
from bot.edge.embeds import seat_lines
from bot.edge.funnel import language_of, reply
from bot.edge.permissions import missing_permissions
from words import Texts


def channel_id_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.channel_id


def can_manage(interaction: discord.Interaction) -> bool:
    return interaction.permissions.manage_guild


SERVER_LANGUAGE: Final = "server"
FOUR_COLOUR: Final = "four-colour"
DECK_CHOICES: Final = [
    Choice(name="Two colours (red and black)", value="two-colour"),
    Choice(name="Four colours (one per suit)", value=FOUR_COLOUR),
]
GAME_CHOICES: Final = [
    Choice(name="Seven Card Stud (high hand wins)", value=STUD),
    Choice(name="Razz (lowest hand wins, ace to five)", value=RAZZ_GAME),
    Choice(name="Stud Hi-Lo (high and low split the pot, eight or better)", value=HI_LO),
    Choice(name="Mixed: Stud, Razz and Stud Hi-Lo in turn", value=MIXED),
]
# The computer players' styles (the core checks them: strategy.STYLES).
STYLE_CHOICES: Final = [
    Choice(name="Tight: few hands, played hard", value="tight"),
    Choice(name="Loose: many hands, many bets and bluffs", value="loose"),
    Choice(name="Careful: few hands, calls more than it bets", value="careful"),
]


def language_choices(texts: Texts) -> list[Choice[str]]:
    """The server's language, or one of those the bot speaks, each named in itself."""
    # Translatable names, as discord.py makes them of the choices its decorator is given.
    return [
        Choice(name=locale_str("The server's language"), value=SERVER_LANGUAGE),
        *(Choice(name=locale_str(texts.language_name(code)), value=code) for code in texts.codes),
    ]


def describe_defaults(
    command: app_commands.Command[Any, ..., Any], texts: Texts, **values: object
) -> None:
    """Make each named option's description say its default (from the settings, known only once
    the bot exists, so after the decorators ran). discord.py has no public way to change a
    parameter, so its copy of the command gets new ones."""
    for name, value in values.items():
        parameter = command._params[name]
        description = texts.with_default(f"cmddesc_option_{name}", value)
        command._params[name] = replace(parameter, description=locale_str(description))


@app_commands.guild_only()
class TableGroup(
    app_commands.Group, name="table", description="Open, close or inspect this channel's table"
):
    def __init__(self, bot: StudBot) -> None:
        super().__init__()
        self.bot = bot
        defaults = bot.settings.game
        # The languages are the bot's texts' (made in main()), known once the bot exists.
        choices = cast(list[Choice[str | int | float]], language_choices(bot.texts))
        self.open._params["language"] = replace(self.open._params["language"], choices=choices)
        describe_defaults(
            self.open,
            bot.texts,
            ante=defaults.ante,
            bring_in=defaults.bring_in,
            small_bet=defaults.small_bet,
            big_bet=defaults.big_bet,
            seats=defaults.seats,
            min_buy_in=defaults.min_buy_in,
            max_buy_in=defaults.max_buy_in,
            turn_seconds=defaults.turn_seconds,
            time_bank=defaults.time_bank,
        )

    @app_commands.command(
        name="open",
        description="Open a stud table in this channel: Seven Card Stud, Razz, Stud Hi-Lo or a mix",
    )
    @app_commands.describe(
        ante="Ante in chips",
        bring_in="Bring-in in chips",
        small_bet="Small bet (3rd and 4th street)",
        big_bet="Big bet (5th street on)",
        seats="Seats, 2 to 8",
        min_buy_in="Smallest buy-in",
        max_buy_in="Largest buy-in",
        turn_seconds="Seconds per turn",
        time_bank="Each player's time bank in seconds, used once a turn runs out (0: none)",
        language="Language of the table's messages and pictures (default: the server's)",
        deck="Suit colours on the table's pictures (default: two colours)",
        game="The game (default: Seven Card Stud)",
        hands_per_game="Mixed table: hands of each game (default: one orbit, as many as players)",
    )
    @app_commands.choices(deck=DECK_CHOICES, game=GAME_CHOICES)
    async def open(
        self,
        interaction: discord.Interaction,
        ante: Range[int, 0, 100_000] | None = None,
        bring_in: Range[int, 1, 100_000] | None = None,
        small_bet: Range[int, 1, 100_000] | None = None,
        big_bet: Range[int, 2, 200_000] | None = None,
        seats: Range[int, 2, 8] | None = None,
        min_buy_in: Range[int, 1, 1_000_000_000] | None = None,
        max_buy_in: Range[int, 1, 1_000_000_000] | None = None,
        turn_seconds: Range[int, 20, 600] | None = None,
        time_bank: Range[int, 0, 600] | None = None,
        language: str | None = None,
        deck: str | None = None,
        game: str = STUD,
        hands_per_game: Range[int, 1, MAX_EVERY] | None = None,
    ) -> None:
        # The option is named as players see it.
        channel_id = channel_id_of(interaction)
        texts = self.bot.texts
        lang = language_of(interaction)
        missing = missing_permissions(interaction)
        if missing:
            raise BotLacksPermissions(missing)
        if language is None or language == SERVER_LANGUAGE:
            language = texts.language(interaction.guild_locale or interaction.locale)
        config = TableConfig.from_options(
            self.bot.settings.game,
            language,
            ante=ante,
            bring_in=bring_in,
            small_bet=small_bet,
            big_bet=big_bet,
            seats=seats,
            min_buy_in=min_buy_in,
            max_buy_in=max_buy_in,
            turn_seconds=turn_seconds,
            time_bank=time_bank,
            four_colour=deck == FOUR_COLOUR,
            game=game,
            hands_per_game=hands_per_game,
        )
        await self.bot.house.seating.open(
            cast(int, interaction.guild_id), channel_id, interaction.user.id, config
        )
        params = opened_params(texts, config, lang)
        await reply(interaction, texts.t(lang, "table_opened", **params))

    @app_commands.command(
        name="close",
        description="Close this channel's table (between hands)",
    )
    async def close(self, interaction: discord.Interaction) -> None:
        await close_table(self.bot, interaction, can_manage=can_manage(interaction))

    @app_commands.command(name="info", description="Show the table's stakes and players")
    async def info(self, interaction: discord.Interaction) -> None:
        texts = self.bot.texts
        lang = language_of(interaction)
        info = self.bot.house.seating.info(channel_id_of(interaction), lang)
        lines = seat_lines(info.players, texts, lang)
        if info.next_game is not None:
            lines.insert(0, info.next_game)
        players = "\n".join(lines)
        params = opened_params(texts, info.config, lang)
        await reply(interaction, texts.t(lang, "table_info", **params, players=players))

    bots = app_commands.Group(name="bots", description="Computer players at this table")

    @bots.command(
        name="add",
        description="Seat computer players, staked by the house (table opener or Manage Server)",
    )
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
        await add_bots(self.bot, interaction, can_manage(interaction), count, style)

    @bots.command(
        name="remove",
        description="Send computer players away, after their hand (table opener or Manage Server)",
    )
    @app_commands.describe(count="How many computer players (default: 1)")
    async def bots_remove(
        self, interaction: discord.Interaction, count: Range[int, 1, 8] = 1
    ) -> None:
        await remove_bots(self.bot, interaction, can_manage(interaction), count)

    @app_commands.command(
        name="ledger",
        description="Who sat at this table: buy-ins, cash-outs, chips on the table, net and hands",
    )
    async def ledger(self, interaction: discord.Interaction) -> None:
        lang = language_of(interaction)
        ledger = await self.bot.house.seating.ledger(channel_id_of(interaction))
        embed, picture = await self.bot.presenter.ledger_message(ledger, lang)
        await reply(interaction, embed=embed, file=picture)


async def close_table(bot: StudBot, interaction: discord.Interaction, *, can_manage: bool) -> None:
    """Close the channel's table: the opener's own, or anyone's for one who may manage."""
    await bot.house.seating.close(
        channel_id_of(interaction), interaction.user.id, can_manage=can_manage
    )
    await reply(interaction, bot.texts.t(language_of(interaction), "table_closed"))


async def add_bots(
    bot: StudBot,
    interaction: discord.Interaction,
    can_manage: bool,
    count: int,
    style: str | None,
) -> None:
    seated = await bot.house.computer_players.add(
        channel_id_of(interaction),
        interaction.user.id,
        can_manage=can_manage,
        count=count,
        style=style,
    )
    await reply(interaction, bot.texts.t(language_of(interaction), "bots_added", count=seated))


async def remove_bots(
    bot: StudBot, interaction: discord.Interaction, can_manage: bool, count: int
) -> None:
    going = await bot.house.computer_players.remove(
        channel_id_of(interaction), interaction.user.id, can_manage=can_manage, count=count
    )
    await reply(interaction, bot.texts.t(language_of(interaction), "bots_removed", count=going))


class SeatingCommands(commands.Cog):
    def __init__(self, bot: StudBot) -> None:
        self.bot = bot

    @app_commands.command(name="sit", description="Take a seat at this channel's table")
    @app_commands.describe(
        buy_in="Chips to bring (default: your wallet, up to the table's largest buy-in)"
    )
    @app_commands.guild_only()
    async def sit(
        self, interaction: discord.Interaction, buy_in: Range[int, 1, 1_000_000_000] | None = None
    ) -> None:
        lang = language_of(interaction)
        seat = await self.bot.house.seating.sit(
            channel_id_of(interaction),
            interaction.user.id,
            interaction.user.display_name,
            buy_in,
            lang,
        )
        text = self.bot.texts.t(lang, "sat_down", seat=seat.position + 1, stack=seat.stack)
        if buy_in is None:
            text += " " + self.bot.texts.t(lang, "default_buy_in", max=seat.max_buy_in)
        await reply(interaction, text)

    @app_commands.command(name="leave", description="Leave the table (after the current hand)")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        lang = language_of(interaction)
        chips = await self.bot.house.seating.leave(channel_id_of(interaction), interaction.user.id)
        t = self.bot.texts.t
        text = t(lang, "leave_after_hand") if chips is None else t(lang, "left_now", stack=chips)
        await reply(interaction, text)

    @app_commands.command(name="sitout", description="Sit out from the next hand")
    @app_commands.guild_only()
    async def sitout(self, interaction: discord.Interaction) -> None:
        await self.bot.house.seating.set_sitting_out(
            channel_id_of(interaction), interaction.user.id, True
        )
        await reply(interaction, self.bot.texts.t(language_of(interaction), "sat_out"))

    @app_commands.command(name="sitin", description="Come back in from the next hand")
    @app_commands.guild_only()
    async def sitin(self, interaction: discord.Interaction) -> None:
        await self.bot.house.seating.set_sitting_out(
            channel_id_of(interaction), interaction.user.id, False
        )
        await reply(interaction, self.bot.texts.t(language_of(interaction), "sat_in"))


async def setup(bot: commands.Bot) -> None:
    stud = cast(StudBot, bot)
    stud.tree.add_command(TableGroup(stud))
    await bot.add_cog(SeatingCommands(stud))
