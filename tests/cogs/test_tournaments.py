"""/tournament create, register, unregister and cancel through the real client on the fake Discord
(RULES 11.1): each a call into the tournament desk and one private answer; bad input changes
nothing."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from bot.core.errors import BotLacksPermissions
from bot.edge import lobby as lobby_module
from bot.edge.funnel import user_message
from bot.edge.permissions import missing_tournament_permissions
from tests.cogs.world import World, components, message_text, refused
from tests.e2e.discord_rules import CREATE_EVENTS, MANAGE_EVENTS
from tests.e2e.fake_discord import ALL_PERMISSIONS
from tests.texts import TEXTS
from words import EN


async def wallet(world: World, user_id: int) -> int:
    return (await world.bot.store.wallets.get(world.guild_id, user_id)).balance


async def test_create_register_unregister_and_cancel_move_the_buy_ins(world: World) -> None:
    ann, bob, cat = world.players[:3]
    created = await ann.slash(
        world.channel, "tournament create", players=3, buy_in=100, seats=6, structure="turbo"
    )
    assert created.response is not None, created
    assert "Tournament #1 — Seven Card Stud: buy-in 100, starting stack 1,500" in (
        created.response.content
    )
    [tournament] = await world.bot.store.tournaments.active()
    assert (tournament.seats, tournament.structure, tournament.start_entrants) == (6, "turbo", 3)
    assert (tournament.level_unit, tournament.level_length) == ("seconds", 600)

    registered = await bob.slash(world.channel, "tournament register", tournament=1)
    assert registered.ephemeral and registered.response is not None
    assert "registered for tournament #1" in registered.response.content
    await cat.slash(world.channel, "tournament register", tournament=1)
    assert await wallet(world, bob.id) == await wallet(world, cat.id) == 900
    refused(await bob.slash(world.channel, "tournament register", tournament=1), "already")

    left = await cat.slash(world.channel, "tournament unregister", tournament=1)
    assert left.response is not None and "(100) is back" in left.response.content
    assert await wallet(world, cat.id) == 1000

    refused(
        await bob.slash(world.channel, "tournament cancel", tournament=1),
        "Only the tournament's organiser",
    )
    assert (await world.bot.store.tournaments.get(1)).state == "registering"
    cancelled = await ann.slash(world.channel, "tournament cancel", tournament=1)
    assert cancelled.response is not None and "called off" in cancelled.response.content
    assert await wallet(world, bob.id) == 1000
    assert (await world.bot.store.tournaments.get(1)).state == "cancelled"
    await world.bot.store.audit()


async def test_levels_in_hands_and_a_freeroll(world: World) -> None:
    ann, bob = world.players[:2]
    await ann.slash(world.channel, "tournament create", players=4, level=15, unit="hands")
    [tournament] = await world.bot.store.tournaments.active()
    assert (tournament.level_unit, tournament.level_length, tournament.buy_in) == ("hands", 15, 0)
    await bob.slash(world.channel, "tournament register", tournament=1)
    assert await wallet(world, bob.id) == 1000


async def test_bad_input_is_refused_privately_and_changes_nothing(world: World) -> None:
    ann, bob = world.players[:2]
    refused(await ann.slash(world.channel, "tournament register", tournament=7), "no tournament #7")
    await ann.slash(world.channel, "tournament create", players=2, buy_in=5000)
    refused(await bob.slash(world.channel, "tournament register", tournament=1), "enough chips")
    assert await world.bot.store.tournaments.entries(1) == []
    assert await wallet(world, bob.id) == 1000
    refused(
        await bob.slash(world.channel, "tournament unregister", tournament=1), "aren't registered"
    )
    await world.bot.store.audit()


def lobby(world: World) -> discord.Message:
    [message] = [
        m for m in world.channel.history() if m.embeds and "Tournament #" in str(m.embeds[0].title)
    ]
    return message


async def test_the_lobby_shows_entrants_pool_and_payouts_and_its_buttons_register(
    world: World,
) -> None:
    """RULES 11.1, 11.7: the lobby changes as players come and go; its buttons are the
    commands."""
    ann, bob, cat = world.players[:3]
    await ann.slash(world.channel, "tournament create", players=5, buy_in=100)
    text = message_text(lobby(world))
    assert "0 entrants" in text and "Nobody yet." in text
    assert [b.label for b in components(lobby(world)) if hasattr(b, "custom_id")] == [
        "Register",
        "Unregister",
    ]
    clicked = await bob.click(lobby(world), label="Register")
    answered = clicked.followups[-1] if clicked.followups else clicked.response
    assert answered is not None and answered.ephemeral
    assert "registered for tournament #1" in answered.content
    await cat.slash(world.channel, "tournament register", tournament=1)
    text = message_text(lobby(world))
    assert "2 entrants" in text and f"<@{bob.id}>, <@{cat.id}>" in text
    assert "Prize pool: 200" in text and "1. 200" in text
    refused(await bob.click(lobby(world), label="Register"), "already registered")
    await bob.click(lobby(world), label="Unregister")
    assert await wallet(world, bob.id) == 1000
    text = message_text(lobby(world))
    assert "1 entrant" in text and f"<@{bob.id}>" not in text and "Prize pool: 100" in text
    await ann.slash(world.channel, "tournament cancel", tournament=1)
    assert "called off" in message_text(lobby(world))
    assert not [b for b in components(lobby(world)) if hasattr(b, "custom_id")]
    await world.bot.store.audit()


async def test_a_freeroll_lobby_says_so(world: World) -> None:
    ann = world.players[0]
    await ann.slash(world.channel, "tournament create", players=3)
    await ann.click(lobby(world), label="Register")
    text = message_text(lobby(world))
    assert "1 entrant" in text and "A freeroll" in text


async def test_a_full_sit_and_go_starts_with_a_table_in_a_thread_under_the_lobby(
    world: World,
) -> None:
    """RULES 11.1, 11.5: the last seat taken starts it; its table plays in a thread of its own,
    and the lobby's Register and Unregister give way to Entrants."""
    ann, bob = world.players[:2]
    await ann.slash(world.channel, "tournament create", players=2, buy_in=100, seats=2)
    await ann.click(lobby(world), label="Register")
    await bob.slash(world.channel, "tournament register", tournament=1)
    [thread] = world.channel.threads
    assert thread.name == "Tournament #1 — table 1"
    [table] = await world.bot.store.tournaments.tables(1)
    assert table.channel_id == thread.id
    assert (await world.bot.store.tournaments.get(1)).state == "running"
    assert "under way" in message_text(lobby(world))
    shown = message_text(lobby(world))
    # The table's field: its thread, then each player's stack in chips and big bets (11.2).
    assert f"'name': 'Table 1', 'value': '<#{thread.id}>\\n<@" in shown
    # Each stack twice: among the leaders, and in its table's field.
    assert shown.count("big bets)") == 4 and "Level 1: limits" in shown
    assert [b.label for b in components(lobby(world)) if hasattr(b, "custom_id")] == ["Entrants"]
    await world.env.advance_time(world.bot.settings.game.countdown_seconds + 1)
    posted = [
        c.custom_id
        for m in thread.history()
        for c in components(m)
        if getattr(c, "custom_id", "").startswith(f"stud:cards:{thread.id}")
    ]
    assert posted, "the first hand's message, with its buttons, is posted in the thread"
    assert not [m for m in world.channel.history() if "stud:a:" in str(m.components)]
    await world.bot.house.recovery.shutdown()


def test_tournament_permissions_name_the_thread_ones_the_bot_lacks() -> None:
    granted = discord.Permissions(
        view_channel=True, send_messages=True, attach_files=True, embed_links=True
    )
    interaction = cast(discord.Interaction, SimpleNamespace(app_permissions=granted, channel=None))
    assert missing_tournament_permissions(interaction) == [
        "create_public_threads",
        "send_messages_in_threads",
    ]
    granted.update(create_public_threads=True, send_messages_in_threads=True)
    assert missing_tournament_permissions(interaction) == []
    error = BotLacksPermissions(["create_public_threads", "send_messages_in_threads"])
    assert "Create Public Threads, Send Messages in Threads" in str(user_message(error, TEXTS, EN))


async def test_entrants_lists_everyone_privately_a_page_at_a_time(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lobby is a summary; its Entrants button gives the clicking player
    the whole list, paged, and a page the list no longer has is answered privately."""
    ann, bob, cat = world.players[:3]
    await ann.slash(world.channel, "tournament create", players=2, buy_in=100, seats=2)
    await ann.slash(world.channel, "tournament register", tournament=1)
    await bob.slash(world.channel, "tournament register", tournament=1)
    text = message_text(lobby(world))
    assert "2 still playing" in text and "Leaders" in text
    monkeypatch.setattr(lobby_module, "PAGE_SIZE", 1)  # two pages of one
    listed = await cat.click(lobby(world), label="Entrants")
    assert listed.ephemeral and listed.response is not None
    (embed,) = listed.response.embeds
    assert embed.title == "Tournament #1 · entrants, page 1 of 2"
    first = embed.description or ""
    assert re.fullmatch(rf"1\. <@({ann.id}|{bob.id})>: 2,000 \(50 big bets\) · table 1", first)
    assert [(b["label"], b.get("disabled", False)) for b in buttons(listed.response)] == [
        ("Previous", True),
        ("Next", False),
    ]
    await cat.click(listed.response, label="Next")
    (embed,) = listed.response.embeds
    assert embed.title == "Tournament #1 · entrants, page 2 of 2"
    assert (embed.description or "").startswith("2. <@") and embed.description != first
    await cat.click(listed.response, label="Previous")
    assert listed.response.embeds[0].title == "Tournament #1 · entrants, page 1 of 2"
    # The list shrinks to one page under an old message: its Next is answered, and changes
    # nothing.
    monkeypatch.setattr(lobby_module, "PAGE_SIZE", 20)
    old = await cat.click(listed.response, label="Next")
    refused(old, "This list has changed: it has 1 page now.")
    assert listed.response.embeds[0].title == "Tournament #1 · entrants, page 1 of 2"
    await world.bot.house.recovery.shutdown()


def buttons(message: Any) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row.get("components", [])]


async def test_the_organisers_bots_are_entered_from_the_house_and_named_in_the_lobby(
    world: World,
) -> None:
    """As docs/rules.md 11.1 says, /tournament create's bots are entrants staked by the
    house; it is refused, changing nothing, when the house can't pay them all or they would
    start it alone."""
    ann, bob = world.players[:2]
    refused(
        await ann.slash(world.channel, "tournament create", players=4, buy_in=100, bots=2),
        "The house has 0 chips, not the 200",
    )
    refused(
        await ann.slash(world.channel, "tournament create", players=3, bots=3, style="loose"),
        "a person must be among them",
    )
    assert await world.bot.store.tournaments.active() == []
    await world.admin.slash(world.channel, "chips house fund", amount=1000)
    created = await ann.slash(
        world.channel, "tournament create", players=4, buy_in=100, bots=2, style="careful"
    )
    assert created.response is not None
    assert "2 computer players (careful) are entered; the house paid their buy-ins." in (
        created.response.content
    )
    assert (await world.bot.store.house_wallet.report(world.guild_id)).balance == 800
    text = message_text(lobby(world))
    assert "2 entrants" in text and "Bot 1 (careful)" in text and "Bot 2 (careful)" in text
    assert "<@-" not in text and "Prize pool: 200" in text
    await bob.slash(world.channel, "tournament register", tournament=1)
    await ann.slash(world.channel, "tournament cancel", tournament=1)
    assert (await world.bot.store.house_wallet.report(world.guild_id)).balance == 1000
    assert await wallet(world, bob.id) == 1000
    await world.bot.store.audit()


async def test_a_tournament_at_a_set_time_gets_a_scheduled_event_that_follows_it(
    world: World,
) -> None:
    """The starts_in option makes it start at a set time, said as a Discord timestamp; the
    bot makes the server's event for it (outside a voice channel, its place the lobby's link)
    and cancels it with the tournament."""
    ann, bob = world.players[:2]
    now = world.bot.house.clock.now()
    created = await ann.slash(world.channel, "tournament create", starts_in=90, buy_in=100)
    assert created.response is not None
    stamp = int(now) + 90 * 60
    text = created.response.content
    assert any(f"<t:{stamp + d}:F>" in text for d in (0, 1)), text
    assert "Its Discord event is in the server's events." in text
    tournament = await world.bot.store.tournaments.get(1)
    assert tournament.start_at is not None and tournament.event_id is not None
    event = world.env.fake.events[tournament.event_id]
    assert (event["name"], event["status"], event["entity_type"]) == (
        "Tournament #1 — Seven Card Stud",
        1,
        3,
    )
    assert event["entity_metadata"] is not None
    assert str(world.channel.id) in event["entity_metadata"]["location"]
    assert "It starts <t:" in message_text(lobby(world))
    await bob.slash(world.channel, "tournament register", tournament=1)
    await ann.slash(world.channel, "tournament cancel", tournament=1)
    await world.env.settle()
    assert world.env.fake.events[tournament.event_id]["status"] == 4
    assert await wallet(world, bob.id) == 1000


async def test_without_manage_events_it_is_created_all_the_same_and_says_so(
    world: World,
) -> None:
    # The bot's role may not manage events there.
    denied = ALL_PERMISSIONS & ~(MANAGE_EVENTS | CREATE_EVENTS)
    closed = world.env.channel(await world.env.fake.create_channel(denied))
    await world.env.settle()
    offset = datetime.fromtimestamp(world.bot.house.clock.now(), UTC) + timedelta(days=2)
    local = offset.astimezone(timezone(timedelta(hours=3)))
    typed = local.strftime("%Y-%m-%d %H:%M") + " +03:00"
    created = await world.players[0].slash(closed, "tournament create", starts_at=typed)
    assert created.response is not None
    assert "I can't manage this server's events" in created.response.content
    tournament = await world.bot.store.tournaments.get(1)
    assert tournament.event_id is None and tournament.start_at is not None
    assert tournament.start_at == offset.replace(second=0, microsecond=0)


async def test_a_start_is_asked_once_in_a_form_a_user_can_type(world: World) -> None:
    ann = world.players[0]
    for options, answer in (
        ({"players": 3, "starts_in": 30}, "Say when it starts"),
        ({}, "Say when it starts"),
        ({"starts_in": 30, "starts_at": "2030-01-01 20:00"}, "Say when it starts"),
        ({"starts_at": "tomorrow at eight"}, "Write the start as YYYY-MM-DD HH:MM"),
        ({"starts_at": "2030-02-30 20:00"}, "Write the start as YYYY-MM-DD HH:MM"),
        ({"starts_at": "2030-01-01 20:00 +15:00"}, "Write the start as YYYY-MM-DD HH:MM"),
        ({"starts_at": "2020-01-01 20:00 UTC"}, "at least a minute from now"),
        ({"players": 3, "reentry": True}, "Re-entry goes with late registration"),
    ):
        refused(await ann.slash(world.channel, "tournament create", **options), answer)
    assert await world.bot.store.tournaments.active() == []


async def test_late_registration_has_an_enter_button_while_it_runs(world: World) -> None:
    """RULES 11.9: with late registration, the running tournament's lobby says until when and
    its Enter button seats a newcomer with another buy-in; someone playing can't buy in again."""
    ann, bob, cy = world.players[:3]
    await ann.slash(
        world.channel,
        "tournament create",
        players=2,
        buy_in=100,
        seats=4,
        late_level=2,
        reentry=True,
    )
    await ann.slash(world.channel, "tournament register", tournament=1)
    await bob.slash(world.channel, "tournament register", tournament=1)
    text = message_text(lobby(world))
    assert "Late registration and re-entry are open until the end of level 2." in text
    labels = [b.label for b in components(lobby(world)) if hasattr(b, "custom_id")]
    assert labels == ["Enter", "Entrants"]
    clicked = await cy.click(lobby(world), label="Enter")
    answered = clicked.followups[-1] if clicked.followups else clicked.response
    assert answered is not None and "registered for tournament #1" in answered.content
    assert await wallet(world, cy.id) == 900
    assert (await world.bot.store.tournaments.get(1)).prize_pool == 300
    refused(await bob.slash(world.channel, "tournament reenter", tournament=1), "already")
    assert "3 entrants" in message_text(lobby(world))
    await world.bot.store.audit()
    await world.bot.house.recovery.shutdown()


async def test_the_organiser_adds_chips_to_the_pool_and_an_admin_grants_them(world: World) -> None:
    """RULES 11.1: chips added to the prize pool by a logged move, shown in the lobby."""
    ann, bob = world.players[:2]
    await ann.slash(world.channel, "tournament create", players=3, buy_in=100)
    added = await ann.slash(world.channel, "tournament addprize", tournament=1, amount=250)
    assert added.response is not None and "it holds 250 now" in added.response.content
    assert await wallet(world, ann.id) == 750
    refused(
        await bob.slash(world.channel, "tournament addprize", tournament=1, amount=10),
        "Only the tournament's organiser",
    )
    refused(
        await ann.slash(world.channel, "tournament addprize", tournament=1, amount=10, grant=True),
        "Manage Server",
    )
    granted = await world.admin.slash(
        world.channel, "tournament addprize", tournament=1, amount=50, grant=True
    )
    assert granted.response is not None and "it holds 300 now" in granted.response.content
    await bob.slash(world.channel, "tournament register", tournament=1)
    text = message_text(lobby(world))
    assert "Prize pool: 400" in text and "Organisers added 300 to the buy-ins." in text
    await world.bot.store.audit()


async def test_a_thread_discord_refuses_delays_the_start_which_comes_on_the_clock(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The entry that fills a sit-and-go stands when its start fails; the
    player is told it is delayed, and it is tried again shortly (the clock runs on)."""
    ann, bob, cat = world.players[:3]
    await ann.slash(world.channel, "tournament create", players=3, buy_in=100, seats=2)
    lobbies = world.bot.lobbies
    real = lobbies.make_thread
    refusals = [ConnectionError("Discord refused the thread")]

    async def refuses_once(tournament: Any, number: int) -> int:
        if refusals:
            raise refusals.pop()
        return await real(tournament, number)

    monkeypatch.setattr(lobbies, "make_thread", refuses_once)
    for player in (ann, bob):
        await player.slash(world.channel, "tournament register", tournament=1)
    clicked = await cat.click(lobby(world), label="Register")
    answered = clicked.followups[-1] if clicked.followups else clicked.response
    assert answered is not None and answered.ephemeral
    assert "registered for tournament #1" in answered.content
    assert "the start is delayed" in answered.content
    assert not refusals and await wallet(world, cat.id) == 900
    await world.env.settle()
    assert (await world.bot.store.tournaments.get(1)).state == "running"
    assert len(await world.bot.store.tournaments.tables(1)) == 2
    assert "under way" in message_text(lobby(world))
    await world.bot.store.audit()
