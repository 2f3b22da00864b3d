"""Tables and seats: opening and closing a channel's table, sitting down and cashing out, the
seats' flags and time banks, the message that shows a table, and the stacks on the seats.

Owns the ``tables`` and ``seats`` tables and the ledger rows of buy-ins and cash-outs. A seat's
chips come from its player's wallet and go back to it, so a buy-in or cash-out also moves them
there (``wallets.to_seat``, ``wallets.from_seat``). Every function runs inside a transaction
its caller opened; a table is passed as its ``tables`` row (``require_table``). ``SeatRecords``
(``store.seating``, at the end) opens them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from bot.core.storage import house, wallets
from bot.core.storage.backend import Backend, Connection, Row
from bot.core.storage.common import (
    MAX_AMOUNT,
    Move,
    check_amount,
    is_amount,
    is_int,
    log,
    one,
    required_ts,
    ts,
    utcnow,
)
from bot.core.storage.errors import (
    AlreadySeated,
    AuditFailed,
    BuyInOutOfRange,
    HandInProgress,
    InvalidTableConfig,
    NoTable,
    NotSeated,
    PlayerInHand,
    SeatsChanged,
    TableExists,
    TableFull,
)
from bot.core.storage.guilds import Guilds
from bot.core.storage.models import Seat, TableRecord
from bot.core.storage.wallets import Economy

MAX_SEATS = 8


def check_config(max_seats: int, min_buy_in: int, max_buy_in: int) -> None:
    """``InvalidTableConfig`` for seats outside 2..8 or buy-in limits that aren't ``1 <=
    min_buy_in <= max_buy_in <= MAX_AMOUNT``."""
    if not is_int(max_seats) or not 2 <= max_seats <= MAX_SEATS:
        raise InvalidTableConfig(f"a table has 2 to {MAX_SEATS} seats, not {max_seats}")
    if not (is_amount(min_buy_in) and is_amount(max_buy_in) and min_buy_in <= max_buy_in):
        raise InvalidTableConfig(
            f"the buy-in limits must be whole numbers from 1 to {MAX_AMOUNT:,}"
            " with the minimum no larger than the maximum"
        )


def encode_settings(settings: Mapping[str, Any] | None) -> str:
    """A new table's settings as they are stored (JSON)."""
    return json.dumps(dict(settings or {}), separators=(",", ":"))


async def table_row(db: Connection, channel_id: int) -> Row | None:
    """The channel's open table."""
    return await one(
        db, "SELECT * FROM tables WHERE channel_id = ? AND closed_at IS NULL", (channel_id,)
    )


async def latest_table_row(db: Connection, channel_id: int) -> Row | None:
    """The channel's open table, else the one closed there last."""
    # A channel's open table is always its newest: another opens only once it closed.
    return await one(
        db, "SELECT * FROM tables WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
    )


async def table_by_id(db: Connection, table_id: int) -> Row:
    found = await one(db, "SELECT * FROM tables WHERE id = ?", (table_id,))
    assert found is not None
    return found


async def require_table(db: Connection, channel_id: int) -> Row:
    """The channel's open table; ``NoTable``."""
    found = await table_row(db, channel_id)
    if found is None:
        raise NoTable(channel_id)
    return found


async def open_table(
    db: Connection,
    channel_id: int,
    guild_id: int,
    opener_id: int,
    *,
    max_seats: int,
    min_buy_in: int,
    max_buy_in: int,
    settings_json: str,
    now: datetime,
) -> TableRecord:
    """Open the channel's table (``TableExists`` if it has one)."""
    if await table_row(db, channel_id) is not None:
        raise TableExists(channel_id)
    await db.run(
        "INSERT INTO tables (channel_id, guild_id, opener_id, max_seats, min_buy_in,"
        " max_buy_in, settings, opened_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            channel_id,
            guild_id,
            opener_id,
            max_seats,
            min_buy_in,
            max_buy_in,
            settings_json,
            ts(now),
        ),
    )
    opened = await table_row(db, channel_id)
    assert opened is not None
    return to_table(opened)


async def close_table(db: Connection, table: Row, now: datetime) -> dict[int, int]:
    """Cash every seat out and close the table; returns user id -> chips."""
    cashed_out: dict[int, int] = {}
    for seat in await db.all(
        "SELECT user_id FROM seats WHERE table_id = ? ORDER BY position", (table["id"],)
    ):
        user_id = int(seat["user_id"])
        cashed_out[user_id] = await cash_out(db, table, user_id, now, "table closed")
    await db.run("UPDATE tables SET closed_at = ? WHERE id = ?", (ts(now), table["id"]))
    return cashed_out


async def open_tables(db: Connection) -> list[TableRecord]:
    rows = await db.all("SELECT * FROM tables WHERE closed_at IS NULL ORDER BY id")
    return [to_table(row) for row in rows]


async def set_messages(db: Connection, messages: Mapping[int, int]) -> None:
    """Remember each open table's message (channel id -> message id)."""
    await db.run_many(
        "UPDATE tables SET message_id = ? WHERE channel_id = ? AND closed_at IS NULL",
        [(message_id, channel_id) for channel_id, message_id in messages.items()],
    )


async def set_settings(db: Connection, table: Row, settings: Mapping[str, Any]) -> None:
    await db.run(
        "UPDATE tables SET settings = ? WHERE id = ?",
        # allow_nan=False: strict JSON, so any tool can read it back.
        (json.dumps(dict(settings), separators=(",", ":"), allow_nan=False), table["id"]),
    )


async def live_hand(db: Connection, table_id: int) -> int | None:
    """The table's hand in progress, if any. (Hands are ``hands.py``'s, which builds on this
    module; seating reads them to keep a table and its seats while a hand is played.)"""
    found = await one(
        db, "SELECT id FROM hands WHERE table_id = ? AND ended_at IS NULL", (table_id,)
    )
    return None if found is None else int(found["id"])


async def dealt_in(db: Connection, hand_id: int, user_id: int) -> bool:
    """Whether the player's chips are in the hand."""
    return (
        await one(
            db, "SELECT 1 FROM hand_seats WHERE hand_id = ? AND user_id = ?", (hand_id, user_id)
        )
        is not None
    )


async def require_seat(db: Connection, table: Row, user_id: int) -> Row:
    """The player's seat at the table; ``NotSeated``."""
    found = await one(
        db, "SELECT * FROM seats WHERE table_id = ? AND user_id = ?", (table["id"], user_id)
    )
    if found is None:
        raise NotSeated(table["channel_id"], user_id)
    return found


async def free_position(db: Connection, table: Row, user_id: int, buy_in: int) -> int:
    """Where the player may sit with ``buy_in`` chips: the lowest free position.
    ``BuyInOutOfRange``, ``AlreadySeated``, ``TableFull``."""
    if table["tournament_id"] is not None:
        raise AuditFailed(f"table {table['id']} is a tournament's: no wallet buys into it")
    if not table["min_buy_in"] <= buy_in <= table["max_buy_in"]:
        raise BuyInOutOfRange(buy_in, table["min_buy_in"], table["max_buy_in"])
    taken = {
        int(seat["position"]): int(seat["user_id"])
        for seat in await db.all(
            "SELECT position, user_id FROM seats WHERE table_id = ?", (table["id"],)
        )
    }
    if user_id in taken.values():
        raise AlreadySeated(table["channel_id"], user_id)
    free = [p for p in range(table["max_seats"]) if p not in taken]
    if not free:
        raise TableFull(table["max_seats"])
    return free[0]


async def add_seat(
    db: Connection, table: Row, user_id: int, position: int, buy_in: int, now: datetime
) -> None:
    """Seat the player with ``buy_in`` chips his wallet gave (``wallets.to_seat``)."""
    await db.run(
        "INSERT INTO seats (table_id, user_id, position, stack, seated_at) VALUES (?, ?, ?, ?, ?)",
        (table["id"], user_id, position, buy_in, ts(now)),
    )
    await log(
        db,
        now,
        Move(
            table["guild_id"],
            user_id,
            "buy_in",
            reason=f"sat down in channel {table['channel_id']}",
            wallet_delta=-buy_in,
            seat_delta=buy_in,
            table_id=table["id"],
        ),
    )


async def cash_out(db: Connection, table: Row, user_id: int, now: datetime, reason: str) -> int:
    """Move a seat's stack to the wallet and free the seat; returns the chips moved."""
    if table["tournament_id"] is not None:
        raise AuditFailed(f"table {table['id']} is a tournament's: its chips never go to a wallet")
    rows = await db.all(
        "DELETE FROM seats WHERE table_id = ? AND user_id = ? RETURNING stack",
        (table["id"], user_id),
    )
    if not rows:
        raise NotSeated(table["channel_id"], user_id)
    stack = int(rows[0]["stack"])
    await wallets.from_seat(db, table["guild_id"], user_id, stack)
    if stack:
        await log(
            db,
            now,
            Move(
                table["guild_id"],
                user_id,
                "cash_out",
                reason=f"{reason} in channel {table['channel_id']}",
                wallet_delta=stack,
                seat_delta=-stack,
                table_id=table["id"],
            ),
        )
        if house.is_bot(user_id):
            # A computer player's chips are the house's: they go straight back.
            await house.give_back(
                db, table["guild_id"], user_id, now, f"{reason} in channel {table['channel_id']}"
            )
    return stack


async def cash_out_leaving(db: Connection, table: Row, now: datetime) -> dict[int, int]:
    """Cash out the seats marked leaving (a hand just ended); returns user id -> chips."""
    cashed_out: dict[int, int] = {}
    for seat in await db.all(
        "SELECT user_id FROM seats WHERE table_id = ? AND leaving = 1 ORDER BY position",
        (table["id"],),
    ):
        user_id = int(seat["user_id"])
        cashed_out[user_id] = await cash_out(db, table, user_id, now, "left the table")
    return cashed_out


async def seats(db: Connection, channel_id: int) -> list[Seat]:
    """The open table's seats by position (none when there is no table)."""
    rows = await db.all(
        "SELECT seats.* FROM seats JOIN tables ON tables.id = seats.table_id"
        " WHERE tables.channel_id = ? AND tables.closed_at IS NULL ORDER BY position",
        (channel_id,),
    )
    return [to_seat(channel_id, row) for row in rows]


async def set_flag(db: Connection, table: Row, user_id: int, column: str, on: bool) -> Row:
    """Set a seat's ``sitting_out`` or ``leaving``; returns the seat's row. ``NotSeated``."""
    assert column in ("sitting_out", "leaving")
    await require_seat(db, table, user_id)
    await db.run(
        f"UPDATE seats SET {column} = ? WHERE table_id = ? AND user_id = ?",
        (int(on), table["id"], user_id),
    )
    return await require_seat(db, table, user_id)


async def set_time_banks(db: Connection, table: Row, banks: Mapping[int, float]) -> None:
    await db.run_many(
        "UPDATE seats SET time_bank = ? WHERE table_id = ? AND user_id = ?",
        [(seconds, table["id"], user_id) for user_id, seconds in banks.items()],
    )


async def take_stacks(db: Connection, table: Row, players: Sequence[tuple[int, int]]) -> None:
    """Empty the seats of a hand being dealt: each ``(user_id, stack)`` must be that seat's
    stack (``SeatsChanged``); the hand holds them until it ends (``return_stacks``)."""
    seated = {
        int(seat["user_id"]): int(seat["stack"])
        for seat in await db.all(
            "SELECT user_id, stack FROM seats WHERE table_id = ?", (table["id"],)
        )
    }
    for user_id, stack in players:
        if seated.get(user_id) != stack:
            raise SeatsChanged(user_id)
    moved = await db.run_many(
        "UPDATE seats SET stack = 0 WHERE table_id = ? AND user_id = ? AND stack = ?",
        [(table["id"], user_id, stack) for user_id, stack in players],
    )
    if moved != len(players):
        raise AuditFailed(f"seats at table {table['id']} changed inside a transaction")


async def return_stacks(
    db: Connection, table: Row, hand_id: int, stacks: Sequence[tuple[int, int]]
) -> None:
    """Put each ``(user_id, final stack)`` of an ended hand back on his seat."""
    returned = await db.run_many(
        "UPDATE seats SET stack = stack + ? WHERE table_id = ? AND user_id = ?",
        [(final, table["id"], user_id) for user_id, final in stacks],
    )
    if returned != len(stacks):
        raise AuditFailed(f"hand #{hand_id}: a player has no seat to return to")


def to_table(row: Row) -> TableRecord:
    return TableRecord(
        channel_id=int(row["channel_id"]),
        guild_id=int(row["guild_id"]),
        opener_id=int(row["opener_id"]),
        max_seats=int(row["max_seats"]),
        min_buy_in=int(row["min_buy_in"]),
        max_buy_in=int(row["max_buy_in"]),
        settings=json.loads(row["settings"]),
        opened_at=required_ts(row["opened_at"]),
        message_id=None if row["message_id"] is None else int(row["message_id"]),
    )


def to_seat(channel_id: int, row: Row) -> Seat:
    return Seat(
        channel_id=channel_id,
        user_id=int(row["user_id"]),
        position=int(row["position"]),
        stack=int(row["stack"]),
        sitting_out=bool(row["sitting_out"]),
        leaving=bool(row["leaving"]),
        time_bank=None if row["time_bank"] is None else float(row["time_bank"]),
    )


class SeatRecords:
    """``store.seating``: a channel's table, and the seats of its players and of the computer
    players the house stakes."""

    def __init__(self, backend: Backend, settings: Economy, guilds: Guilds) -> None:
        self._backend = backend
        self._settings = settings
        self._guilds = guilds  # the server of each channel: its writes lock that server only

    async def open(
        self,
        channel_id: int,
        guild_id: int,
        opener_id: int,
        *,
        max_seats: int,
        min_buy_in: int,
        max_buy_in: int,
        settings: Mapping[str, Any] | None = None,
    ) -> TableRecord:
        """Open the channel's table. ``settings`` (stakes, turn time, ...) is stored as JSON.

        ``TableExists`` if the channel has one; ``InvalidTableConfig`` for seats outside 2..8 or
        buy-in limits that aren't ``1 <= min_buy_in <= max_buy_in <= MAX_AMOUNT``."""
        check_config(max_seats, min_buy_in, max_buy_in)
        settings_json = encode_settings(settings)
        now = utcnow()
        async with self._backend.write(guild_id) as db:
            return await open_table(
                db,
                channel_id,
                guild_id,
                opener_id,
                max_seats=max_seats,
                min_buy_in=min_buy_in,
                max_buy_in=max_buy_in,
                settings_json=settings_json,
                now=now,
            )

    async def close(self, channel_id: int) -> dict[int, int]:
        """Close the table between hands, cashing every seat out; returns user id -> chips.
        ``NoTable``; ``HandInProgress`` while a hand is live."""
        now = utcnow()
        async with self._backend.write(await self._guilds.of_channel(channel_id)) as db:
            table = await require_table(db, channel_id)
            if await live_hand(db, table["id"]) is not None:
                raise HandInProgress(channel_id)
            return await close_table(db, table, now)

    async def table(self, channel_id: int) -> TableRecord | None:
        """The channel's open table."""
        async with self._backend.read() as db:
            row = await table_row(db, channel_id)
        return None if row is None else to_table(row)

    async def tables(self) -> list[TableRecord]:
        """Every open table (for startup)."""
        async with self._backend.read() as db:
            return await open_tables(db)

    async def set_messages(self, messages: Mapping[int, int]) -> None:
        """Remember the message that shows each open table: ``messages`` maps a channel id to
        its message id. The channels may be several servers': each update is a statement of its
        own, waiting for no server's writers (no write reads a message id to decide)."""
        async with self._backend.single() as db:
            await set_messages(db, messages)

    async def sit(self, channel_id: int, user_id: int, buy_in: int) -> Seat:
        """Move ``buy_in`` chips from the wallet to a new seat (the lowest free position).

        ``NoTable``, ``InvalidAmount``, ``BuyInOutOfRange``, ``AlreadySeated``, ``TableFull``,
        ``NotEnoughChips``.
        """
        check_amount(buy_in)
        now = utcnow()
        async with self._backend.write(await self._guilds.of_channel(channel_id)) as db:
            table = await require_table(db, channel_id)
            position = await free_position(db, table, user_id, buy_in)
            guild_id = table["guild_id"]
            await wallets.ensure(db, guild_id, user_id, now, self._settings.starting_balance)
            await wallets.to_seat(db, guild_id, user_id, buy_in)
            await add_seat(db, table, user_id, position, buy_in, now)
        return Seat(channel_id, user_id, position, buy_in, sitting_out=False, leaving=False)

    async def leave(self, channel_id: int, user_id: int) -> int:
        """Cash the seat out to the wallet and free it; returns the chips moved.

        ``NoTable``, ``NotSeated``; ``PlayerInHand`` while his chips are in the live hand (mark
        him with ``set_leaving`` instead: the hand's end cashes him out)."""
        now = utcnow()
        async with self._backend.write(await self._guilds.of_channel(channel_id)) as db:
            table = await require_table(db, channel_id)
            await require_seat(db, table, user_id)
            hand_id = await live_hand(db, table["id"])
            if hand_id is not None and await dealt_in(db, hand_id, user_id):
                raise PlayerInHand(channel_id, user_id)
            return await cash_out(db, table, user_id, now, "left the table")

    async def seats(self, channel_id: int) -> list[Seat]:
        """The table's seats by position (empty list when there is no table)."""
        async with self._backend.read() as db:
            return await seats(db, channel_id)

    async def set_sitting_out(self, channel_id: int, user_id: int, sitting_out: bool) -> Seat:
        """``NoTable``, ``NotSeated``."""
        return await self._set_flag(channel_id, user_id, "sitting_out", sitting_out)

    async def set_leaving(self, channel_id: int, user_id: int, leaving: bool) -> Seat:
        """Ask to be cashed out when the current hand ends. ``NoTable``, ``NotSeated``."""
        return await self._set_flag(channel_id, user_id, "leaving", leaving)

    async def set_time_banks(self, channel_id: int, banks: Mapping[int, float]) -> None:
        """Remember the seconds left in seated players' time banks (user id -> seconds)."""
        if any(not 0 <= seconds < float("inf") for seconds in banks.values()):
            raise ValueError("a time bank holds zero or more seconds")
        async with self._backend.write(await self._guilds.of_channel(channel_id)) as db:
            table = await require_table(db, channel_id)
            await set_time_banks(db, table, banks)

    async def _set_flag(self, channel_id: int, user_id: int, column: str, on: bool) -> Seat:
        async with self._backend.write(await self._guilds.of_channel(channel_id)) as db:
            table = await require_table(db, channel_id)
            row = await set_flag(db, table, user_id, column, on)
        return to_seat(channel_id, row)

    async def seat_bot(self, channel_id: int, bot_id: int, buy_in: int) -> Seat:
        """Stake a computer player ``buy_in`` from the house and seat it (the lowest free
        position), in one transaction. ``HouseEmpty``, and what ``SeatRecords.sit`` raises."""
        check_amount(buy_in)
        if not house.is_bot(bot_id):
            raise ValueError(f"computer players have negative ids, not {bot_id}")
        now = utcnow()
        async with self._backend.write(await self._guilds.of_channel(channel_id)) as db:
            table = await require_table(db, channel_id)
            position = await free_position(db, table, bot_id, buy_in)
            guild_id = table["guild_id"]
            reason = f"staked a computer player in channel {channel_id}"
            await house.stake(db, guild_id, bot_id, buy_in, now, reason)
            await wallets.to_seat(db, guild_id, bot_id, buy_in)
            await add_seat(db, table, bot_id, position, buy_in, now)
        return Seat(channel_id, bot_id, position, buy_in, sitting_out=False, leaving=False)
