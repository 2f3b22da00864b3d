"""The drawing process: pictures come back in order, a drawing's error is raised in the bot, a
killed child fails only its pictures and the next one starts a new child, a child that cannot
start is one ERROR and blank pictures after it, and the child draws under the system-call
filter of deploy/stud.service. Every test of a real child is in the slow tier (it spawns one);
the child's side of the framing, a child that cannot even be spawned and the in-process
stand-in the other tests draw with are checked here in the quick tier too."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import pickle
import signal
import sys

import pytest

from bot.edge.drawing import (
    BEHIND_SECONDS,
    BLANK,
    COMMAND,
    HEADER,
    NICENESS,
    DrawingCrashed,
    DrawingProcess,
    InProcessDrawing,
    _Requests,
    serve,
)
from engine.cards import shuffled_deck
from engine.hand import StudHand
from engine.public import PublicTable
from engine.stakes import DEFAULT_STAKES
from render import SeatLabel, TableLabels, table_png
from tests.bot import sandbox
from tests.texts import words

PNG = b"\x89PNG\r\n\x1a\n"


def _view(seed_stack: int) -> PublicTable:
    hand = StudHand([seed_stack, 100], DEFAULT_STAKES, shuffled_deck(), dealer=0)
    return PublicTable.from_hand(hand)


def _frame(request: object) -> bytes:
    """A request as DrawingProcess frames it: the words it refers to, then the request."""
    pickled, words = _Requests().pickle(request)
    data = pickle.dumps((words, pickled), protocol=pickle.HIGHEST_PROTOCOL)
    return len(data).to_bytes(HEADER, "big") + data


def _answers(stream: bytes) -> list[tuple[bool, object]]:
    answers = []
    source = io.BytesIO(stream)
    while header := source.read(HEADER):
        answers.append(pickle.loads(source.read(int.from_bytes(header, "big"))))
    return answers


def test_the_child_answers_each_framed_request_in_order_errors_included() -> None:
    """What the child does with its stdin and stdout, without a child."""
    views = [_view(50), _view(60)]
    three = TableLabels(seats=(SeatLabel("a"), SeatLabel("b"), SeatLabel("c")))
    requests = [
        (table_png, (views[0], TableLabels()), {}),
        (table_png, (views[1], three), {}),
        (table_png, (views[1],), {"labels": TableLabels()}),
    ]
    answers = io.BytesIO()
    serve(io.BytesIO(b"".join(_frame(request) for request in requests)), answers)
    (ok1, first), (ok2, error), (ok3, third) = _answers(answers.getvalue())
    assert (ok1, ok2, ok3) == (True, False, True)
    assert first == table_png(views[0], TableLabels())
    assert isinstance(error, ValueError) and "3 seat labels for a table of 2 seats" in str(error)
    assert third == table_png(views[1], TableLabels())


async def test_the_stand_in_draws_here_and_refuses_what_could_not_reach_a_child() -> None:
    drawing = InProcessDrawing()
    await drawing.start()
    view = _view(50)
    assert await drawing.draw(table_png, view, TableLabels(), behind=True) == table_png(
        view, TableLabels()
    )
    with pytest.raises((pickle.PicklingError, AttributeError)):
        await drawing.draw(lambda: b"", behind=False)  # not a module-level function
    await drawing.close()


@pytest.mark.slow  # a real drawing process
async def test_pictures_come_back_in_order_and_match_drawing_here() -> None:
    drawing = DrawingProcess()
    views = [_view(stack) for stack in (50, 60, 70, 80)]
    try:
        pictures = await asyncio.gather(*(drawing.draw(table_png, v, TableLabels()) for v in views))
    finally:
        await drawing.close()
    assert pictures == [table_png(v, TableLabels()) for v in views]
    assert all(p.startswith(PNG) for p in pictures)


@pytest.mark.slow  # a real drawing process
async def test_the_child_gives_way_to_the_bot_for_the_cpu() -> None:
    drawing = DrawingProcess()
    try:
        await drawing.draw(table_png, _view(50), TableLabels())  # the child is running
        assert drawing.pid is not None
        child = os.getpriority(os.PRIO_PROCESS, drawing.pid)
    finally:
        await drawing.close()
    assert child == os.getpriority(os.PRIO_PROCESS, 0) + NICENESS


@pytest.mark.slow  # a real drawing process
async def test_a_drawing_error_is_raised_in_the_bot_and_the_child_goes_on() -> None:
    drawing = DrawingProcess()
    try:
        three = TableLabels(seats=(SeatLabel("a"), SeatLabel("b"), SeatLabel("c")))
        with pytest.raises(ValueError, match="3 seat labels for a table of 2 seats"):
            await drawing.draw(table_png, _view(50), three)
        assert (await drawing.draw(table_png, _view(50), TableLabels())).startswith(PNG)
    finally:
        await drawing.close()


@pytest.mark.slow  # a real drawing process
async def test_a_killed_child_fails_its_picture_and_the_next_starts_a_new_one() -> None:
    drawing = DrawingProcess()
    try:
        await drawing.start()
        first = drawing.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        with pytest.raises(DrawingCrashed):
            await drawing.draw(table_png, _view(50), TableLabels())
        assert (await drawing.draw(table_png, _view(50), TableLabels())).startswith(PNG)
        assert drawing.pid not in (None, first)
    finally:
        await drawing.close()


@pytest.mark.slow  # a real drawing process
async def test_close_ends_the_child() -> None:
    drawing = DrawingProcess()
    await drawing.draw(table_png, _view(50), TableLabels())
    pid = drawing.pid
    assert pid is not None
    await drawing.close()
    assert drawing.pid is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # reaped, not a zombie


@pytest.mark.slow  # a real drawing process
async def test_pictures_asked_for_behind_wait_for_the_others() -> None:
    """A DM's picture waits for table pictures asked for after it (two are always sent ahead)."""
    drawing = DrawingProcess()
    done: list[str] = []

    async def picture(name: str, behind: bool) -> None:
        await drawing.draw(table_png, _view(50), TableLabels(), behind=behind)
        done.append(name)

    try:
        await drawing.start()
        dms = [picture(f"dm{i}", True) for i in range(1, 5)]
        tables = [picture(f"table{i}", False) for i in range(1, 3)]
        await asyncio.gather(*dms, *tables)
    finally:
        await drawing.close()
    assert done == ["dm1", "dm2", "table1", "table2", "dm3", "dm4"]


@pytest.mark.slow  # a real drawing process
async def test_a_dm_waits_for_table_pictures_only_so_long(monkeypatch: pytest.MonkeyPatch) -> None:
    """Table pictures asked for more than BEHIND_SECONDS after a DM's no longer go first."""
    drawing = DrawingProcess()
    done: list[str] = []
    now = [0.0]
    monkeypatch.setattr(asyncio.get_running_loop(), "time", lambda: now[0])

    async def picture(name: str, behind: bool) -> None:
        await drawing.draw(table_png, _view(50), TableLabels(), behind=behind)
        done.append(name)

    try:
        await drawing.start()
        early = [asyncio.ensure_future(picture(f"dm{i}", True)) for i in range(1, 4)]
        await asyncio.sleep(0)  # all three asked at 0 s: two sent, the third waits
        now[0] = BEHIND_SECONDS + 0.01
        await asyncio.gather(*early, picture("table", False))
    finally:
        await drawing.close()
    assert done == ["dm1", "dm2", "dm3", "table"]


@pytest.mark.slow  # a real drawing process, and a second
async def test_each_language_s_words_go_to_the_child_once_and_again_to_a_new_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A picture's labels carry its language's words (1.5 KB): the child is sent them with the
    first picture that needs them, then only a reference; a new child is sent them again."""
    view, russian = _view(50), TableLabels(words=words("ru"))
    expected = table_png(view, russian)
    drawing = DrawingProcess()
    sizes: list[int] = []
    try:
        await drawing.start()
        process = drawing._process
        assert process is not None and process.stdin is not None
        write = process.stdin.write

        def counted(data: bytes) -> None:
            sizes.append(len(data))
            write(data)

        monkeypatch.setattr(process.stdin, "write", counted)
        assert [await drawing.draw(table_png, view, russian) for _ in range(3)] == [expected] * 3
        first, *rest = sizes
        assert len(rest) == 2 and all(first - size > 1000 for size in rest), sizes
        killed = drawing.pid
        assert killed is not None
        os.kill(killed, signal.SIGKILL)
        with pytest.raises(DrawingCrashed):
            await drawing.draw(table_png, view, russian)
        again = await drawing.draw(table_png, view, russian)
    finally:
        await drawing.close()
    assert again == expected


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


def _sandboxed(*options: str) -> list[str]:
    """The drawing process under deploy/stud.service's system-call filter (made stricter by
    ``options``, tests.bot.sandbox's)."""
    return [sys.executable, "-m", "tests.bot.sandbox", *options, *COMMAND]


NO_SANDBOX = sandbox.why_not()


async def test_a_child_that_cannot_be_spawned_is_one_error_and_pictures_come_blank(
    caplog: pytest.LogCaptureFixture,
) -> None:
    drawing = DrawingProcess(["/nonexistent/python"])
    try:
        first = await drawing.draw(table_png, _view(50), TableLabels())
        second = await drawing.draw(table_png, _view(60), TableLabels())
    finally:
        await drawing.close()
    assert first == second == BLANK and BLANK.startswith(PNG)
    (error,) = _errors(caplog)
    assert "could not start (FileNotFoundError" in error and "/nonexistent/python" in error
    assert drawing.pid is None


async def _three_pictures(drawing: DrawingProcess) -> list[bytes]:
    """Three tables asked of ``drawing``, which is then closed."""
    try:
        return [await drawing.draw(table_png, _view(50), TableLabels()) for _ in range(3)]
    finally:
        await drawing.close()


@pytest.mark.slow  # a real drawing process
async def test_a_child_that_fails_to_start_says_why_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    broken = "import render; render.warm_up = lambda pictures: 1 / 0; import runpy; "
    broken += "runpy.run_module('bot.edge.drawing', run_name='__main__')"
    drawing = DrawingProcess([sys.executable, "-c", broken])
    assert await _three_pictures(drawing) == [BLANK] * 3
    (error,) = _errors(caplog)
    assert "could not start (ZeroDivisionError: division by zero)" in error
    assert "only their text" in error


@pytest.mark.slow  # a real drawing process, under libseccomp
@pytest.mark.skipif(NO_SANDBOX is not None, reason=f"no system-call filter here: {NO_SANDBOX}")
async def test_the_child_draws_a_table_under_the_unit_s_system_call_filter(
    caplog: pytest.LogCaptureFixture,
) -> None:
    drawing = DrawingProcess(_sandboxed())
    view = _view(50)
    try:
        picture = await drawing.draw(table_png, view, TableLabels(words=words("ru")))
        assert drawing.pid is not None
        child = os.getpriority(os.PRIO_PROCESS, drawing.pid)
    finally:
        await drawing.close()
    assert picture == table_png(view, TableLabels(words=words("ru")))
    assert child == os.getpriority(os.PRIO_PROCESS, 0) + NICENESS  # setpriority is allowed
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


@pytest.mark.slow  # a real drawing process, under libseccomp
@pytest.mark.skipif(NO_SANDBOX is not None, reason=f"no system-call filter here: {NO_SANDBOX}")
async def test_a_refused_priority_is_a_warning_and_pictures_are_drawn(
    caplog: pytest.LogCaptureFixture,
) -> None:
    drawing = DrawingProcess(_sandboxed("--deny", "setpriority"))
    view = _view(50)
    try:
        picture = await drawing.draw(table_png, view, TableLabels())
        assert drawing.pid is not None
        child = os.getpriority(os.PRIO_PROCESS, drawing.pid)
    finally:
        await drawing.close()
    assert picture == table_png(view, TableLabels())
    assert child == os.getpriority(os.PRIO_PROCESS, 0)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "could not lower its priority" in warnings[0]
    assert _errors(caplog) == []


@pytest.mark.slow  # a real drawing process, under libseccomp
@pytest.mark.skipif(NO_SANDBOX is not None, reason=f"no system-call filter here: {NO_SANDBOX}")
async def test_a_child_the_sandbox_kills_is_one_error_naming_the_signal(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The unit as it was shipped before: setpriority denied, a denied call killing."""
    drawing = DrawingProcess(_sandboxed("--deny", "setpriority", "--kill"))
    assert await _three_pictures(drawing) == [BLANK] * 3
    (error,) = _errors(caplog)
    assert "killed by SIGSYS: a system call its sandbox denies" in error


@pytest.mark.slow  # a real drawing process
async def test_closing_while_the_child_starts_ends_it_without_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    drawing = DrawingProcess()
    starting = asyncio.ensure_future(drawing.draw(table_png, _view(50), TableLabels()))
    while drawing.pid is None:  # spawned, not yet ready
        await asyncio.sleep(0.01)
    pid = drawing.pid
    await drawing.close()
    assert await starting == BLANK  # the bot is stopping: no picture is waited for
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # ended and reaped
    assert _errors(caplog) == []
