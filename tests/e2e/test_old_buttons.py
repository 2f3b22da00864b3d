"""Taking the buttons off an older message of a table (one from before a restart, or of a hand
that never got its results) against a fake Discord that returns messages as Discord does: the
picture, which Discord returns resolved to its signed CDN URL and leaves out of the message's
``attachments``, stays the message's own file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.outbox import ClearButtons
from tests.e2e.discord_rules import as_returned
from tests.e2e.fake_discord import FakeDiscord, buttons, components
from tests.e2e.harness import Harness, dealt, start_bot


@pytest.fixture
async def harness(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    async for started in start_bot(FakeDiscord(), tmp_path, monkeypatch):
        yield started


def media(message: dict[str, object]) -> list[dict[str, object]]:
    return [item["media"] for c in components(message) for item in c.get("items", [])]


async def test_clearing_an_old_messages_buttons_keeps_its_picture(harness: Harness) -> None:
    fake = harness.discord
    players = [fake.add_user(name) for name in ("ann", "bob")]
    await harness.slash(players[0], "table open")
    for user in players:
        await harness.slash(user, "sit", buy_in=500)
    await dealt(harness.table())
    live = await harness.current_message()
    (picture,) = live["attachments"]
    assert media(live) == [{"url": "attachment://table.png"}] and buttons(live)
    # What the bot reads back: the picture resolved, no file left in ``attachments``.
    assert as_returned(live)["attachments"] == []
    message_id = int(live["id"])
    edits = f"PATCH /channels/{fake.channel_id}/messages/{message_id}"
    edited = len(fake.requests_to(edits))

    def uploads() -> int:
        return sum(upload.message_id == message_id for upload in fake.uploads)

    uploaded = uploads()

    harness.table().outbox.put(ClearButtons(message_id))
    await harness.settled()

    assert len(fake.requests_to(edits)) == edited + 1 and uploads() == uploaded
    cleared = fake.messages[message_id]
    assert not buttons(cleared)
    # Still the message's own file, shown by its gallery, not a link to the CDN.
    assert cleared["attachments"] == [picture]
    assert media(cleared) == [{"url": "attachment://table.png"}]
    returned = as_returned(cleared)
    assert returned["attachments"] == []
    [shown] = media(returned)
    assert shown["attachment_id"] == picture["id"] and shown["url"] == picture["url"]
