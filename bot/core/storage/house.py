"""The house: a server's wallet that stakes its computer players.

The house wallet is user ``HOUSE`` (0) of the guild; admins fund it with an ``admin_grant`` and
empty it with an ``admin_take``, like any wallet. A computer player is a negative user id with a
wallet of its own that holds nothing between seats: sitting down, the house stakes it its buy-in
(``house_stake``); cashing out, what it had goes straight back to the house (``house_return``).
So a bot's winnings and losses move between players and the house through the ledger, like any
seat's, and no chip is created: each stake or return is a pair of rows whose ``minted`` add up
to zero (the audit checks every guild's). Owns no table of its own; the ledger rows of those two
kinds are its. ``HouseWallet`` (``store.house_wallet``, at the end) funds and empties it.
"""

from __future__ import annotations

from datetime import datetime

from bot.core.storage import wallets
from bot.core.storage.backend import Backend, Connection
from bot.core.storage.common import Move, check_amount, log, one, utcnow
from bot.core.storage.errors import HouseEmpty
from bot.core.storage.models import ChipsTaken, HouseReport

HOUSE = 0
# Eight per style (a table seats at most 8), three styles: the same ids sit at every table of a
# server, each with one wallet of its own (bot.core.computer_seats names them).
BOTS_PER_STYLE = 8
BOT_IDS = tuple(range(-1, -3 * BOTS_PER_STYLE - 1, -1))


def is_bot(user_id: int) -> bool:
    return user_id < HOUSE


def is_house_or_bot(user_id: int) -> bool:
    return user_id <= HOUSE


async def stake(
    db: Connection, guild_id: int, bot_id: int, amount: int, now: datetime, reason: str
) -> None:
    """Move ``amount`` from the house wallet to the bot's (``HouseEmpty`` if it hasn't them)."""
    assert is_bot(bot_id)
    await wallets.ensure(db, guild_id, HOUSE, now, 0)
    await wallets.ensure(db, guild_id, bot_id, now, 0)
    moved = await db.run(
        "UPDATE wallets SET balance = balance - :amount, total = total - :amount"
        " WHERE guild_id = :guild AND user_id = :house AND balance >= :amount",
        {"amount": amount, "guild": guild_id, "house": HOUSE},
    )
    if moved != 1:
        house = await wallets.row(db, guild_id, HOUSE)
        raise HouseEmpty(needed=amount, available=int(house["balance"]))
    await _credit(db, guild_id, bot_id, amount)
    await log(
        db,
        now,
        Move(guild_id, HOUSE, "house_stake", reason, minted=-amount, wallet_delta=-amount),
        Move(guild_id, bot_id, "house_stake", reason, minted=amount, wallet_delta=amount),
    )


async def give_back(db: Connection, guild_id: int, bot_id: int, now: datetime, reason: str) -> int:
    """Move everything in the bot's wallet back to the house; returns the chips moved."""
    found = await one(
        db,
        "SELECT balance FROM wallets WHERE guild_id = ? AND user_id = ?",
        (guild_id, bot_id),
    )
    amount = 0 if found is None else int(found["balance"])
    if not amount:
        return 0
    await _credit(db, guild_id, bot_id, -amount)
    await wallets.ensure(db, guild_id, HOUSE, now, 0)
    await _credit(db, guild_id, HOUSE, amount)
    await log(
        db,
        now,
        Move(guild_id, bot_id, "house_return", reason, minted=-amount, wallet_delta=-amount),
        Move(guild_id, HOUSE, "house_return", reason, minted=amount, wallet_delta=amount),
    )
    return amount


async def _credit(db: Connection, guild_id: int, user_id: int, amount: int) -> None:
    await db.run(
        "UPDATE wallets SET balance = balance + :amount, total = total + :amount"
        " WHERE guild_id = :guild AND user_id = :user",
        {"amount": amount, "guild": guild_id, "user": user_id},
    )


async def report(db: Connection, guild_id: int) -> HouseReport:
    """The house's wallet, its bots' chips at tables, what admins put in and its result."""
    found = await one(
        db,
        "SELECT"
        " coalesce(sum(CASE WHEN user_id = :house THEN balance ELSE 0 END), 0) AS balance,"
        " coalesce(sum(seated), 0) AS at_tables"
        " FROM wallets WHERE guild_id = :guild AND user_id <= :house",
        {"guild": guild_id, "house": HOUSE},
    )
    funded = await one(
        db,
        "SELECT coalesce(sum(minted), 0) AS funded FROM ledger"
        " WHERE guild_id = ? AND user_id = ? AND kind IN ('admin_grant', 'admin_take')",
        (guild_id, HOUSE),
    )
    assert found is not None and funded is not None
    return HouseReport(int(found["balance"]), int(found["at_tables"]), int(funded["funded"]))


class HouseWallet:
    """``store.house_wallet``: a server's house wallet, funded and emptied by its admins.
    Seating a computer player it stakes is seating's (``store.seating.seat_bot``)."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend

    async def fund(self, guild_id: int, amount: int, *, by: int, reason: str = "") -> int:
        """An admin's grant to the house; returns its balance."""
        check_amount(amount)
        now = utcnow()
        async with self._backend.write(guild_id) as db:
            await wallets.ensure(db, guild_id, HOUSE, now, 0)
            return await wallets.grant(
                db, guild_id, HOUSE, amount, reason=reason or "house funded", by=by, now=now
            )

    async def empty(self, guild_id: int, amount: int, *, by: int, reason: str = "") -> ChipsTaken:
        """An admin takes up to ``amount`` out of the house wallet (what its computer players
        have at tables stays there). ``NothingToTake`` for an empty house."""
        check_amount(amount)
        now = utcnow()
        async with self._backend.write(guild_id) as db:
            await wallets.ensure(db, guild_id, HOUSE, now, 0)
            return await wallets.take(
                db, guild_id, HOUSE, amount, reason=reason or "house emptied", by=by, now=now
            )

    async def report(self, guild_id: int) -> HouseReport:
        async with self._backend.read() as db:
            return await report(db, guild_id)
