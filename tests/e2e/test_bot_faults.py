"""The unmodified bot against a fake Discord that misbehaves as the real one does: rate limits,
server errors, slow answers, refused posts, a dropped gateway.

With each fault a full hand is played to the end, and then: every interaction was acknowledged
within a second of arriving, every applied action's player was told (a slash command by its
answer, a click by the table), nobody timed out although turns are short enough (and without a
time bank) that the faults' delays would have cost them their turn, the chips add up, and the
log has no traceback.

The bot and the fake run on one clock (:class:`tests.e2e.harness.DiscordTime`): the fake's slow
answers, the bot's pauses between retries and the time a paused table waits pass at once, on
the clock the turns and the acknowledgements are measured by. Only what discord.py waits out
itself, on asyncio's clock (a 429's retry-after, its pauses before retrying a 500 or 502), takes
real time: those two cases are in the slow tier.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.core.settings import GameDefaults
from bot.core.table import LiveHand
from tests.e2e.fake_discord import (
    ALL_PERMISSIONS,
    JSON,
    SEND_MESSAGES,
    FakeDiscord,
    buttons,
    message_text,
)
from tests.e2e.faults import Fault
from tests.e2e.harness import (
    COUNTDOWN,
    DiscordTime,
    Harness,
    dealt,
    passive,
    start_bot,
    wallet_totals,
)

CHANNEL_POST = "POST /channels/{id}/messages"
CHANNEL_EDIT = "PATCH /channels/{id}/messages/{id}"
FOLLOWUP = "POST /webhooks/{id}/{token}"
# Shorter than what the faults below delay a table update by, and no time bank to add to it: a
# clock that started before the buttons were shown would run out.
TURN_SECONDS = 8


@pytest.fixture
async def h(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    game = GameDefaults(countdown_seconds=COUNTDOWN, turn_seconds=TURN_SECONDS, time_bank=0)
    clock = DiscordTime()
    async for harness in start_bot(FakeDiscord(), tmp_path, monkeypatch, game, clock):
        yield harness


async def wait_past_the_turn(h: Harness) -> None:
    """Longer than a turn passes: a clock still running would have acted for its player."""
    assert h.clock is not None
    await h.clock.advance(TURN_SECONDS + 1)


async def seat_two(h: Harness) -> dict[int, JSON]:
    fake = h.discord
    players = {int(u["id"]): u for u in (fake.add_user(f"p{i}") for i in range(2))}
    opener = next(iter(players.values()))
    await h.slash(opener, "table open")
    for user in players.values():
        await h.slash(user, "sit", buy_in=500)
    await dealt(h.table())
    for user in players.values():
        await h.slash(user, "sitout")  # one hand only
    return players


async def play_out(h: Harness, players: dict[int, JSON]) -> list[str]:
    """Play the hand passively, each click as soon as its buttons are shown; returns the
    refusals the clicks got."""
    table = h.table()
    refusals: list[str] = []
    while table.live is not None:
        message = await h.current_message()
        actor = table.actor_id()
        assert actor is not None
        seq = table.live.seq
        click = await h.discord.click(players[actor], message, passive(buttons(message)))
        assert click.kind in (6, 7), click
        for _ in range(6000):
            if table.live is None or (table.live.seq != seq and not table.lock.locked()):
                break
            if told := h.discord.followups.get(click.interaction_id):
                refusals.append(told[0].content)
                break
            await asyncio.sleep(0.005)
        else:
            raise AssertionError("a click was neither applied nor answered")
    await h.settled()
    return refusals


def assert_unharmed(h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    fake = h.discord
    # Every interaction answered within Discord's window: its limit, not a speed (a loaded
    # machine runs these too; how fast the bot answers is the benchmarks' business).
    late = {
        i: r.latency
        for i, r in fake.interactions.items()
        if r.latency is None or r.latency > fake.callback_window
    }
    assert late == {}, late
    for interaction_id, record in fake.interactions.items():
        if record.kind == 2:  # a slash command: its player got his answer
            assert fake.followups.get(interaction_id), interaction_id
    results = [m for m in fake.channel_messages() if "showdown.png" in str(m["attachments"])]
    assert len(results) == 1
    assert sum(wallet_totals(h.database).values()) == 2 * 1000
    tracebacks = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert tracebacks == [], [r.getMessage() for r in tracebacks]


async def finish_unharmed(
    h: Harness, players: dict[int, JSON], hand: LiveHand, caplog: pytest.LogCaptureFixture
) -> None:
    """Play the rest of the hand without a refusal; it ends with nobody timed out, unharmed."""
    assert await play_out(h, players) == []
    assert hand.hand.is_over and not hand.hand.timed_out
    await h.bot.store.audit()
    assert_unharmed(h, caplog)


# discord.py waits out a 429's retry-after and its pauses before retrying a 500 or 502 (1 s, then
# 3 s) on asyncio's clock, which the bot cannot hand it: those cases take real time.
WAITED_OUT_BY_DISCORD_PY = ("429 on posts and edits", "500 and 502, retried by discord.py")

FAULTS: dict[str, Callable[[], list[Fault]]] = {
    "429 on posts and edits": lambda: [
        Fault(CHANNEL_POST, 429, retry_after=0.5, times=3),
        Fault(CHANNEL_EDIT, 429, retry_after=0.5, times=3),
    ],
    "500 and 502, retried by discord.py": lambda: [
        Fault(CHANNEL_POST, 500, times=2),
        Fault(CHANNEL_EDIT, 502, times=2),
    ],
    "503, retried by the bot": lambda: [
        Fault(CHANNEL_EDIT, 503, times=4),
        Fault(CHANNEL_POST, 503, times=4),
        Fault(FOLLOWUP, 503, times=2),
    ],
    "slow answers": lambda: [
        Fault(CHANNEL_EDIT, "slow", delay=(2.0, 4.0), times=3),
        Fault(CHANNEL_POST, "slow", delay=(2.0, 4.0), times=2),
    ],
}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=[pytest.mark.slow] if name in WAITED_OUT_BY_DISCORD_PY else [])
        for name in FAULTS
    ],
)
async def test_a_hand_completes_under_discord_faults(
    h: Harness, caplog: pytest.LogCaptureFixture, name: str
) -> None:
    caplog.set_level(logging.WARNING)
    players = await seat_two(h)
    hand = h.table().live
    assert hand is not None
    for fault in FAULTS[name]():
        h.discord.faults.add(fault)
    refusals = await play_out(h, players)
    assert refusals == []
    assert hand.hand.is_over and not hand.hand.timed_out
    assert any(fault.hits for fault in h.discord.faults.faults)
    await h.bot.store.audit()
    assert_unharmed(h, caplog)


async def test_missing_permissions_pause_the_table_and_the_next_player_is_told(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """Permissions lost mid-game pause the table (no clock runs); the next
    player who acts is told which ones, nothing changes; play resumes once they are back."""
    caplog.set_level(logging.WARNING)
    fake = h.discord
    players = await seat_two(h)
    table = h.table()
    hand = table.live
    assert hand is not None
    await h.settled()
    await fake.set_app_permissions(fake.channel_id, ALL_PERMISSIONS & ~SEND_MESSAGES)
    actor = table.actor_id()
    assert actor is not None
    seq = hand.seq
    told = await h.slash(players[actor], "bringin")
    assert told.ephemeral and "Send Messages" in told.content
    assert hand.seq == seq and table.outbox.paused is not None
    await wait_past_the_turn(h)
    assert not hand.hand.timed_out and hand.seq == seq
    await fake.set_app_permissions(fake.channel_id, ALL_PERMISSIONS)
    done = await h.slash(players[actor], "bringin")
    assert "Done" in done.content and hand.seq != seq and table.outbox.paused is None
    await finish_unharmed(h, players, hand, caplog)


async def test_a_refused_post_pauses_the_table_until_a_player_shows_it_can_post(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """A 403 on the table message stops the clocks; the next interaction shows the bot may
    post again, the table is shown and play goes on."""
    caplog.set_level(logging.WARNING)
    fake = h.discord
    players = await seat_two(h)
    table = h.table()
    hand = table.live
    assert hand is not None
    await h.settled()
    refused = fake.faults.add(Fault(CHANNEL_EDIT, 403, code=50013, times=1))
    actor = table.actor_id()
    assert actor is not None
    await h.slash(players[actor], "bringin")
    await h.settled()
    assert refused.hits == 1 and table.outbox.paused is not None
    await wait_past_the_turn(h)
    assert not hand.hand.timed_out
    other = table.actor_id()
    assert other is not None and other != actor
    done = await h.slash(players[other], "call")
    assert "Done" in done.content and table.outbox.paused is None
    await finish_unharmed(h, players, hand, caplog)


async def test_the_bot_resumes_after_a_dropped_gateway_and_plays_on(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    fake = h.discord
    players = await seat_two(h)
    await h.settled()
    await fake.drop_gateway()
    # The first click goes out while the bot is away: it gets it when the session resumes.
    assert await play_out(h, players) == []
    steps = [step.what for step in fake.gateway_steps]
    assert steps == ["IDENTIFY", "DROPPED", "RESUME", "RESUMED"]
    # The resume spent none of Discord's 1,000 session starts a day: one counted, the first.
    today = datetime.now(UTC).date().isoformat()
    assert await h.bot.store.coordination.count_start(today, 0) == 1
    await h.bot.store.audit()
    assert_unharmed(h, caplog)


async def test_a_refused_dm_is_told_in_the_channel_once(h: Harness) -> None:
    fake = h.discord
    fake.faults.add(Fault("POST /channels/{dm}/messages", 403, code=50007, times=None))
    players = await seat_two(h)
    await h.settled()
    told = [m["content"] for m in fake.channel_messages() if "DMs are closed" in m["content"]]
    assert sorted(told) == sorted(
        f"<@{user_id}>, your DMs are closed: use My cards." for user_id in players
    )


async def test_table_open_without_the_permissions_it_needs_names_them(h: Harness) -> None:
    fake = h.discord
    await fake.set_app_permissions(fake.channel_id, ALL_PERMISSIONS & ~SEND_MESSAGES)
    reply = await h.slash(fake.add_user("ann"), "table open")
    assert reply.ephemeral and "Send Messages" in reply.content
    assert list(h.bot.house.open_tables) == []
    assert [r for r in fake.requests_to(CHANNEL_POST) if r.status == 403] == []


async def test_a_table_message_older_than_the_edit_window_is_replaced(h: Harness) -> None:
    """Discord takes few edits of a message over an hour old (30046): the table is shown in a
    new message instead, and nothing was refused."""
    assert h.clock is not None
    fake = h.discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    await h.slash(ann, "table open")
    await h.slash(ann, "sit", buy_in=500)
    await h.settled()
    first = fake.channel_messages()[-1]
    edits = f"PATCH /channels/{fake.channel_id}/messages/{first['id']}"
    before = len(fake.requests_to(edits))
    await h.clock.advance(fake.old_message_age + 1)
    await h.slash(bob, "sit", buy_in=500)
    await h.settled()
    assert not [r for r in fake.requests if r.status == 429]
    both = [m for m in fake.channel_messages() if "Bob" in message_text(m)]
    assert both and first["id"] not in {m["id"] for m in both}
    assert len(fake.requests_to(edits)) == before


@pytest.mark.slow  # discord.py's own pause after a 5xx (1 s) is on asyncio's clock
async def test_a_click_whose_answer_meets_two_5xx_is_still_answered_in_time(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """discord.py would try a callback a third time 1 s and 3 s after two 5xx answers, past
    Discord's 3 s: the bot cuts its pauses and tries again itself, so the click is answered by
    the table's update within the window, and the player sees no failure."""
    caplog.set_level(logging.WARNING)
    players = await seat_two(h)
    hand = h.table().live
    assert hand is not None
    fault = Fault("POST /interactions/{id}/{token}/callback", 500, times=2)
    h.discord.faults.add(fault)
    table = h.table()
    message = await h.current_message()
    actor = table.actor_id()
    assert actor is not None
    click = await h.discord.click(players[actor], message, passive(buttons(message)))
    assert fault.hits == 2
    assert click.kind == 7  # the update itself, not an acknowledgement on its own
    record = h.discord.interactions[click.interaction_id]
    assert record.acknowledged is not None
    assert record.acknowledged - record.created < h.discord.callback_window
    await finish_unharmed(h, players, hand, caplog)
