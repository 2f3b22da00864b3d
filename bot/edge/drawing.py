"""The process the pictures are drawn in, fed through a pipe that the event loop reads itself.

In a thread, drawing holds the GIL and every other table's database and network work waits
behind it (a draw's wait had a p95 of 1.5 s at 60 clicks/s). A ``ProcessPoolExecutor`` fixes
that but brings two threads of its own (a manager and a queue feeder) that woke for every
picture and took the GIL from the event loop: at 140 clicks/s its wake-up write alone held the
loop for 0.5 ms a picture. Here the loop writes each job to the pipe and reads the results when
the pipe is readable; no thread is involved.

Pictures are drawn in the order they are due. A channel picture (the table, the showdown) is
due at once, a private one ``PRIVATE_DELAY`` after it was asked for: a table update waits for at
most the picture being drawn and the one sent after it, while DMs, which nobody's turn waits
for, wait out a burst of table updates but are never put off longer than that. If the process
dies, the picture it was drawing fails with :class:`DrawingFailed` and a new process draws the
rest.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import multiprocessing
import signal
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from typing import Final

from bot.core.i18n import CATALOGUES
from engine.cards import shuffled_deck
from engine.hand import StudHand
from engine.public import PublicTable
from engine.stakes import DEFAULT_STAKES
from render import TableLabels, table_png

log = logging.getLogger(__name__)

# Jobs in the pipe at once: one being drawn and one waiting, so the process never idles while
# the loop gets to it, and a channel picture never queues behind more than these.
IN_FLIGHT: Final = 2
PRIVATE_DELAY: Final = 0.25  # seconds
CLOSE_SECONDS: Final = 5.0

Call = Callable[[], bytes]


class DrawingFailed(Exception):
    """A picture could not be drawn: the drawing raised (its traceback is the message), or
    the drawing process ended while it had the picture."""


@dataclass(order=True, slots=True)
class _Job:
    due: float  # on the clock below
    number: int
    payload: bytes = field(compare=False)  # (number, call), pickled
    future: asyncio.Future[bytes] = field(compare=False)


class DrawingProcess:
    """One drawing process, started with the first picture (and again after it died)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._numbers = itertools.count()
        self._waiting: list[_Job] = []  # a heap: the first due first
        self._sent: dict[int, _Job] = {}
        self._process: BaseProcess | None = None
        self._pipe: Connection | None = None
        self._closed = False
        self._reaping: set[asyncio.Task[None]] = set()

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def draw(self, call: Call, *, private: bool = False) -> bytes:
        """``call()``'s bytes, computed in the drawing process."""
        if self._closed:
            raise DrawingFailed("the drawing process is closed")
        number = next(self._numbers)
        # Pickled here, so a job that can't be sent fails its caller and nothing else.
        payload = bytes(ForkingPickler.dumps((number, call)))
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        due = self._clock() + (PRIVATE_DELAY if private else 0.0)
        heapq.heappush(self._waiting, _Job(due, number, payload, future))
        self._feed()
        return await future

    def _feed(self) -> None:
        while self._waiting and len(self._sent) < IN_FLIGHT:
            job = heapq.heappop(self._waiting)
            if job.future.done():  # its caller gave up
                continue
            pipe = self._pipe or self._start()
            try:
                # At most IN_FLIGHT small jobs are in the pipe: this write never waits.
                pipe.send_bytes(job.payload)
            except OSError:
                heapq.heappush(self._waiting, job)
                self._lost()
                continue
            self._sent[job.number] = job

    def _start(self) -> Connection:
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        process = context.Process(target=serve, args=(theirs,), name="stud-drawing", daemon=True)
        process.start()
        theirs.close()
        asyncio.get_running_loop().add_reader(ours.fileno(), self._readable)
        self._process, self._pipe = process, ours
        return ours

    def _readable(self) -> None:
        pipe = self._pipe
        assert pipe is not None
        try:
            while pipe.poll():
                number, ok, value = pipe.recv()
                job = self._sent.pop(number)
                if job.future.done():
                    continue
                if ok:
                    job.future.set_result(value)
                else:
                    job.future.set_exception(DrawingFailed(value))
        except (EOFError, OSError):
            self._lost()
        self._feed()

    def _lost(self) -> None:
        """The process is gone: the picture it was drawing fails (it may be what killed it),
        the ones sent after it wait for another process."""
        process = self._stop_reading()
        sent = [self._sent.pop(number) for number in sorted(self._sent)]
        if sent:
            drawing, *unstarted = sent
            if not drawing.future.done():
                drawing.future.set_exception(DrawingFailed("the drawing process ended"))
            for job in unstarted:
                heapq.heappush(self._waiting, job)
        if process is not None:
            task = asyncio.get_running_loop().create_task(self._reap(process))
            self._reaping.add(task)
            task.add_done_callback(self._reaping.discard)

    async def _reap(self, process: BaseProcess) -> None:
        await asyncio.to_thread(process.join, CLOSE_SECONDS)
        log.warning(
            "the drawing process ended (exit code %s) under a picture; another takes over",
            process.exitcode,
        )
        if process.exitcode is None:
            process.kill()

    def _stop_reading(self) -> BaseProcess | None:
        process, pipe = self._process, self._pipe
        self._process = self._pipe = None
        if pipe is not None:
            asyncio.get_running_loop().remove_reader(pipe.fileno())
            pipe.close()
        return process

    async def close(self) -> None:
        """Take no more pictures, let the process finish the one it draws, and end it."""
        self._closed = True
        for job in [*self._waiting, *self._sent.values()]:
            if not job.future.done():
                job.future.set_exception(DrawingFailed("the drawing process is closed"))
        self._waiting.clear()
        self._sent.clear()
        if self._pipe is not None:
            with contextlib.suppress(OSError):  # it is gone already
                self._pipe.send(None)
        process = self._stop_reading()
        if process is not None:
            await asyncio.to_thread(process.join, CLOSE_SECONDS)
            if process.exitcode is None:
                process.kill()
                await asyncio.to_thread(process.join)
        await asyncio.gather(*self._reaping)


def serve(pipe: Connection) -> None:
    """The drawing process: draw each job received and send its bytes back, until told to
    stop or the bot is gone (the pipe closes)."""
    # The bot ends this process when it stops: a Ctrl-C or systemd's SIGTERM to the whole
    # group must not end it under a picture the bot still waits for.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    warm_up()
    while True:
        try:
            job = pipe.recv()
        except EOFError:
            return
        if job is None:
            return
        number, call = job
        try:
            result = (number, True, call())
        except Exception:
            result = (number, False, traceback.format_exc())
        try:
            pipe.send(result)
        except OSError:
            return  # the bot is gone


def warm_up() -> None:
    """Register every catalogue's picture words (importing the catalogue does) and draw once,
    so the first table a player sees is not the slow one (card faces and the felt are drawn
    and cached on first use)."""
    hand = StudHand(stacks=[100, 100], stakes=DEFAULT_STAKES, deck=shuffled_deck(), dealer=0)
    for lang in CATALOGUES:
        table_png(PublicTable.from_hand(hand), TableLabels(language=lang))
