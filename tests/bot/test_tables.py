"""Table orchestration without Discord: locking, persistence, the fair clock, restart, outbox."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.config import TableConfig
from bot.core.dealer import SETTLE_RETRY_SECONDS
from bot.core.errors import TableError
from bot.core.house import House
from bot.core.outbox import ClearButtons, Line
from bot.core.showing import table_view
from bot.core.storage import Store
from bot.core.table import LiveHand, Table
from bot.core.turns import WARNING_SECONDS
from bot.core.views import Outcome, PrivateView, TableView
from engine.cards import shuffled_deck
from engine.codec import encode
from engine.fairness import DeckCommitment, new_secret, public_reveal, verify
from engine.hand import StudHand
from engine.stakes import DEFAULT_STAKES
from tests.bot.fakes import CHANNEL, GUILD, TURN, ManualClock, Screen, screened, seat_directly
from tests.databases import Location, raw
from tests.engine.decks import stacked_deck
from tests.texts import TEXTS


def config(turn: float = TURN, countdown: float = 0) -> TableConfig:
    """A table whose turn clock alone decides (time banks have tests of their own)."""
    return TableConfig(DEFAULT_STAKES, 8, 100, 1000, turn, countdown, time_bank=0)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


async def seated(
    store: Store, clock: ManualClock, players: int = 2, *, shown: bool = True, **kw: float
) -> tuple[House, Screen]:
    """A table with ``players`` seated and its first hand dealt; ``shown=False``: Discord is
    down, nothing reaches the channel."""
    manager, screen = screened(store, clock, working=shown)
    await manager.seating.open(GUILD, CHANNEL, 1, config(**kw))
    for user_id in range(1, players + 1):
        await manager.seating.sit(CHANNEL, user_id, f"p{user_id}", 500)
    await clock.advance(0, manager)
    return manager, screen


async def delivered() -> None:
    """Let the screen's call_soon deliveries run."""
    for _ in range(3):
        await asyncio.sleep(0)


async def test_two_clicks_at_the_same_moment_apply_once(store: Store, clock: ManualClock) -> None:
    manager, _ = await seated(store, clock)
    table = manager.seating.get(CHANNEL)
    assert table.live is not None
    actor = table.actor_id()
    assert actor is not None
    seq = table.live.seq
    results = await asyncio.gather(
        manager.dealer.act(CHANNEL, actor, "bring_in"),
        manager.dealer.act(CHANNEL, actor, "bring_in"),
        return_exceptions=True,
    )
    assert [(r.action, r.amount) for r in results if isinstance(r, Outcome)] == [("bring_in", 3)]
    (refusal,) = [r for r in results if isinstance(r, TableError)]
    assert refusal.key == "not_your_turn"
    record = await store.hands.get(table.live.hand_id)
    assert record.version == 1 and table.live.seq > seq
    await manager.recovery.shutdown()


async def test_a_failed_save_rolls_the_hand_back(
    store: Store, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager, _ = await seated(store, clock)
    table = manager.seating.get(CHANNEL)
    assert table.live is not None
    before = table.live.hand.to_dict()

    async def fail(hand_id: int, state: object) -> int:
        raise OSError("disk full")

    monkeypatch.setattr(store.hands, "save_action", fail)
    with pytest.raises(OSError):
        await manager.dealer.act(CHANNEL, table.actor_id() or 0, "bring_in")
    assert table.live.hand.to_dict() == before
    await manager.recovery.shutdown()


async def test_the_commitment_goes_out_before_cards_and_matches_the_deck(
    store: Store, clock: ManualClock
) -> None:
    manager, screen = await seated(store, clock)
    table = manager.seating.get(CHANNEL)
    assert table.live is not None
    await delivered()
    # The first thing the channel is told about the hand, in its message, is its commitment;
    # only then the players' own cards.
    commitment = next(
        i
        for i, e in enumerate(screen.effects)
        if isinstance(e, TableView) and e.hand and e.hand.commitment == table.live.commitment
    )
    first_private = next(i for i, e in enumerate(screen.effects) if isinstance(e, PrivateView))
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
    await manager.recovery.shutdown()


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
    table = manager.seating.get(CHANNEL)
    assert table.live is None
    assert all(seat.sitting_out for seat in table.seats.values())
    assert sum("sits out" in line or "sitting out" in line for line in screen.lines) == 2
    await store.audit()
    await manager.recovery.shutdown()


async def test_the_warning_comes_before_the_end_of_a_turn(store: Store, clock: ManualClock) -> None:
    manager, screen = await seated(store, clock)
    table = manager.seating.get(CHANNEL)
    actor = table.actor_id()
    await clock.advance(TURN - WARNING_SECONDS - 1, manager)
    assert screen.pings == []
    await clock.advance(1, manager)
    assert screen.pings == [actor]
    assert table.actor_id() == actor
    await clock.advance(WARNING_SECONDS, manager)
    assert table.actor_id() != actor
    await manager.recovery.shutdown()


async def test_nobody_times_out_while_the_table_cannot_be_shown(
    store: Store, clock: ManualClock
) -> None:
    """The turn clock starts when the actor's buttons are delivered: Discord's outage is not
    his time."""
    manager, screen = await seated(store, clock, shown=False)
    table = manager.seating.get(CHANNEL)
    assert table.live is not None
    seq = table.live.seq
    await clock.advance(10 * TURN, manager)
    assert table.live.seq == seq and not table.live.hand.timed_out
    screen.start(table.outbox)
    assert table.live.deadline == clock.now() + TURN
    await clock.advance(TURN, manager)
    assert table.live.hand.timed_out, "once shown, the clock runs"
    await manager.recovery.shutdown()


async def test_a_paused_table_refuses_actions_with_the_reason_and_stops_the_clock(
    store: Store, clock: ManualClock
) -> None:
    manager, _ = await seated(store, clock)
    table = manager.seating.get(CHANNEL)
    assert table.live is not None
    actor = table.actor_id() or 0
    seq = table.live.seq
    manager.dealer.turns.pause(
        table, TableError("missing_bot_permissions", permissions="Send Messages")
    )
    with pytest.raises(TableError) as refused:
        await manager.dealer.act(CHANNEL, actor, "bring_in")
    assert "Send Messages" in refused.value.message(TEXTS, "en")
    await clock.advance(5 * TURN, manager)
    assert table.live.seq == seq
    manager.dealer.turns.resume(table)
    await delivered()
    outcome = await manager.dealer.act(CHANNEL, actor, "bring_in")
    assert (outcome.action, outcome.amount) == ("bring_in", 3)
    await manager.recovery.shutdown()


async def test_messages_posted_meanwhile_are_saved_together_newest_last(
    store: Store, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager, _ = await seated(store, clock)
    table = manager.seating.get(CHANNEL)
    saved: list[dict[int, int]] = []
    real = store.seating.set_messages

    async def spy(messages: dict[int, int]) -> None:
        saved.append(dict(messages))
        await real(messages)

    monkeypatch.setattr(store.seating, "set_messages", spy)
    view = table_view(table, TEXTS, clock.now())
    assert view is not None
    for message_id in (101, 102, 103):  # three streets posted before the first save ran
        table.outbox.posted(view, message_id)
    await manager.recovery.shutdown()
    assert saved == [{CHANNEL: 103}]
    stored = await store.seating.table(CHANNEL)
    assert stored is not None and stored.message_id == 103


async def test_restore_continues_a_hand_from_the_database(store: Store, clock: ManualClock) -> None:
    manager, _ = await seated(store, clock, players=3)
    table = manager.seating.get(CHANNEL)
    assert table.live is not None
    await manager.dealer.act(CHANNEL, table.actor_id() or 0, "bring_in")
    state = table.live.hand.to_dict()
    view = table_view(table, TEXTS, clock.now())
    assert view is not None
    table.outbox.posted(view, 4242)
    await manager.recovery.shutdown()

    fresh, screen = screened(store, clock)
    assert await fresh.recovery.restore() == [table.live.hand_id]
    restored = fresh.seating.get(CHANNEL)
    assert restored.live is not None and restored.live.hand.to_dict() == state
    await delivered()
    assert screen.private == []  # nothing is re-dealt on a restart
    assert any("restarted" in line for line in screen.lines)
    # The old message loses its buttons before anything else is shown.
    assert screen.cleared == [4242] and screen.effects[0] == ClearButtons(4242)
    while restored.live is not None:
        actor = restored.actor_id()
        legal = restored.live.hand.legal()
        await fresh.dealer.act(CHANNEL, actor or 0, "check" if legal.check else "call")
    await store.audit()
    await fresh.recovery.shutdown()


async def test_a_hand_over_when_dealt_settles_and_the_next_one_starts(
    store: Store, clock: ManualClock
) -> None:
    """RULES 2.4: heads-up, one player all in on the ante: no decision, straight to showdown."""
    manager, screen = await restored_with_stacks(store, clock, [124, 1])
    await clock.advance(0, manager)
    assert len(screen.results) == 1 and screen.results[0].public.is_over
    first = await store.hands.get(screen.results[0].hand_id)
    assert first.outcome == "settled"
    table = manager.seating.get(CHANNEL)
    if min(player.final_stack or 0 for player in first.players) > 0:
        assert table.live is not None and table.live.hand_id > first.hand_id
    else:
        assert table.live is None and len(table.seats) == 1
    await store.audit()
    await manager.recovery.shutdown()


async def restored_with_stacks(
    store: Store, clock: ManualClock, stacks: list[int], ante: int = 1
) -> tuple[House, Screen]:
    """A table with ``stacks`` on its seats, loaded by ``restore`` as after a restart."""
    await seat_directly(store, stacks, ante)
    manager, screen = screened(store, clock)
    await manager.recovery.restore()
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
    manager, screen = screened(store, clock)
    assert await manager.recovery.restore() == [hand_id]
    await clock.advance(0, manager)
    assert (await store.hands.get(hand_id)).outcome == "settled"
    assert screen.results and screen.results[0].hand_id == hand_id
    await store.audit()
    await manager.recovery.shutdown()


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
    manager, screen = screened(store, clock)
    await manager.recovery.restore()
    await clock.advance(0, manager)
    assert screen.results == [] and len(await store.hands.live()) == 1
    await clock.advance(sum(SETTLE_RETRY_SECONDS[:2]), manager)
    assert len(screen.results) >= 1
    await store.audit()
    await manager.recovery.shutdown()


async def two_tables_mid_hand(database: Location, clock: ManualClock) -> tuple[LiveHand, LiveHand]:
    """A database left with two tables, each in its first hand (channels CHANNEL, CHANNEL+1)."""
    store = await Store.open(database)
    manager, _ = screened(store, clock)
    for channel in (CHANNEL, CHANNEL + 1):
        await manager.seating.open(GUILD, channel, 1, config())
        for user_id in (1, 2):
            await manager.seating.sit(channel, user_id, f"p{user_id}", 500)
    await clock.advance(0, manager)
    first, second = manager.seating.get(CHANNEL).live, manager.seating.get(CHANNEL + 1).live
    assert first is not None and second is not None
    await manager.recovery.shutdown()
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
    fresh, screen = screened(store, clock)
    assert await fresh.recovery.restore() == [healthy.hand_id]
    await delivered()
    assert any(f"#{broken.hand_id}" in line and "cancelled" in line for line in screen.lines)
    voided = await store.hands.get(broken.hand_id)
    assert voided.outcome == "voided"
    assert {p.final_stack for p in voided.players} == {500}
    assert fresh.seating.get(CHANNEL + 1).live is not None
    await store.audit()
    await fresh.recovery.shutdown()
    await store.close()


async def test_a_table_whose_settings_cannot_be_read_is_closed_with_every_chip_returned(
    database: Location, clock: ManualClock
) -> None:
    await two_tables_mid_hand(database, clock)
    async with raw(database) as other:
        await other.execute(f"UPDATE tables SET settings = '{{}}' WHERE channel_id = {CHANNEL}")

    store = await Store.open(database)
    fresh, _ = screened(store, clock)
    await fresh.recovery.restore()
    assert CHANNEL not in fresh.open_tables and fresh.seating.get(CHANNEL + 1).live is not None
    assert await store.seating.table(CHANNEL) is None
    # Each player's chips: all back in the wallet but the 500 still at the other table.
    for user_id in (1, 2):
        wallet = await store.wallets.get(GUILD, user_id)
        assert (wallet.balance, wallet.seated) == (500, 500)
    await store.audit()
    await fresh.recovery.shutdown()
    await store.close()


async def test_a_table_whose_channel_is_gone_is_closed_mid_hand_with_every_chip_returned(
    store: Store, clock: ManualClock
) -> None:
    manager, _ = await seated(store, clock)
    table = manager.seating.get(CHANNEL)
    assert table.live is not None
    await manager.dealer.act(CHANNEL, table.actor_id() or 0, "bring_in")
    hand_id = table.live.hand_id
    await manager.seating.abandon(CHANNEL)
    assert CHANNEL not in manager.open_tables and table.closed
    assert (await store.hands.get(hand_id)).outcome == "voided"
    for user_id in (1, 2):
        wallet = await store.wallets.get(GUILD, user_id)
        assert (wallet.balance, wallet.seated) == (1000, 0)
    await store.audit()
    await manager.recovery.shutdown()


async def test_every_bust_leaves_the_table_a_player_sitting_out_too(
    store: Store, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found from outside: a player who asked to sit out, then lost his last chip in
    that hand, kept a seat with 0 chips. RULES 6.2 is for players with chips to come back to:
    every bust leaves the seat."""
    # Seat 0 (user 1) makes four Aces; seat 1 (user 2, 20 chips) brings in and calls it all.
    deck = stacked_deck({0: "AsAhAdAcKsKhQs", 1: "2c3d4h7s8c9dJh"}, dealer=1, seats=2)
    monkeypatch.setattr("bot.core.dealer.shuffled_deck", lambda: list(deck))
    await seat_directly(store, [500, 20])
    manager, _ = screened(store, clock)
    await manager.recovery.restore()
    await clock.advance(0, manager)
    table = manager.seating.get(CHANNEL)
    assert table.live is not None
    await manager.seating.set_sitting_out(CHANNEL, 2, True)  # mid-hand: from the next one
    while table.live is not None:
        actor = table.actor_id()
        assert actor is not None
        legal = table.live.hand.legal()
        if actor == 1 and legal.raise_to:
            action = "raise"
        else:
            action = "call" if legal.call else "bring_in" if legal.bring_in else "check"
        await manager.dealer.act(CHANNEL, actor, action)
    assert list(table.seats) == [1] and [s.user_id for s in await store.seating.seats(CHANNEL)] == [
        1
    ]
    assert [player.position for player in manager.seating.info(CHANNEL, "en").players] == [0]
    ledger = {
        line.entry.user_id: line.entry for line in (await manager.seating.ledger(CHANNEL)).lines
    }
    assert not ledger[2].seated and ledger[2].on_table == 0 and ledger[2].net == -20
    await store.audit()
    await manager.recovery.shutdown()


def dealer_position(table: Table) -> int:
    """The table position of the dealer of the hand in play."""
    assert table.live is not None
    return table.seats[table.live.users[table.live.hand.dealer]].position


def next_clockwise(positions: list[int], after: int) -> int:
    return min((p for p in positions if p > after), default=min(positions))


async def play_out(house: House, table: Table) -> None:
    while table.live is not None:
        legal = table.live.hand.legal()
        action = "check" if legal.check else "call" if legal.call else "bring_in"
        await house.dealer.act(CHANNEL, table.actor_id() or 0, action)


async def test_a_restart_mid_hand_moves_the_dealer_on_after_that_hand(
    store: Store, clock: ManualClock
) -> None:
    """RULES 1.4: the hand after a restart is dealt from the seat after the last dealer's, not
    as a table's first hand."""
    manager, _ = await seated(store, clock, players=3, countdown=30)
    table = manager.seating.get(CHANNEL)
    await clock.advance(30, manager)
    first = dealer_position(table)
    await manager.recovery.shutdown()

    fresh, _ = screened(store, clock)
    await fresh.recovery.restore()
    restored = fresh.seating.get(CHANNEL)
    await play_out(fresh, restored)
    await clock.advance(30, fresh)
    positions = sorted(seat.position for seat in restored.seats.values())
    assert dealer_position(restored) == next_clockwise(positions, first) != first
    await store.audit()
    await fresh.recovery.shutdown()


async def test_a_restart_between_hands_moves_the_dealer_on_though_he_left(
    store: Store, clock: ManualClock
) -> None:
    """The last dealer cashed out as his hand ended: his seat is gone, the order is not."""
    manager, _ = await seated(store, clock, players=4, countdown=30)
    table = manager.seating.get(CHANNEL)
    await clock.advance(30, manager)
    await play_out(manager, table)
    await clock.advance(30, manager)
    second = dealer_position(table)
    leaver = table.live.users[table.live.hand.dealer] if table.live is not None else 0
    assert await manager.seating.leave(CHANNEL, leaver) is None  # after this hand
    await play_out(manager, table)
    await manager.recovery.shutdown()
    assert leaver not in {seat.user_id for seat in await store.seating.seats(CHANNEL)}

    fresh, _ = screened(store, clock)
    await fresh.recovery.restore()
    restored = fresh.seating.get(CHANNEL)
    await clock.advance(30, fresh)
    positions = sorted(seat.position for seat in restored.seats.values())
    assert dealer_position(restored) == next_clockwise(positions, second)
    await store.audit()
    await fresh.recovery.shutdown()


async def test_a_face_waiting_for_a_table_learns_when_one_opens_and_its_watch_ends_with_it(
    store: Store, clock: ManualClock
) -> None:
    manager, _ = screened(store, clock)
    waiting = asyncio.ensure_future(manager.table_opened(CHANNEL))
    given_up = asyncio.ensure_future(manager.table_opened(CHANNEL + 1))
    await delivered()
    assert not waiting.done()
    await manager.seating.open(GUILD, CHANNEL, 1, config())
    await asyncio.wait_for(waiting, 1)
    given_up.cancel()
    await asyncio.gather(given_up, return_exceptions=True)
    assert manager.open_tables._awaited == {}  # no waiter is kept for a face gone
    await manager.table_opened(CHANNEL)  # a table is open: no wait
    # Its watch hands over the table's last words, then ends: nobody has to look for it.
    watch = manager.subscribe(CHANNEL)
    await manager.seating.close(CHANNEL, 1, can_manage=True)
    seen = [item async for item in watch]
    assert isinstance(seen[0], TableView)
    assert Line(TEXTS.t("en", "table_closed")) in seen
