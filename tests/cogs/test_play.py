"""A hand played through the real discord.py client on the fake Discord: buttons, commands,
settlement."""

from __future__ import annotations

import os
import re
import signal
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

import render
from bot.core.views import PrivateView, ResultsView, TableView
from bot.edge.drawing import DrawingProcess
from bot.edge.presenter import DiscordPresenter
from engine import RAZZ
from engine import events as ev
from engine.fairness import verify
from engine.public import PublicTable
from tests.cogs.world import (
    World,
    channel_text,
    labels,
    live_table,
    member,
    message_text,
    open_and_seat,
    passive_label,
    play_out_with_buttons,
    refused,
    spy_drawing,
    table_message,
)


async def total_chips(world: World, user_id: int) -> int:
    wallet = await world.bot.store.wallets.get(world.guild_id, user_id)
    return wallet.total


async def test_a_hand_with_buttons_settles_and_reveals_the_committed_deck(world: World) -> None:
    await open_and_seat(world)
    table = live_table(world)
    assert table.live is not None
    hand = table.live.hand
    hand_users = table.live.users
    # In the hand's message, with its first cards.
    hand_message = next(m for m in world.channel.history() if "commitment" in channel_text(m))
    digest = re.search(r"`([0-9a-f]{64})`", channel_text(hand_message))
    assert digest is not None
    await play_out_with_buttons(world)
    assert hand.is_over and any(isinstance(e, ev.ShowdownStarted) for e in hand.events)
    # Chips are conserved (RULES 5.5): both players' wallets + seats still hold 2,000.
    for seat, user_id in enumerate(hand_users):
        expected = 1000 - hand.starting_stacks[seat] + hand.stacks[seat]
        assert await total_chips(world, user_id) == expected
    assert sum(hand.stacks) == sum(hand.starting_stacks)
    await world.bot.store.audit()
    # /hand verify checks the reveal against the digest posted before the first card.
    record = await world.bot.store.hands.get(1)
    assert record.commitment == digest.group(1)
    result = await world.players[0].slash(world.channel, "hand verify", hand_id=1)
    assert result.response is not None and "matches" in result.response.content
    (attachment,) = result.response.attachments
    text = (await attachment.read()).decode()
    reveal = text.split("Reveal: ", 1)[1].splitlines()[0]
    assert verify(digest.group(1), reveal)


async def test_privacy_no_down_card_in_any_channel_message_and_pictures_are_public(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folded player's down cards never reach the channel; live players' only at showdown."""
    drawn = spy_drawing(monkeypatch, render.table_png, render.showdown_png)
    await open_and_seat(world, 4)
    table = live_table(world)
    assert table.live is not None
    hand, users = table.live.hand, table.live.users
    folder = world.players[3].id
    while table.live is not None:
        actor = table.actor_id()
        names = labels(table_message(world))
        if actor == folder and "Fold" in names:
            choice = "Fold"
        elif actor == world.players[0].id and (
            raises := [n for n in names if n.startswith(("Complete", "Bet", "Raise"))]
        ):
            choice = raises[-1]
        else:
            choice = passive_label(names)
        await member(world, actor or 0).click(table_message(world), label=choice)
    assert hand.folded(users.index(folder))
    shown = {card for e in hand.events if isinstance(e, ev.HandShown) for card in e.cards}
    down = {card for seat in range(len(users)) for card in hand.down_cards(seat)}
    assert down - shown, "the folded player's down cards are never shown"
    channel = [m for m in world.channel.history() if not m.flags.ephemeral]
    # The hand's own message, edited into its results (its text says the hand is over).
    results = next(i for i, m in enumerate(channel) if "is over" in channel_text(m))
    for index, message in enumerate(channel):
        text = channel_text(message)
        private = down - shown if index >= results else down
        for card in private:
            assert card.pretty not in text and f" {card} " not in f" {text} ", (card, text)
    assert drawn and all(isinstance(args[0], PublicTable) for args, _ in drawn)


async def test_the_game_option_deals_razz_and_its_pictures_say_so(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Razz table brings in with the highest card, names the game in its
    message title and on its picture, and shows lows at the end."""
    drawn = spy_drawing(monkeypatch, render.table_png, render.showdown_png)
    await open_and_seat(world, 3, game="razz")
    table = live_table(world)
    assert table.live is not None and table.live.hand.variant is RAZZ
    text = message_text(table_message(world))
    assert "\n### Razz " in text and "has the highest door card" in text
    users = table.live.users
    await play_out_with_buttons(world)
    results = next(m for m in reversed(world.channel.history()) if "is over" in message_text(m))
    assert "low (" in message_text(results)
    for user_id in users:
        assert all("(Razz)" in dm.content for dm in world.users[user_id].dm_channel.history())
    assert drawn and all(args[1].game == "Razz" for args, _ in drawn)


async def test_a_mixed_table_changes_game_and_says_which_comes_next(world: World) -> None:
    await open_and_seat(world, 2, game="mixed", hands_per_game=1)
    assert "\n-# Next hand: Razz" in message_text(table_message(world))
    await play_out_with_buttons(world)
    await world.env.advance_time(world.bot.settings.game.countdown_seconds + 1)
    table = live_table(world)
    assert table.live is not None and table.live.hand.variant is RAZZ
    channel = "\n".join(m.content for m in world.channel.history())
    assert "Razz now, for 1 hand; then Stud Hi-Lo." in channel


async def test_hands_per_game_on_a_single_game_table_is_refused(world: World) -> None:
    ann = world.players[0]
    refused(
        await ann.slash(world.channel, "table open", game="razz", hands_per_game=3),
        "only apply to a mixed table",
    )
    assert list(world.bot.house.open_tables) == []


@pytest.mark.slow  # two drawing processes: the first, killed, and its replacement
@pytest.mark.drawing_process
async def test_a_killed_drawing_process_is_replaced_and_the_hand_plays_on(world: World) -> None:
    await open_and_seat(world)
    drawing = world.bot.presenter.drawing
    assert isinstance(drawing, DrawingProcess)
    killed = drawing.pid
    assert killed is not None
    os.kill(killed, signal.SIGKILL)
    await play_out_with_buttons(world)  # every street's picture, with its buttons, still comes
    assert live_table(world).live is None
    assert drawing.pid not in (None, killed)


async def test_a_click_enters_the_core_once_and_drawing_its_picture_never(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From a button click to the posted picture, the edge calls into the core once
    (the action); the picture is drawn from the view the outbox hands over."""
    await open_and_seat(world)
    house = world.bot.house
    entered: list[str] = []

    def spy(part: str, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def called(*args: Any, **kwargs: Any) -> Any:
            caller = sys._getframe(1).f_globals.get("__name__", "")
            if caller.startswith(("bot.edge", "cogs")):
                entered.append(f"{part}.{name}")
            return method(*args, **kwargs)

        return called

    parts = {
        "tables": house.seating,
        "dealer": house.dealer,
        "turns": house.dealer.turns,
        "players": house.players,
        "recovery": house.recovery,
        "open_tables": house.open_tables,
    }
    for part, obj in parts.items():
        for name in dir(type(obj)):
            if not name.startswith("_") and callable(method := getattr(obj, name)):
                monkeypatch.setattr(obj, name, spy(part, name, method))
    table = live_table(world)
    actor = table.actor_id()
    assert actor is not None
    message = table_message(world)
    drawn = spy_drawing(monkeypatch, render.table_png)
    result = await member(world, actor).click(message, label=passive_label(labels(message)))
    await world.env.settle()
    assert result.acknowledged and not result.ephemeral, result
    # Shown in the message's text; the picture shows nothing a click changes.
    assert table.actor_id() != actor and message_text(table_message(world)) != message_text(
        message
    ), "the click was applied and shown"
    assert not drawn
    assert entered == ["dealer.act"]


async def test_a_second_face_sees_the_views_the_discord_face_shows_and_only_its_own_cards(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A face beside Discord's subscribes to a table played with buttons: it is handed the same
    views in the same order (each one the Discord face showed among them, the table changing
    once per view it has), the same results, and the down cards of its own player only. A turn
    not started yet counts its time from when its view is built: that is left out."""

    def untimed(view: TableView) -> TableView:
        hand = view.hand
        return view if hand is None else replace(view, hand=replace(hand, deadline=0.0))

    await open_and_seat(world)
    house = world.bot.house
    table = live_table(world)
    first, second = world.players[0].id, world.players[1].id
    spectator = house.subscribe(world.channel.id)
    player = house.subscribe(world.channel.id, first)
    shown_by_discord: list[TableView] = []
    prepare = DiscordPresenter._hand_message

    async def recorded(self: DiscordPresenter, state: Any, view: TableView, hand: Any) -> Any:
        shown_by_discord.append(view)
        return await prepare(self, state, view, hand)

    monkeypatch.setattr(DiscordPresenter, "_hand_message", recorded)
    hand_id = table.live.hand_id if table.live else 0
    await play_out_with_buttons(world)
    await world.env.settle()
    watched = spectator.pending()
    tables = [untimed(v) for v in watched if isinstance(v, TableView)]
    remaining = iter(tables)
    assert shown_by_discord
    assert all(untimed(view) in remaining for view in shown_by_discord)
    results = [v for v in watched if isinstance(v, ResultsView)]
    assert [r.hand_id for r in results] == [hand_id]
    assert not any(isinstance(v, PrivateView) for v in watched)
    mine = player.pending()
    assert [v for v in mine if isinstance(v, ResultsView)] == results
    private = [v for v in mine if isinstance(v, PrivateView)]
    assert private and {v.user_id for v in private} == {first}
    assert second != first
    spectator.close()
    player.close()
    table.outbox.redraw()
    assert spectator.pending() == [] and player.pending() == []
