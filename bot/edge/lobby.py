"""A tournament's lobby message (RULES 11.1, 11.7): the core's ``LobbyView`` as an embed with
Register and Unregister buttons, posted once and edited as it changes.

The message is a summary that fits Discord's limits however many entered (the leaders, the
tables, the level, the places so far; long lists end in "and N more"); its Entrants button
gives the clicking player a private list of every entrant, a page at a time, with Previous and
Next buttons. The buttons' custom ids carry the tournament (and the page), so a click is
understood after a restart too (``bot.edge.router`` reads them); no view is kept in memory.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta
from typing import Any, Final

import discord

from bot.core.errors import TableError
from bot.core.games import game_name
from bot.core.storage import Tournament
from bot.core.views import LobbyView, Registration
from words import EN, Texts

log = logging.getLogger(__name__)

LOBBY_ID: Final = re.compile(r"stud:t:(?P<tournament>\d+):(?P<action>register|unregister|entrants)")
PAGE_ID: Final = re.compile(r"stud:t:(?P<tournament>\d+):page:(?P<page>\d{1,6})")
PAGE_SIZE: Final = 20  # entrants a page of the private list (20 short lines: far below 4,096)
LEADERS: Final = 5  # the biggest stacks the running lobby names
# Discord's limit for an embed field's value.
FIELD_LIMIT: Final = 1024
FIELD_COUNT: Final = 25  # fields in an embed
TOTAL_LIMIT: Final = 5900  # an embed's characters: 6,000, less a margin for the footer
# Discord's limits for a scheduled event (name 1-100 characters, description up to 1,000), and
# the end an event outside a voice channel must have: a guess at a tournament's length.
EVENT_NAME_LIMIT: Final = 100
EVENT_DESCRIPTION_LIMIT: Final = 1000
EVENT_LENGTH: Final = timedelta(hours=4)
COLOURS: Final = {
    "registering": discord.Colour.green(),
    "running": discord.Colour.blue(),
}


def lobby_embed(view: LobbyView, texts: Texts) -> discord.Embed:
    lang = view.lang
    t = texts.t
    embed = discord.Embed(
        title=t(lang, "lobby_title", tournament_id=view.tournament_id),
        description=lobby_description(view, texts),
        colour=COLOURS.get(view.state, discord.Colour.dark_grey()),
    )
    entrants = [_who(view, user_id) for user_id in view.entrants]
    if view.state == "running":
        # A summary: how many are left and who leads; the Entrants button lists everyone.
        embed.add_field(
            name=t(lang, "lobby_entrants", count=len(entrants)),
            value=t(lang, "lobby_left", count=len(view.stacks)),
            inline=False,
        )
        if leaders := _standings(view, texts)[:LEADERS]:
            embed.add_field(name=t(lang, "lobby_leaders"), value="\n".join(leaders), inline=False)
    else:
        embed.add_field(
            name=t(lang, "lobby_entrants", count=len(entrants)),
            value=_fit(entrants, texts, lang, sep=", ") if entrants else t(lang, "lobby_nobody"),
            inline=False,
        )
    if view.prize_pool:
        payouts = [
            t(lang, "lobby_payout", place=place, prize=prize)
            for place, prize in enumerate(view.payouts, 1)
        ]
        added = [t(lang, "lobby_added", added=view.added)] if view.added else []
        embed.add_field(
            name=t(lang, "lobby_pool", pool=view.prize_pool),
            value=_fit([*added, *payouts], texts, lang)
            if payouts
            else "\n".join([*added, t(lang, "lobby_nobody")]),
            inline=False,
        )
    elif view.buy_in == 0:
        # Not once the pool is paid out: its places show the prizes it paid.
        embed.add_field(name=t(lang, "lobby_freeroll"), value="\u200b", inline=False)
    if view.late_until is not None:
        late = "lobby_late_reentry" if view.reentry else "lobby_late"
        embed.add_field(name=t(lang, late, level=view.late_until), value="\u200b", inline=False)
    if view.level is not None and view.stakes is not None:
        stakes = view.stakes
        embed.add_field(
            name=t(
                lang, "lobby_level", level=view.level, small=stakes.small_bet, big=stakes.big_bet
            ),
            value=(
                t(lang, "lobby_next_hands", count=view.to_next_level)
                if view.level_unit == "hands"
                else t(lang, "lobby_next_minutes", count=-(-view.to_next_level // 60))
            ),
            inline=False,
        )
    if view.places:
        places = [
            t(lang, "lobby_place", place=place, player=_who(view, user_id), prize=prize)
            for place, user_id, prize in view.places
        ]
        embed.add_field(name=t(lang, "lobby_places"), value=_fit(places, texts, lang), inline=False)
    if view.tables:
        _add_tables(embed, view, texts)
    return embed


def lobby_description(view: LobbyView, texts: Texts) -> str:
    """What it is and where it stands; one registering for a set time says when, as a Discord
    timestamp each reader sees in his own time zone."""
    key = f"lobby_{view.state}"
    if view.state == "registering" and view.start_at is not None:
        key = "lobby_registering_at"
    return texts.t(
        view.lang,
        key,
        game=game_name(texts, view.game, view.lang),
        buy_in=view.buy_in,
        stack=view.starting_stack,
        seats=view.seats,
        players=view.start_entrants or 0,
        when=f"<t:{view.start_at or 0}:F>",
    )


def _add_tables(embed: discord.Embed, view: LobbyView, texts: Texts) -> None:
    """A field per table, its thread and its players' stacks in chips and big bets, within
    Discord's limits: the fields left of 25 (the last says how many tables more) and the
    characters left of 6,000 shared between them."""
    lang = view.lang
    t = texts.t
    big = view.stakes.big_bet if view.stakes is not None else 0
    players: dict[int, list[str]] = {}
    for number, user_id, chips in view.stacks:
        players.setdefault(number, []).append(
            t(lang, "lobby_stack", player=_who(view, user_id), chips=chips, bets=_bets(chips, big))
            if big
            else f"{_who(view, user_id)}: {chips}"
        )
    slots = FIELD_COUNT - len(embed.fields)
    shown = view.tables if len(view.tables) <= slots else view.tables[: slots - 1]
    more = len(view.tables) - len(shown)
    room = (
        TOTAL_LIMIT - len(embed) - (len(t(lang, "lobby_more", count=more)) if more else 0)
    ) // max(1, len(shown))
    for number, channel_id in shown:
        name = t(lang, "lobby_table", number=number)
        lines = [f"<#{channel_id}>", *players.get(number, [])]
        limit = min(FIELD_LIMIT, room - len(name))
        embed.add_field(name=name, value=_fit(lines, texts, lang, limit), inline=True)
    if more:
        embed.add_field(name=t(lang, "lobby_more", count=more), value="\u200b", inline=False)


def _who(view: LobbyView, user_id: int) -> str:
    """A person's mention, or a computer player's name (it says it is a bot)."""
    return next((name for bot, name in view.bots if bot == user_id), f"<@{user_id}>")


def _bets(chips: int, big: int) -> str:
    """Chips in big bets, to one decimal."""
    return f"{chips / big:.1f}".removesuffix(".0")


def _standings(view: LobbyView, texts: Texts) -> list[str]:
    """Every entrant, best first: those still playing by chips (and their table), then those
    out by place (and prize); while it registers, each in the order they registered."""
    lang = view.lang
    t = texts.t
    big = view.stakes.big_bet if view.stakes is not None else 0
    lines = [
        t(
            lang,
            "lobby_standing",
            rank=rank,
            player=_who(view, user_id),
            chips=chips,
            bets=_bets(chips, big) if big else "0",
            table=number,
        )
        for rank, (number, user_id, chips) in enumerate(
            sorted(view.stacks, key=lambda stack: (-stack[2], stack[1])), 1
        )
    ]
    lines += [
        t(lang, "lobby_place", place=place, player=_who(view, user_id), prize=prize)
        for place, user_id, prize in view.places
    ]
    if not lines:
        lines = [_who(view, user_id) for user_id in view.entrants]
    return lines


def entrants_page(
    view: LobbyView, page: int, texts: Texts
) -> tuple[discord.Embed, discord.ui.View]:
    """Page ``page`` (from 0) of the private list of every entrant, with Previous and Next.
    ``TableError`` for a page the list no longer has (an old button: it shrank)."""
    lang = view.lang
    lines = _standings(view, texts)
    pages = max(1, -(-len(lines) // PAGE_SIZE))
    if not 0 <= page < pages:
        raise TableError("lobby_page_gone", pages=pages)
    embed = discord.Embed(
        title=texts.t(
            lang, "lobby_list_title", tournament_id=view.tournament_id, page=page + 1, pages=pages
        ),
        description="\n".join(lines[page * PAGE_SIZE : (page + 1) * PAGE_SIZE])
        or texts.t(lang, "lobby_nobody"),
        colour=COLOURS.get(view.state, discord.Colour.dark_grey()),
    )
    buttons = discord.ui.View(timeout=None)
    # Distinct ids on every page (Discord refuses two alike in one message): Previous points
    # at the page before (itself on the first, disabled), Next at the page after. A list of one
    # page has neither.
    pager = (
        (("btn_previous", max(page - 1, 0), page == 0), ("btn_next", page + 1, page + 1 >= pages))
        if pages > 1
        else ()
    )
    for key, target, disabled in pager:
        buttons.add_item(
            discord.ui.Button[Any](
                label=texts.t(lang, key),
                style=discord.ButtonStyle.secondary,
                custom_id=f"stud:t:{view.tournament_id}:page:{target}",
                disabled=disabled,
            )
        )
    buttons.stop()
    return embed, buttons


def registered_text(texts: Texts, lang: str, entered: Registration) -> str:
    """The registering player's private answer: registered, and, if the start his entry called
    for failed (a thread Discord refused), that it is delayed and tried again."""
    key = (
        "tournament_registered_start_delayed" if entered.start_delayed else "tournament_registered"
    )
    return texts.t(lang, key, tournament_id=entered.tournament_id, buy_in=entered.buy_in)


def lobby_buttons(view: LobbyView, texts: Texts) -> discord.ui.View | None:
    """Register and Unregister while it registers; Enter while it runs with late registration
    open (a late entry, or a re-entry, 11.9); Entrants, the private list of everyone, while it
    runs and once it has finished (and before, once the lobby can't name them all)."""
    actions: list[tuple[str, str, discord.ButtonStyle]] = []
    if view.state == "registering":
        actions += [
            ("register", "btn_register", discord.ButtonStyle.success),
            ("unregister", "btn_unregister", discord.ButtonStyle.secondary),
        ]
    elif view.late_until is not None:
        actions.append(("register", "btn_enter_late", discord.ButtonStyle.success))
    if view.state in ("running", "finished") or (
        view.state == "registering" and len(view.entrants) > PAGE_SIZE
    ):
        actions.append(("entrants", "btn_entrants", discord.ButtonStyle.primary))
    if not actions:
        return None
    buttons = discord.ui.View(timeout=None)
    for action, label, style in actions:
        buttons.add_item(
            discord.ui.Button[Any](
                label=texts.t(view.lang, label),
                style=style,
                custom_id=f"stud:t:{view.tournament_id}:{action}",
            )
        )
    # Stopped: discord.py then keeps no copy of it; clicks reach bot.edge.router instead.
    buttons.stop()
    return buttons


class Lobbies:
    """The tournaments' face on Discord (``bot.core.tournament.Lobby``, handed to the house):
    posts a tournament's lobby, then edits it; makes its tables' threads and archives them at
    the end; its scheduled event and its lines in the lobby's channel."""

    def __init__(
        self,
        bot: discord.Client,
        texts: Texts,
        shown: Callable[[int], Awaitable[None]] | None = None,
    ) -> None:
        self._bot = bot
        self._texts = texts
        # Waits until a channel's table has shown everything (the presenter's).
        self._shown = shown

    async def show(self, view: LobbyView) -> int:
        channel = self._bot.get_partial_messageable(view.channel_id)
        embed = lobby_embed(view, self._texts)
        buttons = lobby_buttons(view, self._texts)
        mentions = discord.AllowedMentions.none()
        if view.message_id is not None:
            message = channel.get_partial_message(view.message_id)
            await message.edit(embed=embed, view=buttons, allowed_mentions=mentions)
            return view.message_id
        if buttons is None:
            posted = await channel.send(embed=embed, allowed_mentions=mentions)
        else:
            posted = await channel.send(embed=embed, view=buttons, allowed_mentions=mentions)
        return posted.id

    async def say(self, channel_id: int, text: str, mentions: Sequence[int]) -> None:
        """A line in the lobby's channel that notifies the
        players it mentions, and no one else."""
        channel = self._bot.get_partial_messageable(channel_id)
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(user) for user in mentions]
        )
        await channel.send(text, allowed_mentions=allowed)

    async def make_event(self, tournament: Tournament) -> int:
        """A scheduled event on the server for a tournament
        at a set time, somewhere else than a voice channel (its lobby's link as the place).
        Discord asks an end of such an event: it is put some hours after the start, and the
        event completes when the tournament does."""
        assert tournament.start_at is not None
        guild = self._bot.get_guild(tournament.guild_id) or await self._bot.fetch_guild(
            tournament.guild_id
        )
        lang = tournament.settings.get("lang", EN)
        name = self._texts.t(lang, "lobby_title", tournament_id=tournament.tournament_id)
        game = game_name(self._texts, tournament.game, lang)
        description = self._texts.t(
            lang,
            "lobby_registering_at",
            game=game,
            buy_in=tournament.buy_in,
            stack=tournament.starting_stack,
            seats=tournament.seats,
            when=f"<t:{int(tournament.start_at.timestamp())}:F>",
        )
        event = await guild.create_scheduled_event(
            name=f"{name} — {game}"[:EVENT_NAME_LIMIT],
            description=description[:EVENT_DESCRIPTION_LIMIT],
            start_time=tournament.start_at,
            end_time=tournament.start_at + EVENT_LENGTH,
            entity_type=discord.EntityType.external,
            privacy_level=discord.PrivacyLevel.guild_only,
            location=f"https://discord.com/channels/{tournament.guild_id}/{tournament.channel_id}",
        )
        return event.id

    async def set_event(self, tournament: Tournament, status: str) -> None:
        """The tournament started ("active"), ended
        ("completed") or was called off ("cancelled")."""
        assert tournament.event_id is not None
        guild = self._bot.get_guild(tournament.guild_id) or await self._bot.fetch_guild(
            tournament.guild_id
        )
        event = await guild.fetch_scheduled_event(tournament.event_id)
        # Discord's only moves: scheduled -> active or cancelled, active -> completed. It starts
        # and ends an event outside a voice channel by itself at its times: one already moved
        # is left as it is.
        if status == "active" and event.status is discord.EventStatus.scheduled:
            await event.start()
        elif status == "completed" and event.status is discord.EventStatus.active:
            await event.end()
        elif status == "cancelled" and event.status is discord.EventStatus.scheduled:
            await event.cancel()

    async def make_thread(self, tournament: Tournament, number: int) -> int:
        """A public thread under the lobby's channel for
        table ``number``; its channel id."""
        channel = self._bot.get_channel(tournament.channel_id)
        if channel is None:
            channel = await self._bot.fetch_channel(tournament.channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise TypeError(f"tournament {tournament.tournament_id}'s lobby is not a text channel")
        lang = tournament.settings.get("lang", EN)
        name = self._texts.t(
            lang, "thread_name", tournament_id=tournament.tournament_id, number=number
        )
        thread = await channel.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440
        )
        return thread.id

    async def close_threads(self, channel_ids: Sequence[int]) -> None:
        """A finished tournament's threads are archived
        once their last lines have gone out (the bot made them, so it may: Discord lets a
        thread's creator archive it). One that can't be is left open, logged."""
        for channel_id in channel_ids:
            if self._shown is not None:
                await self._shown(channel_id)
            try:
                await self._bot.http.edit_channel(channel_id, archived=True)
            except discord.HTTPException as error:
                log.warning(
                    "thread %s was not archived (%s %s)", channel_id, error.status, error.text
                )


def _fit(
    lines: list[str], texts: Texts, lang: str, limit: int = FIELD_LIMIT, sep: str = "\n"
) -> str:
    """As many of ``lines`` as fit in ``limit`` characters, then "and N more"."""
    kept: list[str] = []
    used = 0
    for index, line in enumerate(lines):
        rest = len(lines) - index - 1
        tail = len(texts.t(lang, "lobby_more", count=rest + 1)) + len(sep)
        if used + len(line) + len(sep) + (tail if rest else 0) > limit:
            kept.append(texts.t(lang, "lobby_more", count=len(lines) - index))
            break
        kept.append(line)
        used += len(line) + len(sep)
    return sep.join(kept) or "\u200b"
