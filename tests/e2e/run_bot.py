"""``python -m tests.e2e.run_bot``: the bot's real entry point (``python -m bot``), pointed at a
fake Discord listening at ``STUD_FAKE_DISCORD`` (``127.0.0.1:PORT``). Tests run the whole
process this way, signals included; a developer can play against it the same way. Its
``cluster`` command starts its workers this way too, so they find the same fake."""

from __future__ import annotations

import os
import sys

import discord
import yarl

from bot import cluster
from bot.__main__ import main


def point_at_fake_discord(address: str) -> None:
    discord.http.Route.BASE = f"http://{address}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://{address}/gateway")
    cluster.WORKER = (sys.executable, "-m", "tests.e2e.run_bot")


if __name__ == "__main__":
    point_at_fake_discord(os.environ["STUD_FAKE_DISCORD"])
    sys.exit(main())
