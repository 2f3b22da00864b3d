"""/tournament create|register|unregister|cancel: thin adapters over the tournament desk
(``house.tournaments``, RULES 11.1)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from typing import Final, cast

import discord
from discord import app_commands
from discord.app_commands import Choice, Range
from discord.ext import commands

from bot.core.errors import BotLacksPermissions, TableError
from bot.core.games import STUD, game_name
from bot.edge.client import StudBot
from bot.edge.funnel import language_of, reply
from bot.edge.lobby import registered_text
from bot.edge.permissions import can_make_events, missing_tournament_permissions
from cogs.tables import GAME_CHOICES, STYLE_CHOICES, can_manage, channel_id_of

MINUTES: Final = "minutes"
HANDS: Final = "hands"
UNIT_CHOICES: Final = [
    Choice(name="Minutes of play", value=MINUTES),
    Choice(name="Hands dealt at each table", value=HANDS),
]
# The level structures of engine.tournament.STRUCTURES (RULES 11.2).
STRUCTURE_CHOICES: Final = [
    Choice(name="Standard (RULES 11.2)", value="standard"),
    Choice(name="Turbo: fewer, faster levels", value="turbo"),
    Choice(name="Deep: bigger stacks, slower start", value="deep"),
]
TOURNAMENT_ID = Range[int, 1, 1_000_000_000]


@app_commands.guild_only()
class TournamentGroup(
    app_commands.Group, name="tournament", description="Create, enter or call off a tournament"
):
    def __init__(self, bot: StudBot) -> None:
        super().__init__()
        self.bot = bot

    @app_commands.command(
        name="create",
        description="Create a tournament in this channel: a sit-and-go, or at a set time",
    )
    @app_commands.describe(
        players="Start when this many have registered",
        starts_in="Or start in this many minutes",
        starts_at="Or start at YYYY-MM-DD HH:MM, UTC or with an offset (+03:00)",
        game="The game (default: Seven Card Stud)",
        buy_in="Buy-in from each player's wallet (0: a freeroll)",
        stack="Starting stack in tournament chips (default: the structure's)",
        seats="Seats per table, 2 to 8 (default: 8)",
        level="Length of each level (default: 10)",
        unit="What a level's length counts (default: minutes)",
        structure="The level structure (default: standard)",
        late_level="Late registration open until the end of this level (default: none)",
        reentry="Players out may buy in again while late registration is open",
        bots="Computer players entered, buy-ins from the house (default: 0)",
        style="How they play (default: tight)",
    )
    @app_commands.choices(
        game=GAME_CHOICES, unit=UNIT_CHOICES, structure=STRUCTURE_CHOICES, style=STYLE_CHOICES
    )
    async def create(
        self,
        interaction: discord.Interaction,
        players: Range[int, 2, 1000] | None = None,
        starts_in: Range[int, 1, 40_320] | None = None,
        starts_at: Range[str, 10, 40] | None = None,
        game: str = STUD,
        buy_in: Range[int, 0, 1_000_000_000] = 0,
        stack: Range[int, 1, 1_000_000_000] | None = None,
        seats: Range[int, 2, 8] = 8,
        level: Range[int, 1, 1000] = 10,
        unit: str = MINUTES,
        structure: str = "standard",
        late_level: Range[int, 1, 30] | None = None,
        reentry: bool = False,
        bots: Range[int, 0, 7] = 0,
        style: str | None = None,
    ) -> None:
        channel_id = channel_id_of(interaction)
        texts = self.bot.texts
        lang = language_of(interaction)
        missing = missing_tournament_permissions(interaction)
        if missing:
            raise BotLacksPermissions(missing)
        if (players is None) == (starts_in is None and starts_at is None) or (
            starts_in is not None and starts_at is not None
        ):
            raise TableError("tournament_start_choice")
        if reentry and late_level is None:
            raise TableError("tournament_reentry_needs_level")
        start_at = (
            None
            if players is not None
            else parse_start(starts_at, self.bot.house.clock.now(), starts_in)
        )
        # Without the right to make events, it is made all the same, and says so.
        event = start_at is not None and can_make_events(interaction)
        # Its tables keep the bot's turn time, countdown and time bank (as /table open's).
        defaults = self.bot.settings.game
        tournament = await self.bot.house.tournaments.create(
            cast(int, interaction.guild_id),
            channel_id,
            interaction.user.id,
            game=game,
            buy_in=buy_in,
            seats=seats,
            level_unit="hands" if unit == HANDS else "seconds",
            level_length=level if unit == HANDS else level * 60,
            structure_name=structure,
            starting_stack=stack,
            start_entrants=players,
            start_at=start_at,
            turn_seconds=defaults.turn_seconds,
            countdown_seconds=defaults.countdown_seconds,
            time_bank=defaults.time_bank,
            lang=texts.language(interaction.guild_locale or interaction.locale),
            late_level=late_level,
            reentry=reentry,
            bots=bots,
            bot_style=style,
            event=event,
        )
        facts = {
            "tournament_id": tournament.tournament_id,
            "game": game_name(texts, tournament.game, lang),
            "buy_in": tournament.buy_in,
            "stack": tournament.starting_stack,
            "seats": tournament.seats,
        }
        if start_at is None:
            created = texts.t(lang, "tournament_created", **facts, players=players)
        else:
            # A Discord timestamp: each reader sees the time in his own time zone.
            stamp = int(start_at.timestamp())
            created = texts.t(
                lang,
                "tournament_created_at",
                **facts,
                when=f"<t:{stamp}:F>",
                relative=f"<t:{stamp}:R>",
            )
            made = tournament.event_id is not None
            created += " " + texts.t(
                lang, "tournament_event_made" if made else "tournament_no_event"
            )
        if bots:
            style_name = texts.t(
                lang, f"bot_style_{style or self.bot.house.computer_players.default_style}"
            )
            created += " " + texts.t(lang, "tournament_bots_entered", count=bots, style=style_name)
        await reply(interaction, created)

    @app_commands.command(name="register", description="Enter a tournament (its buy-in is paid)")
    @app_commands.describe(tournament="The tournament's number")
    async def register(self, interaction: discord.Interaction, tournament: TOURNAMENT_ID) -> None:
        await self._register(interaction, tournament)

    async def _register(self, interaction: discord.Interaction, tournament: int) -> None:
        entered = await self.bot.house.tournaments.register(
            _guild_id(interaction), tournament, interaction.user.id
        )
        await reply(interaction, registered_text(self.bot.texts, language_of(interaction), entered))

    @app_commands.command(
        name="reenter", description="Re-enter a running tournament after going out (another buy-in)"
    )
    @app_commands.describe(tournament="The tournament's number")
    async def reenter(self, interaction: discord.Interaction, tournament: TOURNAMENT_ID) -> None:
        # The desk tells a re-entry from a late registration: the same buy-in, the same answer.
        await self._register(interaction, tournament)

    @app_commands.command(
        name="addprize",
        description="Add chips to a tournament's prize pool (organiser; a grant: Manage Server)",
    )
    @app_commands.describe(
        tournament="The tournament's number",
        amount="Chips to add to the prize pool",
        grant="Made by you as an admin's grant, not from your wallet (Manage Server)",
    )
    async def addprize(
        self,
        interaction: discord.Interaction,
        tournament: TOURNAMENT_ID,
        amount: Range[int, 1, 1_000_000_000],
        grant: bool = False,
    ) -> None:
        added = await self.bot.house.tournaments.add_prize(
            _guild_id(interaction),
            tournament,
            interaction.user.id,
            amount,
            can_manage=can_manage(interaction),
            grant=grant,
        )
        await reply(
            interaction,
            self.bot.texts.t(
                language_of(interaction),
                "tournament_prize_added",
                tournament_id=tournament,
                amount=amount,
                pool=added.prize_pool,
            ),
        )

    @app_commands.command(
        name="unregister", description="Leave a tournament before it starts (buy-in back)"
    )
    @app_commands.describe(tournament="The tournament's number")
    async def unregister(self, interaction: discord.Interaction, tournament: TOURNAMENT_ID) -> None:
        refund = await self.bot.house.tournaments.unregister(
            _guild_id(interaction), tournament, interaction.user.id
        )
        await reply(
            interaction,
            self.bot.texts.t(
                language_of(interaction),
                "tournament_unregistered",
                tournament_id=tournament,
                refund=refund,
            ),
        )

    @app_commands.command(
        name="cancel",
        description="Call off a tournament before it starts (organiser or Manage Server)",
    )
    @app_commands.describe(tournament="The tournament's number")
    async def cancel(self, interaction: discord.Interaction, tournament: TOURNAMENT_ID) -> None:
        await cancel_tournament(
            self.bot, interaction, tournament, can_manage=can_manage(interaction)
        )


async def cancel_tournament(
    bot: StudBot, interaction: discord.Interaction, tournament: int, *, can_manage: bool
) -> None:
    """Call a tournament off: the organiser's own, or anyone's for one who may manage."""
    refunds = await bot.house.tournaments.cancel(
        _guild_id(interaction), tournament, interaction.user.id, can_manage=can_manage
    )
    await reply(
        interaction,
        bot.texts.t(
            language_of(interaction),
            "tournament_cancelled",
            tournament_id=tournament,
            count=len(refunds),
        ),
    )


# "2026-12-31 20:00", then optionally "UTC", "Z" or an offset: "+03:00", "+3", "UTC-05:30".
START_AT: Final = re.compile(
    r"\s*(\d{4})-(\d{1,2})-(\d{1,2})[ T]+(\d{1,2}):(\d{2})\s*"
    r"(?:(?:UTC|GMT|Z)?\s*(?:([+-])(\d{1,2})(?::?(\d{2}))?)?)\s*",
    re.IGNORECASE,
)


def parse_start(starts_at: str | None, now: float, starts_in: int | None) -> datetime:
    """The start a user typed: ``starts_in`` minutes from ``now``, or ``starts_at`` as
    "YYYY-MM-DD HH:MM" in UTC or with its offset. ``TableError`` for anything else."""
    if starts_in is not None:
        return datetime.fromtimestamp(now, UTC) + timedelta(minutes=starts_in)
    found = START_AT.fullmatch(starts_at or "")
    if found is None:
        raise TableError("tournament_bad_time_format")
    year, month, day, hour, minute, sign, off_hours, off_minutes = found.groups()
    offset = timedelta(hours=int(off_hours or 0), minutes=int(off_minutes or 0))
    if offset > timedelta(hours=14):
        raise TableError("tournament_bad_time_format")
    try:
        zone = timezone(-offset if sign == "-" else offset)
        return datetime(int(year), int(month), int(day), int(hour), int(minute), tzinfo=zone)
    except ValueError:
        raise TableError("tournament_bad_time_format") from None


def _guild_id(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


async def setup(bot: commands.Bot) -> None:
    stud = cast(StudBot, bot)
    stud.tree.add_command(TournamentGroup(stud))
    # The staff's command acts on tables and tournaments: loaded once both are.
    await bot.load_extension("cogs.moderate")
