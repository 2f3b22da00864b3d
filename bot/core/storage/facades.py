"""The store's facades, one per domain (``store.wallets``, ``store.seating``, ``store.hands``,
``store.players``, ``store.reports``): each method is one transaction of the kind its work
needs (``backend.py``), calling the domain modules' functions on that transaction's connection.

Methods raise a ``StoreError`` subclass (readable ``str()``) for anything a player can get
wrong, and then nothing has changed. Times are timezone-aware UTC datetimes. Arguments are
checked before a transaction starts, so a bad one costs no round trip.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.core.storage import players
from bot.core.storage.backend import Backend
from bot.core.storage.common import utcnow


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
