"""``python -m benchmarks.bot``: many tables playing at once through a simulated Discord.

The unmodified bot runs in this process and connects to the fake Discord of the end-to-end
tests (REST and gateway on 127.0.0.1), which runs with its players in a child process so the two
don't share an event loop. Each table has two players who click the table buttons once the bot
shows them, after a random think time (``--think``: mean seconds, one run per value). For every
click two times are measured from its arrival (the INTERACTION_CREATE sent): to the bot's
acknowledgement (its first callback request), and to the bot's update of that channel's table
message (or the results, when the click ended the hand). Printed for the whole run and for its
steady part (after the first 10 s): p50/p95/max of both, and the bot process's peak RSS.

The tables open together by default (the issue's set-up), so their deals and showdowns come in
step for the whole run; ``--stagger S`` opens them at random over the first S seconds instead, as
a bot's tables are in practice. Each run also prints the CPU a click costs in each process, how
many clicks/s would fill the machine's cores at that cost, and the time a fixed piece of pure
Python takes here: this machine's speed swings by a factor of two between days, and figures of
different days compare only beside that one.

Targets (issue 9): acknowledgement p95 < 10 ms; update p95 < 30 ms at 70 clicks/s and < 50 ms at
140 clicks/s; RSS < 200 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import re
import resource
import statistics
import tempfile
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

import discord
import yarl

from benchmarks import capacity
from bot.__main__ import open_store
from bot.core.settings import GameDefaults, Settings
from bot.edge.client import StudBot
from bot.edge.drawing import DrawingProcess
from tests.e2e.fake_discord import JSON, FakeDiscord, buttons, message_text
from words import Texts

ACTOR = re.compile(r"▶ \*\*(.+?)\*\*")
STEADY_AFTER = 10.0  # seconds: tables opening and first deals are behind by then


def passive(labels: dict[str, str]) -> str:
    for prefix in ("Check", "Call", "Bring in"):
        for label, custom_id in labels.items():
            if label.startswith(prefix):
                return custom_id
    raise RuntimeError(f"no passive action in {labels}")


# ---------------------------------------------------------------------- child: Discord + players


async def next_turn(
    fake: FakeDiscord, channel_id: int, seen: set[str], changed: asyncio.Event
) -> tuple[JSON, str]:
    """The table message once it shows buttons not clicked yet, and whose turn it is."""
    while True:
        changed.clear()
        message = fake.table_message(channel_id)
        if message is not None:
            ids = set(buttons(message).values())
            actor = ACTOR.search(message_text(message))
            if ids and not ids & seen and actor is not None:
                return message, actor.group(1)
        await changed.wait()


async def drive_table(
    fake: FakeDiscord,
    channel_id: int,
    clicks: int,
    think: float,
    pending: dict[int, asyncio.Future[float]],
    changed: asyncio.Event,
    samples: list[Sample],
    stagger: float,
) -> None:
    rng = random.Random(channel_id)
    await asyncio.sleep(rng.uniform(0, stagger))
    users = [fake.add_user(f"c{channel_id % 100000}p{i}") for i in range(2)]
    by_name = {str(user["global_name"]): user for user in users}
    # Commands are acknowledged at once and answered when done: wait for each answer.
    await fake.answer(await fake.slash(users[0], "table open", channel_id=channel_id))
    for user in users:
        await fake.answer(await fake.slash(user, "sit", channel_id=channel_id, buy_in=1000))
    seen: set[str] = set()
    for _ in range(clicks):
        message, actor = await next_turn(fake, channel_id, seen, changed)
        # A player reads the table before he clicks: mean ``think`` seconds.
        await asyncio.sleep(rng.uniform(0, 2 * think))
        message, actor = await next_turn(fake, channel_id, seen, changed)
        labels = buttons(message)
        seen |= set(labels.values())
        done: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        pending[channel_id] = done
        reply = await fake.click(by_name[actor], message, passive(labels))
        if reply.kind not in (6, 7):
            raise RuntimeError(f"the bot refused a click: {reply.content}")
        updated = await asyncio.wait_for(done, 60)
        record = fake.interactions[reply.interaction_id]
        assert record.first_callback is not None
        samples.append(
            Sample(record.created, record.first_callback - record.created, updated - record.created)
        )


async def discord_side(
    tables: int, clicks: int, think: float, stagger: float, conn: Connection
) -> None:
    fake = FakeDiscord()
    channels = [fake.channel_id] + [fake.add_channel() for _ in range(tables - 1)]
    pending: dict[int, asyncio.Future[float]] = {}
    changed = {channel_id: asyncio.Event() for channel_id in channels}

    def updated(channel_id: int) -> None:
        changed[channel_id].set()
        future = pending.pop(channel_id, None)
        if future is not None and not future.done():
            # The fake's records use the monotonic clock.
            future.set_result(time.monotonic())

    fake.on_update = updated
    await fake.start()
    conn.send((fake.port, fake.guild_id))
    await asyncio.wait_for(fake.identified.wait(), 60)
    await asyncio.sleep(0.2)  # the bot syncs its commands and restores tables after READY
    samples: list[Sample] = []
    conn.send("playing")
    began = time.monotonic()
    await asyncio.gather(
        *(
            drive_table(fake, c, clicks, think, pending, changed[c], samples, stagger)
            for c in channels
        )
    )
    elapsed = time.monotonic() - began
    conn.send(([(s.at - began, s.ack, s.update) for s in samples], elapsed))
    await asyncio.to_thread(conn.recv)  # wait for the bot to disconnect first
    await fake.stop()


def run_discord(tables: int, clicks: int, think: float, stagger: float, conn: Connection) -> None:
    asyncio.run(discord_side(tables, clicks, think, stagger, conn))


# ---------------------------------------------------------------------- parent: the bot


def drawing_pid(drawing: DrawingProcess) -> int:
    """The process the pictures are drawn in (started before the players start)."""
    pid = drawing.pid
    assert pid is not None
    return pid


def peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True, slots=True)
class Usage:
    """CPU seconds each process used while the players played, and the drawing's memory."""

    bot: float
    drawing: float
    discord: float
    drawing_peak_mb: float


async def bot_side(
    conn: Connection, discord_pid: int
) -> tuple[list[tuple[float, float, float]], float, Usage]:
    port, guild_id = await asyncio.to_thread(conn.recv)
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
    with tempfile.TemporaryDirectory() as directory:
        settings = Settings(
            token="benchmark-token",
            database_path=str(Path(directory) / "stud.db"),
            dev_guild_id=guild_id,
            game=GameDefaults(countdown_seconds=0),
        )
        store = await open_store(settings)
        drawing = DrawingProcess()
        bot = StudBot(settings, store, Texts(), drawing=drawing)
        bot._connection.guild_ready_timeout = 0.05
        runner = asyncio.create_task(bot.start(settings.token))
        await drawing.start()
        before = await asyncio.to_thread(conn.recv)  # the players start
        assert before == "playing"
        start = (cpu_seconds(os.getpid()), cpu_seconds(discord_pid))
        start_drawing = cpu_seconds(drawing_pid(drawing))
        samples, elapsed = await asyncio.to_thread(conn.recv)
        usage = Usage(
            cpu_seconds(os.getpid()) - start[0],
            cpu_seconds(drawing_pid(drawing)) - start_drawing,
            cpu_seconds(discord_pid) - start[1],
            peak_mb(drawing_pid(drawing)),
        )
        await bot.close()
        await runner
        await store.close()
    conn.send("closed")
    return samples, elapsed, usage


@dataclass(frozen=True, slots=True)
class Sample:
    at: float  # when the click arrived
    ack: float  # seconds from arrival to acknowledgement
    update: float  # seconds from arrival to the table update


def figures(values: list[float]) -> str:
    ms = sorted(value * 1000 for value in values)
    if not ms:
        return "no clicks"
    p95 = ms[max(0, round(0.95 * len(ms)) - 1)]
    return f"p50 {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms"


def machine_speed() -> float:
    """Milliseconds one core here takes for a fixed piece of pure Python, best of five."""
    best = float("inf")
    for _ in range(5):
        began = time.perf_counter()
        total = 0
        for number in range(1_000_000):
            total += number
        best = min(best, time.perf_counter() - began)
    return best * 1000


def run(tables: int, clicks: int, think: float, stagger: float) -> None:
    parent, child = multiprocessing.Pipe()
    discord_process = multiprocessing.get_context("spawn").Process(
        target=run_discord, args=(tables, clicks, think, stagger, child), daemon=True
    )
    discord_process.start()
    samples, elapsed, usage = asyncio.run(bot_side(parent, discord_process.pid or 0))
    discord_process.join(30)
    steady = [s for s in samples if s[0] >= STEADY_AFTER]
    opened = f", opened over {stagger:g} s" if stagger else ""
    print(
        f"{tables} tables{opened}, mean think time {think:g} s: {len(samples)} clicks in "
        f"{elapsed:.1f} s ({len(samples) / elapsed:.0f}/s; steady part {len(steady)} clicks)"
    )
    for name, part in (("whole run", samples), (f"after {STEADY_AFTER:g} s", steady)):
        print(f"  {name:>11}: acknowledgement {figures([s[1] for s in part])}")
        print(f"  {'':>11}  table update    {figures([s[2] for s in part])}")
    spent = (usage.bot, usage.drawing, usage.discord)
    busy = sum(spent) / (elapsed * (os.cpu_count() or 1))
    print(
        f"  CPU while playing: bot {usage.bot:.1f} s, drawing {usage.drawing:.1f} s, "
        f"fake Discord and its players {usage.discord:.1f} s ({busy:.0%} of the machine)"
    )
    per_click = [seconds * 1000 / len(samples) for seconds in spent]
    print(
        "  CPU per click: bot {:.1f} ms, drawing {:.1f} ms, fake Discord {:.1f} ms: the machine's "
        "cores are full at {:.0f} clicks/s".format(*per_click, len(samples) / elapsed / busy)
    )
    print(f"  drawing process peak RSS: {usage.drawing_peak_mb:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description="Stud bot: many tables at once")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--clicks", type=int, default=30, help="clicks per table")
    parser.add_argument(
        "--think",
        type=float,
        nargs="+",
        default=[1.0, 0.5],
        help="mean seconds a player takes to act, one run each (0: none)",
    )
    parser.add_argument(
        "--stagger", type=float, default=0.0,
        help="open the tables at random over this many seconds (0: all at once)",
    )  # fmt: skip
    parser.add_argument(
        "--processes",
        type=int,
        nargs="+",
        help="instead: the clicks/s that 1, 2... bot processes sustain with the update p95 "
        "under 50 ms (benchmarks/capacity.py)",
    )
    parser.add_argument(
        "--database", nargs="+", choices=("sqlite", "postgresql"), default=["sqlite"],
        help="with --processes: the databases to run on",
    )  # fmt: skip
    args = parser.parse_args()
    if args.processes:
        capacity.main(args.processes, args.database, args.tables)
        return
    print(f"this machine: 1,000,000 additions in pure Python take {machine_speed():.0f} ms")
    for think in args.think:
        run(args.tables, args.clicks, think, args.stagger)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"bot process peak RSS: {peak_mb:.0f} MB (target < 200 MB)")


if __name__ == "__main__":
    main()
