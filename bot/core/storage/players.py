"""Players: the name each goes by on a guild (as Discord last showed it) and his own preferences
(the four-colour deck, showing every hand at a showdown). Owns ``player_names`` and
``player_settings``; no chips. Every function runs inside a transaction its caller opened;
``PlayerRecords`` (``store.players``, at the end) opens them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import NamedTuple

from bot.core.storage.backend import Backend, Connection
from bot.core.storage.common import one, ts, utcnow

MAX_NAME = 100  # Discord names are at most 32 characters; the schema allows some room


def check_name(name: str) -> None:
    if not 1 <= len(name) <= MAX_NAME:
        raise ValueError(f"a name is 1..{MAX_NAME} characters, not {len(name)}")


async def save_name(db: Connection, guild_id: int, user_id: int, name: str, now: datetime) -> None:
    await db.run(
        "INSERT INTO player_names (guild_id, user_id, name, seen_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE"
        " SET name = excluded.name, seen_at = excluded.seen_at",
        (guild_id, user_id, name, ts(now)),
    )


async def names(db: Connection, guild_id: int, wanted: Sequence[int]) -> dict[int, str]:
    """The saved names of those of ``wanted`` (at least one) seen on the guild."""
    marks = ", ".join("?" * len(wanted))
    rows = await db.all(
        f"SELECT user_id, name FROM player_names WHERE guild_id = ? AND user_id IN ({marks})",
        (guild_id, *wanted),
    )
    return {int(row["user_id"]): str(row["name"]) for row in rows}


async def four_colour(db: Connection, user_id: int) -> bool:
    found = await one(db, "SELECT four_colour FROM player_settings WHERE user_id = ?", (user_id,))
    return found is not None and bool(found["four_colour"])


async def set_four_colour(db: Connection, user_id: int, four_colour: bool) -> None:
    await db.run(
        "INSERT INTO player_settings (user_id, four_colour) VALUES (?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET four_colour = excluded.four_colour",
        (user_id, int(four_colour)),
    )


class Preferences(NamedTuple):
    """A player's own choices; a player who never chose has the defaults."""

    four_colour: bool = False
    always_show: bool = False  # show his hand at every showdown, even a losing one (RULES 5.6)


async def preferences(db: Connection, user_id: int) -> Preferences:
    found = await one(
        db, "SELECT four_colour, always_show FROM player_settings WHERE user_id = ?", (user_id,)
    )
    if found is None:
        return Preferences()
    return Preferences(bool(found["four_colour"]), bool(found["always_show"]))


async def set_always_show(db: Connection, user_id: int, always_show: bool) -> None:
    await db.run(
        "INSERT INTO player_settings (user_id, four_colour, always_show) VALUES (?, 0, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET always_show = excluded.always_show",
        (user_id, int(always_show)),
    )


class PlayerRecords:
    """``store.players``: the names players go by, and their own display preferences. A
    player's preferences are his own on every server: each is one upsert of his row, atomic on
    both databases, with nothing read to decide it, so it waits for no server's writers."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend

    async def save_name(self, guild_id: int, user_id: int, name: str) -> None:
        """Remember the name ``user_id`` goes by on ``guild_id`` (as Discord last showed it)."""
        check_name(name)
        async with self._backend.write(guild_id) as db:
            await save_name(db, guild_id, user_id, name, utcnow())

    async def names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
        """The saved names of those of ``user_ids`` the bot has seen on ``guild_id``."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        async with self._backend.read() as db:
            return await names(db, guild_id, wanted)

    async def four_colour(self, user_id: int) -> bool:
        """Whether the user chose the four-colour deck for his own pictures (default: no)."""
        async with self._backend.read() as db:
            return await four_colour(db, user_id)

    async def set_four_colour(self, user_id: int, four_colour: bool) -> None:
        async with self._backend.single() as db:
            await set_four_colour(db, user_id, four_colour)

    async def preferences(self, user_id: int) -> Preferences:
        """The user's deck and whether he shows every hand at a showdown (RULES 5.6)."""
        async with self._backend.read() as db:
            return await preferences(db, user_id)

    async def set_always_show(self, user_id: int, always_show: bool) -> None:
        async with self._backend.single() as db:
            await set_always_show(db, user_id, always_show)
