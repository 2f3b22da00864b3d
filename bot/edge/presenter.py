"""Delivers what the tables record in their outboxes: the table message, lines, DMs, results.

Each table has at most one delivery task. It takes the table's effects in order (the core's
frozen views, ``bot.core.views``), words and draws them, sends them, and reports each one's fate
back to the outbox: delivered, posted (with the message's id), or failed (with why). It reads
nothing else of the core. Discord answering 429 or 5xx or not answering is retried with growing
pauses on the core's clock, so nothing is lost and nothing is sent twice on purpose; a 403
pauses the table (nobody's clock runs while it can't be shown); a deleted channel closes it,
returning every chip.

Privacy: channel messages are built only from public views (a ``PublicTable`` has no field for
a down card) and announcements; a player's down cards come only in his ``PrivateView``, which
goes to his DM or to an ephemeral reply to him.

Pictures are drawn in a process of their own (``bot.edge.drawing``), off the event loop, so a
busy table's drawing never delays another table's click.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import discord

from bot.core.errors import error_id
from bot.core.games import game_name
from bot.core.house import House
from bot.core.ledger import SessionLedger, ledger_sheet
from bot.core.outbox import ClearButtons, Effect, Ledger, Line, Outbox, Why
from bot.core.stats import stats_chart
from bot.core.storage import PlayerStats
from bot.core.views import PrivateView, ResultsView, TableView
from bot.edge.budget import InvalidRequests
from bot.edge.buttons import table_view
from bot.edge.dms import ClosedDms
from bot.edge.drawing import Drawing, DrawingCrashed
from bot.edge.embeds import ledger_embed, results_embed, stats_embed, table_embed
from bot.edge.funnel import brief, is_retryable, with_retries
from bot.edge.permissions import NEEDED_PERMISSIONS
from render import (
    hand_rankings_png,
    ledger_png,
    net_chart_png,
    private_hand_png,
    showdown_png,
    table_png,
)
from words import Texts, cards_text

log = logging.getLogger(__name__)

TABLE_PICTURE = "table.png"
SHOWDOWN_PICTURE = "showdown.png"
PRIVATE_PICTURE = "cards.png"
RANKINGS_PICTURE = "rankings.png"
LEDGER_PICTURE = "ledger.png"
STATS_PICTURE = "stats.png"
# Pauses between attempts at one effect while Discord fails; the last repeats.
RETRY_SECONDS: Final = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
DM_CHANNELS_KEPT: Final = 10_000  # a few hundred KB: every player of a busy process
# While the invalid-request budget is strained: the least pause before a retry (bot.edge.budget).
STRAINED_PAUSE: Final = 30.0
# Discord's codes for a channel that is gone and for a message that is.
UNKNOWN_CHANNEL: Final = 10003
UNKNOWN_MESSAGE: Final = 10008


@dataclass(slots=True)
class _MessageState:
    message_id: int | None = None
    key: tuple[int, int] | None = None  # (hand id, street) the message shows; None: idle table
    has_buttons: bool = False
    after_hand: bool = False  # the last message is a finished hand's: idle updates don't redraw


class DiscordPresenter:
    def __init__(
        self,
        bot: discord.Client,
        house: House,
        texts: Texts,
        drawing: Drawing,
        *,
        budget: InvalidRequests,
        dms: ClosedDms,
    ) -> None:
        self.bot = bot
        self.budget = budget  # what Discord's invalid-request budget has spent
        self.dms = dms  # who takes no DMs
        # Told how long each table update took to show (the metrics, when they are on).
        self.table_shown: Callable[[float], None] = lambda seconds: None
        self.house = house
        self.texts = texts
        self.drawing = drawing
        house.on_outbox = self.wake
        self._states: dict[int, _MessageState] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._dms: set[asyncio.Task[None]] = set()
        self._dm_channels: dict[int, int] = {}  # user id -> DM channel id, oldest use first
        self._closing = False  # set once the connection is about to close: deliver no more
        self._rankings: dict[tuple[str, bool], bytes] = {}  # (language, four colours) -> PNG

    # ------------------------------------------------------------------ delivery

    def wake(self, outbox: Outbox) -> None:
        """The table has something new to show: make sure a delivery task is on it."""
        worker = self._workers.get(outbox.channel_id)
        if self._closing:
            return
        if worker is None or worker.done():
            self._workers[outbox.channel_id] = asyncio.get_running_loop().create_task(
                self._deliver_all(outbox), name=f"deliver-{outbox.channel_id}"
            )

    @property
    def idle(self) -> bool:
        """Nothing is being delivered (tests wait for this)."""
        return all(w.done() for w in self._workers.values()) and not self._dms

    async def _deliver_all(self, outbox: Outbox) -> None:
        state = self._states.setdefault(outbox.channel_id, _MessageState())
        attempt = 0
        while not self._closing and (effect := outbox.take()) is not None:
            started = time.perf_counter()
            try:
                posted = await self._deliver(outbox, state, effect)
            except discord.NotFound as error:
                if error.code != UNKNOWN_CHANNEL:
                    self._dropped(outbox, effect)
                    continue
                outbox.failed(effect, Why.CHANNEL_GONE)
                break
            except discord.Forbidden as error:
                log.warning(
                    "channel %s: Discord refused a post (%s %s)",
                    outbox.channel_id,
                    error.code,
                    error.text,
                )
                outbox.failed(effect, Why.FORBIDDEN, NEEDED_PERMISSIONS)
                break
            except Exception as error:
                # A crashed drawing process is restarted by the next picture: try again.
                if not (is_retryable(error) or isinstance(error, DrawingCrashed)):
                    self._dropped(outbox, effect)
                    continue
                pause = RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)]
                if self.budget.strained:
                    pause = max(pause, STRAINED_PAUSE)
                attempt += 1
                log.warning(
                    "channel %s: Discord failed (%s); trying again in %.1f s",
                    outbox.channel_id,
                    brief(error),
                    pause,
                )
                outbox.failed(effect, Why.DISCORD_DOWN)
                await self.house.clock.sleep(pause)
                continue
            attempt = 0
            if isinstance(effect, TableView):
                self.table_shown(time.perf_counter() - started)
            if posted is None:
                outbox.delivered(effect)
            else:
                outbox.posted(effect, posted)
        if outbox.closed and not len(outbox):
            self._states.pop(outbox.channel_id, None)

    def _dropped(self, outbox: Outbox, effect: Effect) -> None:
        """An effect that fails for a reason retrying can't mend (our bug): log it, move on."""
        log.exception(
            "channel %s: could not show %s (error %s)",
            outbox.channel_id,
            type(effect).__name__,
            error_id(),
        )
        outbox.failed(effect, Why.BROKEN)

    async def _deliver(self, outbox: Outbox, state: _MessageState, effect: Effect) -> int | None:
        """Send one effect; the id of the message it posted, if the table should remember it."""
        match effect:
            case Line(text=text, mention=mention):
                allowed = discord.AllowedMentions(
                    users=[discord.Object(mention)] if mention else False,
                    roles=False,
                    everyone=False,
                )
                await self._channel(outbox).send(text, allowed_mentions=allowed)
            case TableView():
                return await self._table(outbox, state, effect)
            case ResultsView():
                return await self._results(outbox, state, effect)
            case ClearButtons(message_id=message_id):
                await self._clear_buttons(outbox, message_id)
            case Ledger(ledger=ledger):
                embed, picture = await self.ledger_message(ledger, outbox.lang)
                await self._channel(outbox).send(embed=embed, file=picture)
            case PrivateView():
                task = asyncio.get_running_loop().create_task(self._send_private(outbox, effect))
                self._dms.add(task)
                task.add_done_callback(self._dms.discard)
        return None

    async def _draw(
        self, draw: Callable[..., bytes], *args: object, behind: bool = False, **kwargs: object
    ) -> bytes:
        try:
            return await self.drawing.draw(draw, *args, behind=behind, **kwargs)
        except DrawingCrashed:
            # Killed (out of memory, say) while it had this picture: a new one draws it.
            return await self.drawing.draw(draw, *args, behind=behind, **kwargs)

    def _channel(self, outbox: Outbox) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(outbox.channel_id, guild_id=outbox.guild_id)

    async def _clear_buttons(self, outbox: Outbox, message_id: int) -> None:
        try:
            await self._channel(outbox).get_partial_message(message_id).edit(view=None)
        except discord.NotFound as error:
            if error.code != UNKNOWN_MESSAGE:
                raise
            # Deleted by someone: there are no buttons left to take away.
        except Exception as error:
            if not (self.budget.strained and is_retryable(error)):
                raise
            # Cosmetic (its buttons are refused as old anyway): not worth a retry while
            # Discord's refusals near the ban.
            log.info("channel %s: old buttons left (budget strained)", outbox.channel_id)

    async def _table(self, outbox: Outbox, state: _MessageState, view: TableView) -> int | None:
        """Show the table: edit its message, or post a new one for a new street."""
        hand = view.hand
        if hand is None and state.after_hand:
            return None
        embed = table_embed(view, self.texts)
        buttons: discord.ui.View | None = None
        files: list[discord.File] = []
        key = None
        if hand is not None:
            key = (hand.hand_id, hand.street)
            buttons = table_view(
                view.channel_id, hand.hand_id, hand.seq, hand.buttons, view.lang, self.texts
            )
            # A new street gets a new message: the old one's buttons go meanwhile.
            png = await self._draw_and_clear(
                outbox, state, state.key != key, table_png, hand.public, hand.labels
            )
            files = [discord.File(io.BytesIO(png), filename=TABLE_PICTURE)]
            embed.set_image(url=f"attachment://{TABLE_PICTURE}")
        channel = self._channel(outbox)
        posted: int | None = None
        if state.message_id is not None and state.key == key:
            message = channel.get_partial_message(state.message_id)
            if buttons is None:
                await message.edit(embed=embed)
            else:
                await message.edit(embed=embed, view=buttons, attachments=files)
        else:
            if state.message_id is not None and state.has_buttons:
                # The street moved on: its message keeps the picture but loses the buttons.
                await self._clear_buttons(outbox, state.message_id)
                state.has_buttons = False
            if buttons is None:
                message = await channel.send(embed=embed)
            else:
                message = await channel.send(embed=embed, view=buttons, files=files)
            posted = message.id
            state.message_id, state.key, state.after_hand = posted, key, False
        state.has_buttons = buttons is not None
        return posted

    async def _draw_and_clear(
        self,
        outbox: Outbox,
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
            self._draw(draw, *args), self._clear_buttons(outbox, state.message_id)
        )
        state.has_buttons = False
        return png

    async def _results(self, outbox: Outbox, state: _MessageState, view: ResultsView) -> int:
        """A finished hand: its showdown picture, pots and results, as a message of its own."""
        embed = results_embed(view, self.texts, SHOWDOWN_PICTURE)
        png = await self._draw_and_clear(
            outbox, state, True, showdown_png, view.public, view.labels
        )
        if state.message_id is not None and state.has_buttons:
            await self._clear_buttons(outbox, state.message_id)
            state.has_buttons = False
        posted = await self._channel(outbox).send(
            self.texts.t(view.lang, "reveal", hand_id=view.hand_id),
            embed=embed,
            file=discord.File(io.BytesIO(png), filename=SHOWDOWN_PICTURE),
        )
        state.message_id, state.key, state.after_hand = posted.id, None, True
        return posted.id

    # ------------------------------------------------------------------ private cards

    async def _send_private(self, outbox: Outbox, view: PrivateView) -> None:
        user_id = view.user_id
        lang = view.lang
        if not self.dms.may_try(user_id, strained=self.budget.strained):
            # Refused lately: another try would only spend Discord's invalid-request budget.
            outbox.failed(view, Why.DMS_CLOSED)
            return
        channel = self.bot.get_channel(outbox.channel_id)
        text = self._cards_text(
            view,
            "dm_cards",
            game=game_name(self.texts, view.game, lang),
            channel=getattr(channel, "name", str(outbox.channel_id)),
        )
        # Behind the table pictures: the player can act on what the table shows, and his
        # down cards are one click away (My cards) if the DM comes a moment later.
        png = await self._private_png(view, behind=True)
        async with self.dms.turn(user_id):
            if not self.dms.may_try(user_id, strained=self.budget.strained):
                # Refused while his picture was drawn (an earlier DM of his).
                outbox.failed(view, Why.DMS_CLOSED)
                return
            await self._dm(outbox, view, text, png)

    async def _dm(self, outbox: Outbox, view: PrivateView, text: str, png: bytes) -> None:
        user_id = view.user_id

        async def send() -> None:
            dm = await self._dm_channel(user_id)
            await dm.send(text, file=discord.File(io.BytesIO(png), filename=PRIVATE_PICTURE))

        try:
            await with_retries(send, self.house.clock.sleep)
        except discord.HTTPException as error:
            self._dm_channels.pop(user_id, None)
            # Closed DMs (or Discord down for minutes) must not stall the game: the channel
            # says so once a table session, and the player uses My cards.
            log.info("hand %s: no DM to a player (%s)", view.hand_id, error.status)
            if error.status == 403:
                await self.dms.refused(user_id)
            outbox.failed(view, Why.DMS_CLOSED)
        else:
            await self.dms.delivered(user_id)
            outbox.delivered(view)

    def _cards_text(self, view: PrivateView, key: str, **params: object) -> str:
        """A message naming the player's down and up cards (for him only)."""
        down = [c.card for c in view.cards.cards if not c.face_up]
        up = [c.card for c in view.cards.cards if c.face_up]
        return self.texts.t(
            view.lang,
            key,
            hand_id=view.hand_id,
            down=cards_text(down),
            up=cards_text(up),
            **params,
        )

    async def _private_png(self, view: PrivateView, *, behind: bool = False) -> bytes:
        return await self._draw(
            private_hand_png,
            view.cards,
            name=view.name,
            four_colour=view.four_colour,
            words=self.texts.pictures(view.lang),
            behind=behind,
        )

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

    async def send_cards(self, interaction: discord.Interaction, view: PrivateView) -> None:
        """The player's own cards as an ephemeral followup (already acknowledged)."""
        await self.dms.asked(view.user_id)  # his DMs may be open again
        png = await self._private_png(view)
        await with_retries(
            lambda: interaction.followup.send(
                self._cards_text(view, "your_cards"),
                file=discord.File(io.BytesIO(png), filename=PRIVATE_PICTURE),
                ephemeral=True,
            ),
            self.house.clock.sleep,
        )

    # ------------------------------------------------------------------ reports' pictures

    async def rankings_file(self, lang: str, four_colour: bool) -> discord.File:
        """The hand rankings picture (/help); the same every time, so drawn once per kind."""
        key = (lang, four_colour)
        if key not in self._rankings:
            self._rankings[key] = await self._draw(
                hand_rankings_png, four_colour=four_colour, words=self.texts.pictures(lang)
            )
        return discord.File(io.BytesIO(self._rankings[key]), filename=RANKINGS_PICTURE)

    async def ledger_message(
        self, ledger: SessionLedger, lang: str
    ) -> tuple[discord.Embed, discord.File]:
        """A table's session ledger in ``lang``: an embed with one line a player, and its
        picture (attach the file with the embed)."""
        channel = self.bot.get_channel(ledger.channel_id)
        name = f"#{getattr(channel, 'name', ledger.channel_id)}"
        png = await self._draw(ledger_png, ledger_sheet(ledger, self.texts, lang, name))
        embed = ledger_embed(ledger, self.texts, lang)
        embed.set_image(url=f"attachment://{LEDGER_PICTURE}")
        return embed, discord.File(io.BytesIO(png), filename=LEDGER_PICTURE)

    async def stats_message(
        self, stats: PlayerStats, name: str, lang: str
    ) -> tuple[discord.Embed, discord.File]:
        """A player's stats in ``lang``: an embed of his figures and the chart of his net over
        his last hands (attach the file with the embed)."""
        png = await self._draw(net_chart_png, stats_chart(stats, name, self.texts, lang))
        embed = stats_embed(stats, name, self.texts, lang)
        embed.set_image(url=f"attachment://{STATS_PICTURE}")
        return embed, discord.File(io.BytesIO(png), filename=STATS_PICTURE)

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
