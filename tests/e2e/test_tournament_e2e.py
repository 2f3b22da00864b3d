"""Issue 21 against the fake Discord: a sit-and-go's lobby, its Register button, and its table
in a thread the bot makes under the lobby's channel (RULES 11.1, 11.5)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.fake_discord import (
    CREATE_PUBLIC_THREADS,
    EVERYONE_PERMISSIONS,
    JSON,
    SEND_MESSAGES_IN_THREADS,
    FakeDiscord,
    components,
    message_text,
)
from tests.e2e.harness import Harness, dealt, start_bot


@pytest.fixture
async def english(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    async for harness in start_bot(FakeDiscord(), tmp_path, monkeypatch):
        yield harness


def lobby(fake: FakeDiscord) -> JSON:
    [message] = [m for m in fake.channel_messages() if "Tournament #1" in message_text(m)]
    return message


def custom_ids(message: JSON) -> dict[str, str]:
    return {c["label"]: c["custom_id"] for c in components(message) if "custom_id" in c}


async def test_a_sit_and_go_fills_starts_and_deals_its_table_in_a_thread(
    english: Harness,
) -> None:
    h, fake = english, english.discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    created = await h.slash(ann, "tournament create", players=2, buy_in=100, seats=2)
    assert created.ephemeral and "Tournament #1" in created.content
    await h.settled()
    assert "0 entrants" in message_text(lobby(fake))
    register = custom_ids(lobby(fake))["Register"]
    clicked = await h.click(ann, lobby(fake), register)
    assert clicked.ephemeral and "registered for tournament #1" in clicked.content
    await h.settled()
    assert "1 entrant" in message_text(lobby(fake))
    await h.slash(bob, "tournament register", tournament=1)
    await h.settled()

    [thread_id] = fake.threads_of(fake.channel_id)
    assert fake.threads[thread_id]["name"] == "Tournament #1 — table 1"
    table = h.table(thread_id)
    await dealt(table)
    message = await h.current_message(thread_id)
    assert int(message["channel_id"]) == thread_id
    assert "under way" in message_text(lobby(fake))
    assert custom_ids(lobby(fake)) == {"Entrants": "stud:t:1:entrants"}
    # Nothing of the table in the lobby's channel.
    assert fake.table_message() is None
    # The fake archives a thread as Discord does (PATCH of the thread).
    archived: JSON = dict(await h.bot.http.edit_channel(thread_id, archived=True))
    assert archived["thread_metadata"]["archived"] is True
    assert fake.threads[thread_id]["thread_metadata"]["archived"] is True


async def test_create_names_the_thread_permissions_the_bot_lacks(english: Harness) -> None:
    h, fake = english, english.discord
    ann = fake.add_user("ann")
    await fake.set_app_permissions(fake.channel_id, EVERYONE_PERMISSIONS)
    refused = await h.slash(ann, "tournament create", players=2)
    assert refused.ephemeral
    assert "Create Public Threads, Send Messages in Threads" in refused.content
    assert await h.bot.store.tournaments.active() == []
    await fake.set_app_permissions(
        fake.channel_id, EVERYONE_PERMISSIONS | CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
    )
    assert "Tournament #1" in (await h.slash(ann, "tournament create", players=2)).content
