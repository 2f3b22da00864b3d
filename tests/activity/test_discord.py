"""The Activity beside the Discord face, on the unmodified bot against the fake Discord: the table
message's Play at the table button opens it (LAUNCH_ACTIVITY), the Entry Point command goes out
with the global commands, and a player in the Activity and one on the buttons play one hand at
one table, both seeing one sequence of events. Without the Activity's settings neither the
button nor the command exists."""

from __future__ import annotations

from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.core.settings import ActivitySettings
from bot.core.views import ButtonSpec
from bot.edge.buttons import action_rows
from tests.activity.pages import Pages, activity_server
from tests.e2e.discord_rules import sync_problems
from tests.e2e.fake_activity import LAUNCH_ACTIVITY, authorize
from tests.e2e.fake_discord import FakeDiscord, buttons, components, message_text
from tests.e2e.harness import Harness, dealt, passive, start_bot
from tests.texts import TEXTS


@pytest.fixture
async def played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    fake = FakeDiscord()
    fake.activities = True
    settings = ActivitySettings(0, fake.client_secret, "https://activity.test")
    async for harness in start_bot(fake, tmp_path, monkeypatch, activity=settings):
        yield harness


async def test_the_activity_and_the_buttons_play_one_table(played: Harness) -> None:
    h, fake = played, played.discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    ann_id, bob_id = int(ann["id"]), int(bob["id"])
    await h.slash(ann, "table open")
    await h.settled()
    # The idle table's message has the button too: players open the Activity to sit down.
    launch = f"stud:launch:{fake.channel_id}"
    idle = fake.channel_messages()[-1]
    assert idle["embeds"] and launch in {c.get("custom_id") for c in components(idle)}
    for user in (ann, bob):
        await h.slash(user, "sit", buy_in=500)
    table = h.table()
    await dealt(table)
    message = await h.current_message()
    assert launch in {c.get("custom_id") for c in components(message)}
    # Ann clicks Play at the table: Discord opens the Activity in the channel, with her in it.
    callback = await fake.click(ann, message, launch)
    assert callback.kind == LAUNCH_ACTIVITY
    ((instance, (channel, users)),) = fake.activity_instances.items()
    assert channel == fake.channel_id and users == {ann_id}
    bot = h.bot
    server = activity_server(fake, bot.house, bot.settings.game, lambda: bot.application_id)
    async with aiohttp.ClientSession() as http, server:
        pages = Pages(fake, server, http)
        try:
            status, body = await pages.token(
                {
                    "code": authorize(fake, ann_id),
                    "instance_id": instance,
                    "channel_id": str(fake.channel_id),
                }
            )
            assert status == 200, body
            page = await pages.connect(
                {"session": body["session"], "instance_id": instance, "channel_id": channel},
                ann_id,
            )
            await page.until(lambda f: f["type"] == "table")
            hand_id = table.live.hand_id if table.live else 0
            decisions: list[int] = []
            while (live := table.live) is not None and live.hand_id == hand_id:
                message = await h.current_message()
                seq = live.seq
                decisions.append(seq)
                if table.actor_id() == ann_id:
                    view = await page.until(partial(_at, seq))
                    spec = _passive(view["view"]["hand"]["buttons"])
                    hand = view["view"]["hand"]
                    act = {"type": "act", **spec, "hand_id": hand["hand_id"], "seq": seq}
                    assert (await page.request(act))["type"] == "done"
                else:
                    assert table.actor_id() == bob_id
                    click = await fake.click(bob, message, passive(buttons(message)))
                    assert click.kind in (6, 7), click
                await h.applied(seq)
            await h.settled()
            results = await page.until(
                lambda f: f["type"] == "results" and f["view"]["hand_id"] == str(hand_id)
            )
        finally:
            await pages.close()
    # One sequence: the socket saw every betting state in order, Ann's and Bob's decisions
    # alike, and the same results the channel shows.
    seqs = [
        f["view"]["hand"]["seq"]
        for f in page.frames
        if f["type"] == "table" and (f["view"]["hand"] or {}).get("hand_id") == str(hand_id)
    ]
    assert seqs == sorted(seqs) and set(decisions) <= set(seqs)
    shown = " ".join(message_text(m) for m in fake.channel_messages())
    assert results["view"]["lines"] and all(line in shown for line in results["view"]["lines"])
    # Both played: each one's actions are in the hand's lines.
    log = " ".join(line for f in page.frames if f["type"] == "table" for line in _log(f))
    assert "Ann" in log and "Bob" in log


def _at(seq: int, frame: dict[str, Any]) -> bool:
    return frame["type"] == "table" and (frame["view"]["hand"] or {}).get("seq") == seq


def _passive(specs: list[dict[str, Any]]) -> dict[str, Any]:
    for action in ("check", "call", "bring_in"):
        for spec in specs:
            if spec["action"] == action:
                return {"action": action, "amount": spec["amount"]}
    raise AssertionError(f"no passive action in {specs}")


def _log(frame: dict[str, Any]) -> list[str]:
    hand = frame["view"]["hand"]
    return [] if hand is None else list(hand["log"])


async def test_the_entry_point_command_goes_out_with_the_global_commands(
    played: Harness,
) -> None:
    fake = played.discord
    await played.bot.sync_commands(None, force=True)
    (entry,) = [c for c in fake.commands[None] if c.get("type") == 4]
    assert entry["handler"] == 2 and entry["name"] == "launch"
    assert entry["description_localizations"]["ru"] == TEXTS.t("ru", "entry_point_description")
    assert not fake.refused_syncs
    # A server's commands never carry it (Entry Point commands are global only).
    assert not [c for c in fake.commands.get(fake.guild_id, []) if c.get("type") == 4]
    assert sync_problems([entry, entry]) and sync_problems([entry], guild=True)


def test_without_the_activity_the_table_message_has_no_launch_button() -> None:
    for launch in (False, True):
        rows = action_rows(5, 1, 0, [ButtonSpec("fold", None)], "en", TEXTS, launch=launch)
        ids = {getattr(item, "custom_id", None) for row in rows for item in row.children}
        assert "stud:cards:5" in ids and ("stud:launch:5" in ids) is launch
