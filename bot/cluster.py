"""``stud-bot cluster --processes N``: the bot in N worker processes, one range of shards each.

What large discord.py bots do past one process: each worker is ``stud-bot run --shards A-B
--shard-count C``, a bot of its own with its own gateway connections, sharing the database
(PostgreSQL; DATABASE_URL). A server's interactions arrive on its shard only, and each worker
restores only the tables of its shards' servers, so the workers never touch each other's tables.

The launcher starts the workers, restarts one that dies (after a pause that grows while it keeps
dying: 1 s, 2 s, 5 s ... 60 s, back to 1 s once it has run a minute), and on SIGTERM or SIGINT
stops them all with SIGTERM, which each handles as the single process does, and exits 0. A worker
that exits with code 2, 3 or 4 (settings, token, database: docs/operating.md, "Exit codes")
would only fail again: the cluster stops and exits with that code, as systemd's unit does not
restart on them.
The workers take turns to IDENTIFY, as Discord allows one new session per 5 seconds (per
``max_concurrency`` bucket) for the whole bot: through the database on PostgreSQL, whatever
machine each runs on (:mod:`bot.edge.gateway`), else through a file (:mod:`bot.edge.identify`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import discord

from bot.cli import EXIT_DATABASE, EXIT_SETTINGS, EXIT_TOKEN, StartupFailure, stop_signal
from bot.core.clock import pauses
from bot.core.settings import Settings
from bot.core.shards import shard_ranges

log = logging.getLogger(__name__)

# What starts a worker (its arguments follow); the e2e tests point it at the fake Discord.
WORKER: tuple[str, ...] = (sys.executable, "-m", "bot")
# A worker still running this long after SIGTERM is killed: the whole cluster then still exits
# inside the 10 seconds systemd and Docker give by default (a worker needs 1-3 s).
STOP_SECONDS = 8.0
RESTART_PAUSES = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
STABLE_SECONDS = 60.0  # a worker that ran this long died for a new reason: pauses start over
FATAL = {
    EXIT_SETTINGS: "a setting is wrong",
    EXIT_TOKEN: "Discord rejected DISCORD_TOKEN",
    EXIT_DATABASE: "the database cannot be used",
}


def split(shard_ids: Sequence[int], processes: int) -> list[tuple[int, ...]]:
    """``processes`` consecutive ranges of ``shard_ids``, their sizes at most one apart."""
    size, extra = divmod(len(shard_ids), processes)
    ranges: list[tuple[int, ...]] = []
    start = 0
    for number in range(processes):
        end = start + size + (number < extra)
        ranges.append(tuple(shard_ids[start:end]))
        start = end
    return ranges


async def recommended_shards(token: str) -> int:
    """How many shards Discord recommends for the bot (``GET /gateway/bot``)."""
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    try:
        await http.static_login(token)
        shards, _, _ = await http.get_bot_gateway()
    finally:
        await http.close()
    return int(shards)


def exit_text(code: int) -> str:
    if code < 0:
        return f"was killed by {signal.Signals(-code).name}"
    return f"exited with code {code}"


def end_group(pid: int) -> None:
    """Kill what is left of a worker's process group: after a SIGKILL (or the OOM killer) its
    drawing process would otherwise run on, orphaned, holding its memory."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


@dataclass
class Worker:
    number: int
    shards: tuple[int, ...]
    process: asyncio.subprocess.Process | None = None

    @property
    def name(self) -> str:
        return f"worker {self.number} (shards {shard_ranges(self.shards)})"


class Cluster:
    def __init__(
        self,
        shard_count: int,
        ranges: Sequence[tuple[int, ...]],
        lock: Path,
        *,
        metrics_port: int = 0,
    ) -> None:
        self.shard_count = shard_count
        self.metrics_port = metrics_port  # worker n serves its metrics on this port + n - 1
        self.workers = [Worker(number, shards) for number, shards in enumerate(ranges, 1)]
        self.lock = lock
        self.stopping = asyncio.Event()

    def command(self, worker: Worker) -> list[str]:
        return [
            *WORKER,
            "run",
            "--shards",
            shard_ranges(worker.shards),
            "--shard-count",
            str(self.shard_count),
            "--identify-lock",
            str(self.lock),
        ]

    def environment(self, worker: Worker) -> dict[str, str] | None:
        """The worker's environment: the launcher's, with a metrics port of its own."""
        if not self.metrics_port:
            return None
        return {**os.environ, "METRICS_PORT": str(self.metrics_port + worker.number - 1)}

    async def run(self, stop: asyncio.Event) -> None:
        """Until ``stop`` is set, or a worker exits with a code a restart cannot fix
        (:class:`StartupFailure`); every worker has stopped when this returns."""
        keepers = [asyncio.create_task(self._keep(worker)) for worker in self.workers]
        stopped = asyncio.create_task(stop.wait())
        try:
            await asyncio.wait([stopped, *keepers], return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopped.cancel()
            await self._stop(keepers)
        failures = [error for keeper in keepers if (error := keeper.exception()) is not None]
        if failures:
            raise failures[0]  # a worker's fatal exit code, as a StartupFailure

    async def _keep(self, worker: Worker) -> None:
        """Run ``worker``, restarting it whenever it dies, until the cluster stops."""
        loop = asyncio.get_running_loop()
        backoff = pauses(RESTART_PAUSES)
        while not self.stopping.is_set():
            started = loop.time()
            # A process group of its own: what it leaves behind (its drawing process) can be
            # ended with it, as systemd ends a unit's processes.
            worker.process = await asyncio.create_subprocess_exec(
                *self.command(worker), start_new_session=True, env=self.environment(worker)
            )
            if self.stopping.is_set():  # it was starting when the others got SIGTERM
                worker.process.terminate()
            log.info("%s started (pid %d)", worker.name, worker.process.pid)
            code = await worker.process.wait()
            end_group(worker.process.pid)
            if self.stopping.is_set():
                return
            if code in FATAL:
                raise StartupFailure(
                    code, f"{worker.name} {exit_text(code)}: {FATAL[code]} (its message is above)"
                )
            pause = 0.0
            if loop.time() - started >= STABLE_SECONDS:
                backoff = pauses(RESTART_PAUSES)  # it died of something new: restart at once
            else:
                pause = next(backoff)
            log.warning("%s %s; restarting it in %g s", worker.name, exit_text(code), pause)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), pause)

    async def _stop(self, keepers: list[asyncio.Task[None]]) -> None:
        self.stopping.set()
        running = [w for w in self.workers if w.process and w.process.returncode is None]
        for worker in running:
            assert worker.process is not None
            with contextlib.suppress(ProcessLookupError):
                worker.process.terminate()
        if running:
            log.info("stopping %d workers", len(running))
        _, late = await asyncio.wait(keepers, timeout=STOP_SECONDS)
        for worker in self.workers:
            if worker.process is not None and worker.process.returncode is None:
                log.warning("%s did not stop in %g s: killing it", worker.name, STOP_SECONDS)
                end_group(worker.process.pid)
        if late:
            await asyncio.wait(late)


async def cluster(settings: Settings, args: argparse.Namespace) -> None:
    processes: int = args.processes
    if settings.activity is not None and processes > 1:
        # One web server on one port, with the tables of one process behind it.
        raise StartupFailure(
            EXIT_SETTINGS,
            "the Activity (ACTIVITY_PORT) runs in a single process: unset ACTIVITY_PORT, "
            "DISCORD_CLIENT_SECRET and ACTIVITY_URL for a cluster, or run stud-bot run",
        )
    count = settings.shard_count
    if count is None:
        # Discord's count, unless that leaves a process without a shard: more shards than it
        # recommends is allowed, fewer than it requires is not.
        count = max(await recommended_shards(settings.token), processes)
    shard_ids = list(settings.shard_ids or range(count))
    if processes > len(shard_ids):
        raise StartupFailure(
            EXIT_SETTINGS,
            f"--processes {processes} is more than the {len(shard_ids)} shards to run: each "
            "process needs one at least (raise SHARD_COUNT or --shard-count)",
        )
    if not settings.database_url:
        log.warning(
            "the workers share the SQLite file %s: it has one writer at a time; PostgreSQL "
            "(DATABASE_URL) suits a cluster",
            settings.database_path,
        )
    ranges = split(shard_ids, processes)
    log.info(
        "cluster of %d workers, %d shards: %s",
        processes,
        count,
        ", ".join(shard_ranges(shards) for shards in ranges),
    )
    with tempfile.TemporaryDirectory(prefix="stud-cluster-") as directory:
        lock = Path(directory) / "identify"
        await Cluster(count, ranges, lock, metrics_port=settings.metrics_port).run(stop_signal())
    log.info("stopped")
