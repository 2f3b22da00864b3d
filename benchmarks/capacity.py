"""``python -m benchmarks.bot --processes 1 2 --database sqlite postgresql``: how many clicks per
second the bot sustains with the table update's p95 under 50 ms, in 1 and 2 processes, on each
database, side by side.

Each configuration runs the real bot as processes of their own against the fake Discord of the
end-to-end tests (``tests/e2e/run_bot.py``): one process is ``stud-bot run``, more are ``stud-bot
cluster --processes N`` with one shard each, the tables spread over one server per shard. The
fake and its players run here. Each table has two players who click a passive action once the
bot shows them their turn, after a random think time (uniform, mean ``tables / rate``), so the
rate of clicks follows the target rate; for each click the time from its arrival (the
INTERACTION_CREATE sent) to the update of its table message (or the results) is measured, as in
``python -m benchmarks.bot``.

The search: from ``START`` clicks/s, each step plays ``STEP_SECONDS`` (the first
``SETTLE_SECONDS`` after a change of rate not counted) and multiplies the rate by 1.5 while the
p95 stays under 50 ms (divides it, if the first step is already too slow); then halves the
interval between the last rate that held and the first that did not, twice. The figure is the
measured rate of the best step that held. The machine's other load shows in the figures: run it
on a quiet machine.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.store import database_for_the_run, server_version
from tests.e2e.fake_discord import JSON, FakeDiscord, buttons, message_text
from tests.e2e.harness import passive

ROOT = Path(__file__).resolve().parents[1]
ACTOR = re.compile(r"▶ \*\*(.+?)\*\*")
TARGET_MS = 50.0
START = 60.0  # clicks per second
GROWTH = 1.5
REFINE = 2  # bisection steps after the first rate that did not hold
MAX_RATE = 2000.0
MIN_RATE = 5.0
STEP_SECONDS = 8.0
SETTLE_SECONDS = 2.0
POSTGRES_SERVER = os.environ.get(
    "STUD_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)


@dataclass(frozen=True, slots=True)
class Step:
    target: float  # clicks per second asked for
    rate: float  # clicks per second measured
    p50_ms: float
    p95_ms: float

    @property
    def holds(self) -> bool:
        return self.p95_ms < TARGET_MS


@dataclass
class Players:
    """The fake Discord's players at every table, clicking at ``think`` mean seconds."""

    fake: FakeDiscord
    think: float = 1.0
    samples: list[tuple[float, float]] = field(default_factory=list)  # (arrival, update s)
    stopping: bool = False
    _pending: dict[int, asyncio.Future[float]] = field(default_factory=dict)
    _changed: dict[int, asyncio.Event] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.fake.on_update = self._updated

    def _updated(self, channel_id: int) -> None:
        self._changed.setdefault(channel_id, asyncio.Event()).set()
        future = self._pending.pop(channel_id, None)
        if future is not None and not future.done():
            future.set_result(time.monotonic())  # the fake's records use this clock

    async def _turn(self, channel_id: int, clicked: set[str]) -> tuple[JSON, str]:
        changed = self._changed.setdefault(channel_id, asyncio.Event())
        while True:
            changed.clear()
            message = self.fake.table_message(channel_id)
            if message is not None:
                ids = set(buttons(message).values())
                actor = ACTOR.search(message_text(message))
                if ids and not ids & clicked and actor is not None:
                    return message, actor.group(1)
            await changed.wait()

    async def open(self, channel_id: int) -> dict[str, JSON]:
        users = [self.fake.add_user(f"c{channel_id % 100000}p{seat}") for seat in range(2)]
        await self.fake.answer(await self.fake.slash(users[0], "table open", channel_id=channel_id))
        for user in users:
            await self.fake.answer(
                await self.fake.slash(user, "sit", channel_id=channel_id, buy_in=1000)
            )
        return {str(user["global_name"]): user for user in users}

    async def play(self, channel_id: int, players: dict[str, JSON]) -> None:
        rng = random.Random(channel_id)
        clicked: set[str] = set()
        while not self.stopping:
            await self._turn(channel_id, clicked)
            await asyncio.sleep(rng.uniform(0, 2 * self.think))
            message, actor = await self._turn(channel_id, clicked)
            labels = buttons(message)
            clicked |= set(labels.values())
            done: asyncio.Future[float] = asyncio.get_running_loop().create_future()
            self._pending[channel_id] = done
            reply = await self.fake.click(players[actor], message, passive(labels))
            if reply.kind not in (6, 7):
                raise RuntimeError(f"the bot refused a click: {reply.content}")
            updated = await asyncio.wait_for(done, 60)
            created = self.fake.interactions[reply.interaction_id].created
            self.samples.append((created, updated - created))

    async def step(self, tables: int, target: float) -> Step:
        self.think = tables / target
        began = time.monotonic() + SETTLE_SECONDS
        await asyncio.sleep(SETTLE_SECONDS + STEP_SECONDS)
        ended = time.monotonic()
        updates = sorted(ms * 1000 for at, ms in self.samples if began <= at < ended)
        if not updates:
            raise RuntimeError("no click was answered: see the bot's log")
        p95 = updates[max(0, round(0.95 * len(updates)) - 1)]
        return Step(target, len(updates) / (ended - began), statistics.median(updates), p95)


def bot_command(processes: int) -> list[str]:
    entry = [sys.executable, "-m", "tests.e2e.run_bot"]
    if processes == 1:
        return [*entry, "run"]
    return [*entry, "cluster", "--processes", str(processes)]


async def measure(processes: int, database: str, tables: int, log: Path) -> list[Step]:
    """Every step of the search for one configuration."""
    fake = FakeDiscord(shard_count=processes)
    guilds = [fake.guild_id] + [fake.add_guild() for _ in range(processes - 1)]
    # The tables spread evenly over the servers, so over the shards and the processes.
    channels = [fake.channel_id] + [
        fake.add_channel(guilds[number % processes]) for number in range(1, tables)
    ]
    players = Players(fake)
    await fake.start()
    env = {
        **os.environ,
        "STUD_FAKE_DISCORD": f"127.0.0.1:{fake.port}",
        "DISCORD_TOKEN": "benchmark-token",
        "COUNTDOWN_SECONDS": "0",
        "LOG_LEVEL": "WARNING",
    }
    for name in ("DEV_GUILD_ID", "SHARD_COUNT", "SHARD_IDS", "DATABASE_URL", "DATABASE_PATH"):
        env.pop(name, None)
    env["DATABASE_URL" if database.startswith("postgresql://") else "DATABASE_PATH"] = database
    with log.open("ab") as output:
        bot = await asyncio.create_subprocess_exec(
            *bot_command(processes), cwd=ROOT, env=env, stdout=output, stderr=output
        )
    games: list[asyncio.Task[None]] = []
    try:
        deadline = time.monotonic() + 120
        while fake.live_shards() != set(range(processes)) or not fake.commands:
            if bot.returncode is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the bot did not connect: see {log}")
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)  # its guilds are streamed in after READY
        opening = asyncio.Semaphore(20)

        async def start(channel_id: int) -> None:
            async with opening:
                seated = await players.open(channel_id)
            await players.play(channel_id, seated)

        games = [asyncio.create_task(start(channel_id)) for channel_id in channels]
        while len(fake.interactions) < 3 * tables:  # every table opened, both players sat
            if any(game.done() for game in games):
                break
            await asyncio.sleep(0.1)
        return await search(players, tables, games)
    finally:
        # The bot first: a click cancelled while the bot answers it would have no one to hear.
        players.stopping = True
        if bot.returncode is None:
            bot.terminate()
        await bot.wait()
        for game in games:
            game.cancel()
        await asyncio.gather(*games, return_exceptions=True)
        await fake.stop()


async def search(players: Players, tables: int, games: list[asyncio.Task[None]]) -> list[Step]:
    steps: list[Step] = []

    async def run(target: float) -> Step:
        step = await players.step(tables, target)
        for game in games:
            if game.done():
                game.result()  # a player's error (the bot refused a click, never answered)
        steps.append(step)
        print(
            f"    {target:6.0f}/s asked: {step.rate:6.1f} clicks/s, update p50 {step.p50_ms:5.1f}"
            f" ms, p95 {step.p95_ms:6.1f} ms {'holds' if step.holds else 'too slow'}",
            flush=True,
        )
        return step

    target = START
    held: float | None = None
    failed: float | None = None
    while failed is None and target <= MAX_RATE:
        if (await run(target)).holds:
            held, target = target, target * GROWTH
        else:
            failed = target
    # Too slow from the start: down until a rate holds.
    while held is None and failed is not None and failed / GROWTH >= MIN_RATE:
        if (await run(failed / GROWTH)).holds:
            held = failed / GROWTH
        else:
            failed /= GROWTH
    for _ in range(REFINE if held is not None and failed is not None else 0):
        assert held is not None and failed is not None
        middle = (held + failed) / 2
        if (await run(middle)).holds:
            held = middle
        else:
            failed = middle
    return steps


def best(steps: Sequence[Step]) -> str:
    holding = [step for step in steps if step.holds]
    if not holding:
        return f"none (p95 {steps[0].p95_ms:.0f} ms at {steps[0].rate:.0f}/s)"
    top = max(holding, key=lambda step: step.rate)
    return f"{top.rate:.0f}/s (p95 {top.p95_ms:.0f} ms)"


def processes_name(count: int) -> str:
    return f"{count} process" + ("es" if count > 1 else "")


async def configuration(
    kind: str, processes: int, tables: int, folder: Path, log: Path
) -> tuple[str, str]:
    """The database's version and the best rate that held, for one cell of the table."""
    async with database_for_the_run(kind, folder, POSTGRES_SERVER) as location:
        version = await server_version(location)
        return version, best(await measure(processes, location, tables, log))


def main(processes: Sequence[int], databases: Sequence[str], tables: int) -> None:
    results: dict[tuple[str, int], str] = {}
    versions: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as directory:
        log = Path(directory) / "bot.log"
        for kind in databases:
            for count in processes:
                print(f"{kind}, {processes_name(count)}:", flush=True)
                folder = Path(directory) / f"{kind}-{count}"
                folder.mkdir()
                versions[kind], results[kind, count] = asyncio.run(
                    configuration(kind, count, tables, folder, log)
                )
        errors = [line for line in log.read_text().splitlines() if " ERROR " in line]
        if errors:
            print(f"the bot logged {len(errors)} errors; the first: {errors[0]}")
    print(
        f"\nClicks per second with the table update's p95 under {TARGET_MS:.0f} ms ({tables} "
        f"tables; {os.cpu_count()} CPUs shared by the bot, its database and the fake Discord "
        "with its players):"
    )
    width = max(len(text) for text in results.values()) + 3
    label = max(len(versions[kind]) for kind in databases) + 3
    print(" " * label + "".join(f"{processes_name(n):<{width}}" for n in processes))
    for kind in databases:
        cells = "".join(f"{results[kind, n]:<{width}}" for n in processes)
        print(f"{versions[kind]:<{label}}{cells}")
