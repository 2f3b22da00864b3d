"""Shards: a table belongs to its server's shard, and a process restores only
the tables of the servers on its own shards, leaving every other process's tables as they are."""

from __future__ import annotations

import re

import pytest

from bot.core.config import TableConfig
from bot.core.house import House
from bot.core.settings import Settings, SettingsError, load_settings, with_shards
from bot.core.shards import Shards, parse_shard_ids, shard_of, shard_ranges
from bot.core.storage import Store
from engine.stakes import DEFAULT_STAKES
from tests.bot.fakes import TURN, ManualClock, Screen
from tests.databases import Location, raw
from tests.texts import TEXTS

# Servers on shards 0 and 1 of 2: Discord's shard is the id's timestamp bits, modulo the count.
GUILD_0, GUILD_1 = 6 << 22, 7 << 22
CHANNEL_0, CHANNEL_1 = 100, 101


def test_a_server_is_on_the_shard_of_its_id_timestamp() -> None:
    assert shard_of(GUILD_0, 2) == 0 and shard_of(GUILD_1, 2) == 1
    # The low 22 bits (worker, process, increment) never move a server to another shard.
    assert shard_of(GUILD_1 + (1 << 22) - 1, 2) == 1
    assert [shard_of(guild << 22, 4) for guild in range(8)] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert shard_of(175928847299117063, 1) == 0
    owned = Shards(frozenset({1, 3}), 4)
    assert [owned.owns(guild << 22) for guild in range(4)] == [False, True, False, True]


@pytest.mark.parametrize(
    ("text", "count", "ids"),
    [("0-3", 8, (0, 1, 2, 3)), ("5", 8, (5,)), ("0, 2,4-5", 6, (0, 2, 4, 5)), ("7-7", 8, (7,))],
)
def test_shard_ids_are_read_as_ranges(text: str, count: int, ids: tuple[int, ...]) -> None:
    assert parse_shard_ids(text, count) == ids
    assert parse_shard_ids(shard_ranges(ids), count) == ids


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("0-8", "shard 8 does not exist: 8 shards are 0-7"),
        ("3-1", "'3-1' is not a range"),
        ("-1", "'-1' is not a shard id"),
        ("a", "'a' is not a shard id"),
        ("", "'' is not a shard id"),
        ("0-2,2", "'0-2,2' names a shard twice"),
    ],
)
def test_bad_shard_ids_say_why(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match="^" + re.escape(reason)):
        parse_shard_ids(text, 8)


def test_shard_ranges_names_runs() -> None:
    assert shard_ranges((0, 1, 2, 5, 7, 8)) == "0-2,5,7-8"
    assert shard_ranges((4,)) == "4"


def test_shard_settings_and_the_command_line() -> None:
    settings = load_settings({"DISCORD_TOKEN": "t", "SHARD_COUNT": "8", "SHARD_IDS": "0-3"}, None)
    assert (settings.shard_count, settings.shard_ids) == (8, (0, 1, 2, 3))
    assert settings.shards == Shards(frozenset({0, 1, 2, 3}), 8)
    # Without SHARD_IDS a process runs every shard: it owns every server.
    unsharded = load_settings({"DISCORD_TOKEN": "t", "SHARD_COUNT": "8"}, None)
    assert unsharded.shard_ids is None and unsharded.shards is None
    assert load_settings({"DISCORD_TOKEN": "t"}, None).shard_count is None
    # --shards and --shard-count win over the settings.
    moved = with_shards(settings, 16, "8-15")
    assert (moved.shard_count, moved.shard_ids) == (16, tuple(range(8, 16)))
    assert with_shards(settings, None, "4-7").shard_ids == (4, 5, 6, 7)
    with pytest.raises(SettingsError, match="SHARD_IDS names shard 3, but there are only 2"):
        with_shards(settings, 2, None)
    with pytest.raises(SettingsError, match="shards named without their count"):
        with_shards(Settings(token="t"), None, "0-1")


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"SHARD_IDS": "0-3"}, "shards named without their count: set SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be at least 1"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1-2"}, "SHARD_IDS (--shards): shard 2 does not"),
    ],
)
def test_bad_shard_settings_are_one_readable_line(environ: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError) as raised:
        load_settings({"DISCORD_TOKEN": "t", **environ}, None)
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value)


# ---------------------------------------------------------------------- restore by shard


def config() -> TableConfig:
    return TableConfig(DEFAULT_STAKES, 8, 100, 1000, TURN, 0, time_bank=0)


def process(store: Store, clock: ManualClock, shard: int) -> tuple[House, Screen]:
    """The tables of one of two processes, each running one shard of two."""
    screen = Screen()
    owns = Shards(frozenset({shard}), 2).owns
    return House(store, TEXTS, clock=clock, owns=owns, show=screen.wake), screen


async def mid_hand(manager: House, clock: ManualClock, guild: int, channel: int) -> int:
    await manager.seating.open(guild, channel, 1, config())
    for user_id in (1, 2):
        await manager.seating.sit(channel, user_id, f"p{user_id}", 500)
    await clock.advance(0, manager)
    live = manager.seating.get(channel).live
    assert live is not None
    return live.hand_id


async def test_a_restarted_process_restores_its_own_tables_and_never_touches_the_others(
    database: Location,
) -> None:
    clock = ManualClock()
    store = await Store.open(database)
    first, _ = process(store, clock, 0)
    second, screen = process(store, clock, 1)
    hand_0 = await mid_hand(first, clock, GUILD_0, CHANNEL_0)
    hand_1 = await mid_hand(second, clock, GUILD_1, CHANNEL_1)
    before = await store.hands.get(hand_1)
    lines = len(screen.lines)

    # The first process dies and comes back; the second plays on meanwhile.
    await first.recovery.shutdown()
    restarted, restarted_screen = process(store, clock, 0)
    assert await restarted.recovery.restore() == [hand_0]
    assert {table.channel_id for table in restarted.open_tables} == {CHANNEL_0}
    await clock.advance(0, restarted)
    assert any("restarted" in line for line in restarted_screen.lines)
    after = await store.hands.get(hand_1)
    assert (after.version, after.state) == (before.version, before.state)
    # The other process's table never paused or heard of the restart, and still plays.
    assert not any("restarted" in line for line in screen.lines[lines:])
    table = second.seating.get(CHANNEL_1)
    assert table.live is not None and table.live.hand_id == hand_1
    outcome = await second.dealer.act(CHANNEL_1, table.actor_id() or 0, "bring_in")
    assert (outcome.action, outcome.amount) == ("bring_in", 3)
    await store.audit()
    await restarted.recovery.shutdown()
    await second.recovery.shutdown()
    await store.close()


async def test_another_process_s_unreadable_table_is_left_for_it_to_close(
    database: Location,
) -> None:
    clock = ManualClock()
    store = await Store.open(database)
    first, _ = process(store, clock, 0)
    second, _ = process(store, clock, 1)
    await mid_hand(first, clock, GUILD_0, CHANNEL_0)
    await mid_hand(second, clock, GUILD_1, CHANNEL_1)
    await first.recovery.shutdown()
    await second.recovery.shutdown()
    async with raw(database) as other:
        await other.execute(f"UPDATE tables SET settings = '{{}}' WHERE channel_id = {CHANNEL_1}")

    restarted, _ = process(store, clock, 0)
    await restarted.recovery.restore()
    assert await store.seating.table(CHANNEL_1) is not None
    assert len(await store.hands.live()) == 2
    await restarted.recovery.shutdown()
    # Its own process closes it, every chip back in the wallets.
    owner, _ = process(store, clock, 1)
    await owner.recovery.restore()
    assert await store.seating.table(CHANNEL_1) is None
    assert (await store.wallets.get(GUILD_1, 1)).balance == 1000
    await store.audit()
    await owner.recovery.shutdown()
    await store.close()
