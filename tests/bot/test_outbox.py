"""The outbox: what a table must show, in order, with each table picture drawn only when no later
request would redraw it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.outbox import Effect, Line, Outbox, Picture, Results
from bot.core.storage import Store
from bot.core.tables import TableConfig, TableManager
from engine.stakes import DEFAULT_STAKES
from tests.bot.fakes import CHANNEL, GUILD, TURN, ManualClock, Screen


def taken(outbox: Outbox) -> list[Effect]:
    effects = []
    while (effect := outbox.take()) is not None:
        effects.append(effect)
    return effects


def test_a_picture_with_a_later_one_behind_it_is_never_taken() -> None:
    outbox = Outbox()
    outbox.put(Picture())
    outbox.put(Line("one"))
    outbox.put(Picture())
    outbox.put(Line("two"))
    assert taken(outbox) == [Line("one"), Picture(), Line("two")]


def test_a_picture_put_back_after_a_failure_gives_way_to_a_newer_one() -> None:
    outbox = Outbox()
    outbox.put(Picture())
    first = outbox.take()
    assert first == Picture()
    outbox.put(Line("meanwhile"))
    outbox.put(Picture())
    outbox.put_back(first)  # Discord failed: the picture is tried again...
    # ... but the table changed since, and the newer request draws it once, after the line.
    assert taken(outbox) == [Line("meanwhile"), Picture()]


def test_the_last_picture_is_always_taken() -> None:
    outbox = Outbox()
    outbox.put(Line("one"))
    outbox.put(Picture())
    assert taken(outbox) == [Line("one"), Picture()]
    outbox.put(Picture())
    assert taken(outbox) == [Picture()]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "stud.db")
    yield opened
    await opened.close()


async def test_a_lagging_channel_sees_the_next_hand_drawn_once_after_its_commitment(
    store: Store,
) -> None:
    """Discord is slow: a hand ends and the next one is dealt before anything is delivered.
    The picture asked for after the results would show the new hand's cards ahead of the
    line committing to its deck; it is not drawn, and the new hand is drawn once, after it."""
    clock = ManualClock()
    manager = TableManager(store, clock=clock)
    screen = Screen(manager)
    await manager.open(GUILD, CHANNEL, 1, TableConfig(DEFAULT_STAKES, 8, 100, 1000, TURN, 0))
    for user_id in (1, 2):
        await manager.sit(CHANNEL, user_id, f"p{user_id}", 500)
    await clock.advance(0, manager)
    table = manager.get(CHANNEL)
    assert table.live is not None
    first = table.live.hand_id
    screen.working = False
    while table.live is not None and table.live.hand_id == first:
        actor = table.actor_id()
        assert actor is not None
        await manager.act(CHANNEL, actor, "fold" if table.live.hand.legal().fold else "bring_in")
        await clock.advance(0, manager)
    assert table.live is not None, "the next hand was dealt"
    screen.effects.clear()
    screen.start(table)
    results = next(i for i, e in enumerate(screen.effects) if isinstance(e, Results))
    after = screen.effects[results + 1 :]
    commitment = next(
        i for i, e in enumerate(after) if isinstance(e, Line) and table.live.commitment in e.text
    )
    pictures = [i for i, e in enumerate(after) if isinstance(e, Picture)]
    assert len(pictures) == 1 and pictures[0] > commitment
    await manager.shutdown()
