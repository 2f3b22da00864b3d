"""Against the fake Discord: a tournament at a set time gets the server's scheduled
event, kept in step with it (active at the start, cancelled with it), and a reminder in the
lobby's channel before the start that notifies the registered; without the right to make
events it is made without one and says so. The fake holds the bot to Discord's documented
limits of events (``discord_rules``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from tests.e2e.discord_rules import (
    ACTIVE,
    CANCELED,
    EXTERNAL,
    SCHEDULED,
    event_move_problem,
    event_problems,
)
from tests.e2e.fake_discord import ALL_PERMISSIONS, JSON, FakeDiscord, message_text
from tests.e2e.harness import Harness, HeldTime, start_bot, until

CREATE_EVENTS, MANAGE_EVENTS = 1 << 44, 1 << 33


@pytest.fixture
async def held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    # Time jumps when the test says: the players register before the reminder.
    async for harness in start_bot(FakeDiscord(), tmp_path, monkeypatch, clock=HeldTime()):
        yield harness


def only_event(fake: FakeDiscord) -> JSON:
    [event] = fake.events.values()
    return event


async def test_the_event_follows_the_tournament_and_the_registered_are_reminded(
    held: Harness,
) -> None:
    h, fake = held, held.discord
    assert h.clock is not None
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    created = await h.slash(ann, "tournament create", starts_in=15, seats=2)
    assert created.ephemeral and "It starts <t:" in created.content
    assert "Its Discord event is in the server's events." in created.content
    event = only_event(fake)
    assert (event["entity_type"], event["privacy_level"], event["status"]) == (EXTERNAL, 2, 1)
    assert event["name"] == "Tournament #1 — Seven Card Stud"
    assert str(fake.channel_id) in event["entity_metadata"]["location"]
    for user in (ann, bob):
        await h.slash(user, "tournament register", tournament=1)

    def reminder() -> JSON | None:
        return next(
            (m for m in fake.channel_messages() if m["content"].startswith("Tournament #1 starts")),
            None,
        )

    # Ten minutes before the start, the reminder; then the start.
    await h.clock.advance(5 * 60 - 5)
    assert reminder() is None
    await h.clock.advance(10)
    await until(lambda: reminder() is not None, 10, "the reminder")
    found = reminder()
    assert found is not None
    assert found["content"].endswith(f"<@{ann['id']}> <@{bob['id']}>")
    assert {m["id"] for m in found["mentions"]} == {ann["id"], bob["id"]}
    await h.clock.advance(10 * 60)
    await until(lambda: only_event(fake)["status"] == ACTIVE, 10, "the event active")
    assert fake.threads_of(fake.channel_id), "its table plays in a thread"
    await h.settled()
    assert "under way" in message_text(
        next(m for m in fake.channel_messages() if "Tournament #1" in message_text(m))
    )


async def test_cancelled_with_the_tournament_and_none_without_the_right(held: Harness) -> None:
    h, fake = held, held.discord
    ann = fake.add_user("ann")
    await h.slash(ann, "tournament create", starts_in=60)
    await h.slash(ann, "tournament cancel", tournament=1)
    await h.settled()
    assert only_event(fake)["status"] == CANCELED
    # Without Create Events or Manage Events the interaction says so; it is made all the same.
    await fake.set_app_permissions(
        fake.channel_id, ALL_PERMISSIONS & ~CREATE_EVENTS & ~MANAGE_EVENTS
    )
    created = await h.slash(ann, "tournament create", starts_in=60)
    assert "I can't manage this server's events" in created.content
    assert len(fake.events) == 1
    assert (await h.bot.store.tournaments.get(2)).state == "registering"


def test_the_fake_holds_events_to_discords_limits() -> None:
    now = 1_800_000_000.0
    good: JSON = {
        "name": "Tournament #1",
        "privacy_level": 2,
        "entity_type": EXTERNAL,
        "entity_metadata": {"location": "https://discord.com/channels/1/2"},
        "scheduled_start_time": "2027-01-15T10:00:00+00:00",
        "scheduled_end_time": "2027-01-15T14:00:00+00:00",
    }
    assert event_problems(good, now) == []
    for bad, field in (
        ({"name": ""}, "name"),
        ({"name": "x" * 101}, "name"),
        ({"description": "x" * 1001}, "description"),
        ({"scheduled_start_time": "2020-01-01T00:00:00+00:00"}, "scheduled_start_time"),
        ({"scheduled_end_time": None}, "scheduled_end_time"),
        ({"entity_metadata": {"location": "x" * 101}}, "entity_metadata.location"),
        ({"privacy_level": 1}, "privacy_level"),
    ):
        assert any(p.startswith(field) for p in event_problems(good | bad, now)), bad
    assert event_move_problem(SCHEDULED, ACTIVE) is None
    assert event_move_problem(CANCELED, ACTIVE) is not None
    assert event_move_problem(ACTIVE, CANCELED) is not None


async def test_the_fake_edits_within_discords_moves_and_deletes_events(held: Harness) -> None:
    h, fake = held, held.discord
    ann = fake.add_user("ann")
    await h.slash(ann, "tournament create", starts_in=60)
    event = only_event(fake)
    guild, event_id = fake.guild_id, int(event["id"])
    with pytest.raises(discord.HTTPException) as refused:
        await h.bot.http.edit_scheduled_event(guild, event_id, status=3)  # never started
    assert refused.value.status == 400
    with pytest.raises(discord.HTTPException):
        await h.bot.http.edit_scheduled_event(guild, event_id, name="")
    renamed = await h.bot.http.edit_scheduled_event(guild, event_id, name="Poker night")
    assert renamed["name"] == "Poker night" and only_event(fake)["status"] == SCHEDULED
    await h.bot.http.delete_scheduled_event(guild, event_id)
    assert fake.events == {}
    with pytest.raises(discord.NotFound):
        await h.bot.http.get_scheduled_event(guild, event_id, False)
