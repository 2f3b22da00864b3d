"""The real process: SIGTERM and SIGINT stop it cleanly mid-hand, within
10 seconds, exit code 0, with every write finished and the hand ready to continue; and at once
while Discord is out of reach and discord.py waits to reconnect. Its start counts toward a
crash loop once its session opens, for the next process to read."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import time
from pathlib import Path

import pytest

from bot.core.storage import Store
from tests.e2e.fake_discord import JSON, FakeDiscord, buttons
from tests.e2e.harness import passive, until

ROOT = Path(__file__).resolve().parents[2]

# The bot as a process of its own, stopped by signals.
pytestmark = pytest.mark.slow


def bot_env(fake: FakeDiscord, database: Path) -> dict[str, str]:
    return {
        **os.environ,
        "STUD_FAKE_DISCORD": f"127.0.0.1:{fake.port}",
        "DISCORD_TOKEN": "fake-token",
        "DATABASE_PATH": str(database),
        "DEV_GUILD_ID": str(fake.guild_id),
        "COUNTDOWN_SECONDS": "0",
    }


async def start_bot(env: dict[str, str]) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.e2e.run_bot",
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
async def test_a_signal_stops_the_bot_cleanly_mid_hand(tmp_path: Path, signum: int) -> None:
    fake = FakeDiscord()
    await fake.start()
    database = tmp_path / "stud.db"
    env = bot_env(fake, database)
    process = await start_bot(env)
    try:
        await asyncio.wait_for(fake.identified.wait(), 30)
        await until(lambda: fake.command_requests, 30)
        players: list[JSON] = [fake.add_user(name) for name in ("ann", "bob")]
        await fake.answer(await fake.slash(players[0], "table open"))
        for player in players:
            await fake.answer(await fake.slash(player, "sit", buy_in=500))
        await until(lambda: fake.table_message() is not None, 10)
        message = fake.table_message()
        assert message is not None
        # A decision is in flight when the signal comes.
        for player in players:
            await fake.click(player, message, passive(buttons(message)))
        process.send_signal(signum)
        started = time.monotonic()
        code = await asyncio.wait_for(process.wait(), 10)
        stopped_in = time.monotonic() - started
        output = (await process.stdout.read()).decode() if process.stdout else ""
        assert code == 0, output
        assert stopped_in < 10
        assert "Traceback" not in output, output
        assert "stopped" in output
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        await fake.stop()
    # Everything written is whole: the chips add up and the hand can be continued.
    store = await Store.open(database)
    try:
        await store.audit()
        (hand,) = await store.hands.live()
        assert {p.user_id for p in hand.players} == {int(p["id"]) for p in players}
    finally:
        await store.close()


# discord.py's log line as it starts waiting to reconnect, and for how long.
RECONNECT = re.compile(rb"Attempting a reconnect for shard ID 0 in ([0-9.]+)s")


async def test_a_signal_stops_the_bot_at_once_while_it_waits_to_reconnect(
    tmp_path: Path,
) -> None:
    """Discord out of reach: discord.py waits longer and longer between reconnects (minutes, in a
    long outage). A SIGTERM then stops the bot at once, not at the end of the wait."""
    fake = FakeDiscord()
    await fake.start()
    process = await start_bot(bot_env(fake, tmp_path / "stud.db"))
    try:
        await asyncio.wait_for(fake.identified.wait(), 30)
        await fake.stop()
        assert process.stdout is not None
        waiting = 0.0
        while waiting < 8:  # the waits grow at random: a few tries reach one this long
            line = await asyncio.wait_for(process.stdout.readline(), 60)
            assert line, "the bot ended by itself"
            if found := RECONNECT.search(line):
                waiting = float(found[1])
        process.send_signal(signal.SIGTERM)
        started = time.monotonic()
        code = await asyncio.wait_for(process.wait(), 10)
        assert code == 0
        assert time.monotonic() - started < 3 < waiting
        output = (await process.stdout.read()).decode()
        assert "stopped" in output and "Traceback" not in output.split("signal received")[-1]
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def _counted(database: Path) -> dict[str, int]:
    store = await Store.open(database)
    try:
        return await store.coordination.process_starts(since=time.time() - 3600)
    finally:
        await store.close()


async def test_a_start_counts_once_its_session_opens(tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    database = tmp_path / "stud.db"
    process = await start_bot(bot_env(fake, database))
    try:
        await asyncio.wait_for(fake.identified.wait(), 30)
        deadline = time.monotonic() + 30
        while (counted := await _counted(database)) == {}:
            assert time.monotonic() < deadline, "the start was never counted"
            await asyncio.sleep(0.1)
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 10) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        await fake.stop()
    assert counted == {"all": 1}
    assert await _counted(database) == {"all": 1}  # stopped before it was healthy: it stays
