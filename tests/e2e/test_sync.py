"""Issue 10, points 1 and 6, against the fake Discord: commands are synced at startup when they
changed and never otherwise; ``stud-bot sync`` does it by hand; messages name commands with
Discord's mentions, carrying the ids of the commands synced.

Every start here uses the same database, as restarts of one bot do.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.cli import open_store
from bot.core.settings import GameDefaults, Settings
from bot.edge import client
from bot.edge.client import StudBot
from bot.edge.drawing import InProcessDrawing
from tests.command_line import ThreadedDiscord, point_at, stud_bot
from tests.e2e.fake_discord import JSON, MANAGE_GUILD, CommandSync, FakeDiscord
from words import Texts

EVERY_COMMAND = {
    "table", "sit", "leave", "sitout", "sitin", "fold", "check", "call", "bet", "raise",
    "complete", "bringin", "cards", "chips", "balance", "daily", "leaderboard", "stats", "hand",
    "history", "help", "settings", "tournament", "moderate",
}  # fmt: skip


@asynccontextmanager
async def running(database: Path, dev_guild_id: int | None = None) -> AsyncIterator[StudBot]:
    """One start of the bot, until it is ready, and its stop."""
    settings = Settings(
        token="fake-token",
        database_path=str(database),
        dev_guild_id=dev_guild_id,
        game=GameDefaults(countdown_seconds=30),
    )
    store = await open_store(settings)
    bot = StudBot(settings, store, Texts(), drawing=InProcessDrawing())
    bot._connection.guild_ready_timeout = 0.05
    runner = asyncio.create_task(bot.start(settings.token))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        yield bot
    finally:
        await bot.close()
        await asyncio.wait_for(runner, 10)
        await store.close()


async def start_once(database: Path, dev_guild_id: int | None = None) -> None:
    async with running(database, dev_guild_id):
        pass


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """A fake Discord the bots of these tests connect to."""
    discord_ = FakeDiscord()
    await discord_.start()
    point_at(monkeypatch, discord_)
    yield discord_
    await discord_.stop()


def puts(fake: FakeDiscord) -> list[CommandSync]:
    return [sync for sync in fake.command_requests if sync.method == "PUT"]


def ids(commands: list[JSON]) -> dict[str, str]:
    return {command["name"]: command["id"] for command in commands}


def test_the_digest_follows_the_payload_not_the_order_commands_were_added_in() -> None:
    sit = {"type": 1, "name": "sit", "description": "Take a seat", "options": []}
    fold = {"name": "fold", "description": "Fold", "type": 1}
    digest = client.payload_digest([sit, fold])
    assert client.payload_digest([fold, {**sit}]) == digest
    assert client.payload_digest([fold, {**sit, "description": "Sit down"}]) != digest
    # Options are shown in the order sent, so their order is part of the command.
    a, b = {"name": "a", "type": 4}, {"name": "b", "type": 4}
    assert client.payload_digest([{**sit, "options": [a, b]}]) != client.payload_digest(
        [{**sit, "options": [b, a]}]
    )


DIGEST = """
import asyncio, sys
from bot.cli import open_store
from bot.core.settings import Settings
from bot.edge.client import StudBot, command_payload, payload_digest
from words import Texts

async def digest() -> None:
    settings = Settings(token="unused", database_path=sys.argv[1])
    store = await open_store(settings)
    bot = StudBot(settings, store, Texts())
    await bot.load_commands()
    print(payload_digest(await command_payload(bot.tree, None)))
    await store.close()

asyncio.run(digest())
"""


@pytest.mark.slow  # two Python processes
def test_the_digest_is_the_same_in_every_process(tmp_path: Path) -> None:
    """A digest that changed with the process (string hashing, say) would sync every start."""
    digests = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        database = str(tmp_path / f"{seed}.db")
        run = subprocess.run(
            [sys.executable, "-c", DIGEST, database],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        digests.add(run.stdout.strip())
    assert len(digests) == 1 and len(digests.pop()) == 64


async def test_commands_are_synced_on_the_first_start_only_and_again_when_they_change(
    tmp_path: Path, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "stud.db"
    # A fresh start without DEV_GUILD_ID: the global commands, once, and nowhere else.
    await start_once(database)
    [first] = fake.command_requests
    assert (first.method, first.guild_id) == ("PUT", None)
    assert set(first.names) == EVERY_COMMAND
    assert set(fake.commands) == {None}
    # The same commands again: Discord is asked nothing about them, not even a GET.
    await start_once(database)
    assert fake.command_requests == [first]
    # A changed command set (a cog left out): one sync, with the new set.
    monkeypatch.setattr(
        client, "EXTENSIONS", tuple(e for e in client.EXTENSIONS if e != "cogs.hands")
    )
    await start_once(database)
    assert len(fake.command_requests) == 2
    [_, changed] = puts(fake)
    assert changed.guild_id is None
    assert set(changed.names) == EVERY_COMMAND - {"hand", "history"}
    assert fake.unknown_routes == []


async def test_a_dev_guild_gets_its_copy_once_and_no_global_commands(
    tmp_path: Path, fake: FakeDiscord
) -> None:
    database = tmp_path / "stud.db"
    for _ in range(2):
        await start_once(database, fake.guild_id)
    [only] = fake.command_requests
    assert (only.method, only.guild_id) == ("PUT", fake.guild_id)
    assert set(only.names) == EVERY_COMMAND
    # Going public afterwards is a sync of its own: the dev guild's digest is not global's.
    await start_once(database)
    assert [(sync.method, sync.guild_id) for sync in fake.command_requests] == [
        ("PUT", fake.guild_id),
        ("PUT", None),
    ]


def subcommands(command: JSON) -> dict[str, list[str]]:
    """A synced command's subcommands, each with those of its own (a subcommand group's)."""
    return {
        option["name"]: [child["name"] for child in option.get("options", []) if child["type"] == 1]
        for option in command.get("options", [])
        if option["type"] in (1, 2)
    }


async def test_staff_commands_are_synced_with_manage_server_as_their_default(
    tmp_path: Path, fake: FakeDiscord
) -> None:
    """Discord sets who may use a command per top-level command (default_member_permissions):
    the staff's commands are /chips (grants, the house wallet) and /moderate (any member's table
    or tournament), Manage Server by default and only in a server; every player's command is
    for everyone, its names unchanged."""
    await start_once(tmp_path / "stud.db")
    synced = {command["name"]: command for command in fake.commands[None]}
    staff = {name for name, c in synced.items() if c["default_member_permissions"] is not None}
    assert staff == {"chips", "moderate"}
    for name in staff:
        assert int(synced[name]["default_member_permissions"]) == MANAGE_GUILD
        assert synced[name]["contexts"] == [0]  # a server only: no DMs, where none applies
    assert subcommands(synced["moderate"]) == {
        "close": [],
        "cancel": [],
        "bots": ["add", "remove"],
    }
    assert {"grant", "take", "reset", "house"} <= subcommands(synced["chips"]).keys()
    # Players keep /table close, /table bots and /tournament cancel for their own.
    assert {"close", "bots", "open"} <= subcommands(synced["table"]).keys()
    assert "cancel" in subcommands(synced["tournament"])


async def test_messages_name_commands_with_mentions_of_the_synced_ids(
    tmp_path: Path, fake: FakeDiscord
) -> None:
    database = tmp_path / "stud.db"
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    await start_once(database)
    synced = ids(fake.commands[None])
    # The second start syncs nothing: the mentions come from the ids stored with the digest.
    async with running(database) as bot:
        assert len(fake.command_requests) == 1
        opened = await fake.answer(await fake.slash(ann, "table open"))
        assert "</table open:" not in opened.content
        refused = await fake.answer(await fake.slash(bob, "table open", locale="ru"))
        english = await fake.answer(await fake.slash(bob, "table open"))
        assert english.content == (
            f"This channel already has a table. Join it with </sit:{synced['sit']}>."
        )
        assert refused.content.endswith(f"</sit:{synced['sit']}>.")
        # A subcommand is mentioned by its full name and its group's id.
        texts = bot.texts
        assert texts.mention("table open", "ru") == f"</table open:{synced['table']}>"
        # A command Discord was not given is written out as before.
        partly = Texts()
        partly.commands_synced({"sit": 5})
        assert partly.mention("hand verify", "ru") == partly.slash_command("hand verify", "ru")
    # Once the bot stops, the ids of that session are no longer used.
    assert texts.t("en", "table_exists").endswith("Join it with /sit.")


def test_stud_bot_sync_registers_by_hand_and_clears_a_guild(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    shell: dict[str, str],
) -> None:
    database = Path(shell["DATABASE_PATH"])
    with ThreadedDiscord(FakeDiscord()) as fake:
        point_at(monkeypatch, fake)
        guild = str(fake.guild_id)
        code, out, err = stud_bot(monkeypatch, capsys, shell, "sync", "--global", "--guild", guild)
        assert (code, err) == (0, "")
        assert out.splitlines() == [
            f"global: {len(EVERY_COMMAND)} commands synced (they can take a while to show)",
            f"server {guild}: {len(EVERY_COMMAND)} commands synced",
        ]
        assert {name for name in ids(fake.commands[None])} == EVERY_COMMAND
        assert ids(fake.commands[fake.guild_id]).keys() == EVERY_COMMAND
        # By hand means always: the same commands again are sent again (no digest check).
        code, out, _ = stud_bot(monkeypatch, capsys, shell, "sync")
        assert (code, out.count("\n")) == (0, 1)
        assert [(s.method, s.guild_id) for s in fake.command_requests] == [
            ("PUT", None),
            ("PUT", fake.guild_id),
            ("PUT", None),
        ]
        # The guild's copies go, so nothing shows twice there; the global ones stay.
        code, out, err = stud_bot(monkeypatch, capsys, shell, "sync", "--clear-guild", guild)
        assert (code, out, err) == (0, f"server {guild}: commands removed\n", "")
        assert fake.commands[fake.guild_id] == []
        assert fake.command_requests[-1] == CommandSync(
            "PUT", fake.guild_id, fake.command_requests[-1].at, ()
        )
        assert ids(fake.commands[None]).keys() == EVERY_COMMAND
        # Nothing was logged in to the gateway, nothing else was asked.
        assert fake.gateway_steps == [] and fake.unknown_routes == []
        sent = len(fake.command_requests)
        # The by-hand sync kept its digest: the next start has nothing to send globally...
        asyncio.run(start_once(database))
        assert len(fake.command_requests) == sent
        # ... while a development start puts the copies back in the cleared guild.
        asyncio.run(start_once(database, fake.guild_id))
        [*_, again] = fake.command_requests
        assert (again.method, again.guild_id, len(fake.command_requests)) == (
            "PUT",
            fake.guild_id,
            sent + 1,
        )
        assert ids(fake.commands[fake.guild_id]).keys() == EVERY_COMMAND
