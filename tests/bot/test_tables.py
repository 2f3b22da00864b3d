"""Table orchestration without Discord: locking, persistence, timers, restart, commitment."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.errors import TableError
from bot.storage import HandEnd, Store
from bot.tables import LiveHand, Table, TableConfig, TableManager, public_reveal
from engine.fairness import DeckCommitment, verify
from engine.stakes import DEFAULT_STAKES


class Recorder:
    """A presenter that remembers what the players would have been told."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.refreshes = 0
        self.private: list[tuple[int, ...]] = []
        self.ended: list[HandEnd] = []

    async def say(self, table: Table, text: str, *, mention: int | None = None) -> None:
        self.lines.append(text)

    def refresh(self, table: Table) -> None:
        self.refreshes += 1

    def deal_private(self, table: Table, user_ids: Sequence[int]) -> None:
        self.private.append(tuple(user_ids))

    async def hand_over(self, table: Table, hand: LiveHand, end: HandEnd) -> None:
        self.ended.append(end)


CHANNEL, GUILD = 100, 1


def config(turn: float = 60, countdown: float = 0) -> TableConfig:
    return TableConfig(DEFAULT_STAKES, 8, 100, 1000, turn, countdown)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "stud.db")
    yield opened
    await opened.close()


async def seated(store: Store, recorder: Recorder, players: int = 2, **kw: float) -> TableManager:
    manager = TableManager(store, recorder)
    await manager.open(GUILD, CHANNEL, 1, config(**kw))
    for user_id in range(1, players + 1):
        await manager.sit(CHANNEL, user_id, f"p{user_id}", 500)
    return manager


async def dealt(manager: TableManager) -> None:
    """Wait for the countdown task to deal the first hand."""
    for _ in range(500):
        table = manager.get(CHANNEL)
        if table.live is not None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("no hand was dealt")


async def test_two_clicks_at_the_same_moment_apply_once(store: Store) -> None:
    manager = await seated(store, Recorder())
    await dealt(manager)
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
    record = await store.get_hand(table.live.hand_id)
    assert record.version == 1 and table.live.seq > seq
    await manager.shutdown()


async def test_a_failed_save_rolls_the_hand_back(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = await seated(store, Recorder())
    await dealt(manager)
    table = manager.get(CHANNEL)
    assert table.live is not None
    before = table.live.hand.to_dict()

    async def fail(hand_id: int, state: object) -> int:
        raise OSError("disk full")

    monkeypatch.setattr(store, "save_action", fail)
    with pytest.raises(OSError):
        await manager.act(CHANNEL, table.actor_id() or 0, "bring_in")
    assert table.live.hand.to_dict() == before
    await manager.shutdown()


async def test_the_commitment_is_posted_before_cards_and_matches_the_deck(store: Store) -> None:
    recorder = Recorder()
    manager = await seated(store, recorder)
    await dealt(manager)
    table = manager.get(CHANNEL)
    assert table.live is not None
    assert "commitment" in recorder.lines[0] and table.live.commitment in recorder.lines[0]
    hand, secret = table.live.hand, table.live.salt
    assert table.live.commitment == DeckCommitment(hand.deck, secret).digest
    reveal = public_reveal(hand, secret)
    assert verify(table.live.commitment, reveal)
    # Mid-hand, the public reveal shows only up cards: no down card, no secret.
    assert secret not in reveal
    for seat in range(len(table.live.users)):
        for card in hand.down_cards(seat):
            assert f"{card}:" not in reveal
    assert recorder.private == [table.live.users]
    await manager.shutdown()


async def test_timeouts_play_the_hand_out_and_sit_players_out(store: Store) -> None:
    """RULES 6.1 and 6.2 with a short clock."""
    recorder = Recorder()
    manager = await seated(store, recorder, turn=0.01)
    for _ in range(200):
        if recorder.ended:
            break
        await asyncio.sleep(0.01)
    assert recorder.ended, "the clock never finished the hand"
    table = manager.get(CHANNEL)
    assert table.live is None
    assert all(seat.sitting_out for seat in table.seats.values())
    await store.audit()
    await manager.shutdown()


async def test_restore_continues_a_hand_from_the_database(store: Store) -> None:
    manager = await seated(store, Recorder(), players=3)
    await dealt(manager)
    table = manager.get(CHANNEL)
    assert table.live is not None
    await manager.act(CHANNEL, table.actor_id() or 0, "bring_in")
    state = table.live.hand.to_dict()
    await manager.shutdown()

    recorder = Recorder()
    fresh = TableManager(store, recorder)
    assert await fresh.restore() == [table.live.hand_id]
    restored = fresh.get(CHANNEL)
    assert restored.live is not None and restored.live.hand.to_dict() == state
    assert recorder.private == []  # nothing is re-dealt on a restart
    assert any("restarted" in line for line in recorder.lines)
    while restored.live is not None:
        actor = restored.actor_id()
        legal = restored.live.hand.legal()
        await fresh.act(CHANNEL, actor or 0, "check" if legal.check else "call")
    await store.audit()
    await fresh.shutdown()
