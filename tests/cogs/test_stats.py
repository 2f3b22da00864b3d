"""/stats, /leaderboard by winnings, /chips take and reset, /daily's streak through the real
client on the fake Discord."""

from __future__ import annotations

import re

import discord
import pytest

import render
from render import NetChart
from tests.cogs.world import World, open_and_seat, play_out_with_buttons, refused, spy_drawing


def fields(embed: discord.Embed) -> dict[str, str]:
    return {field.name or "": field.value or "" for field in embed.fields}


async def one_hand(world: World) -> dict[int, int]:
    """Ann and Bob play a hand to the showdown; each one's net."""
    await open_and_seat(world)
    await play_out_with_buttons(world)
    record = await world.bot.store.hands.get(1)
    return {p.user_id: (p.final_stack or 0) - p.starting_stack for p in record.players}


async def test_stats_are_private_with_the_figures_and_a_chart_of_the_net(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = spy_drawing(monkeypatch, render.net_chart_png)
    net = await one_hand(world)
    ann, bob = world.players[:2]
    result = await ann.slash(world.channel, "stats")
    assert result.ephemeral and result.response is not None
    (embed,) = result.response.embeds
    assert embed.title == "Stats · ann" and embed.image.url == "attachment://stats.png"
    assert embed.description == "The whole season · Season 1"
    (picture,) = result.response.attachments
    assert picture.filename == "stats.png" and (await picture.read()).startswith(b"\x89PNG")
    stats = await world.bot.store.reports.player_stats(world.guild_id, ann.id)
    shown = fields(embed)
    assert shown["Hands"] == "1" and shown["Net"] == f"{net[ann.id]:+,}"
    assert shown["Won"] == f"{stats.total.won} ({100 * stats.total.won}%)"
    assert shown["Won at showdown"] == f"{stats.total.won_showdown} of 1"
    assert shown["VPIP"] == f"{100 * stats.total.vpip}%"
    assert shown["By game"].startswith("Seven Card Stud: 1 hand, net ")
    ((chart,), _) = drawn[-1]
    assert isinstance(chart, NetChart) and chart.nets == (net[ann.id],)
    assert chart.title == "ann · net chips" and chart.axis.startswith("The last 1 hand")
    # Another member's, and a game or a period he has no hand in.
    result = await ann.slash(world.channel, "stats", member=bob)
    assert result.response is not None
    assert result.response.embeds[0].title == "Stats · bob"
    assert fields(result.response.embeds[0])["Net"] == f"{net[bob.id]:+,}"
    result = await ann.slash(world.channel, "stats", game="razz", period="week")
    assert result.response is not None
    (embed,) = result.response.embeds
    assert re.fullmatch(
        r"Razz · This week, from \w+ \d+, \d{4} · Season 1\n\nNo hands in this period yet\.",
        embed.description or "",
    )
    assert not embed.fields
    ((chart,), _) = drawn[-1]
    assert chart.nets == () and chart.empty == "No hands in this period yet"


async def test_the_leaderboard_ranks_chips_won_and_always_shows_your_own_rank(
    world: World,
) -> None:
    net = await one_hand(world)
    ann, bob, cy = world.players[:3]
    winner, loser = sorted(net, key=lambda user: -net[user])
    names = {ann.id: "ann", bob.id: "bob"}
    board = await cy.slash(world.channel, "leaderboard")
    assert board.ephemeral and board.response is not None
    (embed,) = board.response.embeds
    assert embed.title == "Leaderboard · chips won at the tables"
    assert embed.description == (
        "The whole season · Season 1\n\n"
        f"1. {names[winner]} — {net[winner]:+,} in 1 hand\n"
        f"2. {names[loser]} — {net[loser]:+,} in 1 hand"
    )
    assert embed.footer.text == "You have played no hand in this period: no rank yet."
    board = await member_of(world, loser).slash(world.channel, "leaderboard", period="day")
    assert board.response is not None
    (embed,) = board.response.embeds
    assert (embed.description or "").startswith("Today, ")
    assert embed.footer.text == f"You are #2: {net[loser]:+,} in 1 hand."
    board = await ann.slash(world.channel, "leaderboard", game="hilo")
    assert board.response is not None
    assert "No hand was played in this period." in (board.response.embeds[0].description or "")
    refused(
        await ann.slash(world.channel, "leaderboard", by="wallet", period="week"),
        "it takes no period or game",
    )


def member_of(world: World, user_id: int):  # type: ignore[no-untyped-def]
    return next(player for player in world.players if player.id == user_id)


async def test_admins_take_chips_from_wallets_never_from_seats(world: World) -> None:
    ann = world.players[0]
    assert "chips take" not in ann.available_commands(world.channel)
    assert "chips reset" not in ann.available_commands(world.channel)
    await ann.slash(world.channel, "balance")
    result = await world.admin.slash(world.channel, "chips take", member=ann, amount=300)
    assert result.ephemeral and result.response is not None
    assert result.response.content == (
        "ann loses 300 chips. Wallet: 700. Chips at tables are not touched."
    )
    await open_and_seat(world)  # ann brings her 700 to the table
    refused(
        await world.admin.slash(world.channel, "chips take", member=ann, amount=5),
        "That wallet has no chips to take; chips at tables are never taken.",
    )
    await play_out_with_buttons(world)
    await ann.slash(world.channel, "leave")
    wallet = await world.bot.store.wallets.get(world.guild_id, ann.id)
    result = await world.admin.slash(world.channel, "chips take", member=ann, amount=10**9)
    assert result.response is not None and result.response.content == (
        f"ann had only {wallet.balance:,} chips in the wallet: all of them are taken."
        " Wallet: 0. Chips at tables are not touched."
    )
    totals = await world.bot.store.audit()
    assert totals.granted == 2000 - 300 - wallet.balance


async def test_a_new_season_needs_a_yes_and_starts_stats_and_wallets_again(world: World) -> None:
    await one_hand(world)
    ann = world.players[0]
    refused(
        await world.admin.slash(world.channel, "chips reset", confirm=False),
        "Nothing changed: to start a new season, answer yes to confirm in </chips reset:",
    )
    assert (await world.bot.store.wallets.season(world.guild_id)).number == 1
    result = await world.admin.slash(world.channel, "chips reset", confirm=True)
    assert result.ephemeral and result.response is not None
    # Ann and Bob bought in for their whole wallets: both are back to 1,000, chips at the table
    # untouched.
    assert result.response.content.startswith(
        "Season 2 starts: 2 wallets are back to the starting 1,000 (added: 2,000, taken away: 0)."
    )
    wallet = await world.bot.store.wallets.get(world.guild_id, ann.id)
    assert wallet.balance == 1000 and wallet.seated > 0
    result = await ann.slash(world.channel, "stats")
    assert result.response is not None
    (embed,) = result.response.embeds
    assert re.fullmatch(
        r"The whole season · Season 2, since \w+ \d+, \d{4}\n\nNo hands in this period yet\.",
        embed.description or "",
    )
    board = await ann.slash(world.channel, "leaderboard")
    assert board.response is not None
    assert "No hand was played" in (board.response.embeds[0].description or "")
    await world.bot.store.audit()


async def test_daily_says_its_streak_and_when_to_come_back_as_discord_times(world: World) -> None:
    ann = world.players[0]
    result = await ann.slash(world.channel, "daily")
    assert result.response is not None
    assert re.fullmatch(
        r"You get 200 chips\. Wallet: 1,200\. Streak: 1 day in a row\."
        r" Next daily chips <t:\d+:R>; take them by <t:\d+:f> to keep the streak\.",
        result.response.content,
    )
    refusal = await ann.slash(world.channel, "daily")
    reply = refusal.followups[0] if refusal.followups else refusal.response
    assert reply is not None and reply.ephemeral
    assert re.fullmatch(
        r"You already took your daily chips: the next ones <t:\d+:R>\. Streak: 1 day in a row,"
        r" kept if you take them by <t:\d+:f>\.",
        reply.content,
    )


async def test_stats_and_the_leaderboard_show_finished_tournaments(world: World) -> None:
    ann, bob, cy = world.players[:3]
    store = world.bot.store
    tournament = await store.tournaments.create(
        world.guild_id,
        world.channel.id,
        ann.id,
        game="stud",
        structure="standard",
        level_unit="hands",
        level_length=10,
        starting_stack=1000,
        buy_in=100,
        seats=2,
        seed=7,
        start_entrants=2,
    )
    tid = tournament.tournament_id
    for player in (ann, bob):
        await store.tournaments.register(tid, player.id, guild_id=world.guild_id)
    settings = {"stakes": [5, 10, 20, 40], "turn_seconds": 60, "countdown_seconds": 0}
    await store.tournaments.start(tid, {1: (world.channel.id + 1, [ann.id, bob.id])}, settings)
    await store.tournaments.finish(tid, places={ann.id: 1, bob.id: 2}, prizes={ann.id: 200})
    result = await bob.slash(world.channel, "stats", member=ann)
    assert result.ephemeral and result.response is not None
    (embed,) = result.response.embeds
    # No cash hand yet: the tournament is shown all the same.
    assert (embed.description or "").endswith("No hands in this period yet.")
    assert fields(embed) == {"Tournaments": "Played 1 · in the money 1 · won 1 · net +100"}
    board = await cy.slash(world.channel, "leaderboard", by="tournaments", period="month")
    assert board.ephemeral and board.response is not None
    (embed,) = board.response.embeds
    names = await store.players.names(world.guild_id, (ann.id, bob.id))
    shown = {user: names.get(user, f"<@{user}>") for user in (ann.id, bob.id)}
    assert embed.title == "Leaderboard · tournaments (prizes minus buy-ins)"
    assert (embed.description or "").startswith("This month, from ")
    assert (embed.description or "").endswith(
        f"\n\n1. {shown[ann.id]} — +100 in 1 tournament, 1 won\n"
        f"2. {shown[bob.id]} — -100 in 1 tournament, 0 won"
    )
    assert embed.footer.text == "You finished no tournament in this period: no rank yet."
    board = await bob.slash(world.channel, "leaderboard", by="tournaments", game="razz")
    assert board.response is not None
    (embed,) = board.response.embeds
    assert "No tournament finished in this period." in (embed.description or "")
    board = await bob.slash(world.channel, "leaderboard", by="tournaments")
    assert board.response is not None
    assert board.response.embeds[0].footer.text == "You are #2: -100 in 1 tournament, 0 won."
