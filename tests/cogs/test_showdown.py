"""The showdown picture of a hand whose next hand was dealt before it was shown (no countdown
between hands here; with one, Discord slow to take the results does the same)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest

import render
from bot.core.settings import Settings
from render import TableLabels
from tests.cogs.world import (
    World,
    labels,
    live_table,
    make_settings,
    member,
    open_and_seat,
    passive_label,
    spy_drawing,
    table_message,
)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path, countdown_seconds=0)


async def test_the_showdown_shows_its_own_hands_last_action_not_the_next_hands(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = spy_drawing(monkeypatch, render.showdown_png)
    await open_and_seat(world)
    table = live_table(world)
    assert table.live is not None
    first = table.live.hand_id
    while table.live is not None and table.live.hand_id == first:
        actor = table.actor_id()
        assert actor is not None
        message = table_message(world)
        result = await member(world, actor).click(message, label=passive_label(labels(message)))
        assert result.acknowledged, result
    await world.env.advance_time(1)
    assert drawn, "the showdown was drawn"
    args, _ = drawn[0]
    shown = cast(TableLabels, cast(Any, args)[1])
    assert table.live is not None and table.live.hand_id != first  # the next one is dealt
    # Its own last line (the final check), not one of the next hand's (who brings in).
    assert shown.last_action and shown.last_action not in table.log
