"""The buttons under the table message: their labels, styles and custom ids.

A button's custom id carries its channel, hand id and the betting state it was drawn for, so a
click is understood after a restart too (``bot.edge.router`` reads it), and a click on a button
from an old hand or an earlier betting state gets a clear answer instead of doing something the
player never saw. No view is kept in memory (layouts are sent stopped, ``bot.edge.layout``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

import discord

from bot.core.views import ButtonSpec
from words import Texts

PREFIX: Final = "stud:"
ACTION_ID: Final = re.compile(
    r"stud:a:(?P<channel>\d+):(?P<hand>\d+):(?P<seq>\d+)"
    r":(?P<action>fold|check|call|bring_in|complete|bet|raise):(?P<amount>\d*)"
)
CARDS_ID: Final = re.compile(r"stud:cards:(?P<channel>\d+)")
LAUNCH_ID: Final = re.compile(r"stud:launch:(?P<channel>\d+)")

STYLES = {
    "fold": discord.ButtonStyle.danger,
    "check": discord.ButtonStyle.secondary,
    "call": discord.ButtonStyle.primary,
    "bring_in": discord.ButtonStyle.primary,
    "complete": discord.ButtonStyle.success,
    "bet": discord.ButtonStyle.success,
    "raise": discord.ButtonStyle.success,
}


def button_label(texts: Texts, lang: str, spec: ButtonSpec) -> str:
    return texts.t(lang, f"btn_{spec.action}", amount=spec.amount)


def action_id(channel_id: int, hand_id: int, seq: int, spec: ButtonSpec) -> str:
    amount = "" if spec.amount is None else str(spec.amount)
    return f"stud:a:{channel_id}:{hand_id}:{seq}:{spec.action}:{amount}"


def action_rows(
    channel_id: int,
    hand_id: int,
    seq: int,
    specs: Sequence[ButtonSpec],
    lang: str,
    texts: Texts,
    *,
    launch: bool = False,
) -> list[discord.ui.ActionRow[Any]]:
    """The actions due (at most five), then My cards in a row of its own, with the button that
    opens the table as a Discord Activity when the Activity is on (``launch``)."""
    actions = discord.ui.ActionRow[Any](
        *(
            discord.ui.Button[Any](
                label=button_label(texts, lang, spec),
                style=STYLES.get(spec.action, discord.ButtonStyle.secondary),
                custom_id=action_id(channel_id, hand_id, seq, spec),
            )
            for spec in specs
        )
    )
    cards = discord.ui.ActionRow[Any](
        discord.ui.Button[Any](
            label=texts.t(lang, "btn_cards"),
            style=discord.ButtonStyle.secondary,
            emoji="\N{PLAYING CARD BLACK JOKER}",
            custom_id=f"stud:cards:{channel_id}",
        )
    )
    if launch:
        cards.add_item(launch_button(channel_id, lang, texts))
    return [actions, cards] if specs else [cards]


def launch_button(channel_id: int, lang: str, texts: Texts) -> discord.ui.Button[Any]:
    """Play at the table: opens the table as the app's Discord Activity."""
    return discord.ui.Button[Any](
        label=texts.t(lang, "btn_activity"),
        style=discord.ButtonStyle.primary,
        emoji="\N{VIDEO GAME}",
        custom_id=f"stud:launch:{channel_id}",
    )


def launch_view(channel_id: int, lang: str, texts: Texts) -> discord.ui.View:
    """The idle table's message's one button, Play at the table (its embed has no layout)."""
    view = discord.ui.View(timeout=None)
    view.add_item(launch_button(channel_id, lang, texts))
    view.stop()  # discord.py keeps no copy: the click reaches bot.edge.router
    return view
