"""The one ``on_interaction`` listener: every interaction is counted (when the metrics are on)
and its player's name remembered here, and every ``stud:`` click is answered here.

A click on an action is one call into the core, answered by the table's update it returns (or,
failing that in time, acknowledged on its own: ``DiscordPresenter.answer``); My cards is
acknowledged first, then answered privately. A ``stud:`` id that no current button understands,
or one clicked from another channel than its own, is answered and changes nothing.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from typing import Protocol, cast

import discord

from bot.core.errors import TableError
from bot.edge.buttons import ACTION_ID, CARDS_ID, PREFIX
from bot.edge.funnel import Host, acknowledge, answer, answer_error, language_of
from bot.edge.lobby import LOBBY_ID, PAGE_ID, entrants_page, registered_text
from bot.edge.metrics import Metrics
from bot.edge.permissions import missing_permissions
from bot.edge.presenter import DiscordPresenter


class _Host(Host, Protocol):
    presenter: DiscordPresenter
    metrics: Metrics | None


async def on_interaction(interaction: discord.Interaction) -> None:
    """Every command and click: counted, its player's name remembered, a ``stud:`` click
    answered (commands are the command tree's)."""
    bot = cast(_Host, interaction.client)
    if bot.metrics is not None:
        bot.metrics.arrived(interaction)
    custom_id = ""
    if interaction.type is discord.InteractionType.component and interaction.data is not None:
        custom_id = str(interaction.data.get("custom_id", ""))
    action = ACTION_ID.fullmatch(custom_id)
    if action is None and interaction.guild_id is not None:
        # The name the player goes by here now: his tables show it, and it is saved when it
        # changed (histories, restarts and the leaderboard use it; the bot has no member
        # cache to ask later). An action takes it with it: the click enters the core once.
        await bot.house.players.remember(
            interaction.guild_id, interaction.user.id, interaction.user.display_name
        )
    if custom_id.startswith(PREFIX):
        await _route(bot, interaction, custom_id)


async def _route(bot: _Host, interaction: discord.Interaction, custom_id: str) -> None:
    if not bot.accepting:
        await answer_error(interaction, TableError("shutting_down"))
        return
    if match := ACTION_ID.fullmatch(custom_id):
        await _action(bot, interaction, match)
    elif match := CARDS_ID.fullmatch(custom_id):
        if not await acknowledge(interaction, ephemeral=True, thinking=True):
            return
        try:
            channel_id = int(match["channel"])
            _same_channel(interaction, channel_id)
            cards = await bot.house.dealer.cards(
                channel_id,
                interaction.user.id,
                name=interaction.user.display_name,
                lang=language_of(interaction),
            )
            await bot.presenter.send_cards(interaction, cards)
        except Exception as error:
            await answer_error(interaction, error)
    elif match := LOBBY_ID.fullmatch(custom_id):
        await _lobby(bot, interaction, match)
    elif match := PAGE_ID.fullmatch(custom_id):
        await _page(bot, interaction, int(match["tournament"]), int(match["page"]))
    else:
        await answer_error(interaction, TableError("old_version_button"))


async def _lobby(bot: _Host, interaction: discord.Interaction, match: re.Match[str]) -> None:
    """Register or Unregister under a tournament's lobby: one call into the desk, answered
    privately (the lobby itself shows the change)."""
    # Acknowledged first: the last seat of a sit-and-go starts it, threads and all.
    if not await acknowledge(interaction, ephemeral=True, thinking=True):
        return
    tournament_id = int(match["tournament"])
    lang = language_of(interaction)
    try:
        if interaction.guild_id is None:
            raise TableError("foreign_button")
        desk = bot.house.tournaments
        if match["action"] == "entrants":
            # The first page of everyone, for the clicking player alone.
            view = await desk.lobby(tournament_id, interaction.guild_id)
            embed, pages = entrants_page(replace(view, lang=lang), 0, bot.texts)
            await answer(interaction, embed=embed, view=pages)
            return
        if match["action"] == "register":
            entered = await desk.register(interaction.guild_id, tournament_id, interaction.user.id)
            text = registered_text(bot.texts, lang, entered)
        else:
            refund = await desk.unregister(interaction.guild_id, tournament_id, interaction.user.id)
            text = bot.texts.t(
                lang, "tournament_unregistered", tournament_id=tournament_id, refund=refund
            )
        await answer(interaction, text)
    except Exception as error:
        await answer_error(interaction, error)


async def _page(
    bot: _Host, interaction: discord.Interaction, tournament_id: int, page: int
) -> None:
    """Previous or Next on a private list of entrants: that message shows the page asked for.
    A page the list no longer has, or another server's tournament, is answered privately."""
    if not await acknowledge(interaction, ephemeral=True, thinking=False):
        return
    try:
        if interaction.guild_id is None:
            raise TableError("foreign_button")
        view = await bot.house.tournaments.lobby(tournament_id, interaction.guild_id)
        embed, pages = entrants_page(replace(view, lang=language_of(interaction)), page, bot.texts)
        await interaction.edit_original_response(embed=embed, view=pages)
    except Exception as error:
        await answer_error(interaction, error)


async def _action(bot: _Host, interaction: discord.Interaction, match: re.Match[str]) -> None:
    """One call into the core, whose outcome answers the click: the table's update, as the
    edit of the message the click was on (one request), or the refusal, privately."""
    arrived = asyncio.get_running_loop().time()
    channel_id = int(match["channel"])
    try:
        _same_channel(interaction, channel_id)
        outcome = await bot.house.dealer.act(
            channel_id,
            interaction.user.id,
            match["action"],
            int(match["amount"]) if match["amount"] else None,
            hand_id=int(match["hand"]),
            seq=int(match["seq"]),
            name=interaction.user.display_name,
            lang=language_of(interaction),
            missing=missing_permissions(interaction),
            update=True,
        )
    except Exception as error:
        await answer_error(interaction, error)
        return
    if not await bot.presenter.answer(interaction, channel_id, outcome, arrived):
        # Shown already, or slow: acknowledged on its own (a deferred update); the table's
        # delivery edits the message.
        await acknowledge(interaction, ephemeral=True, thinking=False)


def _same_channel(interaction: discord.Interaction, channel_id: int) -> None:
    """A button acts at the table of the channel it was clicked in, never at another."""
    if interaction.channel_id != channel_id:
        raise TableError("foreign_button")
