"""Computer players' seats (issue 22): who they are, what they are called, and when they go.

A computer player is a negative user id (``bot.core.storage.house``): its style and its number
follow from the id, so a restart knows how each one plays without storing anything more. Its
name says it is one ("Bot 3 (tight)", in the table's language), on the picture, in messages,
and, saved like any player's name, in the ledger and in hand histories.
"""

from __future__ import annotations

from bot.core.storage import Store
from bot.core.storage.house import BOT_IDS, BOTS_PER_STYLE, is_bot
from bot.core.table import Table
from strategy import STYLES, Style
from words import Texts

STYLE_NAMES: tuple[str, ...] = tuple(STYLES)  # tight, loose, careful: ids -1..-8, -9..-16, ...


def style_of(bot_id: int) -> Style:
    return STYLES[STYLE_NAMES[(-bot_id - 1) // BOTS_PER_STYLE]]


def bot_ids(style: str) -> tuple[int, ...]:
    """The ids of one style's computer players, in the order they sit."""
    start = STYLE_NAMES.index(style) * BOTS_PER_STYLE
    return BOT_IDS[start : start + BOTS_PER_STYLE]


def bot_name(texts: Texts, lang: str, bot_id: int) -> str:
    style = style_of(bot_id).name
    number = (-bot_id - 1) % BOTS_PER_STYLE + 1
    return texts.t(lang, "bot_name", number=number, style=texts.t(lang, f"bot_style_{style}"))


def humans(table: Table) -> list[int]:
    return [user_id for user_id in table.seats if not is_bot(user_id)]


async def send_bots_home(store: Store, table: Table) -> bool:
    """No one but computer players is seated: they cash out to the house (between hands only).
    Returns whether they went. Runs under the table's lock."""
    if table.live is not None or not table.seats or humans(table):
        return False
    for user_id in list(table.seats):
        await store.seating.leave(table.channel_id, user_id)
        del table.seats[user_id]
    return True
