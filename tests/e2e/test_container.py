"""The image the Dockerfile builds, run as compose runs it: the bot as its user 10001, reading the
mounted .env, plays a hand against the fake Discord with pictures from the image's drawing
process and fonts; the image's own HEALTHCHECK passes once it is ready; SIGTERM stops it with
exit code 0.

Skipped where no container engine runs (a Docker daemon, or Podman) or where the base image
``python:3.11-slim-bookworm`` is not already there: no registry but PyPI and Debian's is
reachable from this project's machines. A stand-in base is made from Debian's packages:

    debootstrap --variant=minbase --include=python3,python3-venv,python-is-python3 \\
        bookworm ROOTFS http://deb.debian.org/debian
    tar -C ROOTFS -c . | podman import - docker.io/library/python:3.11-slim-bookworm
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.command_line import closed_port
from tests.e2e.fake_discord import JSON, FakeDiscord
from tests.e2e.harness import until

ROOT = Path(__file__).resolve().parents[2]
BASE = "docker.io/library/python:3.11-slim-bookworm"
IMAGE = "localhost/stud-bot:test"
PNG = b"\x89PNG\r\n\x1a\n"

pytestmark = pytest.mark.slow  # builds an image and runs the bot in it


def _works(*command: str) -> bool:
    try:
        return subprocess.run(command, capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _engine() -> tuple[list[str], str | None]:
    """The engine's command, or why there is none."""
    if shutil.which("docker") and _works("docker", "info"):
        engine = ["docker"]
    elif shutil.which("podman") and _works("podman", "info"):
        engine = ["podman"]
        # crun refuses a host whose cgroups are v1 and v2 at once; runc runs there.
        if shutil.which("runc"):
            engine += ["--runtime", "runc"]
    else:
        return [], "no container engine runs here (no Docker daemon, no Podman)"
    if not _works(*engine, "image", "inspect", BASE):
        return [], f"the base image {BASE} is not here and cannot be pulled (see this module)"
    return engine, None


def _build(engine: list[str], workdir: Path) -> None:
    command = [*engine, "build", "--pull=never", "--network", "host", "-t", IMAGE]
    if engine[0] == "podman":
        command += ["--format", "docker"]  # OCI images drop HEALTHCHECK
        # pip in the build trusts what this machine trusts (a proxy's certificate, say).
        bundle = "/etc/ssl/certs/ca-certificates.crt"
        if Path(bundle).is_file():
            pip_conf = workdir / "pip.conf"
            pip_conf.write_text(f"[global]\ncert = {bundle}\n")
            command += ["-v", f"{bundle}:{bundle}:ro", "-v", f"{pip_conf}:/etc/pip.conf:ro"]
    done = subprocess.run([*command, str(ROOT)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


async def test_the_image_plays_a_hand_is_healthy_and_stops_cleanly(tmp_path: Path) -> None:
    engine, why_not = await asyncio.to_thread(_engine)
    if why_not is not None:
        pytest.skip(why_not)

    def _run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*engine, *args], capture_output=True, text=True, timeout=timeout)

    with tempfile.TemporaryDirectory() as workdir:
        await asyncio.to_thread(_build, engine, Path(workdir))
    fake = FakeDiscord()
    await fake.start()
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        "DISCORD_TOKEN=fake-token # from the Developer Portal\n"
        f"DEV_GUILD_ID={fake.guild_id}\nCOUNTDOWN_SECONDS=0\n"
    )
    # As docs/operating.md says: readable by the bot's group in the container, no one else.
    os.chown(dotenv, -1, 10001)
    dotenv.chmod(0o640)
    name = f"stud-test-{os.getpid()}"
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    run = [
        "run", "-d", "--name", name, "--network", "host",
        # No limit above this machine's: a container may not raise them here.
        "--ulimit", f"nofile={soft}:{hard}", "--ulimit", "nproc=4096:4096",
        "-e", f"STUD_FAKE_DISCORD=127.0.0.1:{fake.port}",
        "-e", f"METRICS_PORT={closed_port()}",  # the host's network: a port of its own
        "-v", f"{dotenv}:/opt/stud/.env:ro",
        "-v", f"{ROOT / 'tests'}:/opt/stud/tests:ro",  # tests.e2e.run_bot points it at the fake
        "--entrypoint", "python", IMAGE, "-m", "tests.e2e.run_bot",
    ]  # fmt: skip
    if engine[0] == "podman":
        run[1:1] = ["--no-healthcheck"]  # podman schedules checks with systemd: run by hand below
    started = await asyncio.to_thread(_run, *run)
    try:
        assert started.returncode == 0, started.stderr
        await asyncio.wait_for(fake.identified.wait(), 60)
        await until(lambda: fake.command_requests, 30, "commands synced")
        players: list[JSON] = [fake.add_user(name) for name in ("ann", "bob")]
        await fake.answer(await fake.slash(players[0], "table open"))
        for player in players:
            await fake.answer(await fake.slash(player, "sit", buy_in=500))
        await until(lambda: fake.table_message() is not None, 30, "the table's message")
        await until(lambda: any(u.filename == "table.png" for u in fake.uploads), 30, "a picture")
        picture = next(u.data for u in fake.uploads if u.filename == "table.png")
        assert picture.startswith(PNG) and len(picture) > 10_000  # drawn, not a blank pixel
        who = await asyncio.to_thread(_run, "exec", name, "id", "-u")
        assert who.stdout.strip() == "10001"
        inspected = await asyncio.to_thread(_run, "image", "inspect", IMAGE)
        (image,) = json.loads(inspected.stdout)
        check = image["Config"].get("Healthcheck") or image["Healthcheck"]  # Docker, Podman
        test = check["Test"]
        assert test[0] == "CMD"
        for _ in range(30):  # ready once discord.py has every guild of the shard: a moment
            healthy = await asyncio.to_thread(_run, "exec", name, *test[1:])
            if healthy.returncode == 0:
                break
            await asyncio.sleep(1)
        assert healthy.returncode == 0, healthy.stderr
        stopped = await asyncio.to_thread(_run, "stop", "-t", "15", name, timeout=30)
        assert stopped.returncode == 0, stopped.stderr
        code = await asyncio.to_thread(_run, "inspect", "--format", "{{.State.ExitCode}}", name)
        logs = await asyncio.to_thread(_run, "logs", name)
        assert code.stdout.strip() == "0", logs.stdout + logs.stderr
        assert "could not start" not in logs.stderr + logs.stdout  # the drawing process
    finally:
        await asyncio.to_thread(_run, "rm", "-f", name)
        await fake.stop()
