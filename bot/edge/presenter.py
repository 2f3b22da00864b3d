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
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import discord
from discord.http import MultipartParameters

from bot.core.clock import Clock, pauses
from bot.core.errors import error_id
from bot.core.games import game_name
from bot.core.ledger import SessionLedger, ledger_sheet
from bot.core.outbox import ClearButtons, Effect, Ledger, Line, Outbox, Why
from bot.core.stats import stats_chart
from bot.core.storage import PlayerStats
from bot.core.views import HandView, Outcome, Picture, PrivateView, ResultsView, TableView
from bot.edge.budget import InvalidRequests
from bot.edge.buttons import launch_view
from bot.edge.dms import ClosedDms
from bot.edge.drawing import Drawing, DrawingCrashed
from bot.edge.embeds import idle_embed, ledger_embed, stats_embed
from bot.edge.funnel import answer, brief, is_retryable, with_retries
from bot.edge.layout import IS_COMPONENTS_V2, hand_layout, results_layout, without_buttons
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
# Discord takes only a few edits of a message older than an hour (error 30046, how few it does
# not say): a table message is replaced by a new one before it is that old.
OLD_MESSAGE_EDITS: Final = 30046
REPLACE_AFTER: Final = 55 * 60.0
# A click's update not ready this long after the click arrived (the message busy with an earlier
# change, a slow drawing) goes as an edit, the click acknowledged on its own: the player is not
# kept waiting for it.
PREPARE_WITHIN: Final = 0.5
# A click must be answered within Discord's 3 seconds of its creation: its answer is tried until
# this long after it arrived, each try cut after CALLBACK_TRY seconds (discord.py waits 1 s, then
# 3 s, between its own tries after a 5xx: the third would land past the window).
ANSWER_WITHIN: Final = 2.5
CALLBACK_TRY: Final = 0.8
# Discord's code for an interaction answered already (an earlier try landed after all).
ALREADY_ANSWERED: Final = 40060


@dataclass(slots=True)
class _MessageState:
    message_id: int | None = None
    posted_at: float = 0.0  # when, on the core's clock
    key: int | None = None  # the hand the message shows; None: the idle table
    picture: Picture | None = None  # the picture the message carries, while the hand is live
    has_buttons: bool = False
    after_hand: bool = False  # the last message is a finished hand's: idle updates don't redraw
    # The outbox's version the message shows, and the results a click's answer showed:
    # showing them again would be a second request for what the message already shows.
    shown: int = -1
    answered: ResultsView | None = None
    # One change of the message at a time, delivery and clicks alike: each shows the table as
    # it is, so the later one is the newer.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class _Skipped:
    """An update a click's answer has shown already."""


_SKIPPED: Final = _Skipped()


class DiscordPresenter:
    def __init__(
        self,
        bot: discord.Client,
        clock: Clock,
        texts: Texts,
        drawing: Drawing,
        *,
        budget: InvalidRequests,
        dms: ClosedDms,
        table_shown: Callable[[float], None] | None = None,
        launch: bool = False,
    ) -> None:
        """``clock`` is the core's; ``table_shown`` is told how long each table update took to
        show (the metrics, when they are on); ``launch``: the table's message has the button
        that opens it as a Discord Activity (the Activity is on)."""
        self.launch = launch
        self.bot = bot
        self.budget = budget  # what Discord's invalid-request budget has spent
        self.dms = dms  # who takes no DMs
        self.table_shown = table_shown or (lambda seconds: None)
        self.clock = clock
        self.texts = texts
        self.drawing = drawing
        self._states: dict[int, _MessageState] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._dms: set[asyncio.Task[None]] = set()
        self._dm_channels: dict[int, int] = {}  # user id -> DM channel id, oldest use first
        self._closing = False  # set once the connection is about to close: deliver no more
        self._rankings: dict[tuple[str, bool], bytes] = {}  # (language, four colours) -> PNG
        self._outboxes: dict[int, Outbox] = {}  # channel id -> its table's, while it is shown

    # ------------------------------------------------------------------ delivery

    def wake(self, outbox: Outbox) -> None:
        """The table has something new to show: make sure a delivery task is on it."""
        worker = self._workers.get(outbox.channel_id)
        if self._closing:
            return
        self._outboxes[outbox.channel_id] = outbox
        if worker is None or worker.done():
            self._workers[outbox.channel_id] = asyncio.get_running_loop().create_task(
                self._deliver_all(outbox), name=f"deliver-{outbox.channel_id}"
            )

    @property
    def idle(self) -> bool:
        """Nothing is being delivered (tests wait for this)."""
        return all(w.done() for w in self._workers.values()) and not self._dms

    async def shown(self, channel_id: int, timeout: float = 60.0) -> None:
        """Wait (at most ``timeout`` seconds) until what the channel's table had to show has
        gone out."""
        worker = self._workers.get(channel_id)
        if worker is not None and not worker.done():
            await asyncio.wait({worker}, timeout=timeout)

    async def _deliver_all(self, outbox: Outbox) -> None:
        state = self._states.setdefault(outbox.channel_id, _MessageState())
        backoff = pauses(RETRY_SECONDS)
        while not self._closing and (effect := outbox.take(state.shown)) is not None:
            version = outbox.version  # what a picture taken now shows
            started = time.perf_counter()
            try:
                posted = await self._deliver(outbox, state, effect, version)
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
                # A picture whose drawing process died twice (_draw) is dropped, not retried.
                if not is_retryable(error):
                    self._dropped(outbox, effect)
                    continue
                pause = next(backoff)
                if self.budget.strained:
                    pause = max(pause, STRAINED_PAUSE)
                log.warning(
                    "channel %s: Discord failed (%s); trying again in %.1f s",
                    outbox.channel_id,
                    brief(error),
                    pause,
                )
                outbox.failed(effect, Why.DISCORD_DOWN)
                await self.clock.sleep(pause)
                continue
            backoff = pauses(RETRY_SECONDS)
            if isinstance(posted, _Skipped):
                continue
            if isinstance(effect, TableView):
                self.table_shown(time.perf_counter() - started)
            if posted is None:
                outbox.delivered(effect)
            else:
                outbox.posted(effect, posted)
        if outbox.closed and not len(outbox):
            self._states.pop(outbox.channel_id, None)
            self._outboxes.pop(outbox.channel_id, None)

    def _dropped(self, outbox: Outbox, effect: Effect) -> None:
        """An effect that fails for a reason retrying can't mend (our bug): log it, move on."""
        log.exception(
            "channel %s: could not show %s (error %s)",
            outbox.channel_id,
            type(effect).__name__,
            error_id(),
        )
        outbox.failed(effect, Why.BROKEN)

    async def _deliver(
        self, outbox: Outbox, state: _MessageState, effect: Effect, version: int
    ) -> int | _Skipped | None:
        """Send one effect; the id of the message it posted, if the table should remember it.
        ``version`` is the outbox's when the effect was taken (what a picture shows)."""
        match effect:
            case Line(text=text, mention=mention):
                allowed = discord.AllowedMentions(
                    users=[discord.Object(mention)] if mention else False,
                    roles=False,
                    everyone=False,
                )
                await self._channel(outbox).send(text, allowed_mentions=allowed)
            case TableView():
                async with state.lock:
                    if version <= state.shown:
                        return _SKIPPED
                    posted = await self._table(outbox, state, effect)
                    state.shown = version
                    return posted
            case ResultsView():
                async with state.lock:
                    if effect is state.answered:
                        state.answered = None
                        return _SKIPPED
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
        """Take the buttons off an older message of the table (one from before a restart, or
        of a hand that never got its results): a hand's message keeps its picture and text."""
        channel_id = outbox.channel_id
        try:
            raw = await self.bot.http.get_message(channel_id, message_id)
            if raw.get("flags", 0) & IS_COMPONENTS_V2:
                payload = {"components": without_buttons(dict(raw)), "flags": raw["flags"]}
                params = MultipartParameters(payload=payload, multipart=None, files=None)
                await self.bot.http.edit_message(channel_id, message_id, params=params)
            else:
                await self._channel(outbox).get_partial_message(message_id).edit(view=None)
        except discord.NotFound as error:
            if error.code != UNKNOWN_MESSAGE:
                raise
            # Deleted by someone: there are no buttons left to take away.
        except Exception as error:
            if isinstance(error, discord.HTTPException) and error.code == OLD_MESSAGE_EDITS:
                # Too old for Discord to edit: its buttons stay, and a click on one is answered
                # as a button of an old hand.
                log.info("channel %s: message %s too old to edit", channel_id, message_id)
            elif self.budget.strained and is_retryable(error):
                # Cosmetic (its buttons are refused as old anyway): not worth a retry while
                # Discord's refusals near the ban.
                log.info("channel %s: old buttons left (budget strained)", channel_id)
            else:
                raise

    async def _table(self, outbox: Outbox, state: _MessageState, view: TableView) -> int | None:
        """Show the table: an idle table's message, or the hand's one live message."""
        hand = view.hand
        if hand is None:
            if state.after_hand:
                return None  # the finished hand's message says when the next one starts
            launch = launch_view(view.channel_id, view.lang, self.texts) if self.launch else None
            return await self._show(
                outbox, state, None, idle_embed(view, self.texts), buttons=launch
            )
        layout, picture = await self._hand_message(state, view, hand)
        posted = await self._show(outbox, state, hand.hand_id, layout, picture)
        state.picture = hand.picture
        state.has_buttons = True
        return posted

    async def _hand_message(
        self, state: _MessageState, view: TableView, hand: HandView
    ) -> tuple[discord.ui.LayoutView, discord.File | None]:
        """A live hand's message, with its picture when the message's is not this one."""
        layout = hand_layout(view, hand, self.texts, TABLE_PICTURE, launch=self.launch)
        picture = None
        if hand.picture != state.picture or not self._editable(state, hand.hand_id):
            # Cards dealt or shown, a seat changed, or a new message: the picture goes up.
            png = await self._draw(table_png, hand.picture.public, hand.picture.labels)
            picture = discord.File(io.BytesIO(png), filename=TABLE_PICTURE)
        return layout, picture

    async def _results(self, outbox: Outbox, state: _MessageState, view: ResultsView) -> int | None:
        """A finished hand: its message becomes the hand's record, with the showdown picture,
        what was shown and won and each player's result, and no buttons."""
        layout, picture = await self._results_message(view)
        posted = await self._show(outbox, state, view.hand_id, layout, picture)
        state.after_hand, state.has_buttons, state.picture = True, False, None
        return posted

    async def _results_message(
        self, view: ResultsView
    ) -> tuple[discord.ui.LayoutView, discord.File]:
        png = await self._draw(showdown_png, view.public, view.labels)
        layout = results_layout(view, self.texts, SHOWDOWN_PICTURE)
        return layout, discord.File(io.BytesIO(png), filename=SHOWDOWN_PICTURE)

    # ------------------------------------------------------------------ a click's answer

    async def answer(
        self, interaction: discord.Interaction, channel_id: int, outcome: Outcome, arrived: float
    ) -> bool:
        """Answer a click with the update its action caused, as the edit of the message it was
        on (one request). False, with nothing sent, when that update is shown already, is not
        an edit of the hand's message (a new message is due), or cannot go within Discord's
        window of the click's arrival (``arrived``, on the loop's clock): the click is then
        acknowledged on its own, and the update goes as an edit of the message."""
        update = outcome.update
        outbox = self._outboxes.get(channel_id)
        state = self._states.get(channel_id)
        if update is None or outbox is None or state is None:
            return False
        ready_by, deadline = arrived + PREPARE_WITHIN, arrived + ANSWER_WITHIN
        started = time.perf_counter()
        try:
            async with asyncio.timeout_at(ready_by):
                await state.lock.acquire()
        except TimeoutError:
            return False  # the message is being changed slowly (Discord, the drawing)
        try:
            clicked = interaction.message
            if outcome.version <= state.shown or clicked is None or clicked.id != state.message_id:
                # Shown already, or clicked on another message than the one showing the table
                # (one replaced for its age): the delivery edits the table's own.
                return False
            match update:
                case TableView(hand=HandView() as hand) if self._editable(state, hand.hand_id):
                    async with asyncio.timeout_at(ready_by):
                        layout, picture = await self._hand_message(state, update, hand)
                    if not await self._answer_click(interaction, layout, picture, deadline):
                        return False
                    state.picture, state.has_buttons = hand.picture, True
                case ResultsView() if self._editable(state, update.hand_id):
                    async with asyncio.timeout_at(ready_by):
                        layout, shown = await self._results_message(update)
                    if not await self._answer_click(interaction, layout, shown, deadline):
                        return False
                    state.after_hand, state.has_buttons, state.picture = True, False, None
                    state.answered = update
                case _:
                    return False
        except TimeoutError:
            return False  # drawn too slowly to answer in time
        except Exception:
            # The drawing failed: the delivery shows the update its own way (text only, say).
            log.warning("a click's update could not be drawn", exc_info=True)
            return False
        finally:
            state.lock.release()
        state.shown = outcome.version
        if isinstance(update, TableView):
            self.table_shown(time.perf_counter() - started)
        outbox.delivered(update)
        return True

    async def _show(
        self,
        outbox: Outbox,
        state: _MessageState,
        key: int | None,
        shown: discord.Embed | discord.ui.LayoutView,
        picture: discord.File | None = None,
        *,
        buttons: discord.ui.View | None = None,
    ) -> int | None:
        """Edit the message showing ``key`` (a hand, or None: the idle table) with ``shown``, or
        post a new one: for another hand, or when Discord would no longer edit it freely. An
        edit without ``picture`` keeps the one the message has; ``buttons`` go under an
        embed. The id of a message posted."""
        channel = self._channel(outbox)
        under: dict[str, Any] = {} if buttons is None else {"view": buttons}
        if self._editable(state, key):
            assert state.message_id is not None
            message = channel.get_partial_message(state.message_id)
            try:
                if isinstance(shown, discord.Embed):
                    await message.edit(embed=shown, **under)
                elif picture is None:
                    await message.edit(view=shown)  # the attachment stays: no upload
                else:
                    await message.edit(view=shown, attachments=[picture])
                return None
            except discord.HTTPException as error:
                if error.code != OLD_MESSAGE_EDITS:
                    raise
                # Older than Discord edits freely after all: shown anew (tried again when
                # the new message needs a picture not drawn yet).
                state.posted_at = -math.inf
                if isinstance(shown, discord.ui.LayoutView) and picture is None:
                    raise
        if state.message_id is not None and state.has_buttons and state.key != key:
            # Another hand's message, left with buttons (a hand voided): they go.
            await self._clear_buttons(outbox, state.message_id)
        if isinstance(shown, discord.Embed):
            message = await channel.send(embed=shown, **under)
        else:
            assert picture is not None, "a new hand message carries its picture"
            message = await channel.send(view=shown, file=picture)
        state.message_id, state.key, state.after_hand = message.id, key, False
        state.posted_at, state.has_buttons = self.clock.now(), False
        return message.id

    @staticmethod
    async def _answer_click(
        interaction: discord.Interaction,
        shown: discord.ui.LayoutView,
        picture: discord.File | None,
        deadline: float,
    ) -> bool:
        """Answer the click with the update (the message it was on is edited) before
        ``deadline``: False if Discord did not take it by then."""
        loop = asyncio.get_running_loop()
        while (left := deadline - loop.time()) > 0:
            try:
                async with asyncio.timeout(min(left, CALLBACK_TRY)):
                    if picture is None:
                        await interaction.response.edit_message(view=shown)
                    else:
                        await interaction.response.edit_message(view=shown, attachments=[picture])
                return True
            except TimeoutError:
                # Discord failing or slow: a try of our own now, not discord.py's after 3 s.
                log.info("a click's answer is slow; trying again")
            except discord.HTTPException as error:
                if error.code == ALREADY_ANSWERED:
                    return True  # a try cut short landed after all
                # Too late (10062), or a refusal: the edit shows the table all the same.
                log.info("a click's update could not answer it (%s)", brief(error))
                return False
            finally:
                if picture is not None:
                    picture.reset()
        return False

    def _editable(self, state: _MessageState, key: int | None) -> bool:
        """The message showing ``key`` is there, and young enough for Discord to edit freely."""
        return (
            state.message_id is not None
            and state.key == key
            and self.clock.now() - state.posted_at < REPLACE_AFTER
        )

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
            await with_retries(send, self.clock.sleep)
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
        """The player's own cards, privately (the interaction is already acknowledged)."""
        await self.dms.asked(view.user_id)  # his DMs may be open again
        png = await self._private_png(view)
        await with_retries(
            lambda: answer(
                interaction,
                self._cards_text(view, "your_cards"),
                file=discord.File(io.BytesIO(png), filename=PRIVATE_PICTURE),
            ),
            self.clock.sleep,
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
