"""The buttons under the table message, and the one router every ``stud:`` click goes through.

A button's custom id carries its channel, hand id and the betting state it was drawn for, so a
click is understood after a restart too, and a click on a button from an old hand or an earlier
betting state gets a clear answer instead of doing something the player never saw. No view is
kept in memory (views are sent stopped): :func:`route_click` reads the id and calls the core.
Every click is acknowledged before any work; a ``stud:`` id that no current button understands,
or one clicked from another channel than its own, is answered and changes nothing.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.core.errors import TableError
from bot.core.i18n import language, t
from bot.core.tables import ButtonSpec
from bot.edge.funnel import acknowledge, answer_error

if TYPE_CHECKING:
    from bot.edge.client import StudBot

log = logging.getLogger(__name__)

PREFIX: Final = "stud:"
ACTION_ID: Final = re.compile(
    r"stud:a:(?P<channel>\d+):(?P<hand>\d+):(?P<seq>\d+)"
    r":(?P<action>fold|check|call|bring_in|complete|bet|raise):(?P<amount>\d*)"
)
CARDS_ID: Final = re.compile(r"stud:cards:(?P<channel>\d+)")

STYLES = {
    "fold": discord.ButtonStyle.danger,
    "check": discord.ButtonStyle.secondary,
    "call": discord.ButtonStyle.primary,
    "bring_in": discord.ButtonStyle.primary,
    "complete": discord.ButtonStyle.success,
    "bet": discord.ButtonStyle.success,
    "raise": discord.ButtonStyle.success,
}


def button_label(lang: str, spec: ButtonSpec) -> str:
    return t(lang, f"btn_{spec.action}", amount=spec.amount)


def action_id(channel_id: int, hand_id: int, seq: int, spec: ButtonSpec) -> str:
    amount = "" if spec.amount is None else str(spec.amount)
    return f"stud:a:{channel_id}:{hand_id}:{seq}:{spec.action}:{amount}"


def table_view(
    channel_id: int, hand_id: int, seq: int, specs: list[ButtonSpec], lang: str
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for spec in specs:
        view.add_item(
            discord.ui.Button[Any](
                label=button_label(lang, spec),
                style=STYLES.get(spec.action, discord.ButtonStyle.secondary),
                custom_id=action_id(channel_id, hand_id, seq, spec),
            )
        )
    view.add_item(
        discord.ui.Button[Any](
            label=t(lang, "btn_cards"),
            style=discord.ButtonStyle.secondary,
            emoji="\N{PLAYING CARD BLACK JOKER}",
            custom_id=f"stud:cards:{channel_id}",
            row=1,
        )
    )
    # Stopped: discord.py then keeps no copy of it (one per table message would pile up);
    # clicks reach route_click through on_interaction instead.
    view.stop()
    return view


async def route_click(interaction: discord.Interaction) -> None:
    """``on_interaction`` listener: answer every click on a ``stud:`` component."""
    if interaction.type is not discord.InteractionType.component or interaction.data is None:
        return
    custom_id = str(interaction.data.get("custom_id", ""))
    if not custom_id.startswith(PREFIX):
        return
    bot: StudBot = interaction.client  # type: ignore[assignment]
    if not bot.accepting:
        await answer_error(interaction, TableError("shutting_down"))
        return
    if match := ACTION_ID.fullmatch(custom_id):
        await _action(bot, interaction, match)
    elif match := CARDS_ID.fullmatch(custom_id):
        if not await acknowledge(interaction, ephemeral=True, thinking=True):
            return
        try:
            _same_channel(interaction, int(match["channel"]))
            await bot.presenter.show_cards(interaction, int(match["channel"]))
        except Exception as error:
            await answer_error(interaction, error)
    else:
        await answer_error(interaction, TableError("old_version_button"))


async def _action(bot: StudBot, interaction: discord.Interaction, match: re.Match[str]) -> None:
    # A deferred update: Discord shows nothing, the table message itself shows the action.
    if not await acknowledge(interaction, ephemeral=True, thinking=False):
        return
    try:
        channel_id = int(match["channel"])
        _same_channel(interaction, channel_id)
        bot.presenter.check_permissions(bot.tables.get(channel_id), interaction)
        await bot.tables.act(
            channel_id,
            interaction.user.id,
            match["action"],
            int(match["amount"]) if match["amount"] else None,
            hand_id=int(match["hand"]),
            seq=int(match["seq"]),
            name=interaction.user.display_name,
            lang=language(interaction.locale),
        )
    except Exception as error:
        await answer_error(interaction, error)


def _same_channel(interaction: discord.Interaction, channel_id: int) -> None:
    """A button acts at the table of the channel it was clicked in, never at another."""
    if interaction.channel_id != channel_id:
        raise TableError("foreign_button")
