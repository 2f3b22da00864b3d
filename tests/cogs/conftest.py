"""A real StudBot on simcord's simulated Discord, with a fresh database per test (the helpers
the tests share are in ``world.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
import simcord

from bot.core.settings import Settings
from bot.edge.client import StudBot
from bot.edge.drawing import DrawingProcess
from bot.edge.funnel import user_message
from tests.cogs.world import World, make_bot, make_settings
from tests.databases import migrated_sqlite
from tests.texts import TEXTS


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture
async def simcord_bot(settings: Settings, request: pytest.FixtureRequest) -> StudBot:
    # A database file migrated already: a copy of one migrated once per session.
    await migrated_sqlite(Path(settings.database_path))
    # Pictures are drawn in this process unless the test is about the drawing process.
    process = request.node.get_closest_marker("drawing_process") is not None
    return await make_bot(settings, DrawingProcess() if process else None)


@pytest.fixture
async def world(simcord_env: simcord.Env, simcord_bot: StudBot) -> AsyncIterator[World]:
    env = simcord_env
    guild = env.create_guild("Casino")
    channel = guild.create_text_channel("stud")
    handles = [env.create_user(name) for name in ("ann", "bob", "cy", "dee", "boss")]
    players = [guild.add_member(user) for user in handles[:4]]
    managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(handles[4], roles=[managers])
    await simcord_bot.tree.sync()
    await env.settle()
    world = World(
        env, simcord_bot, guild, channel, players, admin, {user.id: user for user in handles}
    )
    yield world
    # Stop table clocks first: simcord drains pending timers at shutdown, and a table's clock
    # would otherwise keep dealing hands forever.
    await world.bot.house.recovery.shutdown()
    # A restart test swaps in a new bot that simcord never closes; an open database thread
    # would keep the interpreter from exiting, a drawing process would outlive the test.
    for bot in {simcord_bot, world.bot}:
        await bot.store.close()
        await bot.presenter.drawing.close()
    # Errors players cause reach the tree's error funnel (simcord records them); only our own
    # bugs should fail a test.
    bugs = [error for error in env.errors if user_message(error, TEXTS, "en") is None]
    assert len(bugs) == world.allowed_bugs, bugs
