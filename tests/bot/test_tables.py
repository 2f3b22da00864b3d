"""Table orchestration without Discord: locking, persistence, the fair clock, restart, outbox."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.errors import TableError
from bot.core.outbox import ClearButtons, Line, Private
from bot.core.storage import Store
from bot.core.tables import (
    SETTLE_RETRY_SECONDS,
    WARNING_SECONDS,
    LiveHand,
    TableConfig,
    TableManager,
    public_reveal,
)
from engine.cards import shuffled_deck
from engine.codec import encode
from engine.fairness import DeckCommitment, new_secret, verify
from engine.hand import StudHand
from engine.stakes import DEFAULT_STAKES
from tests.bot.fakes import CHANNEL, GUILD, TURN, ManualClock, Screen, seat_directly
from tests.databases import Location, raw


def config(turn: float = TURN, countdown: float = 0) -> TableConfig:
    """A table whose turn clock alone decides (time banks have tests of their own)."""
    return TableConfig(DEFAULT_STAKES, 8, 100, 1000, turn, countdown, time_bank=0)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


async def seated(
    store: Store, clock: ManualClock, players: int = 2, *, shown: bool = True, **kw: float
) -> tuple[TableManager, Screen]:
    """A table with ``players`` seated and its first hand dealt; ``shown=False``: Discord is
    down, nothing reaches the channel."""
    manager = TableManager(store, clock=clock)
    screen = Screen(manager, working=shown)
    await manager.open(GUILD, CHANNEL, 1, config(**kw))
    for user_id in range(1, players + 1):
        await manager.sit(CHANNEL, user_id, f"p{user_id}", 500)
    await clock.advance(0, manager)
    return manager, screen


async def delivered() -> None:
    """Let the screen's call_soon deliveries run."""
    for _ in range(3):
        await asyncio.sleep(0)


async def test_two_clicks_at_the_same_moment_apply_once(store: Store, clock: ManualClock) -> None:
    manager, _ = await seated(store, clock)
    table = manager.get(CHANNEL)
    assert table.live is not None
    actor = table.actor_id()
    assert actor is not None
    seq = table.live.seq
    results = await asyncio.gather(
        manager.act(CHANNEL, actor, "bring_in"),
        manager.act(CHANNEL, actor, "bring_in"),
        return_exceptions=True,
    )
    assert results.count(("bring_in", 3)) == 1
    (refusal,) = [r for r in results if isinstance(r, TableError)]
    assert refusal.key == "not_your_turn"
    record = await store.hands.get(table.live.hand_id)
    assert record.version == 1 and table.live.seq > seq
    await manager.shutdown()


async def test_a_failed_save_rolls_the_hand_back(
    store: Store, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager, _ = await seated(store, clock)
    table = manager.get(CHANNEL)
    assert table.live is not None
    before = table.live.hand.to_dict()

    async def fail(hand_id: int, state: object) -> int:
        raise OSError("disk full")

    monkeypatch.setattr(store.hands, "save_action", fail)
    with pytest.raises(OSError):
        await manager.act(CHANNEL, table.actor_id() or 0, "bring_in")
    assert table.live.hand.to_dict() == before
    await manager.shutdown()


async def test_the_commitment_goes_out_before_cards_and_matches_the_deck(
    store: Store, clock: ManualClock
) -> None:
    manager, screen = await seated(store, clock)
    table = manager.get(CHANNEL)
    assert table.live is not None
    await delivered()
    # The first thing the channel is told about the hand is its commitment; only then cards.
    commitment = next(
        i
        for i, e in enumerate(screen.effects)
        if isinstance(e, Line) and table.live.commitment in e.text
    )
    first_private = next(i for i, e in enumerate(screen.effects) if isinstance(e, Private))
    assert commitment < first_private
    hand, secret = table.live.hand, table.live.salt
    assert table.live.commitment == DeckCommitment(hand.deck, secret).digest
    reveal = public_reveal(hand, secret)
    assert verify(table.live.commitment, reveal)
    # Mid-hand, the public reveal shows only up cards: no down card, no secret.
    assert secret not in reveal
    for seat in range(len(table.live.users)):
        for card in hand.down_cards(seat):
            assert f"{card}:" not in reveal
    assert screen.private == [(table.live.hand_id, user) for user in table.live.users]
    await manager.shutdown()


async def test_timeouts_play_the_hand_out_and_sit_players_out(
    store: Store, clock: ManualClock
) -> None:
    """RULES 6.1 and 6.2."""
    manager, screen = await seated(store, clock)
    for _ in range(40):
        if screen.results:
            break
        await clock.advance(TURN, manager)
    assert screen.results, "the clock never finished the hand"
    table = manager.get(CHANNEL)
    assert table.live is None
    assert all(seat.sitting_out for seat in table.seats.values())
    assert sum("sits out" in line or "sitting out" in line for line in screen.lines) == 2
    await store.audit()
    await manager.shutdown()


async def test_the_warning_comes_before_the_end_of_a_turn(store: Store, clock: ManualClock) -> None:
    manager, screen = await seated(store, clock)
    table = manager.get(CHANNEL)
    actor = table.actor_id()
    await clock.advance(TURN - WARNING_SECONDS - 1, manager)
    assert screen.pings == []
    await clock.advance(1, manager)
    assert screen.pings == [actor]
    assert table.actor_id() == actor
    await clock.advance(WARNING_SECONDS, manager)
    assert table.actor_id() != actor
    await manager.shutdown()


async def test_nobody_times_out_while_the_table_cannot_be_shown(
    store: Store, clock: ManualClock
) -> None:
    """The turn clock starts when the actor's buttons are delivered: Discord's outage is not
    his time."""
    manager, screen = await seated(store, clock, shown=False)
    table = manager.get(CHANNEL)
    assert table.live is not None
    seq = table.live.seq
    await clock.advance(10 * TURN, manager)
    assert table.live.seq == seq and not table.live.hand.timed_out
    screen.start(table)
    assert table.live.deadline == clock.now() + TURN
    await clock.advance(TURN, manager)
    assert table.live.hand.timed_out, "once shown, the clock runs"
    await manager.shutdown()


async def test_a_paused_table_refuses_actions_with_the_reason_and_stops_the_clock(
    store: Store, clock: ManualClock
) -> None:
    manager, _ = await seated(store, clock)
    table = manager.get(CHANNEL)
    assert table.live is not None
    actor = table.actor_id() or 0
    seq = table.live.seq
    manager.pause(table, TableError("missing_bot_permissions", permissions="Send Messages"))
    with pytest.raises(TableError) as refused:
        await manager.act(CHANNEL, actor, "bring_in")
    assert "Send Messages" in refused.value.message("en")
    await clock.advance(5 * TURN, manager)
    assert table.live.seq == seq
    manager.resume(table)
    await delivered()
    assert await manager.act(CHANNEL, actor, "bring_in") == ("bring_in", 3)
    await manager.shutdown()


async def test_messages_posted_meanwhile_are_saved_together_newest_last(
    store: Store, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager, _ = await seated(store, clock)
    table = manager.get(CHANNEL)
    saved: list[dict[int, int]] = []
    real = store.seating.set_messages

    async def spy(messages: dict[int, int]) -> None:
        saved.append(dict(messages))
        await real(messages)

    monkeypatch.setattr(store.seating, "set_messages", spy)
    for message_id in (101, 102, 103):  # three streets posted before the first save ran
        manager.message_posted(table, message_id)
    await manager.shutdown()
    assert saved == [{CHANNEL: 103}]
    stored = await store.seating.table(CHANNEL)
    assert stored is not None and stored.message_id == 103


async def test_restore_continues_a_hand_from_the_database(store: Store, clock: ManualClock) -> None:
    manager, _ = await seated(store, clock, players=3)
    table = manager.get(CHANNEL)
    assert table.live is not None
    await manager.act(CHANNEL, table.actor_id() or 0, "bring_in")
    state = table.live.hand.to_dict()
    manager.message_posted(table, 4242)
    await manager.shutdown()

    fresh = TableManager(store, clock=clock)
    screen = Screen(fresh)
    assert await fresh.restore() == [table.live.hand_id]
    restored = fresh.get(CHANNEL)
    assert restored.live is not None and restored.live.hand.to_dict() == state
    await delivered()
    assert screen.private == []  # nothing is re-dealt on a restart
    assert any("restarted" in line for line in screen.lines)
    # The old message loses its buttons before anything else is shown.
    assert screen.cleared == [4242] and screen.effects[0] == ClearButtons(4242)
    while restored.live is not None:
        actor = restored.actor_id()
        legal = restored.live.hand.legal()
        await fresh.act(CHANNEL, actor or 0, "check" if legal.check else "call")
    await store.audit()
    await fresh.shutdown()


async def test_a_hand_over_when_dealt_settles_and_the_next_one_starts(
    store: Store, clock: ManualClock
) -> None:
    """RULES 2.4: heads-up, one player all in on the ante: no decision, straight to showdown."""
    manager, screen = await restored_with_stacks(store, clock, [124, 1])
    await clock.advance(0, manager)
    assert len(screen.results) == 1 and screen.results[0].hand.hand.is_over
    first = screen.results[0].end
    assert (await store.hands.get(first.hand_id)).outcome == "settled"
    table = manager.get(CHANNEL)
    if min(first.final_stacks.values()) > 0:
        assert table.live is not None and table.live.hand_id > first.hand_id
    else:
        assert table.live is None and len(table.seats) == 1
    await store.audit()
    await manager.shutdown()


async def restored_with_stacks(
    store: Store, clock: ManualClock, stacks: list[int], ante: int = 1
) -> tuple[TableManager, Screen]:
    """A table with ``stacks`` on its seats, loaded by ``restore`` as after a restart."""
    await seat_directly(store, stacks, ante)
    manager = TableManager(store, clock=clock)
    screen = Screen(manager)
    await manager.restore()
    return manager, screen


async def test_restore_settles_a_saved_hand_that_was_over_when_dealt(
    store: Store, clock: ManualClock
) -> None:
    """What a bot that crashed on such a hand left behind: restore settles it and plays on."""
    stakes = await seat_directly(store, [124, 1])
    hand = StudHand(stacks=[124, 1], stakes=stakes, deck=shuffled_deck(), dealer=1)
    assert hand.is_over
    salt = new_secret()
    hand_id = await store.hands.start(
        CHANNEL,
        [(1, 124), (2, 1)],
        encode(hand),
        commitment=DeckCommitment(tuple(hand.deck), salt).digest,
        salt=salt,
    )
    manager = TableManager(store, clock=clock)
    screen = Screen(manager)
    assert await manager.restore() == [hand_id]
    await clock.advance(0, manager)
    assert (await store.hands.get(hand_id)).outcome == "settled"
    assert screen.results and screen.results[0].hand.hand_id == hand_id
    await store.audit()
    await manager.shutdown()


async def test_an_over_when_dealt_hand_whose_settlement_fails_is_settled_later(
    store: Store, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    await seat_directly(store, [124, 1])
    real_settle = store.hands.settle
    failures = iter([OSError("disk full"), OSError("disk full")])

    async def flaky(*args: object, **kwargs: object) -> object:
        error = next(failures, None)
        if error is not None:
            raise error
        return await real_settle(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store.hands, "settle", flaky)
    manager = TableManager(store, clock=clock)
    screen = Screen(manager)
    await manager.restore()
    await clock.advance(0, manager)
    assert screen.results == [] and len(await store.hands.live()) == 1
    await clock.advance(sum(SETTLE_RETRY_SECONDS[:2]), manager)
    assert len(screen.results) >= 1
    await store.audit()
    await manager.shutdown()


async def two_tables_mid_hand(database: Location, clock: ManualClock) -> tuple[LiveHand, LiveHand]:
    """A database left with two tables, each in its first hand (channels CHANNEL, CHANNEL+1)."""
    store = await Store.open(database)
    manager = TableManager(store, clock=clock)
    Screen(manager)
    for channel in (CHANNEL, CHANNEL + 1):
        await manager.open(GUILD, channel, 1, config())
        for user_id in (1, 2):
            await manager.sit(channel, user_id, f"p{user_id}", 500)
    await clock.advance(0, manager)
    first, second = manager.get(CHANNEL).live, manager.get(CHANNEL + 1).live
    assert first is not None and second is not None
    await manager.shutdown()
    await store.close()
    return first, second


async def test_restore_voids_a_corrupt_hand_with_a_refund_and_resumes_the_others(
    database: Location, clock: ManualClock
) -> None:
    broken, healthy = await two_tables_mid_hand(database, clock)
    async with raw(database) as other:
        # Cut off inside the deck: not a hand any more.
        await other.execute(
            f"UPDATE hands SET state = substr(state, 1, 12) WHERE id = {broken.hand_id}"
        )

    store = await Store.open(database)
    fresh = TableManager(store, clock=clock)
    screen = Screen(fresh)
    assert await fresh.restore() == [healthy.hand_id]
    await delivered()
    assert any(f"#{broken.hand_id}" in line and "cancelled" in line for line in screen.lines)
    voided = await store.hands.get(broken.hand_id)
    assert voided.outcome == "voided"
    assert {p.final_stack for p in voided.players} == {500}
    assert fresh.get(CHANNEL + 1).live is not None
    await store.audit()
    await fresh.shutdown()
    await store.close()


async def test_a_table_whose_settings_cannot_be_read_is_closed_with_every_chip_returned(
    database: Location, clock: ManualClock
) -> None:
    await two_tables_mid_hand(database, clock)
    async with raw(database) as other:
        await other.execute(f"UPDATE tables SET settings = '{{}}' WHERE channel_id = {CHANNEL}")

    store = await Store.open(database)
    fresh = TableManager(store, clock=clock)
    Screen(fresh)
    await fresh.restore()
    assert CHANNEL not in fresh.tables and fresh.get(CHANNEL + 1).live is not None
    assert await store.seating.table(CHANNEL) is None
    # Each player's chips: all back in the wallet but the 500 still at the other table.
    for user_id in (1, 2):
        wallet = await store.wallets.get(GUILD, user_id)
        assert (wallet.balance, wallet.seated) == (500, 500)
    await store.audit()
    await fresh.shutdown()
    await store.close()


async def test_a_table_whose_channel_is_gone_is_closed_mid_hand_with_every_chip_returned(
    store: Store, clock: ManualClock
) -> None:
    manager, _ = await seated(store, clock)
    table = manager.get(CHANNEL)
    assert table.live is not None
    await manager.act(CHANNEL, table.actor_id() or 0, "bring_in")
    hand_id = table.live.hand_id
    await manager.abandon(CHANNEL)
    assert CHANNEL not in manager.tables and table.closed
    assert (await store.hands.get(hand_id)).outcome == "voided"
    for user_id in (1, 2):
        wallet = await store.wallets.get(GUILD, user_id)
        assert (wallet.balance, wallet.seated) == (1000, 0)
    await store.audit()
    await manager.shutdown()
