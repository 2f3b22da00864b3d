"""``stud-bot`` as an operator runs it, in this process: ``main()`` with the environment and argv
a shell would give it (the ``shell`` fixture, in ``tests/conftest.py``), and the fake Discord
served from a thread of its own, since ``main()`` runs its own event loop."""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest
import yarl

from bot.__main__ import PAYLOAD_LOGGERS, main
from tests.e2e.fake_discord import FakeDiscord


def clean_shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """A clean environment as an operator's shell would pass it, in an empty folder (no .env).
    Tests change the returned dict; it is applied when :func:`stud_bot` runs."""
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "DEV_GUILD_ID", "LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    # main() sets up the root logger for the process: put pytest's back after.
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    levels = {name: logging.getLogger(name).level for name in PAYLOAD_LOGGERS}
    yield {
        "DISCORD_TOKEN": "fake-token",
        "DATABASE_PATH": str(tmp_path / "stud.db"),
        "LOG_LEVEL": "WARNING",
    }
    root.handlers[:], level = saved
    root.setLevel(level)
    for name, payload_level in levels.items():
        logging.getLogger(name).setLevel(payload_level)


def stud_bot(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    env: dict[str, str],
    *argv: str,
) -> tuple[int, str, str]:
    """``stud-bot ARGV...``: its exit code, stdout and stderr."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


class ThreadedDiscord:
    """The fake Discord served from its own thread and event loop, for an in-process ``main()``
    (which runs ``asyncio.run`` in the test's thread)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def __enter__(self) -> FakeDiscord:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self.fake.start(), self.loop).result(10)
        return self.fake

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self.fake.stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


def point_at(monkeypatch: pytest.MonkeyPatch, fake: FakeDiscord) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url)
    )


def closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def one_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert lines[0].startswith("stud-bot: ")
    return lines[0]
