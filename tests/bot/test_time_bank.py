"""The time bank: drawn on once a turn runs out, refilled per hand, saved."""

from __future__ import annotations

from bot.core.config import TableConfig
from bot.core.errors import TableError
from bot.core.house import House
from bot.core.storage import Store
from bot.core.table import Table
from bot.core.turns import TIME_BANK_REFILL
from engine.stakes import DEFAULT_STAKES
from tests.bot.fakes import CHANNEL, GUILD, TURN, ManualClock, Screen, screened

BANK = 30


async def dealt(store: Store, clock: ManualClock, bank: int = BANK) -> tuple[House, Screen]:
    manager, screen = screened(store, clock)
    config = TableConfig(DEFAULT_STAKES, 8, 100, 1000, TURN, 0, time_bank=bank)
    await manager.seating.open(GUILD, CHANNEL, 1, config)
    for user_id in (1, 2):
        await manager.seating.sit(CHANNEL, user_id, f"p{user_id}", 500)
    await clock.advance(0, manager)
    return manager, screen


def actor(table: Table) -> int:
    user_id = table.actor_id()
    assert user_id is not None
    return user_id


async def saved_banks(store: Store) -> dict[int, float | None]:
    return {seat.user_id: seat.time_bank for seat in await store.seating.seats(CHANNEL)}


async def test_the_bank_runs_once_the_turn_is_over_then_rules_6_act(store: Store) -> None:
    clock = ManualClock()
    manager, screen = await dealt(store, clock)
    table = manager.seating.get(CHANNEL)
    assert table.live is not None
    first = actor(table)
    pictures = screen.pictures
    await clock.advance(TURN, manager)
    assert not table.live.hand.timed_out, "his bank runs first"
    assert table.live.banking_since is not None and table.actor_id() == first
    assert f"<@{first}>, your turn is over: your time bank is running (30 s)." in screen.lines
    assert first in screen.pings and screen.pictures > pictures, "the picture shows the bank"
    await clock.advance(BANK - 1, manager)
    assert not table.live.hand.timed_out
    await clock.advance(1, manager)
    assert table.live.hand.timed_out, "RULES 6.1 once the bank is empty too"
    assert table.bank(first) == 0
    assert (await saved_banks(store))[first] == 0


async def test_acting_on_the_bank_spends_what_was_used_and_each_hand_refills_it(
    store: Store,
) -> None:
    clock = ManualClock()
    manager, _ = await dealt(store, clock)
    table = manager.seating.get(CHANNEL)
    first = actor(table)
    await clock.advance(TURN + 12, manager)
    await manager.dealer.act(CHANNEL, first, "bring_in")
    assert table.bank(first) == BANK - 12
    assert (await saved_banks(store))[first] == BANK - 12
    # The next decision has a whole turn again, and no bank running.
    assert table.live is not None and table.live.banking_since is None
    while table.live is not None:
        await manager.dealer.act(CHANNEL, actor(table), "fold")
    await clock.advance(0, manager)  # the next hand is dealt: a few seconds come back
    assert table.bank(first) == BANK - 12 + TIME_BANK_REFILL
    assert (await saved_banks(store))[first] == BANK - 12 + TIME_BANK_REFILL
    other = 3 - first
    # Never past full: the other player's bank was never touched.
    assert table.bank(other) == BANK and (await saved_banks(store))[other] is None
    await manager.recovery.shutdown()


async def test_a_restart_keeps_what_is_left_of_each_bank(store: Store) -> None:
    clock = ManualClock()
    manager, _ = await dealt(store, clock)
    table = manager.seating.get(CHANNEL)
    first = actor(table)
    await clock.advance(TURN + 20, manager)
    await manager.dealer.act(CHANNEL, first, "bring_in")
    await manager.recovery.shutdown()
    restarted, _ = screened(store, clock)
    await restarted.recovery.restore()
    assert restarted.seating.get(CHANNEL).bank(first) == BANK - 20
    await restarted.recovery.shutdown()


async def test_a_paused_table_stops_the_bank_and_keeps_what_is_left(store: Store) -> None:
    clock = ManualClock()
    manager, _ = await dealt(store, clock)
    table = manager.seating.get(CHANNEL)
    first = actor(table)
    await clock.advance(TURN + 10, manager)
    manager.dealer.turns.pause(table, TableError("bot_lacks_permissions"))
    await clock.advance(0, manager)
    assert table.bank(first) == BANK - 10
    await clock.advance(BANK * 3, manager)
    assert table.live is not None and not table.live.hand.timed_out
    assert (await saved_banks(store))[first] == BANK - 10
    await manager.recovery.shutdown()


async def test_no_bank_means_the_turn_clock_alone(store: Store) -> None:
    clock = ManualClock()
    manager, screen = await dealt(store, clock, bank=0)
    table = manager.seating.get(CHANNEL)
    await clock.advance(TURN, manager)
    assert table.live is not None and table.live.hand.timed_out
    assert not any("time bank" in line for line in screen.lines)
    await manager.recovery.shutdown()
