"""The bot's one ``on_interaction`` listener, and what each of its buttons does when clicked.

Every interaction is counted here (when the metrics are on) and its player's name remembered.
Each button parses its own custom id (a discord.py ``DynamicItem``: the id's template is the
button's), so a click is understood after a restart too, whatever message it was on, and a
``stud:`` id no current button understands (one from a version before) is answered so. The
listener hands a click to its button itself rather than through discord.py's view store, which
would rebuild the whole message's view for every click and drop an id the message lacks.

A click on an action is one call into the core, answered by the table's update it returns (or,
failing that in time, acknowledged on its own: ``DiscordPresenter.answer``); My cards is
acknowledged first, then answered privately. A button clicked from another channel than its
own is answered and changes nothing.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from typing import Any, Protocol, Self, cast

import discord

from bot.core.errors import TableError
from bot.edge.buttons import ACTION_ID, CARDS_ID, LAUNCH_ID, PREFIX
from bot.edge.funnel import Host, acknowledge, answer, answer_error, language_of
from bot.edge.lobby import LOBBY_ID, PAGE_ID, entrants_page, registered_text
from bot.edge.metrics import Metrics
from bot.edge.permissions import missing_permissions
from bot.edge.presenter import DiscordPresenter

Button = discord.ui.Button[Any]


class _Host(Host, Protocol):
    presenter: DiscordPresenter
    metrics: Metrics | None


async def on_interaction(interaction: discord.Interaction) -> None:
    """Every command and click: counted, its player's name remembered, a ``stud:`` id that no
    button understands answered (commands are the command tree's, clicks their buttons')."""
    bot = cast(_Host, interaction.client)
    if bot.metrics is not None:
        bot.metrics.arrived(interaction)
    custom_id = ""
    if interaction.type is discord.InteractionType.component and interaction.data is not None:
        custom_id = str(interaction.data.get("custom_id", ""))
    if interaction.guild_id is not None and not ActionClick.template_of().fullmatch(custom_id):
        # The name the player goes by here now: his tables show it, and it is saved when it
        # changed (histories, restarts and the leaderboard use it; the bot has no member
        # cache to ask later). An action takes it with it: the click enters the core once.
        await bot.house.players.remember(
            interaction.guild_id, interaction.user.id, interaction.user.display_name
        )
    if custom_id.startswith(PREFIX):
        await _click(interaction, custom_id)


async def _click(interaction: discord.Interaction, custom_id: str) -> None:
    """The button whose template the id fits parses it and answers the click. Found by its id
    alone, not among the message's components: a click is answered whatever it was on."""
    for kind in CLICKS:
        if match := kind.template_of().fullmatch(custom_id):
            click = await kind.from_custom_id(interaction, Button(custom_id=custom_id), match)
            if await click.interaction_check(interaction):
                await click.callback(interaction)
            return
    await answer_error(interaction, TableError("old_version_button"))


class _Click(discord.ui.DynamicItem[Button], template=PREFIX):
    """A ``stud:`` button as a click finds it: parsed from its custom id, refused while the
    bot shuts down."""

    @classmethod
    def template_of(cls) -> re.Pattern[str]:
        return cls.__discord_ui_compiled_template__

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cast(Button, item), match)

    def __init__(self, item: Button, match: re.Match[str]) -> None:
        super().__init__(item)
        self.match = match

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if not cast(_Host, interaction.client).accepting:
            await answer_error(interaction, TableError("shutting_down"))
            return False
        return True


class ActionClick(_Click, template=ACTION_ID):
    """Fold, check, call, bring in, complete, bet or raise at the table of its channel."""

    async def callback(self, interaction: discord.Interaction) -> None:
        """One call into the core, whose outcome answers the click: the table's update, as the
        edit of the message the click was on (one request), or the refusal, privately."""
        bot = cast(_Host, interaction.client)
        arrived = asyncio.get_running_loop().time()
        match = self.match
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


class CardsClick(_Click, template=CARDS_ID):
    """My cards: the player's own cards in the hand at the table of its channel, privately."""

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = cast(_Host, interaction.client)
        if not await acknowledge(interaction, ephemeral=True, thinking=True):
            return
        try:
            channel_id = int(self.match["channel"])
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


class LaunchClick(_Click, template=LAUNCH_ID):
    """Play at the table: Discord opens the table as the app's Activity in the channel (the
    interaction answered with LAUNCH_ACTIVITY); the Activity learns who opened it itself."""

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            _same_channel(interaction, int(self.match["channel"]))
            await interaction.response.launch_activity()
        except Exception as error:
            await answer_error(interaction, error)


class LobbyClick(_Click, template=LOBBY_ID):
    """Register, Unregister or Entrants under a tournament's lobby: one call into the desk,
    answered privately (the lobby itself shows the change)."""

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = cast(_Host, interaction.client)
        # Acknowledged first: the last seat of a sit-and-go starts it, threads and all.
        if not await acknowledge(interaction, ephemeral=True, thinking=True):
            return
        tournament_id = int(self.match["tournament"])
        action = self.match["action"]
        lang = language_of(interaction)
        try:
            if interaction.guild_id is None:
                raise TableError("foreign_button")
            desk = bot.house.tournaments
            if action == "entrants":
                # The first page of everyone, for the clicking player alone.
                view = await desk.lobby(tournament_id, interaction.guild_id)
                embed, pages = entrants_page(replace(view, lang=lang), 0, bot.texts)
                await answer(interaction, embed=embed, view=pages)
                return
            if action == "register":
                entered = await desk.register(
                    interaction.guild_id, tournament_id, interaction.user.id
                )
                text = registered_text(bot.texts, lang, entered)
            else:
                refund = await desk.unregister(
                    interaction.guild_id, tournament_id, interaction.user.id
                )
                text = bot.texts.t(
                    lang, "tournament_unregistered", tournament_id=tournament_id, refund=refund
                )
            await answer(interaction, text)
        except Exception as error:
            await answer_error(interaction, error)


class PageClick(_Click, template=PAGE_ID):
    """Previous or Next on a private list of entrants: that message shows the page asked for.
    A page the list no longer has, or another server's tournament, is answered privately."""

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = cast(_Host, interaction.client)
        if not await acknowledge(interaction, ephemeral=True, thinking=False):
            return
        try:
            if interaction.guild_id is None:
                raise TableError("foreign_button")
            tournament_id, page = int(self.match["tournament"]), int(self.match["page"])
            view = await bot.house.tournaments.lobby(tournament_id, interaction.guild_id)
            lang = language_of(interaction)
            embed, pages = entrants_page(replace(view, lang=lang), page, bot.texts)
            await interaction.edit_original_response(embed=embed, view=pages)
        except Exception as error:
            await answer_error(interaction, error)


# Every button the bot makes.
CLICKS: tuple[type[_Click], ...] = (ActionClick, CardsClick, LaunchClick, LobbyClick, PageClick)


def _same_channel(interaction: discord.Interaction, channel_id: int) -> None:
    """A button acts at the table of the channel it was clicked in, never at another."""
    if interaction.channel_id != channel_id:
        raise TableError("foreign_button")
