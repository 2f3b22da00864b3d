"""The whole way, as users meet it: the bot started as ``python -m bot`` (``tests.e2e.run_bot``,
pointed at the fake Discord), its Activity on; Ann plays from the Activity's page in Chromium,
Bob from the table message's buttons, Cleo watches in the Activity. They play a hand to its end.

Screenshots of Ann's phone and Cleo's desktop are kept in tests/activity/browser/artefacts.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.activity.browser.discord_client import (
    DESKTOP,
    PHONE,
    Player,
    chromium,
    open_activity,
    require_browser,
    snapshot,
)
from tests.activity.pages import WAIT
from tests.e2e.fake_activity import authorize, start_instance
from tests.e2e.fake_discord import JSON, FakeDiscord, buttons, message_text
from tests.e2e.harness import passive, until

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
HAND_SECONDS = 120  # a heads-up hand of passive decisions, each a round trip through Discord


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscord, int]]:
    """The fake Discord and the bot's process with the Activity on; the web server's port."""
    require_browser()
    fake = FakeDiscord()
    fake.activities = True
    await fake.start()
    port = _free_port()
    env = {
        **os.environ,
        "STUD_FAKE_DISCORD": f"127.0.0.1:{fake.port}",
        "DISCORD_TOKEN": "fake-token",
        "DATABASE_PATH": str(tmp_path / "stud.db"),
        "DEV_GUILD_ID": str(fake.guild_id),
        # Long enough for the spectator's page to show the results before the next hand.
        "COUNTDOWN_SECONDS": "8",
        "ACTIVITY_PORT": str(port),
        "DISCORD_CLIENT_SECRET": fake.client_secret,
        "ACTIVITY_URL": f"https://{fake.app_id}.discordsays.com",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.e2e.run_bot",
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        await asyncio.wait_for(fake.identified.wait(), 60)
        await until(lambda: fake.command_requests, 60, "the commands synced")
        yield fake, port
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), 15)
            except TimeoutError:
                process.kill()
                await process.wait()
        output = (await process.stdout.read()).decode() if process.stdout else ""
        await fake.stop()
        assert "Traceback" not in output, output


async def _bobs_turn(fake: FakeDiscord, bob: JSON) -> bool:
    """Bob acts from the table message when it says he is to act; True if he did."""
    message = fake.table_message()
    if message is None or f"{bob['global_name']} to act" not in message_text(message):
        return False
    before = message_text(message)
    await fake.click(bob, message, passive(buttons(message)))
    await until(
        lambda: (m := fake.table_message()) is None or message_text(m) != before,
        10,
        "Bob's click applied",
    )
    return True


async def _anns_turn(frame: Any) -> bool:
    """Ann acts in the Activity when her bar offers her choices; True if she did."""
    for action in ("check", "call", "bring_in"):
        choice = frame.locator(f".actions.turn button[data-action={action}]:enabled")
        if await choice.count():
            await choice.click()
            return True
    return False


async def test_a_hand_played_in_the_activity_and_on_the_buttons(
    bot: tuple[FakeDiscord, int],
) -> None:
    fake, port = bot
    server = f"http://127.0.0.1:{port}"
    client_id = str(fake.app_id)
    ann, bob, cleo = (fake.add_user(name) for name in ("ann", "bob", "cleo"))
    await fake.answer(await fake.slash(bob, "table open"))
    await fake.answer(await fake.slash(bob, "sit", buy_in=500))
    start_instance(fake, fake.channel_id, int(ann["id"]), int(cleo["id"]))

    def player(user: JSON) -> Player:
        return Player(user["id"], user["username"], authorize(fake, int(user["id"])))

    where = {
        "instance_id": _instance(fake),
        "guild_id": str(fake.guild_id),
        "channel_id": str(fake.channel_id),
    }

    async with chromium() as browser:
        ann_page, ann_frame = await open_activity(
            browser, server, client_id, player(ann), PHONE, **where
        )
        cleo_page, cleo_frame = await open_activity(
            browser,
            server,
            client_id,
            player(cleo),
            DESKTOP,
            platform="desktop",
            **where,
        )
        # Ann sits down from the page, with a buy-in; the hand is dealt at once.
        await ann_frame.locator("button[data-action=sit]").wait_for(timeout=30_000)
        await ann_frame.locator("input.buy-in").fill("500")
        await ann_frame.locator("button[data-action=sit]").click()
        await ann_frame.locator(".panel.mine .card.hidden").first.wait_for(timeout=30_000)
        snapped = False
        deadline = time.monotonic() + HAND_SECONDS
        while not await ann_frame.locator(".panel.winner").count():
            assert time.monotonic() < deadline, "the hand did not end"
            # The spectator never sees a down card face up.
            assert await cleo_frame.locator(".card.hidden").count() == 0
            if await _anns_turn(ann_frame):
                continue
            if await _bobs_turn(fake, bob):
                if not snapped and await ann_frame.locator(".seat .card.back").count():
                    await snapshot(ann_page, "e2e-phone-ann-mid-hand")
                    await snapshot(cleo_page, "e2e-desktop-cleo-mid-hand")
                    snapped = True
                continue
            await asyncio.sleep(0.1)
        await cleo_frame.locator(".panel.winner").wait_for(timeout=10_000)
        await snapshot(ann_page, "e2e-phone-ann-results")
        await snapshot(cleo_page, "e2e-desktop-cleo-results")
        # Both played; the page shows the results the channel shows (each face is told on its
        # own, so the channel's edit may come a moment after the page's frame).
        log = await ann_frame.locator("[data-testid=log]").inner_text()
        lines = [line for line in log.splitlines() if " wins " in line or " shows " in line]
        assert lines, log

        def shown() -> str:
            return " ".join(message_text(m) for m in fake.channel_messages())

        await until(
            lambda: all(line in shown() for line in lines), WAIT, f"the channel to show {lines}"
        )
        seats = await ann_frame.locator(".seat .name").all_inner_texts()
        assert sorted(seats) == ["Ann", "Bob"]


def _instance(fake: FakeDiscord) -> str:
    (instance,) = fake.activity_instances
    return instance
