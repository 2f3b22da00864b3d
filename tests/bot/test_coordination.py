"""The store's shared live state, on both databases: closed DMs, invalid requests
counted by every process, IDENTIFY turns and the gateway sessions of a day."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.storage import Store


async def test_closed_dms_are_kept_until_their_back_off_ends_and_forgotten_once_open(
    store: Store,
) -> None:
    c = store.coordination
    await c.close_dms(1, 100.0, 1000.0)
    await c.close_dms(2, 100.0, 200.0)
    assert await c.dms_closed(since=150.0) == {1: (100.0, 1000.0), 2: (100.0, 200.0)}
    assert await c.dms_closed(since=500.0) == {1: (100.0, 1000.0)}
    await c.retry_dms_at(1, 300.0)
    assert await c.dms_closed(since=350.0) == {}
    await c.close_dms(1, 400.0, 900.0)  # refused again: the new refusal counts
    assert await c.dms_closed(since=0.0) == {1: (400.0, 900.0), 2: (100.0, 200.0)}
    await c.dms_open(1)
    assert await c.dms_closed(since=0.0) == {2: (100.0, 200.0)}


async def test_invalid_requests_add_up_across_writers_and_old_minutes_go(store: Store) -> None:
    c = store.coordination
    await asyncio.gather(c.add_invalid([(1000, 3), (1001, 4)]), c.add_invalid([(1001, 5)]))
    assert await c.invalid_since(1000) == 12
    assert await c.invalid_since(1001) == 9
    await c.add_invalid([(1100, 1)])  # minutes older than the window are pruned
    assert await c.invalid_since(0) == 1


async def test_gateway_starts_are_counted_per_day(store: Store) -> None:
    c = store.coordination
    assert await c.count_start("2026-12-01", 4) == 4
    assert await c.count_start("2026-12-01", 2) == 6
    assert await c.count_start("2026-12-02", 1) == 1


async def test_identify_turns_are_spaced_per_bucket_on_the_servers_clock(store: Store) -> None:
    c = store.coordination
    if not c.shared:
        pytest.skip("IDENTIFY is coordinated in the database on PostgreSQL only (SQLite: a file)")
    waits = await asyncio.gather(*(c.book_identify(0, 5.0) for _ in range(3)))
    assert sorted(round(w) for w in waits) == [0, 5, 10]
    assert await c.book_identify(1, 5.0) == pytest.approx(0, abs=0.5)  # another bucket


async def test_process_starts_are_counted_per_shard_range_within_a_time(store: Store) -> None:
    c = store.coordination
    for shards, at in (("0-3", 1000.0), ("0-3", 1010.0), ("4-7", 1010.0), ("0-3", 1020.0)):
        await c.record_process_start(shards, at)
    assert await c.process_starts(since=0.0) == {"0-3": 3, "4-7": 1}
    assert await c.process_starts(since=1005.0) == {"0-3": 2, "4-7": 1}  # 1010 and 1020
    assert await c.clear_process_starts("4-7") == 1
    assert await c.process_starts(since=0.0) == {"0-3": 3}
    await c.record_process_start("4-7", 100_000.0)  # a day later: the old ones are pruned
    assert await c.process_starts(since=0.0) == {"4-7": 1}
    await c.record_process_start("0-3", 100_001.0)
    assert await c.clear_process_starts() == 2
    assert await c.process_starts(since=0.0) == {}
