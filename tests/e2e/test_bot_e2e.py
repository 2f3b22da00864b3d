# ruff: noqa: RUF001 - Russian replies are Cyrillic on purpose
"""The unmodified bot, started with ``bot.start()``, against the fake Discord on 127.0.0.1.

Complete hands with 2 and 8 players are played through INTERACTION_CREATE: slash commands and
button clicks. Checked: DMs with PNG pictures, multipart PNG uploads to the channel, the final
balances in the SQLite file, and privacy (no down card in any channel text, embed or file name).
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.__main__ import keep_payloads_out_of_logs
from bot.edge.client import command_payload
from engine import events as ev
from tests.e2e.discord_rules import IS_COMPONENTS_V2, sync_problems
from tests.e2e.fake_discord import FakeDiscord, buttons, message_text
from tests.e2e.harness import (
    PNG,
    Harness,
    assert_private,
    dealt,
    hidden_cards,
    passive,
    play_hand,
    shows,
    start_bot,
    wallet_totals,
)


@pytest.fixture
async def english(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    async for harness in start_bot(FakeDiscord(), tmp_path, monkeypatch):
        yield harness


@pytest.fixture
async def russian(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    async for harness in start_bot(FakeDiscord(guild_locale="ru"), tmp_path, monkeypatch):
        yield harness


async def run_hand(h: Harness, count: int, locale: str = "en-US") -> None:
    fake = h.discord
    players = {int(u["id"]): u for u in (fake.add_user(f"p{i}") for i in range(count))}
    opener = next(iter(players.values()))
    opened = await h.slash(opener, "table open", locale=locale)
    assert opened.ephemeral
    for user in players.values():
        sat = await h.slash(user, "sit", locale=locale, buy_in=500)
        assert sat.ephemeral, sat.content
    table = h.table()
    await dealt(table)
    assert table.live is not None
    hand = table.live.hand
    users = table.live.users
    cards = await h.slash(opener, "cards", locale=locale)
    assert cards.ephemeral and [f.filename for f in cards.files] == ["cards.png"]
    # Everyone sits out from the next hand, so the table stops after this one (RULES 1.1).
    for user in players.values():
        assert (await h.slash(user, "sitout", locale=locale)).ephemeral
    await play_hand(h, players, locale)
    assert hand.is_over
    # DMs on 3rd and 7th street, each with the private picture as a PNG upload. With eight
    # players the deck runs short and 7th street is a community card (RULES 2.2): no 7th DM.
    seventh = any(isinstance(e, ev.CardDealt) and e.street == 7 for e in hand.events)
    for user_id in players:
        dms = fake.dms_to(user_id)
        assert len(dms) == (2 if seventh else 1)
        assert all(dm["attachments"][0]["filename"] == "cards.png" for dm in dms)
    assert seventh == (count < 8)
    # Each player's DM channel is opened once and then reused, and nobody is fetched for it.
    assert len(fake.requests_to("POST /users/@me/channels")) == count
    fetched = [r.path for r in fake.requests_to("GET /users/{id}") if r.path != "/users/@me"]
    assert fetched == []
    dm_channels = set(fake.dm_channels)
    dm_uploads = [u for u in fake.uploads if u.channel_id in dm_channels]
    channel_uploads = [u for u in fake.uploads if u.channel_id == fake.channel_id]
    assert len(dm_uploads) == sum(len(fake.dms_to(user_id)) for user_id in players)
    assert all(u.data.startswith(PNG) for u in dm_uploads)
    assert {u.filename for u in channel_uploads} == {"table.png", "showdown.png"}
    assert all(u.data.startswith(PNG) for u in channel_uploads)
    # Balances: chips conserved and written to SQLite (RULES 5.5).
    totals = wallet_totals(h.database)
    for seat, user_id in enumerate(users):
        assert totals[user_id] == 1000 - hand.starting_stacks[seat] + hand.stacks[seat]
    assert sum(totals[user_id] for user_id in players) == 1000 * count
    await h.bot.store.audit()
    down = {str(c) for seat in range(len(users)) for c in hand.down_cards(seat)}
    down |= {c.pretty for seat in range(len(users)) for c in hand.down_cards(seat)}
    shown_cards = [c for e in hand.events if isinstance(e, ev.HandShown) for c in e.cards]
    shown = {str(c) for c in shown_cards} | {c.pretty for c in shown_cards}
    assert_private(h, down, shown)
    assert fake.unknown_routes == []


async def test_once_ready_what_start_up_made_is_left_out_of_full_collections(
    english: Harness,
) -> None:
    for _ in range(200):  # on_ready runs just after the ready event is set
        if gc.get_freeze_count():
            break
        await asyncio.sleep(0.01)
    assert gc.get_freeze_count() > 0


async def test_two_players_play_a_complete_hand(english: Harness) -> None:
    assert {command["name"] for command in english.discord.synced} >= {"table", "sit", "fold"}
    await run_hand(english, 2)


async def test_eight_players_play_a_complete_hand_in_russian(russian: Harness) -> None:
    await run_hand(russian, 8, locale="ru")
    texts = [message_text(m) for m in russian.discord.channel_messages()]
    assert any("-# Раздача №1: " in text for text in texts), texts  # its commitment


async def test_errors_answer_ephemerally_in_the_players_language(english: Harness) -> None:
    fake = english.discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    reply = await english.slash(ann, "sit", locale="ru")
    assert reply.ephemeral and reply.content.startswith("В этом канале нет стола")
    await english.slash(ann, "table open")
    reply = await english.slash(bob, "table open")
    assert reply.ephemeral and "already has a table" in reply.content
    fake.closed_dms.add(int(bob["id"]))
    await english.slash(ann, "sit")
    await english.slash(bob, "sit")
    await dealt(english.table())
    await english.settled()
    lines = [m["content"] for m in fake.channel_messages() if "DMs are closed" in m["content"]]
    assert lines == [f"<@{bob['id']}>, your DMs are closed: use My cards."]
    table = english.table()
    other = ann if table.actor_id() == int(bob["id"]) else bob
    message = fake.table_message()
    assert message is not None
    reply = await english.click(other, message, passive(buttons(message)))
    assert reply.ephemeral and reply.content == "It's not your turn."
    # The bring-in player may not check: told so in Russian, with the choices he has.
    actor = ann if other is bob else bob
    reply = await english.slash(actor, "check", locale="ru")
    assert reply.ephemeral
    assert reply.content == "Так сейчас нельзя. Можно: Бринг-ин 3, Дополнить до 10", reply.content
    for user in (ann, bob):
        await english.slash(user, "sitout")
    await play_hand(english, {int(ann["id"]): ann, int(bob["id"]): bob})
    # A button from the finished hand answers clearly.
    reply = await english.click(ann, message, passive(buttons(message)))
    assert reply.ephemeral and "hand that is over" in reply.content


async def test_debug_logging_never_shows_a_down_card(
    english: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """Hole cards never reach a log line, even with LOG_LEVEL=DEBUG."""
    keep_payloads_out_of_logs(logging.DEBUG)
    caplog.set_level(logging.DEBUG)
    fake = english.discord
    players = {int(u["id"]): u for u in (fake.add_user(f"p{i}") for i in range(2))}
    opener = next(iter(players.values()))
    await english.slash(opener, "table open")
    for user in players.values():
        await english.slash(user, "sit", buy_in=500)
    table = english.table()
    await dealt(table)
    assert table.live is not None
    hand = table.live.hand
    await english.slash(opener, "cards")
    # The bring-in is posted and the other player folds: no card is ever shown.
    for command in ("bringin", "fold"):
        actor = table.actor_id()
        assert actor is not None
        await english.slash(players[actor], command)
    await english.settled()
    assert hand.is_over and not any(isinstance(e, ev.HandShown) for e in hand.events)
    # Everything not clamped logs at DEBUG; discord.py would log DM bodies here without the clamp.
    assert logging.getLogger("bot").isEnabledFor(logging.DEBUG) and caplog.records
    hidden = hidden_cards(hand)
    assert len(hidden) == 8
    for record in caplog.records:
        line = record.getMessage()
        assert not [card for card in hidden if shows(card, line)], (record.name, line[:300])


async def test_synced_commands_say_their_defaults_in_each_language(english: Harness) -> None:
    """Options say their defaults in each language and the table's language and deck are
    choices, as Discord receives them when the commands are synced."""
    synced = {command["name"]: command for command in english.discord.synced}
    table_open = next(o for o in synced["table"]["options"] if o["name"] == "open")
    options = {option["name"]: option for option in table_open["options"]}
    assert options["ante"]["description"] == "Ante in chips (default 1)"
    assert options["ante"]["description_localizations"]["ru"] == "Анте в фишках (по умолчанию 1)"
    languages = options["language"]["choices"]
    assert [(c["value"], c["name"]) for c in languages] == [
        ("server", "The server's language"),
        ("en", "English"),
        ("ru", "Русский"),
    ]
    assert languages[0]["name_localizations"]["ru"] == "Язык сервера"
    assert [c["value"] for c in options["deck"]["choices"]] == ["two-colour", "four-colour"]
    assert {"help", "settings"} <= set(synced)


async def test_help_answers_privately_with_the_rankings_picture(english: Harness) -> None:
    ann = english.discord.add_user("ann")
    reply = await english.slash(ann, "help", locale="ru")
    assert reply.ephemeral and [f.filename for f in reply.files] == ["rankings.png"]
    assert reply.files[0].data.startswith(PNG)
    (embed,) = reply.data["embeds"]
    assert embed["title"] == "Семикарточный стад: как играть"


async def test_the_synced_commands_obey_every_documented_limit(english: Harness) -> None:
    """What the bot syncs, translations included, has nothing Discord would
    refuse (names, lengths, counts, ranges, locales, a command's characters): the fake refused
    none, and the payload itself passes the same rules."""
    fake = english.discord
    assert fake.synced and fake.refused_syncs == []
    payload = await command_payload(english.bot.tree, None)
    assert sync_problems(payload) == []
    history = next(c for c in payload if c["name"] == "history")
    hand_id = next(o for o in history["options"] if o["name"] == "hand_id")
    assert hand_id["max_value"] == 2**53 - 1
    # The rules find what a validating Discord refuses (the old 2^53, an upper-case name).
    assert sync_problems([{**history, "options": [{**hand_id, "max_value": 2**53}]}])
    assert sync_problems([{**history, "name_localizations": {"ru": "История"}}])
    assert sync_problems([{**history, "description_localizations": {"xx": "?"}}])


@pytest.mark.parametrize(
    ("locale", "said"),
    [("en-US", "no longer has that command"), ("ru", "Этой команды у бота уже нет")],
)
async def test_a_command_the_bot_does_not_have_is_answered_and_only_warned_of(
    english: Harness,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    locale: str,
    said: str,
) -> None:
    """A server's stale copy of a command (removed or reshaped by an upgrade): the player is
    told privately, in his language, and the log warns; nothing is an error of ours."""
    caplog.set_level(logging.WARNING)
    # Some earlier test of the session configures logging and disables existing loggers.
    monkeypatch.setattr(logging.getLogger("bot.edge.funnel"), "disabled", False)
    ann = english.discord.add_user("ann")
    gone = await english.slash(ann, "shuffle", locale=locale)
    # Once a command of its own, now a group: the stale copy names no subcommand.
    changed = await english.slash(ann, "table", locale=locale)
    for told in (gone, changed):
        assert told.ephemeral and said in told.content, told.content
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("/shuffle" in line for line in warned), warned
    assert english.discord.deprecated_followups == []


async def test_a_deal_is_posted_once_and_not_edited_before_anyone_acts(english: Harness) -> None:
    """A hand's deal shows the table, then its players' cards, then the table
    again; the second showing is the same table, so it rides on the first (a post and at once
    an edit was a request a hand for nothing)."""
    fake = english.discord
    players = [fake.add_user(f"p{i}") for i in range(2)]
    await english.slash(players[0], "table open")
    for user in players:
        await english.slash(user, "sit", buy_in=500)
    await dealt(english.table())
    await english.settled()
    live = await english.current_message()
    assert live["flags"] & IS_COMPONENTS_V2 and "▶ **" in message_text(live)
    assert all(len(fake.dms_to(int(user["id"]))) == 1 for user in players)
    assert fake.requests_to(f"PATCH /channels/{fake.channel_id}/messages/{live['id']}") == []


async def test_a_hand_is_one_live_message_and_a_click_uploads_nothing(english: Harness) -> None:
    """One Components V2 message a hand (picture, text, buttons in a
    container), edited in place; a click changes its text and buttons and keeps its picture, in
    the one request that answers it; a
    picture goes up for each street dealt and once for the showdown; the message stays as the
    hand's record, with its results and no buttons."""
    fake = english.discord
    players = {int(u["id"]): u for u in (fake.add_user(f"p{i}") for i in range(2))}
    opener = next(iter(players.values()))
    await english.slash(opener, "table open")
    for user in players.values():
        await english.slash(user, "sit", buy_in=500)
    table = english.table()
    await dealt(table)
    for user in players.values():
        await english.slash(user, "sitout")
    # The sit-outs redraw the table: their edits land before the click's requests are counted.
    await english.settled()
    live = await english.current_message()
    assert live["flags"] & IS_COMPONENTS_V2 and not live["content"] and not live["embeds"]
    (container,) = live["components"]
    assert [c["type"] for c in container["components"]][:2] == [12, 10]  # picture, then text
    text = message_text(live)
    assert "**Pot: " in text and ":R>." in text and "▶ **" in text
    (picture,) = live["attachments"]

    def channel_uploads() -> list[str]:
        return [u.filename for u in fake.uploads if u.channel_id == fake.channel_id]

    uploads = len(channel_uploads())
    actor = table.actor_id()
    assert actor is not None and table.live is not None
    seq = table.live.seq
    edits = f"PATCH /channels/{fake.channel_id}/messages/{live['id']}"
    edited = len(fake.requests_to(edits))
    reply = await fake.click(players[actor], live, passive(buttons(live)))
    await english.applied(seq)
    await english.settled()
    # One request: the click's answer is the update itself (UPDATE_MESSAGE), no edit after it.
    assert reply.kind == 7 and len(fake.requests_to(edits)) == edited
    after = fake.messages[int(live["id"])]
    assert after["attachments"] == [picture] and len(channel_uploads()) == uploads
    assert message_text(after) != text and buttons(after) != buttons(live)
    hand = table.live.hand if table.live is not None else None
    await play_hand(english, players)
    assert hand is not None and hand.is_over
    posts = [
        m for m in fake.channel_messages() if m["flags"] & IS_COMPONENTS_V2
    ]  # the hand's messages
    assert [m["id"] for m in posts] == [live["id"]]
    record = posts[0]
    assert not buttons(record) and "is over" in message_text(record)
    assert [a["filename"] for a in record["attachments"]] == ["showdown.png"]
    pictures = channel_uploads()
    streets = hand.street - 2  # 3rd street is the first
    assert pictures.count("table.png") <= streets and pictures.count("showdown.png") == 1
