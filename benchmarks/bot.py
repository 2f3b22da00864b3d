"""``python -m benchmarks.bot``: many tables playing at once through a simulated Discord.

The unmodified bot runs in this process and connects to the fake Discord of the end-to-end
tests (REST and gateway on 127.0.0.1), which runs with its players in a child process so the two
don't share an event loop. Each table has two players who click the table buttons as soon as the
bot shows them. For every click, the time from sending its INTERACTION_CREATE to receiving the
bot's update of that channel's table message (or the results, when the click ended the hand) is
recorded. Players take a random think time before each click (``--think``, mean seconds; 0 makes
it a saturation test). Prints p50/p95/max of that time and the bot process's peak RSS.

Targets (issue 5): p95 <= 50 ms and peak RSS <= 200 MB with 100 tables.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import re
import resource
import statistics
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

import discord
import yarl

from bot.__main__ import open_store
from bot.core.settings import GameDefaults, Settings
from bot.edge.client import StudBot
from tests.e2e.fake_discord import JSON, FakeDiscord, buttons

ACTOR = re.compile(r"▶ \*\*(.+?)\*\*")


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
            description = message["embeds"][0].get("description", "") if message["embeds"] else ""
            actor = ACTOR.search(description)
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
    latencies: list[float],
) -> None:
    rng = random.Random(channel_id)
    users = [fake.add_user(f"c{channel_id % 100000}p{i}") for i in range(2)]
    by_name = {str(user["global_name"]): user for user in users}
    await fake.slash(users[0], "table open", channel_id=channel_id)
    for user in users:
        await fake.slash(user, "sit", channel_id=channel_id, buy_in=1000)
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
        started = time.perf_counter()
        reply = await fake.click(by_name[actor], message, passive(labels))
        if reply.kind != 6:
            raise RuntimeError(f"the bot refused a click: {reply.content}")
        latencies.append(await asyncio.wait_for(done, 60) - started)


async def discord_side(tables: int, clicks: int, think: float, conn: Connection) -> None:
    fake = FakeDiscord()
    channels = [fake.channel_id] + [fake.add_channel() for _ in range(tables - 1)]
    pending: dict[int, asyncio.Future[float]] = {}
    changed = {channel_id: asyncio.Event() for channel_id in channels}

    def updated(channel_id: int) -> None:
        changed[channel_id].set()
        future = pending.pop(channel_id, None)
        if future is not None and not future.done():
            future.set_result(time.perf_counter())

    fake.on_update = updated
    await fake.start()
    conn.send((fake.port, fake.guild_id))
    await asyncio.wait_for(fake.identified.wait(), 60)
    await asyncio.sleep(0.2)  # the bot syncs its commands and restores tables after READY
    latencies: list[float] = []
    began = time.perf_counter()
    await asyncio.gather(
        *(drive_table(fake, c, clicks, think, pending, changed[c], latencies) for c in channels)
    )
    conn.send((latencies, time.perf_counter() - began))
    await asyncio.to_thread(conn.recv)  # wait for the bot to disconnect first
    await fake.stop()


def run_discord(tables: int, clicks: int, think: float, conn: Connection) -> None:
    asyncio.run(discord_side(tables, clicks, think, conn))


# ---------------------------------------------------------------------- parent: the bot


async def bot_side(conn: Connection) -> tuple[list[float], float]:
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
        bot = StudBot(settings, store)
        bot._connection.guild_ready_timeout = 0.05
        runner = asyncio.create_task(bot.start(settings.token))
        latencies, elapsed = await asyncio.to_thread(conn.recv)
        await bot.close()
        await runner
        await store.close()
    conn.send("closed")
    return latencies, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description="Stud bot: many tables at once")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--clicks", type=int, default=20, help="clicks per table")
    parser.add_argument(
        "--think", type=float, default=2.0, help="mean seconds a player takes to act (0: none)"
    )
    args = parser.parse_args()
    parent, child = multiprocessing.Pipe()
    discord_process = multiprocessing.get_context("spawn").Process(
        target=run_discord, args=(args.tables, args.clicks, args.think, child), daemon=True
    )
    discord_process.start()
    latencies, elapsed = asyncio.run(bot_side(parent))
    discord_process.join(30)
    ms = sorted(value * 1000 for value in latencies)
    p95 = ms[max(0, round(0.95 * len(ms)) - 1)]
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"tables: {args.tables}, mean think time {args.think:g} s, "
        f"clicks: {len(ms)} in {elapsed:.1f} s ({len(ms) / elapsed:.0f}/s)"
    )
    print(
        f"interaction -> table update: p50 {statistics.median(ms):.1f} ms, "
        f"p95 {p95:.1f} ms, max {ms[-1]:.1f} ms (target p95 <= 50 ms)"
    )
    print(f"bot process peak RSS: {peak_mb:.0f} MB (target <= 200 MB)")


if __name__ == "__main__":
    main()
