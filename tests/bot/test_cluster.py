"""``stud-bot cluster``: one worker process per range of shards, a dead worker
restarted, all stopped cleanly on SIGTERM; and the turns the workers take to IDENTIFY.

The launcher runs as a real process (signals are the point); its workers are the stand-ins of
``tests/bot/cluster_child.py``. The real bot in a cluster is ``tests/e2e/test_cluster.py``.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import signal
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.cluster import STOP_SECONDS, split
from bot.edge.identify import IdentifyTurns

ROOT = Path(__file__).resolve().parents[2]


def test_the_shards_are_split_in_consecutive_ranges_of_even_size() -> None:
    assert split(range(4), 2) == [(0, 1), (2, 3)]
    assert split(range(5), 2) == [(0, 1, 2), (3, 4)]
    assert split([4, 5, 6], 3) == [(4,), (5,), (6,)]
    assert split(range(8), 3) == [(0, 1, 2), (3, 4, 5), (6, 7)]


# ---------------------------------------------------------------------- identify turns


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


async def test_the_processes_take_turns_five_seconds_apart(tmp_path: Path) -> None:
    clock = Clock()
    lock = tmp_path / "identify"
    # Two processes' turns (each has its own open file, as another process would).
    first, second = (IdentifyTurns(lock, clock=clock, sleep=clock.sleep) for _ in range(2))
    assert [await first.book(), await second.book(), await first.book()] == [1000, 1005, 1010]
    clock.now = 1030.0  # long after the last one: no wait
    await second.wait()
    assert clock.slept == []
    await first.wait()  # booked 1035: waits its 5 s
    assert clock.slept == [5.0] and clock.now == 1035.0


async def test_a_turn_waits_while_another_process_holds_the_file(tmp_path: Path) -> None:
    clock = Clock()
    lock = tmp_path / "identify"
    lock.write_text("garbage")  # not a moment: nothing was booked
    holder = os.open(lock, os.O_RDWR)
    fcntl.flock(holder, fcntl.LOCK_EX)
    waits = 0

    async def sleep(seconds: float) -> None:
        nonlocal waits
        waits += 1
        os.close(holder)  # the other process is done

    turns = IdentifyTurns(lock, clock=clock, sleep=sleep)
    assert await turns.book() == 1000.0
    assert waits == 1
    assert float(lock.read_text()) == 1000.0


# ---------------------------------------------------------------------- the launcher


@dataclass
class Launcher:
    process: asyncio.subprocess.Process
    folder: Path

    def started(self) -> dict[int, str]:
        """pid -> the arguments each worker was started with."""
        return {
            int(path.name.split("-")[1]): path.read_text() for path in self.folder.glob("started-*")
        }

    def children(self) -> dict[int, int]:
        """worker pid -> the pid of the child it started."""
        return {
            int(path.name.split("-")[1]): int(path.read_text())
            for path in self.folder.glob("child-*")
        }

    def stopped(self) -> dict[int, str]:
        return {
            int(path.name.split("-")[1]): path.read_text() for path in self.folder.glob("stopped-*")
        }

    async def until_started(self, count: int, seconds: float = 20) -> dict[int, str]:
        deadline = time.monotonic() + seconds
        while len(started := self.started()) < count:
            assert time.monotonic() < deadline, f"{len(started)} workers started, not {count}"
            assert self.process.returncode is None, "the launcher exited"
            await asyncio.sleep(0.05)
        return started

    async def finish(self, seconds: float = 10) -> tuple[int, str, float]:
        """Its exit code, its log, and how long it took to exit."""
        began = time.monotonic()
        out, _ = await asyncio.wait_for(self.process.communicate(), seconds)
        assert self.process.returncode is not None
        return self.process.returncode, out.decode(), time.monotonic() - began


Launch = Callable[..., Awaitable[Launcher]]  # launch(*argv, **environment)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by the launcher) is not running.
    return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"


@pytest.fixture
async def launch(tmp_path: Path) -> AsyncIterator[Launch]:
    launched: list[Launcher] = []

    async def start(*argv: str, **env: str) -> Launcher:
        folder = tmp_path / f"run{len(launched)}"
        folder.mkdir()
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.bot.cluster_launcher",
            *argv,
            cwd=tmp_path,  # no .env there
            env={
                "PATH": os.environ["PATH"],
                "PYTHONPATH": str(ROOT),
                "DISCORD_TOKEN": "fake-token",
                "DATABASE_PATH": str(tmp_path / "stud.db"),
                "STUD_TEST_CLUSTER": str(folder),
                **env,
            },
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        launched.append(Launcher(process, folder))
        return launched[-1]

    yield start
    for launcher in launched:  # whatever a failed test left running
        if launcher.process.returncode is None:
            launcher.process.kill()
            await launcher.process.wait()
        for pid in [*launcher.started(), *launcher.children().values()]:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.slow  # a launcher process and its workers
async def test_each_worker_gets_its_shards_a_dead_one_is_restarted_and_sigterm_stops_all(
    launch: Launch,
) -> None:
    cluster = await launch("cluster", "--processes", "2", "--shard-count", "4")
    started = await cluster.until_started(2)
    shards = {pid: args.split("--shards ")[1].split()[0] for pid, args in started.items()}
    assert sorted(shards.values()) == ["0-1", "2-3"]
    for args in started.values():
        assert " --shard-count 4 --identify-lock " in args and args.startswith("run ")
    lock = {args.split("--identify-lock ")[1] for args in started.values()}
    assert len(lock) == 1  # one file for the whole cluster

    killed = next(pid for pid, shards_of in shards.items() if shards_of == "0-1")
    other = next(pid for pid in shards if pid != killed)
    os.kill(killed, signal.SIGKILL)
    restarted = await cluster.until_started(3)
    (new,) = set(restarted) - set(started)
    assert "--shards 0-1 " in restarted[new]
    assert alive(other)  # the other worker was left alone
    # What the killed worker had started went with it; the others' run on.
    children = cluster.children()
    assert not alive(children[killed])
    assert alive(children[other]) and alive(children[new])

    cluster.process.send_signal(signal.SIGTERM)
    code, log, took = await cluster.finish()
    assert code == 0, log
    assert took < 10
    assert cluster.stopped() == {new: "SIGTERM", other: "SIGTERM"}
    assert not any(alive(pid) for pid in [*restarted, *cluster.children().values()])
    assert "worker 1 (shards 0-1) was killed by SIGKILL; restarting it in 1 s" in log
    assert "Traceback" not in log and log.rstrip().endswith("stopped")


@pytest.mark.slow  # a launcher process and its workers
async def test_ctrl_c_stops_the_cluster_too(launch: Launch) -> None:
    cluster = await launch("cluster", "--processes", "3", "--shard-count", "3")
    started = await cluster.until_started(3)
    cluster.process.send_signal(signal.SIGINT)
    code, log, _ = await cluster.finish()
    assert code == 0, log
    assert set(cluster.stopped()) == set(started)


@pytest.mark.slow  # a launcher process and its workers
async def test_a_worker_that_ignores_sigterm_is_killed_in_time(launch: Launch) -> None:
    cluster = await launch(
        "cluster", "--processes", "2", "--shard-count", "2", STUD_TEST_STUBBORN="1"
    )
    started = await cluster.until_started(2)
    cluster.process.send_signal(signal.SIGTERM)
    code, log, took = await cluster.finish()
    assert code == 0, log
    assert STOP_SECONDS <= took < 10
    assert f"worker 2 (shards 1) did not stop in {STOP_SECONDS:g} s: killing it" in log
    assert not any(alive(pid) for pid in started)


@pytest.mark.slow  # a launcher process and its workers
async def test_a_worker_that_cannot_start_stops_the_cluster_with_its_exit_code(
    launch: Launch,
) -> None:
    """Exit code 4 (the database): a restart would fail the same way, as systemd knows."""
    cluster = await launch(
        "cluster", "--processes", "2", "--shard-count", "4", STUD_TEST_FATAL="2-3"
    )
    code, log, _ = await cluster.finish()
    assert code == 4, log
    assert log.rstrip().splitlines()[-1] == (
        "stud-bot: worker 2 (shards 2-3) exited with code 4: the database cannot be used "
        "(its message is above)"
    )
    (healthy,) = cluster.started()
    assert cluster.stopped() == {healthy: "SIGTERM"} and not alive(healthy)


@pytest.mark.slow  # a launcher process and its workers
async def test_more_processes_than_shards_is_exit_code_2(launch: Launch) -> None:
    cluster = await launch("cluster", "--processes", "3", "--shard-count", "2")
    code, log, _ = await cluster.finish()
    assert code == 2
    assert log.rstrip().splitlines()[-1] == (
        "stud-bot: --processes 3 is more than the 2 shards to run: each process needs one at "
        "least (raise SHARD_COUNT or --shard-count)"
    )
    assert cluster.started() == {}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ("run", "--shards", "5", "--shard-count", "4"),
            "SHARD_IDS (--shards): shard 5 does not exist: 4 shards are 0-3",
        ),
        (
            ("run", "--shards", "0-1"),
            "shards named without their count: set SHARD_COUNT (or --shard-count) too",
        ),
    ],
)
def test_bad_shards_on_the_command_line_are_exit_code_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    argv: tuple[str, ...],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "fake-token")
    for name in ("SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    assert main(list(argv)) == 2
    assert capsys.readouterr().err == f"stud-bot: {message}\n"
