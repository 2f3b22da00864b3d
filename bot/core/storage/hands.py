"""Hands: for now the two questions seating asks about a table's hand in progress; the rest of
the hands' SQL (dealing, saving, ending, reading them) is still in ``store.py``.

Owns the ``hands`` and ``hand_seats`` tables. Every function runs inside a transaction its
caller opened.
"""

from __future__ import annotations

from bot.core.storage.backend import Connection
from bot.core.storage.common import one


async def live_id(db: Connection, table_id: int) -> int | None:
    """The table's hand in progress, if any."""
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
