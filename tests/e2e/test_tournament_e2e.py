"""Tournaments against the fake Discord: a sit-and-go's lobby, its Register button, and its table
in a thread the bot makes under the lobby's channel (RULES 11.1, 11.5)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.settings import GameDefaults
from tests.e2e.fake_discord import (
    CREATE_PUBLIC_THREADS,
    EVERYONE_PERMISSIONS,
    JSON,
    SEND_MESSAGES_IN_THREADS,
    FakeDiscord,
    buttons,
    components,
    message_text,
)
from tests.e2e.harness import (
    DiscordTime,
    Harness,
    aggressive,
    dealt,
    passive,
    start_bot,
    until,
)


@pytest.fixture
async def english(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    async for harness in start_bot(FakeDiscord(), tmp_path, monkeypatch):
        yield harness


# Seconds a player has to act at the away player's test's table (no time bank).
TURN = 8


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


async def test_a_sit_and_go_played_to_its_winner_pays_and_closes_its_thread(
    english: Harness,
) -> None:
    """Players click in the table's thread until one has every chip; the
    lobby shows the places and prizes, the prize is in the winner's wallet, the thread is
    archived once its last lines are out."""
    h, fake = english, english.discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    players = {int(ann["id"]): ann, int(bob["id"]): bob}
    # 100 chips at 20/40: all in on third street, a hand or two decides it.
    await h.slash(ann, "tournament create", players=2, buy_in=100, seats=2, stack=100)
    await h.slash(ann, "tournament register", tournament=1)
    await h.slash(bob, "tournament register", tournament=1)
    await h.settled()
    [thread_id] = fake.threads_of(fake.channel_id)
    table = h.table(thread_id)
    for _ in range(50):
        await dealt(table)
        while table.live is not None:
            message = await h.current_message(thread_id)
            actor = table.actor_id()
            assert actor is not None and table.live is not None
            seq = table.live.seq
            reply = await fake.click(players[actor], message, aggressive(buttons(message)))
            assert reply.kind in (6, 7), reply
            await h.applied(seq, thread_id)
        await h.settled()
        if (await h.bot.store.tournaments.get(1)).state == "finished":
            break
    else:
        raise AssertionError("nobody won in 50 hands")
    entries = {e.user_id: e for e in await h.bot.store.tournaments.entries(1)}
    (winner,) = [user for user, e in entries.items() if e.place == 1]
    (loser,) = [user for user, e in entries.items() if e.place == 2]
    assert (entries[winner].prize, entries[loser].prize) == (200, 0)
    assert (await h.bot.store.wallets.get(fake.guild_id, winner)).balance == 1100
    assert (await h.bot.store.wallets.get(fake.guild_id, loser)).balance == 900
    await until(lambda: "1. <@" in message_text(lobby(fake)), 10, "the results in the lobby")
    results = message_text(lobby(fake))
    assert f"1. <@{winner}>: 200" in results and f"2. <@{loser}>: 0" in results
    thread_lines = " ".join(message_text(m) for m in fake.channel_messages(thread_id))
    assert "wins the tournament" in thread_lines
    await until(
        lambda: fake.threads[thread_id]["thread_metadata"]["archived"], 10, "the thread archived"
    )
    await h.settled()
    assert fake.threads[thread_id]["thread_metadata"]["archived"], "nothing reopened it"
    assert h.bot.house.open_tables.find(thread_id) is None
    await h.bot.store.audit()


async def test_an_away_player_with_closed_dms_is_dealt_every_hand_and_never_sat_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RULES 11.3: a player whose DMs are closed and who never acts is dealt
    in, posts his antes and bring-ins, checks or folds when his time runs out, and stays in."""
    clock = DiscordTime()
    game = GameDefaults(countdown_seconds=1, turn_seconds=TURN, time_bank=0)
    async for h in start_bot(FakeDiscord(), tmp_path, monkeypatch, game, clock):
        fake = h.discord
        ann, bob = fake.add_user("ann"), fake.add_user("bob")
        away = int(bob["id"])
        fake.closed_dms.add(away)
        await h.slash(ann, "tournament create", players=2, buy_in=0, seats=2)
        await h.slash(ann, "tournament register", tournament=1)
        await h.slash(bob, "tournament register", tournament=1)
        await h.settled()
        [thread_id] = fake.threads_of(fake.channel_id)
        table = h.table(thread_id)
        hands: set[int] = set()
        while len(hands) < 3:
            await dealt(table)
            assert table.live is not None and away in table.live.users
            hand_id = table.live.hand_id
            hands.add(hand_id)
            while table.live is not None and table.live.hand_id == hand_id:
                if table.actor_id() == away:
                    await clock.advance(TURN + 1)  # his time runs out: he checks or folds
                else:
                    message = await h.current_message(thread_id)
                    seq = table.live.seq
                    await fake.click(ann, message, passive(buttons(message)))
                    await h.applied(seq, thread_id)
            await h.settled()
            assert not table.seats[away].sitting_out
            if (await h.bot.store.tournaments.get(1)).state == "finished":
                break
        # He was told once, in the thread, to use My cards; no DM ever reached him.
        told = [m for m in fake.channel_messages(thread_id) if "DMs are closed" in message_text(m)]
        assert len(told) == 1 and fake.dms_to(away) == []
        stored = await h.bot.store.hands.get(min(hands))
        assert away in {p.user_id for p in stored.players}
        await h.bot.store.audit()
