"""Which servers a process serves when the bot is sharded.

Discord sends each server's events on one gateway connection, its shard:
``(guild_id >> 22) % shard_count``. A process that runs some of the shards therefore sees the
interactions of those servers only, and its tables are the tables of those servers; the core is
told which ones through :meth:`Shards.owns` (no Discord needed to compute it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord puts a server on."""
    return (guild_id >> 22) % shard_count


def parse_shard_ids(text: str, shard_count: int) -> tuple[int, ...]:
    """``"0-3"``, ``"0,2,5-7"``: the shard ids named, in order; ``ValueError`` with a readable
    reason when one is malformed, repeated or not below ``shard_count``."""
    ids: list[int] = []
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        try:
            low = int(first)
            high = int(last) if dash else low
        except ValueError:
            raise ValueError(f"{part.strip()!r} is not a shard id or a range like 0-3") from None
        if low < 0 or high < low:
            raise ValueError(f"{part.strip()!r} is not a range of shard ids like 0-3")
        ids.extend(range(low, high + 1))
    if len(set(ids)) != len(ids):
        raise ValueError(f"{text!r} names a shard twice")
    if max(ids) >= shard_count:
        raise ValueError(
            f"shard {max(ids)} does not exist: {shard_count} shards are 0-{shard_count - 1}"
        )
    return tuple(ids)


def shard_ranges(ids: Iterable[int]) -> str:
    """The inverse of :func:`parse_shard_ids`: ``(0, 1, 2, 5)`` -> ``"0-2,5"``."""
    parts: list[str] = []
    run: list[int] = []
    for shard in [*ids, None]:
        if run and (shard is None or shard != run[-1] + 1):
            parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
            run = []
        if shard is not None:
            run.append(shard)
    return ",".join(parts)


@dataclass(frozen=True, slots=True)
class Shards:
    """Shards ``ids`` of ``count``: the part of the bot one process runs."""

    ids: frozenset[int]
    count: int

    def owns(self, guild_id: int) -> bool:
        return shard_of(guild_id, self.count) in self.ids
