"""A restart loses no chip and no hand: restoring the tables and hands the store holds, and
stopping cleanly.

Restoring never fails for one table's sake: a hand that can't be continued is voided (every
player gets his chips back), the channel is told, the log has the details under an id, and every
other table goes on. Another process's tables (a sharded bot) are left alone.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.core.config import TableConfig
from bot.core.dealer import Dealer
from bot.core.errors import error_id
from bot.core.open_tables import OpenTables
from bot.core.outbox import ClearButtons
from bot.core.players import Players
from bot.core.storage import HandRecord, Store
from bot.core.table import LiveHand, Table
from bot.core.tasks import Tasks
from engine.codec import decode

log = logging.getLogger(__name__)


class Recovery:
    def __init__(
        self,
        store: Store,
        open_tables: OpenTables,
        dealer: Dealer,
        players: Players,
        tasks: Tasks,
        *,
        owns: Callable[[int], bool] | None,
        flush: Callable[[], Awaitable[None]],
        tournaments: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """``owns`` says whether a server's tables are this process's (None: every server's);
        ``flush`` saves what the edge reported and is not saved yet (the messages' ids);
        ``tournaments`` gives the restored tournament tables back to their directors, before
        any of their hands goes on."""
        self._store = store
        self._open_tables = open_tables
        self._dealer = dealer
        self._players = players
        self._tasks = tasks
        self._owns = owns
        self._flush = flush
        self._tournaments = tournaments

    async def restore(self) -> list[int]:
        """Load every open table this process owns and continue every hand in progress there;
        returns the hand ids."""
        live_hands = await self._store.hands.live()
        for record in await self._store.seating.tables():
            if self._owns is not None and not self._owns(record.guild_id):
                continue
            try:
                config = TableConfig.from_settings(
                    record.settings, record.max_seats, record.min_buy_in, record.max_buy_in
                )
                rotation = config.rotation(record.settings)
            except Exception as error:
                hand = next((h for h in live_hands if h.channel_id == record.channel_id), None)
                await self._close_unreadable(record.channel_id, hand, error)
                continue
            table = self._open_tables.add(
                record.channel_id, record.guild_id, record.opener_id, config, rotation
            )
            table.seats = {s.user_id: s for s in await self._store.seating.seats(record.channel_id)}
            table.banks = {
                s.user_id: s.time_bank for s in table.seats.values() if s.time_bank is not None
            }
            table.last_dealer = await self._last_dealer(record.channel_id)
            await self._players.load_names(table, table.seats.keys())
            for user_id in table.seats:
                await self._players.four_colour(user_id)
            if record.message_id is not None:
                # The old message's buttons go before anything new is posted.
                table.outbox.put(ClearButtons(record.message_id))
        if self._tournaments is not None:
            await self._tournaments()
        restored: list[int] = []
        for hand_record in live_hands:
            table_or_none = self._open_tables.find(hand_record.channel_id)
            if table_or_none is None:
                continue  # another process's, or its table could not be loaded and was closed
            table = table_or_none
            players = sorted(hand_record.players, key=lambda p: p.seat_index)
            async with table.lock:
                try:
                    # Before the log is rebuilt: its lines name the players.
                    await self._players.load_names(table, (p.user_id for p in players))
                    table.live = LiveHand(
                        hand_record.hand_id,
                        decode(hand_record.state),
                        tuple(p.user_id for p in players),
                        hand_record.commitment,
                        hand_record.salt,
                    )
                    table.outbox.say("restored", hand_id=hand_record.hand_id)
                    await self._dealer.after_change(table, restoring=True)
                except Exception as error:
                    await self._void_unrestorable(table, hand_record.hand_id, error)
                    continue
            restored.append(hand_record.hand_id)
        for table in self._open_tables:
            if table.live is None:
                table.outbox.redraw()
                self._dealer.schedule(table)
        return restored

    async def _last_dealer(self, channel_id: int) -> int | None:
        """Where the table's last hand's dealer sat: the dealer moves on from there as if there
        had been no restart (RULES 1.4). A hand that can't be read (one voided as corrupt)
        leaves the table to deal as a first hand, as before the restart it would have."""
        last = await self._store.hands.last_at(channel_id)
        if last is None:
            return None
        hand = await self._store.hands.get(last)
        try:
            return dealer_position(hand)
        except Exception as error:
            log.warning("hand %s can't be read for its dealer (%r)", last, error)
            return None

    async def _close_unreadable(
        self, channel_id: int, hand: HandRecord | None, error: Exception
    ) -> None:
        """A table whose settings can't be read can't be played: give every chip back."""
        ident = error_id()
        log.error(
            "table in channel %s can't be loaded (error %s: %r); closing it, chips returned",
            channel_id,
            ident,
            error,
        )
        try:
            if hand is not None:
                await self._store.hands.void(hand.hand_id, reason=f"table unreadable ({ident})")
            await self._store.seating.close(channel_id)
        except Exception:
            log.exception(
                "the table in channel %s could not be closed (error %s)", channel_id, ident
            )

    async def _void_unrestorable(self, table: Table, hand_id: int, error: Exception) -> None:
        ident = error_id()
        log.error(
            "hand %s can't be continued after the restart (error %s: %s); voiding it",
            hand_id,
            ident,
            error,
        )
        table.live = None
        table.log.clear()
        try:
            await self._store.hands.void(hand_id, reason=f"restore failed ({ident}): {error}")
            table.seats = {s.user_id: s for s in await self._store.seating.seats(table.channel_id)}
        except Exception:
            log.exception("hand %s could not be voided either (error %s)", hand_id, ident)
            return
        table.outbox.say("restore_voided", hand_id=hand_id, error_id=ident)

    async def shutdown(self) -> None:
        """Stop every clock and countdown, then wait for the changes in flight to be saved."""
        for table in self._open_tables:
            self._dealer.stop(table)
        await self._tasks.stop()
        for table in self._open_tables:
            async with table.lock:
                pass
        await self._flush()


def dealer_position(hand: HandRecord) -> int | None:
    """The table position of the hand's dealer (None for a hand stored without positions)."""
    dealer = decode(hand.state).dealer
    return next(p.position for p in hand.players if p.seat_index == dealer)
