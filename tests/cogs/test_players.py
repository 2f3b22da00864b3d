"""Stored names, a language and a deck per table, /settings deck, /help, defaults."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

import render
from bot.core.settings import Settings
from bot.edge.translator import CommandTranslator
from tests.cogs.world import (
    World,
    live_table,
    make_bot,
    member,
    message_text,
    open_and_seat,
    passive_label,
    play_out_with_buttons,
    spy_drawing,
    stop_like_a_crash,
    table_message,
)
from tests.cogs.world import labels as button_labels
from words import RU


async def test_a_restart_mid_hand_keeps_every_name_in_seats_and_histories(
    world: World, settings: Settings
) -> None:
    """10.4: with no member cache, names come from the database after a restart."""
    await open_and_seat(world)
    table = live_table(world)
    actor = member(world, table.actor_id() or 0)
    await actor.click(table_message(world), label="Bring in 3")
    await stop_like_a_crash(world.bot)
    world.bot = await make_bot(settings, world.env)
    await world.env.restart_bot(world.bot)
    await world.env.settle()
    seats = message_text(table_message(world))
    assert "ann" in seats and "bob" in seats and "Player" not in seats, seats
    while live_table(world).live is not None:
        current = table_message(world)
        who = member(world, live_table(world).actor_id() or 0)
        await who.click(current, label=passive_label(button_labels(current)))
    for player, other in zip(world.players[:2], ("bob", "ann"), strict=True):
        result = await player.slash(world.channel, "history")
        assert result.response is not None
        attachment, _ = result.response.attachments
        text = (await attachment.read()).decode()
        assert f"{other}:" in text and "Player" not in text, text
        assert other in result.response.content and "Player" not in result.response.content


async def test_a_table_in_russian_with_four_colours_keeps_both_after_a_restart(
    world: World, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """10.7 and 10.9: the channel follows the table's language; replies, the player's."""
    calls = spy_drawing(monkeypatch, render.table_png)
    ann = world.players[0]
    result = await ann.slash(world.channel, "table open", language="ru", deck="four-colour")
    assert result.response is not None and result.response.content.startswith("Table open")
    config = live_table(world).config
    assert config.lang == RU and config.four_colour
    await open_and_seat_existing(world)
    channel = [m.content for m in world.channel.history() if not m.flags.ephemeral and m.content]
    assert any("Стол открыт" in line for line in channel), channel
    drawn = [args[1] for args, _ in calls]
    assert drawn and all(labels.words.code == RU and labels.four_colour for labels in drawn)
    assert all(not label.isascii() for label in button_labels(table_message(world)))
    await stop_like_a_crash(world.bot)
    world.bot = await make_bot(settings, world.env)
    await world.env.restart_bot(world.bot)
    await world.env.settle()
    restored = live_table(world).config
    assert restored.lang == RU and restored.four_colour


async def open_and_seat_existing(world: World) -> None:
    for player in world.players[:2]:
        await player.slash(world.channel, "sit")
    await world.env.advance_time(world.bot.settings.game.countdown_seconds + 1)
    assert live_table(world).live is not None


async def test_the_server_language_choice_and_no_choice_mean_the_servers(world: World) -> None:
    await world.players[0].slash(world.channel, "table open", language="server")
    assert live_table(world).config.lang == "en" and not live_table(world).config.four_colour


async def test_settings_deck_colours_the_players_own_pictures_only(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = spy_drawing(monkeypatch, render.private_hand_png)

    def drawn() -> list[tuple[str, bool]]:
        return [(kwargs["name"], kwargs["four_colour"]) for _, kwargs in calls]

    ann, bob = world.players[:2]
    shown = await ann.slash(world.channel, "settings deck")
    assert shown.response is not None and "two colours" in shown.response.content
    chosen = await ann.slash(world.channel, "settings deck", colours="four-colour")
    assert chosen.ephemeral and chosen.response is not None
    assert "four colours" in chosen.response.content
    assert await world.bot.store.players.four_colour(
        ann.id
    ) and not await world.bot.store.players.four_colour(bob.id)
    await open_and_seat(world)
    await world.env.settle()
    # The DMs of the deal: ann's in four colours, bob's in two; the table keeps two.
    assert ("ann", True) in drawn() and ("bob", False) in drawn()
    assert not live_table(world).config.four_colour
    calls.clear()
    await ann.slash(world.channel, "cards")
    assert drawn() == [("ann", True)]
    await play_out_with_buttons(world)


async def test_help_is_private_and_in_the_players_language_with_the_rankings(
    world: World,
) -> None:
    result = await world.players[0].slash(world.channel, "help")
    assert result.ephemeral and result.response is not None
    (embed,) = result.response.embeds
    assert embed.title == "Seven Card Stud: how to play"
    assert len((embed.description or "").splitlines()) == 5
    assert [field.name for field in embed.fields] == [
        "How a hand goes",
        "Buttons",
        "Razz, Stud Hi-Lo and the mix",
        "Commands",
        "Chips, stats and hands",
        "Computer players",
        "Tournaments",
    ]
    assert "/table open" in (embed.fields[3].value or "")
    # Tournaments in the bots' section and in their own.
    assert "/tournament create" in (embed.fields[5].value or "")
    assert "/tournament reenter" in (embed.fields[6].value or "")
    # What bots are and how they play.
    assert "/table bots add" in (embed.fields[5].value or "")
    assert "pot odds" in (embed.fields[5].value or "")
    assert "/stats" in (embed.fields[4].value or "") and all(
        len(field.value or "") <= 1024 for field in embed.fields
    )
    (attachment,) = result.response.attachments
    assert attachment.filename == "rankings.png"
    assert embed.image.url == "attachment://rankings.png"
    assert (await attachment.read()).startswith(b"\x89PNG")


async def test_option_descriptions_say_their_configured_defaults(world: World) -> None:
    """10.9: from the settings (this world's defaults), in English and in Russian."""
    group = world.bot.tree.get_command("table")
    assert isinstance(group, app_commands.Group)
    command = group.get_command("open")
    assert isinstance(command, app_commands.Command)
    described = {p.name: str(p.description) for p in command.parameters}
    assert described["ante"] == "Ante in chips (default 1)"
    assert described["turn_seconds"] == "Seconds per turn (default 60)"
    assert described["max_buy_in"] == "Largest buy-in (default 1,000)"
    assert "default: two colours" in described["deck"]
    translator = CommandTranslator(world.bot.texts)
    context: app_commands.TranslationContextTypes = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.other, None
    )
    russian = await translator.translate(
        app_commands.locale_str(described["ante"]), discord.Locale.russian, context
    )
    assert russian == "Анте в фишках (по умолчанию 1)"
    # Discord refuses a description over 100 characters, in any language.
    for parameter in command.parameters:
        for words in world.bot.texts.catalogues.values():
            assert len(words.commands.get(str(parameter.description), "")) <= 100


async def test_sit_says_what_the_default_buy_in_is(world: World) -> None:
    ann = world.players[0]
    await ann.slash(world.channel, "table open")
    result = await ann.slash(world.channel, "sit")
    assert result.response is not None
    assert "1,000 chips. That is the default buy-in" in result.response.content
    assert "at most 1,000" in result.response.content
    bob = await world.players[1].slash(world.channel, "sit", buy_in=200)
    assert bob.response is not None and "default" not in bob.response.content
    command = world.bot.tree.get_command("sit")
    assert isinstance(command, app_commands.Command)
    assert "default" in str(command.parameters[0].description)


async def test_settings_showdown_makes_the_players_hands_always_shown(world: World) -> None:
    """RULES 5.6: the choice is his, saved, and the next hand dealt to him knows it."""
    ann, bob = world.players[:2]
    asked = await ann.slash(world.channel, "settings showdown")
    assert asked.response is not None and "mucked unseen" in asked.response.content
    chosen = await ann.slash(world.channel, "settings showdown", hands="show")
    assert chosen.ephemeral and chosen.response is not None
    assert "even when it can no longer win" in chosen.response.content
    assert (await world.bot.store.players.preferences(ann.id)).always_show
    assert not (await world.bot.store.players.preferences(bob.id)).always_show
    await open_and_seat(world)
    live = live_table(world).live
    assert live is not None
    assert live.hand.always_show == {live.seat_of(ann.id)}
    await play_out_with_buttons(world)
