"""The buttons under the table message.

They are ``DynamicItem``s: the custom id carries channel, hand id and the betting state the
button was drawn for, so a click is understood even after a restart, and a click on a button
from an old hand or an earlier betting state gets a clear answer instead of doing something the
player never saw. The buttons hold no game state; they call the table manager.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.errors import answer_error
from bot.i18n import t
from bot.tables import ButtonSpec

if TYPE_CHECKING:
    from bot.client import StudBot

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


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"stud:a:(?P<channel>\d+):(?P<hand>\d+):(?P<seq>\d+):(?P<action>[a-z_]+):(?P<amount>\d*)",
):
    def __init__(
        self, channel_id: int, hand_id: int, seq: int, spec: ButtonSpec, label: str
    ) -> None:
        amount = "" if spec.amount is None else str(spec.amount)
        super().__init__(
            discord.ui.Button(
                label=label,
                style=STYLES.get(spec.action, discord.ButtonStyle.secondary),
                custom_id=f"stud:a:{channel_id}:{hand_id}:{seq}:{spec.action}:{amount}",
            )
        )
        self.channel_id = channel_id
        self.hand_id = hand_id
        self.seq = seq
        self.spec = spec

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ActionButton:
        amount = int(match["amount"]) if match["amount"] else None
        spec = ButtonSpec(match["action"], amount)
        label = getattr(item, "label", None) or ""
        return cls(int(match["channel"]), int(match["hand"]), int(match["seq"]), spec, label)

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = cast("StudBot", interaction.client)
        try:
            bot.tables.get(self.channel_id).names[interaction.user.id] = (
                interaction.user.display_name
            )
            await bot.tables.act(
                self.channel_id,
                interaction.user.id,
                self.spec.action,
                self.spec.amount,
                hand_id=self.hand_id,
                seq=self.seq,
            )
            # The table message itself is redrawn by the presenter; the click only needs an ack.
            await interaction.response.defer()
        except Exception as error:
            await answer_error(interaction, error)


class CardsButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"stud:cards:(?P<channel>\d+)"
):
    def __init__(self, channel_id: int, label: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                emoji="\N{PLAYING CARD BLACK JOKER}",
                custom_id=f"stud:cards:{channel_id}",
            )
        )
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> CardsButton:
        return cls(int(match["channel"]), getattr(item, "label", None) or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = cast("StudBot", interaction.client)
        try:
            await bot.presenter.show_cards(interaction, self.channel_id)
        except Exception as error:
            await answer_error(interaction, error)


def table_view(
    channel_id: int, hand_id: int, seq: int, specs: list[ButtonSpec], lang: str
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for spec in specs:
        view.add_item(ActionButton(channel_id, hand_id, seq, spec, button_label(lang, spec)))
    cards = CardsButton(channel_id, t(lang, "btn_cards"))
    cards.item.row = 1
    view.add_item(cards)
    return view


def _has_component(message: discord.Message | None, custom_id: str) -> bool:
    if message is None:
        return False
    return any(
        getattr(child, "custom_id", None) == custom_id
        for row in message.components
        for child in getattr(row, "children", [])
    )


async def answer_orphan_click(interaction: discord.Interaction) -> None:
    """Answer a click on one of our buttons that is no longer on its message.

    discord.py only dispatches a button that the clicked message still carries, but a player
    whose client shows an older version of the table message can click a button the message
    has since lost. He gets told why rather than "This interaction failed".
    """
    if interaction.type is not discord.InteractionType.component or interaction.data is None:
        return
    custom_id = str(interaction.data.get("custom_id", ""))
    if not custom_id.startswith("stud:") or _has_component(interaction.message, custom_id):
        return
    for factory in (ActionButton, CardsButton):
        match = factory.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            placeholder: discord.ui.Button[Any] = discord.ui.Button(custom_id=custom_id)
            item = await factory.from_custom_id(interaction, placeholder, match)
            await item.callback(interaction)
            return
