"""Players: the name each goes by on a guild (as Discord last showed it) and his own preferences
(the four-colour deck, showing every hand at a showdown). Owns ``player_names`` and
``player_settings``; no chips. Every function runs inside a transaction its caller opened."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

from bot.core.storage.backend import Connection
from bot.core.storage.common import one, ts

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
