"""/moderate, the staff's command for any member's table or tournament, as Discord gates it:
offered by default only to members with Manage Server, or to whoever the server gives it in
Server Settings -> Integrations, and then obeyed; /table close, /table bots and /tournament
cancel still act on one's own table or tournament only (or with Manage Server, as before)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.fake_discord import MANAGE_GUILD, CommandNotShown, FakeDiscord
from tests.e2e.harness import Harness, start_bot

STAFF = MANAGE_GUILD | (1 << 10) | (1 << 11)  # Manage Server, View Channel, Send Messages


@pytest.fixture
async def harness(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    async for started in start_bot(FakeDiscord(), tmp_path, monkeypatch):
        yield started


async def test_only_staff_are_offered_moderate_and_it_closes_anyones_table(
    harness: Harness,
) -> None:
    h, fake = harness, harness.discord
    ann, bob, admin = fake.add_user("ann"), fake.add_user("bob"), fake.add_user("admin")
    await h.slash(ann, "table open")
    # A player is not offered /moderate at all; his /table close is refused, as before.
    with pytest.raises(CommandNotShown):
        await fake.slash(bob, "moderate close")
    refused = await h.slash(bob, "table close")
    assert refused.ephemeral and "Only the player who opened the table" in refused.content
    assert h.bot.house.open_tables.find(fake.channel_id) is not None
    closed = await h.slash(admin, "moderate close", permissions=STAFF)
    assert closed.content.startswith("The table is closed.")
    assert h.bot.house.open_tables.find(fake.channel_id) is None


async def test_a_member_the_server_gives_moderate_may_use_it_without_manage_server(
    harness: Harness,
) -> None:
    h, fake = harness, harness.discord
    ann, host, admin = fake.add_user("ann"), fake.add_user("host"), fake.add_user("admin")
    funded = await h.slash(admin, "chips house fund", amount=10_000, permissions=STAFF)
    assert "10,000" in funded.content
    await h.slash(ann, "table open")
    await h.slash(ann, "sit", buy_in=500)
    # The server gives /moderate to its poker host, who has no Manage Server.
    fake.command_overrides.add(("moderate", int(host["id"])))
    refused = await h.slash(host, "table bots add")
    assert "Only the player who opened the table" in refused.content
    seated = await h.slash(host, "moderate bots add", count=2)
    assert seated.content == "2 computer players sat down."
    assert len(h.table().seats) == 3
    created = await h.slash(ann, "tournament create", players=4)
    assert "Tournament #1" in created.content
    refused = await h.slash(host, "tournament cancel", tournament=1)
    assert "Only the tournament's organiser" in refused.content
    called_off = await h.slash(host, "moderate cancel", tournament=1)
    assert called_off.content.startswith("Tournament #1 is called off")
    # The override is for /moderate only: chips stay with Manage Server.
    with pytest.raises(CommandNotShown):
        await fake.slash(host, "chips grant", amount=5)
