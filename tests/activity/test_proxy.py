"""deploy/Caddyfile as an operator runs it, in front of the Activity's server: the page, the token
endpoint and the WebSocket all reach the bot through it (plain HTTP on a local port here, where
the operator's has the HTTPS certificate Caddy fetches)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from tests.activity.pages import ORIGIN, activity_rig

CADDYFILE = Path(__file__).resolve().parents[2] / "deploy" / "Caddyfile"

pytestmark = [
    pytest.mark.slow,  # runs caddy
    pytest.mark.skipif(shutil.which("caddy") is None, reason="caddy is not installed"),
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def caddy(tmp_path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    """(the port Caddy will listen on, the environment to start it with)."""
    port = _free_port()
    yield (
        port,
        {
            "PATH": os.environ["PATH"],
            "HOME": str(tmp_path),
            "XDG_DATA_HOME": str(tmp_path / "data"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "ACTIVITY_DOMAIN": f"http://127.0.0.1:{port}",
            "ACTIVITY_UPSTREAM": "127.0.0.1",
        },
    )


async def test_the_page_and_its_socket_reach_the_bot_through_caddy(
    tmp_path: Path, caddy: tuple[int, dict[str, str]]
) -> None:
    port, environment = caddy
    async with activity_rig(tmp_path) as rig:
        environment["ACTIVITY_PORT"] = str(rig.server.port)
        process = subprocess.Popen(
            ["caddy", "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
            env=environment,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            async with aiohttp.ClientSession() as http:
                for _ in range(100):  # Caddy starting
                    try:
                        async with http.get(f"{base}/api/config") as response:
                            config = await response.json()
                            break
                    except aiohttp.ClientError:
                        await asyncio.sleep(0.1)
                else:
                    raise AssertionError("Caddy never answered")
                assert config == {"client_id": str(rig.fake.app_id)}
                ann = rig.user("ann")
                session, instance = await rig.session(ann)
                async with http.ws_connect(f"{base}/ws", origin=ORIGIN) as ws:
                    hello = {"session": session, "instance_id": instance}
                    channel = str(rig.channel)
                    await ws.send_str(json.dumps({"type": "hello", **hello, "channel_id": channel}))
                    welcome = json.loads((await ws.receive(timeout=10)).data)
                    assert welcome["type"] == "welcome" and welcome["user_id"] == str(ann)
        finally:
            process.terminate()
            process.wait(timeout=10)
