"""Discord's invalid-request budget is kept: against a fake Discord that
refuses every DM, many tables play several hands each, and the refused requests stay under the
figure docs/operating.md derives: one refused DM per player (not one per hand), no other refusal,
each player named once in his channel, and every hand played to its end."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.settings import GameDefaults
from bot.edge.budget import LIMIT
from bot.edge.dms import REOPEN_GAP
from tests.e2e.fake_discord import FakeDiscord, buttons
from tests.e2e.faults import Fault
from tests.e2e.harness import Harness, dealt, passive, play_hand, start_bot

DM_POST = "POST /channels/{dm}/messages"
HANDS = 2
PLAYERS = 2  # a table
AT_ONCE = 10


@pytest.fixture
async def h(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    game = GameDefaults(countdown_seconds=0)
    async for harness in start_bot(FakeDiscord(), tmp_path, monkeypatch, game):
        yield harness


async def play_table(h: Harness, channel_id: int, hands: int) -> list[int]:
    """Open a table in ``channel_id``, seat two, play ``hands`` hands passively; the ids of the
    hands played."""
    fake = h.discord
    users = [fake.add_user(f"c{channel_id % 100000}p{i}") for i in range(PLAYERS)]
    by_id = {int(user["id"]): user for user in users}
    await fake.answer(await fake.slash(users[0], "table open", channel_id=channel_id))
    for user in users:
        await fake.answer(await fake.slash(user, "sit", channel_id=channel_id, buy_in=500))
    table = h.table(channel_id)
    played: list[int] = []
    while len(played) < hands:
        live = table.live
        if live is None:
            await asyncio.sleep(0.01)  # the next hand is dealt
            continue
        if played and live.hand_id == played[-1]:
            await asyncio.sleep(0.01)
            continue
        hand_id = live.hand_id
        if len(played) == hands - 1:
            for user in users:  # the last hand: nobody is dealt in after it
                await fake.answer(await fake.slash(user, "sitout", channel_id=channel_id))
        while (live := table.live) is not None and live.hand_id == hand_id:
            message = await h.current_message(channel_id)
            actor = table.actor_id()
            assert actor is not None
            seq = live.seq
            reply = await fake.click(by_id[actor], message, passive(buttons(message)))
            assert reply.kind in (6, 7), reply  # deferred, or the table updated at once
            await h.applied(seq, channel_id)
        played.append(hand_id)
    return played


async def play_everywhere(h: Harness, tables: int) -> None:
    fake = h.discord
    fake.faults.add(Fault(DM_POST, 403, code=50007, times=None))
    channels = [fake.channel_id] + [fake.add_channel() for _ in range(tables - 1)]
    # Bot and fake share this process's one core: tables play in overlapping waves, as many at
    # once as keep every acknowledgement inside Discord's 3 seconds.
    at_once = asyncio.Semaphore(AT_ONCE)

    async def play(channel_id: int) -> list[int]:
        async with at_once:
            return await play_table(h, channel_id, HANDS)

    played = await asyncio.gather(*(play(c) for c in channels))
    assert all(len(hands) == HANDS for hands in played)  # play went on everywhere
    await h.settled()

    refused = [r for r in fake.requests if r.status in (401, 403, 429)]
    dms_tried = fake.requests_to(DM_POST)
    players = tables * PLAYERS
    # The derivation (docs/operating.md): at most one refused DM per player while his
    # back-off runs, however many hands; nothing else refused.
    assert len(refused) == len(dms_tried) == players, (len(refused), len(dms_tried))
    assert h.bot.presenter.budget.count() == players
    assert players < LIMIT // 2  # never near the ban, nor even strained
    assert not h.bot.presenter.budget.strained
    for channel_id in channels:
        told = [m for m in fake.channel_messages(channel_id) if "DMs are closed" in m["content"]]
        assert len(told) == PLAYERS  # once a table session, not once a hand
    await h.bot.store.audit()


async def test_refused_dms_cost_one_invalid_request_a_player_not_one_a_hand(h: Harness) -> None:
    await play_everywhere(h, tables=4)


@pytest.mark.slow
async def test_two_hundred_tables_with_every_dm_refused_stay_far_under_the_budget(
    h: Harness,
) -> None:
    await play_everywhere(h, tables=200)


async def test_a_player_who_asks_for_his_cards_is_dmed_again(h: Harness) -> None:
    """My cards shows his DMs may be open: his next DM is tried (once the least gap after a
    refusal has passed), the other player's is not, and a DM that goes through forgets the
    refusal."""
    fake = h.discord
    refusal = Fault(DM_POST, 403, code=50007, times=None)
    fake.faults.add(refusal)
    ann, bob = (fake.add_user(name) for name in ("ann", "bob"))
    players = {int(ann["id"]): ann, int(bob["id"]): bob}
    await fake.answer(await fake.slash(ann, "table open"))
    for user in players.values():
        await fake.answer(await fake.slash(user, "sit", buy_in=500))
    await dealt(h.table())
    for user in players.values():
        await fake.answer(await fake.slash(user, "sitout"))  # after this hand
    await h.settled()
    assert len(fake.requests_to(DM_POST)) == 2  # third street: both refused
    refusal.times = refusal.hits  # ann opens her DMs (bob does not)
    message = await h.current_message()
    await fake.answer(await fake.click(ann, message, f"stud:cards:{fake.channel_id}"))
    dms = h.bot.presenter.dms
    assert not dms.may_try(int(ann["id"]))  # not sooner than the gap after the refusal
    later = time.time() + REOPEN_GAP + 1
    dms._clock = lambda: later
    assert dms.may_try(int(ann["id"])) and not dms.may_try(int(bob["id"]))
    await play_hand(h, players)  # seventh street's DM: ann's is tried, bob's is not
    assert [r.status for r in fake.requests_to(DM_POST)] == [403, 403, 200]
    assert len(fake.dms_to(int(ann["id"]))) == 1
    closed = await h.bot.store.coordination.dms_closed(since=0)
    assert set(closed) == {int(bob["id"])}
