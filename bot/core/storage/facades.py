"""The store's facades, one per domain (``store.wallets``, ``store.seating``, ``store.hands``,
``store.players``, ``store.reports``): each method is one transaction of the kind its work
needs (``backend.py``), calling the domain modules' functions on that transaction's connection.

Methods raise a ``StoreError`` subclass (readable ``str()``) for anything a player can get
wrong, and then nothing has changed. Times are timezone-aware UTC datetimes. Arguments are
checked before a transaction starts, so a bad one costs no round trip.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Protocol

from bot.core.storage import players, wallets
from bot.core.storage.backend import Backend
from bot.core.storage.common import aware, check_amount, utcnow
from bot.core.storage.models import (
    ChipsTaken,
    DailyClaim,
    Season,
    SeasonReset,
    Wallet,
)


class Settings(Protocol):
    """The store's economy, read when each call runs (``Store`` has them)."""

    starting_balance: int
    daily_amount: int
    daily_cooldown: timedelta


class Wallets:
    """``store.wallets``: a player's chips in a guild, the daily grant, admins' grants and
    takes, and the guild's seasons."""

    def __init__(self, backend: Backend, settings: Settings) -> None:
        self._backend = backend
        self._settings = settings

    async def get(self, guild_id: int, user_id: int) -> Wallet:
        """The player's wallet, created on first use with the starting balance (a ledger grant)."""
        now = utcnow()
        async with self._backend.write() as db:
            await wallets.ensure(db, guild_id, user_id, now, self._settings.starting_balance)
            row = await wallets.row(db, guild_id, user_id)
        return wallets.to_wallet(row, now, self._settings.daily_cooldown)

    async def balance(self, guild_id: int, user_id: int) -> int:
        """Chips in the wallet (not counting seats); creates the wallet like ``get()``."""
        return (await self.get(guild_id, user_id)).balance

    async def claim_daily(
        self, guild_id: int, user_id: int, now: datetime | None = None
    ) -> DailyClaim:
        """Add the daily grant; ``DailyNotReady`` inside the cooldown.

        A claim made within :data:`wallets.STREAK_GRACE` of the moment it became possible
        continues the streak of days in a row; a later one starts it again at 1.
        """
        now = aware(now)
        async with self._backend.write() as db:
            await wallets.ensure(db, guild_id, user_id, now, self._settings.starting_balance)
            return await wallets.claim_daily(
                db,
                guild_id,
                user_id,
                now,
                amount=self._settings.daily_amount,
                cooldown=self._settings.daily_cooldown,
            )

    async def grant(self, guild_id: int, user_id: int, amount: int, *, reason: str, by: int) -> int:
        """An admin's grant of ``amount`` (1..MAX_AMOUNT) chips; returns the new balance."""
        check_amount(amount)
        now = utcnow()
        async with self._backend.write() as db:
            await wallets.ensure(db, guild_id, user_id, now, self._settings.starting_balance)
            return await wallets.grant(db, guild_id, user_id, amount, reason=reason, by=by, now=now)

    async def take(
        self, guild_id: int, user_id: int, amount: int, *, reason: str, by: int
    ) -> ChipsTaken:
        """An admin takes up to ``amount`` (1..MAX_AMOUNT) chips out of the wallet, all it has
        if that is less, burning them (a logged ``admin_take``); what the player has at tables
        is never touched. ``NothingToTake`` for an empty wallet."""
        check_amount(amount)
        now = utcnow()
        async with self._backend.write() as db:
            await wallets.ensure(db, guild_id, user_id, now, self._settings.starting_balance)
            return await wallets.take(db, guild_id, user_id, amount, reason=reason, by=by, now=now)

    async def season(self, guild_id: int) -> Season:
        """The guild's current season (the first until ``reset_season``)."""
        async with self._backend.read() as db:
            return await wallets.season(db, guild_id)

    async def reset_season(
        self, guild_id: int, *, by: int, now: datetime | None = None
    ) -> SeasonReset:
        """Start the guild's next season: every wallet of the guild back to the starting chips
        (the difference logged as a ``season_reset``, minted or burned), chips at tables
        untouched. Stats and leaderboards count from zero in the new season; the old one's stay
        under its number."""
        now = aware(now)
        async with self._backend.write() as db:
            return await wallets.reset_season(
                db, guild_id, by=by, now=now, starting_balance=self._settings.starting_balance
            )


class Players:
    """``store.players``: the names players go by, and their own display preferences."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend

    async def save_name(self, guild_id: int, user_id: int, name: str) -> None:
        """Remember the name ``user_id`` goes by on ``guild_id`` (as Discord last showed it)."""
        players.check_name(name)
        async with self._backend.write() as db:
            await players.save_name(db, guild_id, user_id, name, utcnow())

    async def names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
        """The saved names of those of ``user_ids`` the bot has seen on ``guild_id``."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        async with self._backend.read() as db:
            return await players.names(db, guild_id, wanted)

    async def four_colour(self, user_id: int) -> bool:
        """Whether the user chose the four-colour deck for his own pictures (default: no)."""
        async with self._backend.read() as db:
            return await players.four_colour(db, user_id)

    async def set_four_colour(self, user_id: int, four_colour: bool) -> None:
        async with self._backend.write() as db:
            await players.set_four_colour(db, user_id, four_colour)
