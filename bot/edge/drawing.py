"""The process the pictures are drawn in, fed through its stdin and read from its stdout by the
event loop itself.

Drawing holds the GIL, so it cannot share the bot's process: every other table's database and
network work would wait behind it. A ``ProcessPoolExecutor`` moves it out, but pays with two
threads of its own in the bot (a queue feeder and a result manager) that take the GIL for every
picture; measured in ``benchmarks/bot.py``, they cost the event loop more than the pickling. Here
the loop writes a framed request to the child's stdin and reads the framed answer off its
stdout, with no thread at all. A child that dies (killed, out of memory) fails the picture it
had and the next one starts a new child. A child that cannot start (a sandbox that kills it, a
missing font) is said once, as an ERROR with its cause, and pictures stop until the bot
restarts: each comes back as :data:`BLANK`, so tables go on with their text, which has every
figure and card the picture has.

Run as ``python -m bot.edge.drawing`` by ``DrawingProcess`` only: it imports no Discord code.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import heapq
import io
import itertools
import logging
import os
import pickle
import signal
import sys
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, BinaryIO, Final, Protocol

from words import Words

log = logging.getLogger(__name__)

HEADER: Final = 4  # bytes of a frame's length, big-endian
IN_FLIGHT: Final = 2
BEHIND_SECONDS: Final = 0.25
# The child yields the CPU to the bot when both want it: an acknowledgement has Discord's 3 s
# limit, a picture has none. benchmarks/bot.py on two cores, four runs each in turn: at 70
# clicks/s acknowledgement p95 15-20 ms against 20-25, table update the same within the noise;
# saturated (85 clicks/s) the update p95 is about a sixth longer.
NICENESS: Final = 5
PROJECT_ROOT: Final = str(Path(__file__).resolve().parents[2])
COMMAND: Final = (sys.executable, "-m", "bot.edge.drawing")
# Every picture once no drawing process could start: a transparent pixel (an attachment the
# message's layout can still name).
BLANK: Final = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNgYAAAAAMAASsJTYQAAAAASUVORK5CYII="
)


class DrawingCrashed(Exception):
    """The drawing process ended before answering: a new one draws the next picture."""


class Drawing(Protocol):
    """Where pictures are drawn: :class:`DrawingProcess`, or a stand-in for tests."""

    async def draw(
        self, draw: Callable[..., bytes], *args: object, behind: bool = False, **kwargs: object
    ) -> bytes: ...

    async def close(self) -> None: ...


class _Requests:
    """Pickles pictures' requests, each language's words (a picture's labels carry them) as a
    reference: the child is sent a language's words once, not 1.5 KB of them with every picture.
    One pickler for every request (its memo cleared), and a reducer for the words only: a
    pickler made per request, or a hook called for every object, cost more than the words.
    """

    def __init__(self) -> None:
        self._buffer = io.BytesIO()
        self._pickler = pickle.Pickler(self._buffer, protocol=pickle.HIGHEST_PROTOCOL)
        self._pickler.dispatch_table = {Words: self._reference}
        self._words: dict[int, Words] = {}

    def pickle(self, request: object) -> tuple[bytes, dict[int, Words]]:
        """The pickled request and the words it refers to, by reference."""
        self._buffer.seek(0)
        self._buffer.truncate()
        self._pickler.clear_memo()
        words: dict[int, Words] = {}
        self._words = words
        self._pickler.dump(request)
        return self._buffer.getvalue(), words

    def _reference(self, words: Words) -> tuple[Callable[[int], Words], tuple[int]]:
        self._words[id(words)] = words
        return _shared_words, (id(words),)


def _shared_words(key: int) -> Words:
    """A language's words in a pickled request: the child reads them by ``key``."""
    raise RuntimeError("a reference to shared words is only read by the drawing process")


# How the bot pickles the reference; the child runs this module as __main__, so it is named
# as the bot imports it.
_SHARED_WORDS: Final = ("bot.edge.drawing", "_shared_words")


class _Unpickler(pickle.Unpickler):
    """The child's side of :class:`_Requests`: a reference is the words sent before it."""

    def __init__(self, request: bytes, words: dict[int, Words]) -> None:
        super().__init__(io.BytesIO(request))
        self.words = words

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == _SHARED_WORDS:
            return self.words.__getitem__
        return super().find_class(module, name)


# A request: (when due, order, the pickled call, the words it refers to, its answer).
_Request = tuple[float, int, bytes, dict[int, Words], asyncio.Future[bytes]]


class DrawingProcess:
    """One child process that draws pictures; started on first use (or by ``start``).

    Pictures are drawn in the order asked, except that one asked for ``behind`` (a DM's cards)
    lets the others asked within ``BEHIND_SECONDS`` after it go first (the table pictures the
    players are waiting on), and no more: under load a DM still comes within that. Two are sent
    ahead, so the child always has the next one when it finishes a picture.
    """

    def __init__(self, command: Sequence[str] = COMMAND) -> None:
        self._command = tuple(command)  # tests start the child inside a sandbox
        self._process: asyncio.subprocess.Process | None = None
        self._failed = False  # a child could not start: no picture until the bot restarts
        self._order = itertools.count()
        # The next to send is the smallest.
        self._queued: list[_Request] = []
        self._requests = _Requests()
        # Every language's words the child was sent, kept so that their ids stay theirs.
        self._child_has: dict[int, Words] = {}
        self._sent: deque[asyncio.Future[bytes]] = deque()  # answered in the order sent
        # Reads answers while any are due, then ends: no task waits on the child between
        # pictures (a test's simulated Discord waits for the bot's tasks before time passes).
        self._reader: asyncio.Task[None] | None = None
        self._spawning = asyncio.Lock()  # pictures asked for while the child starts wait for it

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def draw(
        self, draw: Callable[..., bytes], *args: object, behind: bool = False, **kwargs: object
    ) -> bytes:
        """``draw(*args, **kwargs)`` in the child (``draw`` must be a module-level function and
        its arguments picklable); its exception is raised here. :data:`BLANK` once no child
        can start."""
        request, words = self._requests.pickle((draw, args, kwargs))
        process = await self._started()
        if process is None:
            return BLANK
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[bytes] = loop.create_future()
        due = loop.time() + (BEHIND_SECONDS if behind else 0.0)
        heapq.heappush(self._queued, (due, next(self._order), request, words, answer))
        self._send(process)
        return await answer

    def _send(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdin is not None
        while self._queued and len(self._sent) < IN_FLIGHT:
            *_, request, words, answer = heapq.heappop(self._queued)
            if answer.done():
                continue  # its caller was cancelled
            self._sent.append(answer)
            # Sent in the order the child reads them: the first to need a language's words
            # brings them.
            new = {key: value for key, value in words.items() if key not in self._child_has}
            self._child_has.update(new)
            frame = pickle.dumps((new, request), protocol=pickle.HIGHEST_PROTOCOL)
            # A broken pipe shows as the end of the child's answers: the reader fails these.
            process.stdin.write(len(frame).to_bytes(HEADER, "big") + frame)
        if self._sent and (self._reader is None or self._reader.done()):
            self._reader = asyncio.get_running_loop().create_task(
                self._read(process, self._sent), name="drawing-answers"
            )

    async def start(self) -> None:
        """Start the child now rather than at the first picture."""
        await self._started()

    async def _started(self) -> asyncio.subprocess.Process | None:
        """The running child, started if need be; None if it could not start."""
        async with self._spawning:
            if self._failed:
                return None
            if self._process is None or self._process.returncode is not None:
                environment = dict(os.environ)
                # The child finds this checkout's packages whether or not it is installed.
                paths = [PROJECT_ROOT, environment.get("PYTHONPATH", "")]
                environment["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
                self._child_has.clear()  # a new child knows no words yet
                self._process = None
                # The old child's reader fails what was sent to it; the new child's answers
                # are awaited in a queue of their own, read by a reader of their own.
                self._sent, self._reader = deque(), None
                try:
                    process = await asyncio.create_subprocess_exec(
                        *self._command,
                        stdin=asyncio.subprocess.PIPE,
                        stdout=asyncio.subprocess.PIPE,
                        env=environment,
                    )
                except OSError as error:
                    failure: str | None = f"{type(error).__name__}: {error}"
                else:
                    self._process = process  # close() ends it, even while it starts
                    try:
                        failure = await self._start_report(process)
                    except asyncio.CancelledError:
                        # Its first frame unread, it would answer the next picture with it.
                        process.kill()
                        self._process = None
                        raise
                    if self._process is not process:
                        return None  # closed meanwhile: the bot is stopping
                if failure is not None:
                    # Starting again would fail again (the same sandbox, the same files), and
                    # a table waiting on its picture would wait for ever.
                    self._failed, self._process = True, None
                    log.error(
                        "the drawing process could not start (%s): tables show no pictures, "
                        "only their text, until the bot restarts",
                        failure,
                    )
                    return None
            return self._process

    async def _start_report(self, process: asyncio.subprocess.Process) -> str | None:
        """Read the child's first frame, its start: why it could not start, or None (and its
        warnings logged)."""
        assert process.stdout is not None
        try:
            size = int.from_bytes(await process.stdout.readexactly(HEADER), "big")
            started, said = pickle.loads(await process.stdout.readexactly(size))
        except asyncio.IncompleteReadError:
            code = await process.wait()
            if code >= 0:
                return f"exit code {code}"
            if -code == signal.SIGSYS:
                return "killed by SIGSYS: a system call its sandbox denies"
            names = {number.value: number.name for number in signal.Signals}
            return f"killed by {names.get(-code, f'signal {-code}')}"
        if not started:
            await process.wait()
            return str(said)
        for warning in said:
            log.warning("the drawing process: %s", warning)
        return None

    async def _read(
        self, process: asyncio.subprocess.Process, sent: deque[asyncio.Future[bytes]]
    ) -> None:
        assert process.stdout is not None
        try:
            while sent:
                size = int.from_bytes(await process.stdout.readexactly(HEADER), "big")
                ok, value = pickle.loads(await process.stdout.readexactly(size))
                answer = sent.popleft()
                if not answer.done():
                    if ok:
                        answer.set_result(value)
                    else:
                        answer.set_exception(value)
                if self._process is process:  # else the queue is a new child's to take
                    self._send(process)
        except asyncio.IncompleteReadError:
            if self._process is process:
                self._process = None
            code = await process.wait()
            log.warning(
                "the drawing process ended (exit code %s); the next picture starts one", code
            )
            waiting = [*sent]
            sent.clear()
            if self._process is None:  # no new child has taken the queue meanwhile
                waiting += [answer for *_, answer in self._queued]
                self._queued.clear()
            for answer in waiting:
                if not answer.done():
                    answer.set_exception(DrawingCrashed("the drawing process ended"))

    async def close(self, timeout: float = 5.0) -> None:
        """End the child: it finishes the pictures it has, then exits on end of input."""
        process, self._process = self._process, None
        if process is not None and process.returncode is None:
            assert process.stdin is not None
            process.stdin.close()
            try:
                await asyncio.wait_for(process.wait(), timeout)
            except TimeoutError:
                process.kill()
                await process.wait()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)


class InProcessDrawing:
    """:class:`DrawingProcess`'s stand-in that draws on the event loop itself: no child, so it
    suits tests that do not check the process. The request still makes the trip through pickle
    that it makes to the child, so what could not be sent there fails here too."""

    pid: int | None = None

    async def draw(
        self, draw: Callable[..., bytes], *args: object, behind: bool = False, **kwargs: object
    ) -> bytes:
        request = pickle.dumps((draw, args, kwargs), protocol=pickle.HIGHEST_PROTOCOL)
        function, args, kwargs = pickle.loads(request)
        picture: bytes = function(*args, **kwargs)
        return picture

    async def start(self) -> None:
        """Nothing to start."""

    async def close(self, timeout: float = 5.0) -> None:
        """Nothing to end."""


def _read_frame(source: BinaryIO) -> bytes | None:
    header = source.read(HEADER)
    if len(header) < HEADER:
        return None
    return source.read(int.from_bytes(header, "big"))


def serve(source: BinaryIO, answers: BinaryIO) -> None:
    """Draw each framed request from ``source`` and write its framed answer, until end of input."""
    words: dict[int, Words] = {}  # each language's words, as the bot first sent them
    while (frame := _read_frame(source)) is not None:
        new, request = pickle.loads(frame)
        words.update(new)
        draw, args, kwargs = _Unpickler(request, words).load()
        try:
            answer = pickle.dumps((True, draw(*args, **kwargs)), pickle.HIGHEST_PROTOCOL)
        except Exception as error:
            try:
                answer = pickle.dumps((False, error), pickle.HIGHEST_PROTOCOL)
            except Exception:
                answer = pickle.dumps((False, RuntimeError(repr(error))))
        _write_frame(answers, answer)


def _write_frame(answers: BinaryIO, frame: bytes) -> None:
    answers.write(len(frame).to_bytes(HEADER, "big") + frame)
    answers.flush()


def _prepare() -> list[str]:
    """Get ready to draw; what the bot should warn about."""
    warnings = []
    try:
        os.nice(NICENESS)
    except OSError as error:
        # A sandbox may deny setpriority (systemd's @resources with SystemCallErrorNumber=):
        # pictures are drawn all the same, only without giving way to the bot.
        warnings.append(
            f"could not lower its priority ({error}): pictures compete with the bot for the CPU"
        )
    from render import warm_up
    from words import Texts

    texts = Texts()
    warm_up(texts.pictures(code) for code in texts.codes)
    return warnings


def main() -> None:
    # Ctrl+C reaches the whole process group: the bot ends this process by closing its input.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    # Anything a library prints must not corrupt the answers: stdout now goes to stderr.
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    # The first frame says whether the child started: the bot logs the cause, or the warnings.
    try:
        warnings = _prepare()
    except Exception as error:
        _write_frame(answers, pickle.dumps((False, f"{type(error).__name__}: {error}")))
        sys.exit(1)
    _write_frame(answers, pickle.dumps((True, warnings)))
    with contextlib.suppress(BrokenPipeError):
        serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    main()
