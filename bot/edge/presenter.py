"""Delivers what the tables record in their outboxes: the table message, lines, DMs, results.

Each table has at most one delivery task. It takes the table's effects in order and retries
each while Discord answers 429 or 5xx or does not answer, with growing pauses on the core's
clock, so nothing is lost and nothing is sent twice on purpose. A 403 pauses the table (nobody's
clock runs while it can't be shown); a deleted channel closes it, returning every chip.

Privacy: channel messages are built only from ``PublicTable.from_hand`` (no down cards exist in
it) and from announcements; a player's down cards are only ever put in his DM or in an
ephemeral reply to him.

Pictures are drawn in a process of their own (``bot.edge.drawing``), off the event loop, so a
busy table's drawing never delays another table's click.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import discord

from bot.core.announce import announce
from bot.core.errors import TableError
from bot.core.games import game_of
from bot.core.i18n import cards_text, catalogue, language, t
from bot.core.ledger import SessionLedger, ledger_sheet
from bot.core.outbox import ClearButtons, Effect, Ledger, Line, Picture, Private, Results
from bot.core.stats import board_heading, percent, stats_chart, stats_heading
from bot.core.storage import Leaderboard, PlayerStats
from bot.core.tables import LiveHand, Table, TableManager, error_id, game_name
from bot.edge.buttons import table_view
from bot.edge.drawing import Drawing, DrawingCrashed, DrawingProcess
from bot.edge.funnel import brief, full_time, is_retryable, relative_time, with_retries
from engine import events as ev
from engine.public import PrivateHand, PublicTable
from render import (
    SeatLabel,
    TableLabels,
    hand_rankings_png,
    ledger_png,
    net_chart_png,
    private_hand_png,
    showdown_png,
    table_png,
)

if TYPE_CHECKING:
    from bot.edge.client import StudBot

log = logging.getLogger(__name__)

TABLE_PICTURE = "table.png"
SHOWDOWN_PICTURE = "showdown.png"
PRIVATE_PICTURE = "cards.png"
RANKINGS_PICTURE = "rankings.png"
LEDGER_PICTURE = "ledger.png"
STATS_PICTURE = "stats.png"
# Discord shows names of at most 32 characters; the store keeps some room past that. Cut to it,
# 25 ledger lines stay within an embed's 4,096 characters.
LEDGER_NAME = 32
# Pauses between attempts at one effect while Discord fails; the last repeats.
RETRY_SECONDS: Final = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
# Discord's codes for a channel that is gone and for a message that is.
DM_CHANNELS_KEPT: Final = 10_000  # a few hundred KB: every player of a busy process
UNKNOWN_CHANNEL: Final = 10003
UNKNOWN_MESSAGE: Final = 10008

# What the bot needs in a table's channel, as Permissions flag names.
NEEDED_PERMISSIONS: Final = ("view_channel", "send_messages", "attach_files", "embed_links")
THREAD_PERMISSION: Final = "send_messages_in_threads"


def missing_permissions(interaction: discord.Interaction) -> list[str]:
    """The permissions the bot lacks in the interaction's channel, as flag names."""
    granted = interaction.app_permissions
    needed = list(NEEDED_PERMISSIONS)
    if isinstance(interaction.channel, discord.Thread):
        needed.append(THREAD_PERMISSION)
    return [name for name in needed if not getattr(granted, name)]


class BotLacksPermissions(TableError):
    """The bot can't show a table in the channel; names are Permissions flag names."""

    def __init__(self, names: list[str]) -> None:
        super().__init__("missing_bot_permissions")
        self.names = names

    def message(self, lang: str) -> str:
        listed = ", ".join(t(lang, f"perm_{name}") for name in self.names)
        return t(lang, self.key, permissions=listed)


@dataclass(slots=True)
class _MessageState:
    message_id: int | None = None
    key: tuple[int, int] | None = None  # (hand id, street) the message shows; None: idle table
    has_buttons: bool = False
    after_hand: bool = False  # the last message is a finished hand's: idle updates don't redraw


class DiscordPresenter:
    def __init__(self, bot: StudBot, tables: TableManager, drawing: Drawing | None = None) -> None:
        self.bot = bot
        self.tables = tables
        tables.on_outbox = self.wake
        self._states: dict[int, _MessageState] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._dms: set[asyncio.Task[None]] = set()
        self.drawing: Drawing = drawing if drawing is not None else DrawingProcess()
        self._dm_channels: dict[int, int] = {}  # user id -> DM channel id, oldest use first
        self._closing = False  # set once the connection is about to close: deliver no more
        self._rankings: dict[tuple[str, bool], bytes] = {}  # (language, four colours) -> PNG

    # ------------------------------------------------------------------ delivery

    def wake(self, table: Table) -> None:
        """The table has something new to show: make sure a delivery task is on it."""
        worker = self._workers.get(table.channel_id)
        if self._closing:
            return
        if worker is None or worker.done():
            self._workers[table.channel_id] = asyncio.get_running_loop().create_task(
                self._deliver_all(table), name=f"deliver-{table.channel_id}"
            )

    @property
    def idle(self) -> bool:
        """Nothing is being delivered (tests wait for this)."""
        return all(w.done() for w in self._workers.values()) and not self._dms

    async def _deliver_all(self, table: Table) -> None:
        state = self._states.setdefault(table.channel_id, _MessageState())
        attempt = 0
        while (
            not self._closing
            and table.paused is None
            and (effect := table.outbox.take()) is not None
        ):
            try:
                await self._deliver(table, state, effect)
            except discord.NotFound as error:
                if error.code != UNKNOWN_CHANNEL:
                    self._dropped(table, effect)
                    continue
                await self.tables.abandon(table.channel_id)
                table.outbox.drain()
                break
            except discord.Forbidden as error:
                log.warning(
                    "channel %s: Discord refused a post (%s %s)",
                    table.channel_id,
                    error.code,
                    error.text,
                )
                table.outbox.put_back(effect)
                self.tables.pause(table, BotLacksPermissions(list(NEEDED_PERMISSIONS)))
                break
            except Exception as error:
                # A crashed drawing process is restarted by the next picture: try again.
                if not (is_retryable(error) or isinstance(error, DrawingCrashed)):
                    self._dropped(table, effect)
                    continue
                pause = RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)]
                attempt += 1
                log.warning(
                    "channel %s: Discord failed (%s); trying again in %.1f s",
                    table.channel_id,
                    brief(error),
                    pause,
                )
                table.outbox.put_back(effect)
                await self.tables.clock.sleep(pause)
                continue
            attempt = 0
        if table.closed and not table.outbox:
            self._states.pop(table.channel_id, None)

    def _dropped(self, table: Table, effect: Effect) -> None:
        """An effect that fails for a reason retrying can't mend (our bug): log it, move on."""
        log.exception(
            "channel %s: could not show %s (error %s)",
            table.channel_id,
            type(effect).__name__,
            error_id(),
        )

    async def _deliver(self, table: Table, state: _MessageState, effect: Effect) -> None:
        match effect:
            case Line(text=text, mention=mention):
                allowed = discord.AllowedMentions(
                    users=[discord.Object(mention)] if mention else False,
                    roles=False,
                    everyone=False,
                )
                await self._channel(table).send(text, allowed_mentions=allowed)
            case Picture():
                await self._picture(table, state)
            case Results():
                await self._results(table, state, effect)
            case ClearButtons(message_id=message_id):
                await self._clear_buttons(table, message_id)
            case Ledger(ledger=ledger):
                embed, picture = await self.ledger_message(ledger, table.config.lang)
                await self._channel(table).send(embed=embed, file=picture)
            case Private():
                task = asyncio.get_running_loop().create_task(self._send_private(table, effect))
                self._dms.add(task)
                task.add_done_callback(self._dms.discard)

    async def _draw(
        self, draw: Callable[..., bytes], *args: object, behind: bool = False, **kwargs: object
    ) -> bytes:
        try:
            return await self.drawing.draw(draw, *args, behind=behind, **kwargs)
        except DrawingCrashed:
            # Killed (out of memory, say) while it had this picture: a new one draws it.
            return await self.drawing.draw(draw, *args, behind=behind, **kwargs)

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    async def _clear_buttons(self, table: Table, message_id: int) -> None:
        try:
            await self._channel(table).get_partial_message(message_id).edit(view=None)
        except discord.NotFound as error:
            if error.code != UNKNOWN_MESSAGE:
                raise
            # Deleted by someone: there are no buttons left to take away.

    async def _picture(self, table: Table, state: _MessageState) -> None:
        if table.closed:
            return
        live = table.live
        lang = table.config.lang
        if live is None:
            if state.after_hand:
                return
            key = None
            embed = self._idle_embed(table)
            view: discord.ui.View | None = None
            files: list[discord.File] = []
            shown: tuple[int, int] | None = None
        else:
            key = (live.hand_id, live.hand.street)
            public = PublicTable.from_hand(live.hand)
            embed = self._hand_embed(table, live, public)
            view = table_view(table.channel_id, live.hand_id, live.seq, table.buttons(), lang)
            labels = self._labels(table, live, table.log[-1] if table.log else "")
            # A new street gets a new message: the old one's buttons go meanwhile.
            png = await self._draw_and_clear(
                table, state, state.key != key, table_png, public, labels
            )
            files = [discord.File(io.BytesIO(png), filename=TABLE_PICTURE)]
            embed.set_image(url=f"attachment://{TABLE_PICTURE}")
            shown = (live.hand_id, live.seq)
        channel = self._channel(table)
        posted: discord.Message | None = None
        if state.message_id is not None and state.key == key:
            message = channel.get_partial_message(state.message_id)
            if view is None:
                await message.edit(embed=embed)
            else:
                await message.edit(embed=embed, view=view, attachments=files)
        else:
            if state.message_id is not None and state.has_buttons:
                # The street moved on: its message keeps the picture but loses the buttons.
                await self._clear_buttons(table, state.message_id)
                state.has_buttons = False
            if view is None:
                posted = await channel.send(embed=embed)
            else:
                posted = await channel.send(embed=embed, view=view, files=files)
            state.message_id, state.key, state.after_hand = posted.id, key, False
        state.has_buttons = view is not None
        if shown is not None:
            self.tables.shown(table, *shown)
        if posted is not None:
            self.tables.message_posted(table, posted.id)

    async def _draw_and_clear(
        self,
        table: Table,
        state: _MessageState,
        clear: bool,
        draw: Callable[..., bytes],
        *args: object,
    ) -> bytes:
        """Draw a picture; when ``clear``, meanwhile take the buttons off the table's current
        message (a new one follows): the two waits overlap instead of adding up."""
        if not clear or state.message_id is None or not state.has_buttons:
            return await self._draw(draw, *args)
        # Either failing fails the delivery, which is tried again whole (clearing twice is
        # harmless; the picture is drawn again).
        png, _ = await asyncio.gather(
            self._draw(draw, *args), self._clear_buttons(table, state.message_id)
        )
        state.has_buttons = False
        return png

    def check_permissions(self, table: Table, interaction: discord.Interaction) -> None:
        """An interaction shows what the bot may do in the channel: resume a paused table
        whose permissions are back, or pause one whose permissions are gone."""
        missing = missing_permissions(interaction)
        if missing:
            self.tables.pause(table, BotLacksPermissions(missing))
        elif table.paused is not None:
            self.tables.resume(table)

    # ------------------------------------------------------------------ embeds

    def _seat_lines(self, table: Table, live: LiveHand, public: PublicTable) -> list[str]:
        lang = table.config.lang
        lines: list[str] = []
        for view in public.seats:
            if not view.dealt_in:
                continue
            name = table.name(live.users[view.seat])
            marker = "▶ " if view.is_actor else ""
            cards = " ".join(["🂠"] * view.down_count + [card.pretty for card in view.up_cards])
            extra = []
            if view.bet:
                extra.append(t(lang, "seat_bet", amount=view.bet))
            if view.folded:
                extra.append(t(lang, "seat_folded"))
            elif view.all_in:
                extra.append(t(lang, "seat_all_in"))
            tail = f" ({', '.join(extra)})" if extra else ""
            lines.append(
                t(
                    lang,
                    "seat_line",
                    marker=marker,
                    name=name,
                    stack=view.stack,
                    cards=cards,
                    extra=tail,
                )
            )
        return lines

    def _idle_embed(self, table: Table) -> discord.Embed:
        lang = table.config.lang
        embed = discord.Embed(
            title=t(
                lang,
                "table_waiting",
                game=game_name(table.rotation.game, lang),
                stakes=table.config.stakes,
            ),
            description="\n".join(seat_lines(table, lang)),
            colour=discord.Colour.dark_green(),
        )
        _add_next_game(embed, table)
        if table.next_hand_at is not None:
            embed.add_field(
                name="⏱", value=t(lang, "countdown", when=relative_time(table.next_hand_at))
            )
        return embed

    def _deadline(self, table: Table, live: LiveHand) -> float:
        """When the actor's time runs out; before his buttons are shown, a full turn from now
        (his clock only starts once they are)."""
        if live.deadline is not None:
            return live.deadline
        return self.tables.clock.now() + table.config.turn_seconds

    def _labels(self, table: Table, live: LiveHand, last_action: str) -> TableLabels:
        actor = live.hand.actor
        seconds = max(0, round(self._deadline(table, live) - self.tables.clock.now()))
        return TableLabels(
            seats=tuple(
                SeatLabel(
                    table.name(user_id),
                    seconds_left=seconds if seat == actor else None,
                    on_time_bank=seat == actor and live.banking_since is not None,
                )
                for seat, user_id in enumerate(live.users)
            ),
            last_action=last_action,
            four_colour=table.config.four_colour,
            language=table.config.lang,
            game=game_name(game_of(live.hand.variant), table.config.lang),
            next_game=table.next_game(table.config.lang) or "",
        )

    def _hand_embed(self, table: Table, live: LiveHand, public: PublicTable) -> discord.Embed:
        lang = table.config.lang
        embed = discord.Embed(
            title=_title(table, live, f"street_{live.hand.street}"),
            description="\n".join(self._seat_lines(table, live, public)),
            colour=discord.Colour.dark_green(),
        )
        embed.add_field(name=t(lang, "pot", pot=public.pot), value="\n".join(table.log) or "—")
        _add_next_game(embed, table)
        actor = table.actor_id()
        if actor is not None:
            embed.add_field(
                name="⏱",
                value=t(
                    lang,
                    "to_act" if live.banking_since is None else "to_act_bank",
                    name=table.name(actor),
                    when=relative_time(self._deadline(table, live)),
                ),
                inline=False,
            )
        return embed

    # ------------------------------------------------------------------ private cards

    async def _send_private(self, table: Table, effect: Private) -> None:
        user_id = effect.user_id
        lang = table.lang_of(user_id)
        private = effect.cards
        down = [c.card for c in private.cards if not c.face_up]
        up = [c.card for c in private.cards if c.face_up]
        channel = self.bot.get_channel(table.channel_id)
        channel_name = getattr(channel, "name", str(table.channel_id))
        text = t(
            lang,
            "dm_cards",
            hand_id=effect.hand_id,
            game=game_name(effect.game, lang),
            channel=channel_name,
            down=cards_text(down),
            up=cards_text(up),
        )
        name = table.name(user_id)
        four_colour = await self.tables.four_colour(user_id)
        # Behind the table pictures: the player can act on what the table shows, and his
        # down cards are one click away (My cards) if the DM comes a moment later.
        png = await self._draw(
            private_hand_png,
            private,
            name=name,
            four_colour=four_colour,
            language=lang,
            behind=True,
        )

        async def send() -> None:
            channel = await self._dm_channel(user_id)
            await channel.send(text, file=discord.File(io.BytesIO(png), filename=PRIVATE_PICTURE))

        try:
            await with_retries(send, self.tables.clock.sleep)
        except discord.HTTPException as error:
            self._dm_channels.pop(user_id, None)
            # Closed DMs (or Discord down for minutes) must not stall the game: the channel
            # says so once a hand, and the player uses My cards.
            log.info("hand %s: no DM to a player (%s)", effect.hand_id, error.status)
            self.tables.dm_failed(table, effect.hand_id, user_id)

    async def _dm_channel(self, user_id: int) -> discord.PartialMessageable:
        """The player's DM channel: found once, then known (a DM is one request, not three:
        fetching the user and opening the channel each time would double a deal's requests)."""
        channel_id = self._dm_channels.pop(user_id, None)
        if channel_id is None:
            channel_id = (await self.bot.create_dm(discord.Object(user_id))).id
        self._dm_channels[user_id] = channel_id  # the newest at the end: the oldest goes first
        if len(self._dm_channels) > DM_CHANNELS_KEPT:
            del self._dm_channels[next(iter(self._dm_channels))]
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def show_cards(self, interaction: discord.Interaction, channel_id: int) -> None:
        """The clicking player's own cards, as an ephemeral followup (already acknowledged)."""
        lang = language(interaction.locale)
        private = self.tables.private_hand(channel_id, interaction.user.id)
        await self.send_private_reply(interaction, private, lang)

    async def send_private_reply(
        self, interaction: discord.Interaction, private: PrivateHand, lang: str
    ) -> None:
        down = [c.card for c in private.cards if not c.face_up]
        up = [c.card for c in private.cards if c.face_up]
        name = interaction.user.display_name
        four_colour = await self.tables.four_colour(interaction.user.id)
        png = await self._draw(
            private_hand_png, private, name=name, four_colour=four_colour, language=lang
        )
        await with_retries(
            lambda: interaction.followup.send(
                t(lang, "your_cards", down=cards_text(down), up=cards_text(up)),
                file=discord.File(io.BytesIO(png), filename=PRIVATE_PICTURE),
                ephemeral=True,
            ),
            self.tables.clock.sleep,
        )

    async def rankings_file(self, lang: str, four_colour: bool) -> discord.File:
        """The hand rankings picture (/help); the same every time, so drawn once per kind."""
        key = (lang, four_colour)
        if key not in self._rankings:
            self._rankings[key] = await self._draw(
                hand_rankings_png, four_colour=four_colour, language=lang
            )
        return discord.File(io.BytesIO(self._rankings[key]), filename=RANKINGS_PICTURE)

    async def ledger_message(
        self, ledger: SessionLedger, lang: str
    ) -> tuple[discord.Embed, discord.File]:
        """A table's session ledger in ``lang``: an embed with one line a player, and its
        picture (attach the file with the embed)."""
        channel = self.bot.get_channel(ledger.channel_id)
        name = f"#{getattr(channel, 'name', ledger.channel_id)}"
        png = await self._draw(ledger_png, ledger_sheet(ledger, lang, name))
        embed = ledger_embed(ledger, lang)
        embed.set_image(url=f"attachment://{LEDGER_PICTURE}")
        return embed, discord.File(io.BytesIO(png), filename=LEDGER_PICTURE)

    async def stats_message(
        self, stats: PlayerStats, name: str, lang: str
    ) -> tuple[discord.Embed, discord.File]:
        """A player's stats in ``lang``: an embed of his figures and the chart of his net over
        his last hands (attach the file with the embed)."""
        png = await self._draw(net_chart_png, stats_chart(stats, name, lang))
        embed = stats_embed(stats, name, lang)
        embed.set_image(url=f"attachment://{STATS_PICTURE}")
        return embed, discord.File(io.BytesIO(png), filename=STATS_PICTURE)

    # ------------------------------------------------------------------ results

    async def _results(self, table: Table, state: _MessageState, effect: Results) -> None:
        hand = effect.hand
        lang = table.config.lang
        public = PublicTable.from_hand(hand.hand)
        embed = discord.Embed(
            title=_title(
                table,
                hand,
                "street_showdown" if public.is_showdown else f"street_{hand.hand.street}",
            ),
            description="\n".join(self._result_lines(table, hand)) or "—",
            colour=discord.Colour.gold(),
        )
        _add_next_game(embed, table)
        labels = self._labels(table, hand, effect.last_action)
        png = await self._draw_and_clear(table, state, True, showdown_png, public, labels)
        embed.set_image(url=f"attachment://{SHOWDOWN_PICTURE}")
        if effect.next_hand_at is not None:
            embed.add_field(
                name="⏱", value=t(lang, "countdown", when=relative_time(effect.next_hand_at))
            )
        if state.message_id is not None and state.has_buttons:
            await self._clear_buttons(table, state.message_id)
            state.has_buttons = False
        posted = await self._channel(table).send(
            t(lang, "reveal", hand_id=hand.hand_id),
            embed=embed,
            file=discord.File(io.BytesIO(png), filename=SHOWDOWN_PICTURE),
        )
        state.message_id, state.key, state.after_hand = posted.id, None, True
        self.tables.message_posted(table, posted.id)

    def _result_lines(self, table: Table, hand: LiveHand) -> list[str]:
        """Shown hands and pots, then each player's net result."""
        lang = table.config.lang
        lines = []
        for event in hand.hand.events:
            if isinstance(event, ev.HandShown | ev.PotAwarded | ev.UncalledBetReturned):
                line = announce(
                    event, lang, table.seat_name_in(hand), table.config.stakes, hand.hand.variant
                )
                if line:
                    lines.append(line)
        for seat, user_id in enumerate(hand.users):
            net = hand.hand.stacks[seat] - hand.hand.starting_stacks[seat]
            lines.append(t(lang, "net_result", name=table.name(user_id), net=net))
        return lines

    # ------------------------------------------------------------------ shutdown

    async def close(self, grace: float = 5.0) -> None:
        """Give pending deliveries ``grace`` seconds to finish (what they start meanwhile
        included), then stop them: the connection to Discord closes next."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        while pending := [w for w in self._workers.values() if not w.done()] + list(self._dms):
            remaining = deadline - loop.time()
            if remaining <= 0:
                self._closing = True
                for task in pending:
                    task.cancel()
                await asyncio.gather(*pending, return_exceptions=True)
                break
            await asyncio.wait(pending, timeout=remaining)
        self._closing = True
        await self.drawing.close()


def _add_next_game(embed: discord.Embed, table: Table) -> None:
    """A mixed table's message says which game comes next, and when."""
    line = table.next_game(table.config.lang)
    if line is not None:
        embed.set_footer(text=line)


def _title(table: Table, hand: LiveHand, street_key: str) -> str:
    """A hand's embed title: its game, stakes, hand number and where it stands."""
    lang = table.config.lang
    return t(
        lang,
        "table_title",
        game=game_name(game_of(hand.hand.variant), lang),
        stakes=table.config.stakes,
        hand_id=hand.hand_id,
        street=t(lang, street_key),
    )


def ledger_embed(ledger: SessionLedger, lang: str) -> discord.Embed:
    """The ledger as text: when the table was open, then each player, biggest winner first."""
    opened = full_time(ledger.opened_at.timestamp())
    if ledger.closed_at is None:
        lines = [t(lang, "ledger_open", opened=opened, hands=ledger.hands)]
    else:
        closed = full_time(ledger.closed_at.timestamp())
        lines = [t(lang, "ledger_closed", opened=opened, closed=closed, hands=ledger.hands)]
    lines.append("")
    for line in ledger.shown:
        entry = line.entry
        if entry.seated:
            key = "ledger_line"
        else:
            key = "ledger_line_left" if ledger.left_early(line) else "ledger_line_closed"
        lines.append(
            t(
                lang,
                key,
                name=discord.utils.escape_markdown(line.name[:LEDGER_NAME]),
                bought_in=entry.bought_in,
                cashed_out=entry.cashed_out,
                on_table=entry.on_table,
                net=entry.net,
                hands=entry.hands,
            )
        )
    if ledger.hidden:
        lines.append(t(lang, "ledger_more", count=ledger.hidden))
    if ledger.lines:
        totals = ledger.totals()
        lines += [
            "",
            t(
                lang,
                "ledger_total",
                bought_in=totals.bought_in,
                cashed_out=totals.cashed_out,
                on_table=totals.on_table,
                net=totals.net,
            ),
        ]
    else:
        lines.append(t(lang, "ledger_empty"))
    return discord.Embed(
        title=t(lang, "ledger_title"), description="\n".join(lines), colour=discord.Colour.gold()
    )


def stats_embed(stats: PlayerStats, name: str, lang: str) -> discord.Embed:
    """A player's figures: hands, won, won at showdown, VPIP, net and biggest pot, then, over
    every game, each game's hands and net."""
    embed = discord.Embed(
        title=t(lang, "stats_title", name=discord.utils.escape_markdown(name[:LEDGER_NAME])),
        description=stats_heading(lang, stats),
        colour=discord.Colour.dark_green(),
    )
    total = stats.total
    words = catalogue(lang)
    if not total.hands:
        embed.description = f"{embed.description}\n\n{t(lang, 'stats_none')}"
        return embed
    for key, value in (
        ("stats_hands", words.number(total.hands)),
        (
            "stats_won",
            t(lang, "stats_share", part=total.won, percent=percent(total.won, total.hands)),
        ),
        (
            "stats_won_showdown",
            t(lang, "stats_of", part=total.won_showdown, whole=total.showdowns),
        ),
        ("stats_vpip", t(lang, "stats_percent", percent=percent(total.vpip, total.hands))),
        ("stats_net", words.signed(total.net)),
        ("stats_biggest_pot", words.number(total.biggest_pot)),
    ):
        embed.add_field(name=t(lang, key), value=value, inline=True)
    if stats.game is None and stats.games:
        lines = [
            t(
                lang,
                "stats_game_line",
                game=t(lang, f"game_{game.game}"),
                hands=game.hands,
                net=game.net,
                vpip=percent(game.vpip, game.hands),
            )
            for game in stats.games
        ]
        embed.add_field(name=t(lang, "stats_by_game"), value="\n".join(lines), inline=False)
    return embed


def leaderboard_embed(board: Leaderboard, names: dict[int, str], lang: str) -> discord.Embed:
    """The top players, each with his net over the period and his hands (ranking winnings) or
    his chips (ranking wallets), and the caller's own rank under them (or why he has none)."""
    winnings = board.period is not None
    lines = [board_heading(lang, board), ""]
    for row in board.top:
        # Names as the bot last saw them (it has no member cache); a mention for a player it
        # never saw, which Discord shows as his name to whoever can see him.
        shown = names.get(row.user_id)
        name = f"<@{row.user_id}>" if shown is None else discord.utils.escape_markdown(shown)
        if winnings:
            line = t(
                lang,
                "leaderboard_net_line",
                rank=row.rank,
                name=name,
                net=row.chips,
                hands=row.hands or 0,
            )
        else:
            line = t(lang, "leaderboard_line", rank=row.rank, name=name, chips=row.chips)
        lines.append(line)
    if not board.top:
        lines.append(t(lang, "leaderboard_net_empty" if winnings else "leaderboard_empty"))
    caller = board.caller
    if caller is None:
        footer = t(lang, "leaderboard_net_unranked" if winnings else "leaderboard_no_wallet")
    elif winnings:
        footer = t(
            lang, "leaderboard_net_you", rank=caller.rank, net=caller.chips, hands=caller.hands or 0
        )
    else:
        footer = t(lang, "leaderboard_you", rank=caller.rank, chips=caller.chips)
    embed = discord.Embed(
        title=t(lang, "leaderboard_net_title" if winnings else "leaderboard_wallet_title"),
        description="\n".join(lines),
        colour=discord.Colour.gold(),
    )
    embed.set_footer(text=footer)
    return embed


def seat_lines(table: Table, lang: str) -> list[str]:
    """One line per seated player: position, name, chips (in the hand, if he is in it) and
    whether he sits out or is leaving."""
    lines = []
    for seat in sorted(table.seats.values(), key=lambda s: s.position):
        status = ""
        if seat.sitting_out:
            status = t(lang, "status_sitting_out")
        elif seat.leaving:
            status = t(lang, "status_leaving")
        stack = seat.stack
        if table.live is not None and (index := table.live.seat_of(seat.user_id)) is not None:
            stack = table.live.hand.stacks[index]
        lines.append(
            t(
                lang,
                "info_player",
                seat=seat.position + 1,
                name=table.name(seat.user_id),
                stack=stack,
                status=status,
            )
        )
    return lines or [t(lang, "info_empty")]
