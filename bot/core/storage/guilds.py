"""Which server (guild) a write belongs to, for PostgreSQL's write lock per server
(``backend.write(guild)``).

A server's chips never leave it: its wallets, tables, seats, hands, house and tournaments are
all its own, so two servers' writes never check or change the same rows and need not wait for
each other. A call named by its channel, its hand or its tournament is mapped to its server
here; none of them ever changes server, so each answer is kept. SQLite has one writer whatever
the server: it is never asked.
"""

from __future__ import annotations

from typing import Final

from bot.core.storage.backend import Backend

KEPT: Final = 100_000  # answers kept: a few MB at most, every table of a big cluster


class Guilds:
    def __init__(self, backend: Backend) -> None:
        self._backend = backend
        self._by_channel: dict[int, int] = {}
        self._by_hand: dict[int, int] = {}
        self._by_tournament: dict[int, int] = {}

    async def of_channel(self, channel_id: int) -> int | None:
        """The channel's server, if it ever had a table (else None: the write waits for all)."""
        return await self._find(
            self._by_channel,
            channel_id,
            "SELECT guild_id FROM tables WHERE channel_id = ? LIMIT 1",
        )

    async def of_hand(self, hand_id: int) -> int | None:
        return await self._find(
            self._by_hand,
            hand_id,
            "SELECT t.guild_id FROM hands h JOIN tables t ON t.id = h.table_id WHERE h.id = ?",
        )

    async def of_tournament(self, tournament_id: int) -> int | None:
        return await self._find(
            self._by_tournament,
            tournament_id,
            "SELECT guild_id FROM tournaments WHERE id = ?",
        )

    async def _find(self, known: dict[int, int], key: int, sql: str) -> int | None:
        if self._backend.dialect != "postgresql":
            return None
        guild = known.get(key)
        if guild is None:
            async with self._backend.single() as db:
                rows = await db.all(sql, (key,))
            if not rows:
                return None
            guild = known[key] = int(rows[0]["guild_id"])
            if len(known) > KEPT:
                del known[next(iter(known))]
        return guild
