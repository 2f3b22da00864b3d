"""Tables and seats: opening and closing a channel's table, sitting down, leaving, sitting out.

Each change to a table's seats happens under its lock and is saved before the table shows it;
the dealer is told when enough players are in for a hand.
"""

from __future__ import annotations

import logging

from bot.core.computer_seats import send_bots_home
from bot.core.config import TableConfig
from bot.core.dealer import Dealer
from bot.core.errors import TableError
from bot.core.ledger import SessionLedger
from bot.core.open_tables import OpenTables
from bot.core.outbox import Ledger
from bot.core.players import Players
from bot.core.showing import table_info
from bot.core.storage import Seat, Store
from bot.core.table import Table, fallback_name
from bot.core.views import SeatTaken, TableInfo, opened_params
from words import EN, Texts

log = logging.getLogger(__name__)


class Seating:
    def __init__(
        self,
        store: Store,
        texts: Texts,
        open_tables: OpenTables,
        dealer: Dealer,
        players: Players,
    ) -> None:
        self._store = store
        self._texts = texts
        self.open_tables = open_tables
        self._dealer = dealer
        self._players = players

    def get(self, channel_id: int) -> Table:
        """The channel's open table (for the core's parts and tests; the edge takes views)."""
        return self.open_tables.get(channel_id)

    # ------------------------------------------------------------------ tables

    async def open(
        self, guild_id: int, channel_id: int, opener_id: int, config: TableConfig
    ) -> None:
        if self.open_tables.find(channel_id) is not None:
            raise TableError("table_exists")
        if not config.min_buy_in <= config.max_buy_in or config.min_buy_in < config.stakes.big_bet:
            raise TableError("bad_buy_in_limits")
        await self._store.seating.open(
            channel_id,
            guild_id,
            opener_id,
            max_seats=config.seats,
            min_buy_in=config.min_buy_in,
            max_buy_in=config.max_buy_in,
            settings=config.to_settings(),
        )
        table = self.open_tables.add(channel_id, guild_id, opener_id, config, config.rotation())
        table.outbox.say("table_opened", **opened_params(self._texts, config, config.lang))
        table.outbox.redraw()

    async def close(self, channel_id: int, user_id: int, *, can_manage: bool) -> dict[int, int]:
        table = _cash(self.open_tables.get(channel_id))
        if user_id != table.opener_id and not can_manage:
            raise TableError("close_not_allowed")
        async with table.lock:
            if table.live is not None:
                raise TableError("close_mid_hand")
            cashed = await self._store.seating.close(channel_id)
            # Read before the closing line is said: the ledger follows it with nothing between.
            ledger = await self._closed_ledger(table)
            table.outbox.say("table_closed")
            if ledger is not None:
                table.outbox.put(Ledger(ledger))
            self._forget(table)
        return cashed

    async def abandon(self, channel_id: int) -> None:
        """The channel is gone: give back every chip (voiding a hand in play) and close."""
        table = self.open_tables.find(channel_id)
        if table is None:
            return
        async with table.lock:
            if table.closed:
                return
            if table.live is not None and table.live.end is None:
                await self._store.hands.void(table.live.hand_id, reason="the channel is gone")
            table.live = None
            await self._store.seating.close(channel_id)
            # No ledger is posted: there is no channel left to post it in.
            table.outbox.drain()
            self._forget(table)
        log.warning("channel %s is gone: its table was closed and every chip returned", channel_id)

    def _forget(self, table: Table) -> None:
        self._dealer.stop(table)
        self.open_tables.remove(table)

    async def ledger(self, channel_id: int) -> SessionLedger:
        """Who sat at the channel's table since it opened, and how each did; once the table
        has closed, the last one's. Names are those the bot last saw on the server."""
        record = await self._store.reports.table_ledger(channel_id)
        if record is None:
            raise TableError("no_table")
        names = await self._store.players.names(
            record.guild_id, (e.user_id for e in record.entries)
        )
        return SessionLedger.of(
            record, lambda user_id: names.get(user_id) or fallback_name(user_id)
        )

    async def _closed_ledger(self, table: Table) -> SessionLedger | None:
        """The table has just closed: its ledger, to go to the channel after the closing line
        (``None`` if it can't be read)."""
        try:
            return await self.ledger(table.channel_id)
        except Exception:
            # The chips are back in the wallets already; /table ledger still shows it.
            log.warning(
                "channel %s: the closed table's ledger can't be read",
                table.channel_id,
                exc_info=True,
            )
            return None

    def info(self, channel_id: int, lang: str) -> TableInfo:
        """The table's settings and players, read in ``lang``."""
        return table_info(self.open_tables.get(channel_id), self._texts, lang)

    # ------------------------------------------------------------------ seats

    async def sit(
        self, channel_id: int, user_id: int, name: str, buy_in: int | None, lang: str = EN
    ) -> SeatTaken:
        table = _cash(self.open_tables.get(channel_id))
        table.names[user_id] = name
        table.langs[user_id] = lang
        await self._players.seen(table.guild_id, user_id, name)
        if user_id in table.seats:
            raise TableError("already_seated")
        if len(table.seats) >= table.config.seats:
            raise TableError("table_full", seats=table.config.seats)
        if buy_in is None:
            balance = await self._store.wallets.balance(table.guild_id, user_id)
            buy_in = max(table.config.min_buy_in, min(table.config.max_buy_in, balance))
        if not table.config.min_buy_in <= buy_in <= table.config.max_buy_in:
            raise TableError(
                "buy_in_range", min=table.config.min_buy_in, max=table.config.max_buy_in
            )
        # His own pictures' deck, known before his first cards are dealt.
        await self._players.four_colour(user_id)
        async with table.lock:
            seat = await self._store.seating.sit(channel_id, user_id, buy_in)
            table.seats[user_id] = seat
            table.outbox.redraw()
            self._dealer.schedule(table)
        return SeatTaken(seat.position, seat.stack, table.config.max_buy_in)

    async def leave(self, channel_id: int, user_id: int) -> int | None:
        """Cash out now (``chips``), or after the hand he is in (``None``)."""
        table = _cash(self.open_tables.get(channel_id))
        async with table.lock:
            seat = _seat(table, user_id)
            if table.live is not None and table.live.seat_of(user_id) is not None:
                if seat.leaving:
                    raise TableError("already_leaving")
                table.seats[user_id] = await self._store.seating.set_leaving(
                    channel_id, user_id, True
                )
                table.outbox.redraw()
                return None
            chips = await self._store.seating.leave(channel_id, user_id)
            del table.seats[user_id]
            await send_bots_home(self._store, table)
            table.outbox.redraw()
        return chips

    async def set_sitting_out(self, channel_id: int, user_id: int, sitting_out: bool) -> None:
        table = _cash(self.open_tables.get(channel_id))
        async with table.lock:
            seat = _seat(table, user_id)
            if seat.sitting_out == sitting_out:
                raise TableError("already_sitting_out" if sitting_out else "not_sitting_out")
            table.seats[user_id] = await self._store.seating.set_sitting_out(
                channel_id, user_id, sitting_out
            )
            table.outbox.redraw()
            if not sitting_out:
                self._dealer.schedule(table)


def _seat(table: Table, user_id: int) -> Seat:
    seat = table.seats.get(user_id)
    if seat is None:
        raise TableError("not_seated")
    return seat


def _cash(table: Table) -> Table:
    """A cash table; a tournament's seats, moves and knocks out its own players (RULES 11)."""
    if table.tournament is not None:
        raise TableError("tournament_table")
    return table
