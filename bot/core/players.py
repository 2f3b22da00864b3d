"""Players as the bot knows them: the names they go by on each server and their own settings.

The bot has no member cache to ask later, so a name is saved whenever a player uses the bot
and it changed (histories, restarted tables and the leaderboard name players by it). What the
store holds is remembered, so a name or a deck is read once and written only on a change.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from bot.core.open_tables import OpenTables
from bot.core.storage import Store
from bot.core.table import Table

log = logging.getLogger(__name__)


class Players:
    def __init__(self, store: Store, open_tables: OpenTables) -> None:
        self._store = store
        self._open_tables = open_tables
        self._saved_names: dict[tuple[int, int], str] = {}
        self._decks: dict[int, bool] = {}
        self._showing: dict[int, bool] = {}

    async def seen(self, guild_id: int, user_id: int, name: str) -> None:
        """A player went by ``name`` on ``guild_id`` (he sat, acted or ran a command): the
        tables he plays at show it, and it is saved, when it changed."""
        for table in self._open_tables.in_guild(guild_id):
            if user_id in table.names:
                table.names[user_id] = name
        key = (guild_id, user_id)
        if self._saved_names.get(key) != name:
            await self._store.players.save_name(guild_id, user_id, name)
            self._saved_names[key] = name

    async def remember(self, guild_id: int, user_id: int, name: str) -> None:
        """:meth:`seen`, where a name that can't be saved is only logged: worth keeping, not
        worth failing the player's command or action for."""
        try:
            await self.seen(guild_id, user_id, name)
        except Exception:
            log.warning("could not save a player's name", exc_info=True)

    async def load_names(self, table: Table, user_ids: Iterable[int]) -> None:
        """The names the store has for players of ``table`` (a restart's)."""
        saved = await self._store.players.names(table.guild_id, user_ids)
        table.names.update(saved)
        self._saved_names.update(((table.guild_id, user), name) for user, name in saved.items())

    async def four_colour(self, user_id: int) -> bool:
        """Whether the player's own pictures (DMs, My cards) use the four-colour deck. His
        other choices are read with it (sitting down and a restart ask for it)."""
        if user_id not in self._decks:
            chosen = await self._store.players.preferences(user_id)
            self._decks[user_id] = chosen.four_colour
            self._showing[user_id] = chosen.always_show
        return self._decks[user_id]

    async def always_show(self, user_id: int) -> bool:
        """Whether the player shows every hand at a showdown, even a losing one (RULES 5.6)."""
        await self.four_colour(user_id)
        return self._showing[user_id]

    async def set_always_show(self, user_id: int, always_show: bool) -> None:
        await self.four_colour(user_id)
        await self._store.players.set_always_show(user_id, always_show)
        self._showing[user_id] = always_show

    def shows(self, user_id: int) -> bool:
        """:meth:`always_show` for a player whose choices were read already (every seated one),
        mucking for any other."""
        return self._showing.get(user_id, False)

    async def set_four_colour(self, user_id: int, four_colour: bool) -> None:
        await self.four_colour(user_id)
        await self._store.players.set_four_colour(user_id, four_colour)
        self._decks[user_id] = four_colour

    def deck(self, user_id: int) -> bool:
        """:meth:`four_colour` for a player whose choice was read already (every seated one:
        sitting down and a restart read it), two colours for any other."""
        return self._decks.get(user_id, False)
