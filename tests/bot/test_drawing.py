"""The drawing process: pictures drawn in another process, channel pictures first, a failing
drawing or a dead process costing only the pictures it had."""

from __future__ import annotations

import asyncio
import functools
import os
import signal
import time
from collections.abc import AsyncIterator

import pytest

from bot.edge.drawing import IN_FLIGHT, PRIVATE_DELAY, DrawingFailed, DrawingProcess
from engine.cards import shuffled_deck
from engine.hand import StudHand
from engine.public import PublicTable
from engine.stakes import DEFAULT_STAKES
from render import TableLabels, table_png

# Jobs run in the drawing process, which imports them from here.


def slow(tag: str, seconds: float = 0.05) -> bytes:
    time.sleep(seconds)
    return tag.encode()


def pid() -> bytes:
    return str(os.getpid()).encode()


def broken() -> bytes:
    raise ValueError("no such card")


def die() -> bytes:
    os._exit(3)


@pytest.fixture
async def drawing() -> AsyncIterator[DrawingProcess]:
    process = DrawingProcess()
    yield process
    await process.close()


async def test_a_picture_drawn_there_is_the_one_drawn_here(drawing: DrawingProcess) -> None:
    hand = StudHand(stacks=[100, 100], stakes=DEFAULT_STAKES, deck=shuffled_deck(), dealer=0)
    view, labels = PublicTable.from_hand(hand), TableLabels(language="ru")
    drawn = await drawing.draw(functools.partial(table_png, view, labels))
    assert drawn == table_png(view, labels)
    assert int(await drawing.draw(pid)) == drawing.pid != os.getpid()


async def test_channel_pictures_are_drawn_before_private_ones(drawing: DrawingProcess) -> None:
    await drawing.draw(pid)  # started and warmed up
    done: list[str] = []

    async def draw(tag: str, private: bool) -> None:
        done.append((await drawing.draw(functools.partial(slow, tag), private=private)).decode())

    tasks = [asyncio.create_task(draw(f"private {i}", True)) for i in range(6)]
    await asyncio.sleep(0)  # the first ones are sent
    tasks.append(asyncio.create_task(draw("table", False)))
    await asyncio.gather(*tasks)
    # Only the private pictures already sent to the process came before it: the others were
    # not due yet.
    assert done.index("table") == IN_FLIGHT
    assert [tag for tag in done if tag != "table"] == [f"private {i}" for i in range(6)]


async def test_a_private_picture_is_not_put_off_past_its_delay() -> None:
    now = 0.0
    drawing = DrawingProcess(clock=lambda: now)
    try:
        await drawing.draw(pid)
        done: list[str] = []

        async def draw(tag: str, private: bool) -> None:
            call = functools.partial(slow, tag)
            done.append((await drawing.draw(call, private=private)).decode())

        tasks = [asyncio.create_task(draw(f"busy {i}", False)) for i in range(IN_FLIGHT)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(draw("private", True)))
        await asyncio.sleep(0)
        now = PRIVATE_DELAY + 0.01  # the private picture has waited its delay
        tasks.append(asyncio.create_task(draw("table", False)))
        await asyncio.gather(*tasks)
        assert done[IN_FLIGHT:] == ["private", "table"]
    finally:
        await drawing.close()


async def test_a_drawing_that_fails_fails_its_caller_only(drawing: DrawingProcess) -> None:
    with pytest.raises(DrawingFailed, match="no such card"):
        await drawing.draw(broken)
    assert await drawing.draw(functools.partial(slow, "next", 0)) == b"next"


async def test_a_dead_process_fails_the_picture_it_drew_and_another_draws_the_rest(
    drawing: DrawingProcess,
) -> None:
    first = int(await drawing.draw(pid))
    dying = asyncio.create_task(drawing.draw(die))
    # Sent to the dying process behind the fatal job, and some still waiting here.
    queued = [
        asyncio.create_task(drawing.draw(functools.partial(slow, f"after {i}", 0)))
        for i in range(IN_FLIGHT + 1)
    ]
    with pytest.raises(DrawingFailed, match="ended"):
        await dying
    assert await asyncio.gather(*queued) == [f"after {i}".encode() for i in range(IN_FLIGHT + 1)]
    assert int(await drawing.draw(pid)) != first


async def test_a_signal_to_the_whole_group_leaves_the_drawing_to_the_bot(
    drawing: DrawingProcess,
) -> None:
    """systemd's SIGTERM (and a terminal's Ctrl-C) reach every process of the service: the
    drawing process stays until the bot, stopping, ends it."""
    first = int(await drawing.draw(pid))
    os.kill(first, signal.SIGTERM)
    os.kill(first, signal.SIGINT)
    await asyncio.sleep(0.2)
    assert int(await drawing.draw(pid)) == first
    await drawing.close()
    with pytest.raises(ProcessLookupError):
        os.kill(first, 0)
    with pytest.raises(DrawingFailed, match="closed"):
        await drawing.draw(pid)
