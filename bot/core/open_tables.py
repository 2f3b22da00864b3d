"""Every open table this process runs, by channel and by server, each with its outbox."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator

from bot.core.clock import Clock
from bot.core.config import TableConfig
from bot.core.errors import TableError
from bot.core.games import Rotation
from bot.core.outbox import DeliveryReports, Outbox
from bot.core.showing import table_view
from bot.core.table import Table
from words import Texts


class OpenTables:
    def __init__(
        self,
        texts: Texts,
        clock: Clock,
        reports: DeliveryReports,
        wake: Callable[[Outbox], None],
    ) -> None:
        self._texts = texts
        self._clock = clock
        self._reports = reports
        self._wake = wake
        self._tables: dict[int, Table] = {}
        # The same tables by server, then channel: a player's new name is looked for in his
        # server's tables only, not in every table of every server the process runs.
        self._by_guild: dict[int, dict[int, Table]] = {}
        # Faces waiting for a table in a channel that has none (``opened``), by channel.
        self._awaited: dict[int, set[asyncio.Future[None]]] = {}

    def get(self, channel_id: int) -> Table:
        """The channel's open table; ``TableError`` if it has none."""
        table = self._tables.get(channel_id)
        if table is None or table.closed:
            raise TableError("no_table")
        return table

    def find(self, channel_id: int) -> Table | None:
        return self._tables.get(channel_id)

    async def opened(self, channel_id: int) -> None:
        """Wait until the channel has a table (no wait if it has one)."""
        if channel_id in self._tables:
            return
        waiter = asyncio.get_running_loop().create_future()
        waiters = self._awaited.setdefault(channel_id, set())
        waiters.add(waiter)
        try:
            await waiter
        finally:
            waiters.discard(waiter)
            if not waiters and self._awaited.get(channel_id) is waiters:
                del self._awaited[channel_id]

    def __contains__(self, channel_id: int) -> bool:
        return channel_id in self._tables

    def __iter__(self) -> Iterator[Table]:
        return iter(list(self._tables.values()))

    def in_guild(self, guild_id: int) -> Iterator[Table]:
        return iter(self._by_guild.get(guild_id, {}).values())

    def add(
        self,
        channel_id: int,
        guild_id: int,
        opener_id: int,
        config: TableConfig,
        rotation: Rotation,
    ) -> Table:
        """A new open table; its outbox shows it as it is whenever the edge takes a picture."""
        outbox = Outbox(
            channel_id,
            guild_id,
            texts=self._texts,
            lang=config.lang,
            view=lambda: table_view(table, self._texts, self._clock.now()),
            reports=self._reports,
            wake=self._wake,
        )
        table = Table(channel_id, guild_id, opener_id, config, outbox, rotation=rotation)
        self._tables[channel_id] = table
        self._by_guild.setdefault(guild_id, {})[channel_id] = table
        for waiter in self._awaited.pop(channel_id, set()):
            if not waiter.done():
                waiter.set_result(None)
        return table

    def remove(self, table: Table) -> None:
        """The table closed: it is no longer found; its outbox delivers its last words."""
        table.closed = True
        table.outbox.close()
        del self._tables[table.channel_id]
        in_guild = self._by_guild[table.guild_id]
        del in_guild[table.channel_id]
        if not in_guild:
            del self._by_guild[table.guild_id]
        table.outbox.wake()
