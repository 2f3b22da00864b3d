"""A cluster across machines: two ``stud-bot cluster`` launchers, each in a
folder of its own (no file shared, as on two machines), run shards 0-1 and 2-3 of four against
one PostgreSQL and the sharded fake Discord. Their workers take turns to IDENTIFY through the
database: no two IDENTIFYs come within Discord's 5 seconds, at the start nor when a killed
worker's shard is taken up again, and every session start is counted in the database."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.core.storage import Store
from tests.databases import create_postgresql, drop_postgresql
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import until

ROOT = Path(__file__).resolve().parents[2]

# Two launchers, their workers and their drawing processes.
pytestmark = pytest.mark.slow


@pytest.fixture
async def postgresql() -> AsyncIterator[str]:
    url = await create_postgresql()  # skipped, saying how to run it, without a server
    yield url
    await drop_postgresql(url)


def workers(launcher: int) -> dict[str, int]:
    """The launcher's worker processes: their shards (``--shards``) -> pid."""
    children = Path(f"/proc/{launcher}/task/{launcher}/children").read_text().split()
    found: dict[str, int] = {}
    for pid in map(int, children):
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
        if "--shards" in argv:
            found[argv[argv.index("--shards") + 1]] = pid
    return found


def spaced(fake: FakeDiscord) -> bool:
    identifies = sorted(step.at for step in fake.gateway_steps if step.what == "IDENTIFY")
    return all(b - a > 4.5 for a, b in itertools.pairwise(identifies))


async def test_two_clusters_on_two_machines_take_turns_through_the_database(
    postgresql: str, tmp_path: Path
) -> None:
    fake = FakeDiscord(shard_count=4)
    guilds = [fake.guild_id] + [fake.add_guild() for _ in range(3)]
    await fake.start()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "STUD_FAKE_DISCORD": f"127.0.0.1:{fake.port}",
        "DISCORD_TOKEN": "fake-token",
        "DATABASE_URL": postgresql,
        "SHARD_COUNT": "4",
        "COUNTDOWN_SECONDS": "0",
        "LOG_LEVEL": "INFO",
    }
    for name in ("DEV_GUILD_ID", "SHARD_IDS", "METRICS_PORT"):
        env.pop(name, None)
    launchers: list[asyncio.subprocess.Process] = []
    outputs: list[bytes] = []
    try:
        for shards in ("0-1", "2-3"):
            folder = tmp_path / f"machine-{shards}"
            folder.mkdir()
            launchers.append(
                await asyncio.create_subprocess_exec(
                    sys.executable,
                    *("-m", "tests.e2e.run_bot", "cluster", "--processes", "2"),
                    cwd=folder,
                    env={**env, "SHARD_IDS": shards},
                    stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.STDOUT,
                )
            )
        # Four workers started at once, on two "machines": one IDENTIFY each, 5 s apart.
        await until(lambda: fake.live_shards() == {0, 1, 2, 3}, 90, "every shard connected")
        assert len([s for s in fake.gateway_steps if s.what == "IDENTIFY"]) == 4
        assert spaced(fake)
        assert [fake.shard_of(guild) for guild in guilds] == [0, 1, 2, 3]

        # The first machine's worker of shard 0 dies: its launcher starts it again, and it
        # waits its turn behind whatever the database has booked.
        os.kill(workers(launchers[0].pid)["0"], signal.SIGKILL)
        await until(lambda: 0 not in fake.live_shards(), 10, "shard 0 gone")
        await until(lambda: fake.live_shards() == {0, 1, 2, 3}, 60, "shard 0 taken up again")
        assert len([s for s in fake.gateway_steps if s.what == "IDENTIFY"]) == 5
        assert spaced(fake)
        # Its server is served again: a command there is answered.
        user = fake.add_user("ann")
        reply = await fake.answer(await fake.slash(user, "table open", channel_id=None))
        assert "table" in reply.content.lower(), reply.content

        for launcher in launchers:
            launcher.send_signal(signal.SIGTERM)
        for launcher in launchers:
            output, _ = await asyncio.wait_for(launcher.communicate(), 15)
            outputs.append(output)
            assert launcher.returncode == 0, output.decode()
    finally:
        for launcher in launchers:
            if launcher.returncode is None:
                launcher.kill()
                await launcher.communicate()
        await fake.stop()
    log = b"".join(outputs).decode()
    assert "Traceback" not in log, log
    assert "worker 1 (shards 0) was killed by SIGKILL; restarting it in 1 s" in log
    assert "identifies: session 5 started today" in log
    assert not list(tmp_path.glob("machine-*/*")), "the launchers shared or left no file"
    store = await Store.open(postgresql)
    try:
        today = datetime.now(UTC).date().isoformat()
        assert await store.coordination.count_start(today, 0) == 5  # every one counted
    finally:
        await store.close()
