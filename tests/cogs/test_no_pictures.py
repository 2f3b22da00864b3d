"""A drawing process that cannot start: the tables play on with their text and a blank picture,
and the operator reads one ERROR saying why."""

from __future__ import annotations

import logging

import pytest

from bot.edge.drawing import BLANK, DrawingProcess
from tests.cogs.world import (
    World,
    live_table,
    message_text,
    open_and_seat,
    play_out_with_buttons,
    table_message,
)


async def test_hands_play_on_with_text_when_no_drawing_process_can_start(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    broken = DrawingProcess(["/nonexistent/python"])  # spawned by nothing: no process needed
    world.bot.presenter.drawing = broken
    await open_and_seat(world)
    message = table_message(world)
    assert "Pot" in message_text(message)
    (picture,) = message.attachments
    assert picture.size == len(BLANK) and await picture.read() == BLANK
    await play_out_with_buttons(world)
    assert live_table(world).live is None
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "the drawing process could not start" in errors[0]
    assert not any("Discord failed" in r.getMessage() for r in caplog.records)
