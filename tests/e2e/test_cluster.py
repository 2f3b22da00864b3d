"""The bot across processes: ``stud-bot cluster`` with 2 workers x 2 shards
on PostgreSQL, a table in each of 4 servers (one per shard), one worker SIGKILLed mid-hand.

Its tables resume when the launcher restarts it; the other worker's tables never pause; the
chips of every server add up in the shared database.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import re
import signal
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.core.storage import Store
from tests.databases import create_postgresql, drop_postgresql
from tests.e2e.fake_discord import JSON, FakeDiscord, buttons, message_text
from tests.e2e.harness import passive, until

ROOT = Path(__file__).resolve().parents[2]
ACTOR = re.compile(r"▶ \*\*(.+?)\*\*")

# A launcher process, its workers and their drawing processes.
pytestmark = pytest.mark.slow


@dataclass
class Table:
    """One server's table as its players see it in the fake Discord."""

    fake: FakeDiscord
    guild: int
    channel: int
    players: dict[str, JSON] = field(default_factory=dict)  # by the name the table shows
    clicked: set[str] = field(default_factory=set)

    @property
    def shard(self) -> int:
        return self.fake.shard_of(self.guild)

    def turn(self) -> tuple[JSON, str] | None:
        """The table message if it shows buttons not clicked yet, and who is to act."""
        message = self.fake.table_message(self.channel)
        if message is None:
            return None
        ids = set(buttons(message).values())
        actor = ACTOR.search(message_text(message))
        if not ids or ids & self.clicked or actor is None:
            return None
        return message, actor.group(1)

    async def act(self, seconds: float = 10) -> None:
        """The player to act clicks a passive action, and the table shows the next turn (the
        next hand's, once this one is over: it starts at once)."""
        await until(lambda: self.turn() is not None, seconds, f"a turn at shard {self.shard}")
        turn = self.turn()
        assert turn is not None
        message, actor = turn
        labels = buttons(message)
        self.clicked |= set(labels.values())
        # Within Discord's 3 s, or the fake refuses the callback and this raises.
        reply = await self.fake.click(self.players[actor], message, passive(labels))
        assert reply.kind in (6, 7), reply.content  # the table updated: it was his turn
        await until(lambda: self.turn() is not None, seconds, f"shard {self.shard}'s next turn")

    def restarted(self) -> bool:
        """The channel was told the bot restarted and the hand continues."""
        return any("restarted" in m["content"] for m in self.fake.channel_messages(self.channel))


def workers(launcher: int) -> dict[str, int]:
    """The launcher's worker processes: their shards (``--shards``) -> pid."""
    children = Path(f"/proc/{launcher}/task/{launcher}/children").read_text().split()
    found: dict[str, int] = {}
    for pid in map(int, children):
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
        if "--shards" in argv:
            found[argv[argv.index("--shards") + 1]] = pid
    return found


@pytest.fixture
async def postgresql() -> AsyncIterator[str]:
    url = await create_postgresql()  # skipped, saying how to run it, without a server
    yield url
    await drop_postgresql(url)


async def test_a_killed_worker_s_tables_resume_and_the_others_never_pause(
    postgresql: str,
) -> None:
    fake = FakeDiscord(shard_count=4)
    guilds = [fake.guild_id] + [fake.add_guild() for _ in range(3)]
    await fake.start()
    env = {
        **os.environ,
        "STUD_FAKE_DISCORD": f"127.0.0.1:{fake.port}",
        "DISCORD_TOKEN": "fake-token",
        "DATABASE_URL": postgresql,
        "COUNTDOWN_SECONDS": "0",
        "LOG_LEVEL": "INFO",
    }
    for name in ("DEV_GUILD_ID", "SHARD_COUNT", "SHARD_IDS"):
        env.pop(name, None)
    launcher = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.e2e.run_bot",
        "cluster",
        "--processes",
        "2",
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output = b""
    try:
        # The launcher asked Discord for the count (4); the workers took turns, 5 s apart.
        await until(lambda: fake.live_shards() == {0, 1, 2, 3}, 60, "every shard connected")
        identifies = sorted(s.at for s in fake.gateway_steps if s.what == "IDENTIFY")
        assert len(identifies) == 4
        assert all(b - a > 4.5 for a, b in itertools.pairwise(identifies))
        assert set(workers(launcher.pid)) == {"0-1", "2-3"}

        tables = [Table(fake, guild, fake.channels_of(guild)[0]) for guild in guilds]
        assert [table.shard for table in tables] == [0, 1, 2, 3]
        for number, table in enumerate(tables):
            users = [fake.add_user(f"p{number}{seat}") for seat in range(2)]
            table.players = {str(user["global_name"]): user for user in users}
            await fake.answer(await fake.slash(users[0], "table open", channel_id=table.channel))
            for user in users:
                await fake.answer(
                    await fake.slash(user, "sit", channel_id=table.channel, buy_in=500)
                )
        for table in tables:
            await table.act()  # every hand is under way: the bring-in is in

        # Worker 1 (shards 0-1: the first two tables) dies mid-hand.
        before = workers(launcher.pid)
        os.kill(before["0-1"], signal.SIGKILL)
        await until(lambda: not fake.live_shards() & {0, 1}, 10, "shards 0-1 gone")
        # The other worker's tables play on meanwhile: every click answered in time.
        deadline = time.monotonic() + 60
        clicks = 0
        while fake.live_shards() != {0, 1, 2, 3}:
            assert time.monotonic() < deadline, "worker 1 never came back"
            for table in tables[2:]:
                await table.act()
                clicks += 1
        assert clicks >= 4
        after = workers(launcher.pid)
        assert after["2-3"] == before["2-3"] and after["0-1"] != before["0-1"]
        for table in tables[:2]:
            await until(table.restarted, 10, f"shard {table.shard}'s table restored")
            await table.act()  # the same hand, on from where it was
        assert not any(table.restarted() for table in tables[2:])

        launcher.send_signal(signal.SIGTERM)
        output, _ = await asyncio.wait_for(launcher.communicate(), 10)
        assert launcher.returncode == 0, output.decode()
    finally:
        if launcher.returncode is None:
            launcher.kill()
            output, _ = await launcher.communicate()
        await fake.stop()
    log = output.decode()
    assert "worker 1 (shards 0-1) was killed by SIGKILL; restarting it in 1 s" in log
    assert "Traceback" not in log, log
    # Every chip of the four servers is where the ledger says: 8 wallets of 1,000.
    store = await Store.open(postgresql)
    try:
        totals = await store.audit()
        assert totals.granted == 8 * 1000
        assert totals.seats + totals.live_hands == 8 * 500
        assert len(await store.seating.tables()) == 4
    finally:
        await store.close()
