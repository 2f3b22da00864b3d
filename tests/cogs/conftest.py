"""A real StudBot connected to the fake Discord (``tests/e2e/fake_discord.py``), with a fresh
database per test (the helpers the tests share are in ``world.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.settings import Settings
from bot.edge.drawing import DrawingProcess
from bot.edge.funnel import user_message
from tests.cogs.world import World, make_bot, make_settings
from tests.databases import migrated_sqlite
from tests.e2e.fake_discord import EVERYONE_PERMISSIONS, MANAGE_GUILD, FakeDiscord
from tests.e2e.members import Channel, Member, Server
from tests.texts import TEXTS


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture
async def world(
    settings: Settings, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[World]:
    fake = FakeDiscord()
    handles = [fake.add_user(name) for name in ("ann", "bob", "cy", "dee", "boss")]
    for user in handles:
        user["global_name"] = None  # shown by their user names, as the tests write them
    server = Server(fake, monkeypatch)
    await server.start()
    # A database file migrated already: a copy of one migrated once per session.
    await migrated_sqlite(Path(settings.database_path))
    # Pictures are drawn in this process unless the test is about the drawing process.
    process = request.node.get_closest_marker("drawing_process") is not None
    bot = await make_bot(settings, server, DrawingProcess() if process else None)
    await server.connect(bot)
    players = [Member(server, user) for user in handles[:4]]
    admin = Member(server, handles[4], EVERYONE_PERMISSIONS | MANAGE_GUILD)
    channel = Channel(server, fake.channel_id)
    world = World(server, bot, fake.guild_id, channel, players, admin)
    try:
        yield world
    finally:
        # Stop table clocks first, then the connection; a restart test swaps in a new bot:
        # an open database thread would keep the interpreter from exiting, a drawing process
        # would outlive the test.
        await world.bot.house.recovery.shutdown()
        await server.stop()
        for each in {bot, world.bot}:
            await each.store.close()
            await each.presenter.drawing.close()
    # Errors players cause reach the tree's error funnel; only our own bugs should fail a test.
    bugs = [error for error in server.errors if user_message(error, TEXTS, "en") is None]
    assert len(bugs) == world.allowed_bugs, bugs
