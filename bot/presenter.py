"""Shows tables on Discord: the table message, DMs, channel lines and the showdown.

Privacy: channel messages are built only from ``PublicTable.from_hand`` (no down cards exist in
it) and from announcements; a player's down cards are only ever put in his DM or in an
ephemeral reply to him.

Rate limits: each table has at most one message edit in flight; changes that arrive meanwhile
are folded into the next edit, so a busy table makes one edit per round trip, not per click.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.announce import announce
from bot.components import table_view
from bot.i18n import cards_text, language, t
from bot.storage import HandEnd
from bot.tables import LiveHand, Table
from engine import events as ev
from engine.public import PrivateHand, PublicTable
from render import SeatLabel, TableLabels, private_hand_png, showdown_png, table_png

if TYPE_CHECKING:
    from bot.client import StudBot

log = logging.getLogger(__name__)


@dataclass(slots=True)
class _MessageState:
    message_id: int | None = None
    key: tuple[int, int] | None = None  # (hand id, street) the message shows; None: idle table
    dirty: bool = False
    task: asyncio.Task[None] | None = None
    after_hand: bool = False  # the last message is a finished hand's: idle updates don't redraw


TABLE_PICTURE = "table.png"
SHOWDOWN_PICTURE = "showdown.png"
PRIVATE_PICTURE = "cards.png"


def relative_time(timestamp: float) -> str:
    return f"<t:{int(timestamp)}:R>"


class DiscordPresenter:
    def __init__(self, bot: StudBot) -> None:
        self.bot = bot
        self._states: dict[int, _MessageState] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._dm_failed: set[tuple[int, int]] = set()  # (hand id, user id) already told

    # ------------------------------------------------------------------ helpers

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    def _spawn(self, coroutine: object) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coroutine)  # type: ignore[arg-type]
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _learn_names(self, table: Table) -> None:
        """Fill in names the table doesn't know yet (after a restart) from the member cache."""
        guild = self.bot.get_guild(table.guild_id)
        if guild is None:
            return
        users = set(table.seats) | set(table.live.users if table.live else ())
        for user_id in users - set(table.names):
            member = guild.get_member(user_id)
            if member is not None:
                table.names[user_id] = member.display_name

    # ------------------------------------------------------------------ TablePresenter

    async def say(self, table: Table, text: str, *, mention: int | None = None) -> None:
        allowed = discord.AllowedMentions(
            users=[discord.Object(mention)] if mention else False, roles=False, everyone=False
        )
        try:
            await self._channel(table).send(text, allowed_mentions=allowed)
        except discord.HTTPException as error:
            log.warning("channel %s: could not post a line (%s)", table.channel_id, error.status)

    def refresh(self, table: Table) -> None:
        state = self._states.setdefault(table.channel_id, _MessageState())
        if table.closed:
            self._states.pop(table.channel_id, None)
            return
        state.dirty = True
        if state.task is None or state.task.done():
            state.task = asyncio.get_running_loop().create_task(self._flush(table, state))

    async def _flush(self, table: Table, state: _MessageState) -> None:
        while state.dirty:
            state.dirty = False
            try:
                await self._draw(table, state)
            except discord.HTTPException as error:
                log.warning("channel %s: table message update failed (%s)", table.channel_id, error)
            except Exception:
                log.exception("channel %s: table message update failed", table.channel_id)

    async def _draw(self, table: Table, state: _MessageState) -> None:
        self._learn_names(table)
        live = table.live
        lang = table.config.lang
        if live is None:
            if state.after_hand:
                return
            key = None
            embed = self._idle_embed(table)
            view: discord.ui.View | None = None
            files: list[discord.File] = []
        else:
            key = (live.hand_id, live.hand.street)
            public = PublicTable.from_hand(live.hand)
            embed = self._hand_embed(table, live, public)
            view = table_view(table.channel_id, live.hand_id, live.seq, table.buttons(), lang)
            labels = self._labels(table, live)
            # Drawn on the event loop (2-3 ms): in a worker thread, the drawing holds the GIL
            # and every database round trip of every other table queues behind it.
            png = table_png(public, labels)
            files = [discord.File(io.BytesIO(png), filename=TABLE_PICTURE)]
            embed.set_image(url=f"attachment://{TABLE_PICTURE}")
        channel = self._channel(table)
        if state.message_id is not None and state.key == key:
            if view is None:
                await channel.get_partial_message(state.message_id).edit(embed=embed)
            else:
                await channel.get_partial_message(state.message_id).edit(
                    embed=embed, view=view, attachments=files
                )
            return
        if state.message_id is not None and state.key is not None:
            # The street moved on: its message keeps the picture but loses the buttons.
            await channel.get_partial_message(state.message_id).edit(view=None)
        if view is None:
            message = await channel.send(embed=embed)
        else:
            message = await channel.send(embed=embed, view=view, files=files)
        state.message_id, state.key, state.after_hand = message.id, key, False

    def _seat_lines(self, table: Table, public: PublicTable | None) -> list[str]:
        lang = table.config.lang
        lines: list[str] = []
        if public is None or table.live is None:
            return seat_lines(table, lang)
        for view in public.seats:
            if not view.dealt_in:
                continue
            name = table.seat_name(view.seat)
            marker = "▶ " if view.is_actor else ""
            cards = " ".join(["🂠"] * view.down_count + [card.pretty for card in view.up_cards])
            extra = []
            if view.bet:
                extra.append(f"bet {view.bet}" if lang != "ru" else f"ставка {view.bet}")
            if view.folded:
                extra.append("folded" if lang != "ru" else "пас")
            elif view.all_in:
                extra.append("all-in" if lang != "ru" else "ва-банк")
            tail = f" ({', '.join(extra)})" if extra else ""
            lines.append(f"{marker}**{name}** — {view.stack} · {cards}{tail}")
        return lines

    def _idle_embed(self, table: Table) -> discord.Embed:
        lang = table.config.lang
        embed = discord.Embed(
            title=t(lang, "table_waiting", stakes=table.config.stakes),
            description="\n".join(self._seat_lines(table, None)),
            colour=discord.Colour.dark_green(),
        )
        if table.next_hand_at is not None:
            embed.add_field(
                name="⏱", value=t(lang, "countdown", when=relative_time(table.next_hand_at))
            )
        return embed

    def _labels(self, table: Table, live: LiveHand) -> TableLabels:
        actor = live.hand.actor
        seconds = None
        if live.deadline is not None:
            seconds = max(0, round(live.deadline - time.time()))
        return TableLabels(
            seats=tuple(
                SeatLabel(table.name(user_id), seconds_left=seconds if seat == actor else None)
                for seat, user_id in enumerate(live.users)
            ),
            last_action=table.log[-1] if table.log else "",
            language=table.config.lang,
        )

    def _hand_embed(self, table: Table, live: LiveHand, public: PublicTable) -> discord.Embed:
        lang = table.config.lang
        embed = discord.Embed(
            title=t(
                lang,
                "table_title",
                stakes=table.config.stakes,
                hand_id=live.hand_id,
                street=t(lang, f"street_{live.hand.street}"),
            ),
            description="\n".join(self._seat_lines(table, public)),
            colour=discord.Colour.dark_green(),
        )
        embed.add_field(name=t(lang, "pot", pot=public.pot), value="\n".join(table.log) or "—")
        actor = table.actor_id()
        if actor is not None and live.deadline is not None:
            embed.add_field(
                name="⏱",
                value=t(lang, "to_act", name=table.name(actor), when=relative_time(live.deadline)),
                inline=False,
            )
        return embed

    def deal_private(self, table: Table, user_ids: Sequence[int]) -> None:
        live = table.live
        if live is None:
            return
        for user_id in user_ids:
            seat = live.seat_of(user_id)
            if seat is None:
                continue
            # Read the cards now, not when the DM task runs: the hand may have moved on.
            private = PrivateHand.for_seat(live.hand, seat)
            self._spawn(self._send_private(table, live.hand_id, user_id, private))

    async def _send_private(
        self, table: Table, hand_id: int, user_id: int, private: PrivateHand
    ) -> None:
        lang = table.lang_of(user_id)
        down = [c.card for c in private.cards if not c.face_up]
        up = [c.card for c in private.cards if c.face_up]
        channel = self.bot.get_channel(table.channel_id)
        channel_name = getattr(channel, "name", str(table.channel_id))
        text = t(
            lang,
            "dm_cards",
            hand_id=hand_id,
            channel=channel_name,
            down=cards_text(down),
            up=cards_text(up),
        )
        png = private_hand_png(private, name=table.name(user_id), language=lang)
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(text, file=discord.File(io.BytesIO(png), filename=PRIVATE_PICTURE))
        except discord.HTTPException:
            # Closed DMs must not stall the game: one line in the channel per hand, play goes on.
            if (hand_id, user_id) in self._dm_failed:
                return
            self._dm_failed.add((hand_id, user_id))
            await self.say(
                table, t(table.config.lang, "dm_closed", mention=f"<@{user_id}>"), mention=user_id
            )

    async def hand_over(self, table: Table, hand: LiveHand, end: HandEnd) -> None:
        lang = table.config.lang
        state = self._states.setdefault(table.channel_id, _MessageState())
        public = PublicTable.from_hand(hand.hand)
        embed = discord.Embed(
            title=t(
                lang,
                "table_title",
                stakes=table.config.stakes,
                hand_id=hand.hand_id,
                street="showdown" if public.is_showdown else t(lang, f"street_{hand.hand.street}"),
            ),
            description="\n".join(self._results(table, hand)) or "—",
            colour=discord.Colour.gold(),
        )
        labels = self._labels(table, hand)
        png = showdown_png(public, labels)
        embed.set_image(url=f"attachment://{SHOWDOWN_PICTURE}")
        reveal = t(lang, "reveal", hand_id=hand.hand_id)
        if table.next_hand_at is not None:
            embed.add_field(
                name="⏱", value=t(lang, "countdown", when=relative_time(table.next_hand_at))
            )
        # Wait for a pending redraw of the last street so the results come after it.
        if state.task is not None and not state.task.done():
            await asyncio.shield(state.task)
        channel = self._channel(table)
        if state.message_id is not None and state.key is not None:
            try:
                await channel.get_partial_message(state.message_id).edit(view=None)
            except discord.HTTPException:
                log.warning("channel %s: could not clear old buttons", table.channel_id)
        try:
            message = await channel.send(
                reveal,
                embed=embed,
                file=discord.File(io.BytesIO(png), filename=SHOWDOWN_PICTURE),
            )
        except discord.HTTPException as error:
            log.warning("channel %s: could not post the results (%s)", table.channel_id, error)
            return
        state.message_id, state.key, state.after_hand = message.id, None, True
        self._dm_failed = {key for key in self._dm_failed if key[0] != hand.hand_id}

    def _results(self, table: Table, hand: LiveHand) -> list[str]:
        """Shown hands and pots, then each player's net result."""
        lang = table.config.lang
        lines = []
        for event in hand.hand.events:
            if isinstance(event, ev.HandShown | ev.PotAwarded | ev.UncalledBetReturned):
                line = announce(event, lang, table.seat_name_in(hand), table.config.stakes)
                if line:
                    lines.append(line)
        for seat, user_id in enumerate(hand.users):
            net = hand.hand.stacks[seat] - hand.hand.starting_stacks[seat]
            lines.append(f"{table.name(user_id)}: {net:+d}")
        return lines

    # ------------------------------------------------------------------ My cards

    async def show_cards(self, interaction: discord.Interaction, channel_id: int) -> None:
        lang = language(interaction.locale)
        private = self.bot.tables.private_hand(channel_id, interaction.user.id)
        down = [c.card for c in private.cards if not c.face_up]
        up = [c.card for c in private.cards if c.face_up]
        png = private_hand_png(private, name=interaction.user.display_name, language=lang)
        await interaction.response.send_message(
            t(lang, "your_cards", down=cards_text(down), up=cards_text(up)),
            file=discord.File(io.BytesIO(png), filename=PRIVATE_PICTURE),
            ephemeral=True,
        )

    async def close(self) -> None:
        tasks = [s.task for s in self._states.values() if s.task] + list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


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
