"""Pictures of the game, drawn with Pillow: the table, the showdown, one player's own hand, the
hand rankings, a table's session ledger and a player's net chips over his last hands.

Everything here takes engine views (``engine.public``) plus plain labels and the words of their
language (``words.Words``) and returns PNG bytes;
it does no other I/O and is safe to call from worker threads (``asyncio.to_thread``).
The table and showdown pictures only ever see a ``PublicTable``, which has no field for anyone's
down cards while the hand is live.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import FULL_DECK
from engine.hand import StudHand
from engine.public import PrivateHand, PublicTable
from engine.stakes import DEFAULT_STAKES
from render.chart import NetChart, draw_chart
from render.labels import SeatLabel, TableLabels
from render.ledger import LedgerRow, LedgerSheet, draw_ledger
from render.png import encode
from render.private import private_png
from render.rankings import draw_rankings
from render.table import draw_table, felt_background, table_boxes, table_pieces
from words.pictures import ENGLISH, Words

__all__ = [
    "LedgerRow",
    "LedgerSheet",
    "NetChart",
    "SeatLabel",
    "TableLabels",
    "hand_rankings_png",
    "ledger_png",
    "net_chart_png",
    "private_hand_png",
    "showdown_png",
    "table_png",
    "warm_up",
]


def table_png(view: PublicTable, labels: TableLabels) -> bytes:
    """The table as the channel sees it (after a showdown, the showdown picture)."""
    return encode(
        draw_table(view, labels),
        felt_background(),
        table_boxes(view, labels),
        table_pieces(view, labels),
    )


def warm_up(languages: Iterable[Words]) -> None:
    """Draw a table once in each language: the first table a player sees is not the slow one
    (fonts loaded, text masks and corner pieces cached)."""
    hand = StudHand(stacks=[100, 100], stakes=DEFAULT_STAKES, deck=list(FULL_DECK), dealer=0)
    for words in languages:
        table_png(PublicTable.from_hand(hand), TableLabels(words=words))


def showdown_png(view: PublicTable, labels: TableLabels) -> bytes:
    """The finished hand: shown cards, the five that play, descriptions and who won each pot."""
    if not view.is_over:
        raise ValueError("the hand isn't over: there is no showdown to draw yet")
    return table_png(view, labels)


def private_hand_png(
    hand: PrivateHand, *, name: str = "", four_colour: bool = False, words: Words = ENGLISH
) -> bytes:
    """One player's own cards, his down cards marked, and the best hand they make so far.

    For that player's eyes only (an ephemeral reply or a DM), never the channel.
    """
    return private_png(hand, name=name, four_colour=four_colour, text=words)


def hand_rankings_png(*, four_colour: bool = False, words: Words = ENGLISH) -> bytes:
    """Every hand category, strongest first, each with example cards and its name (/help)."""
    return encode(draw_rankings(words, four_colour=four_colour))


def ledger_png(sheet: LedgerSheet) -> bytes:
    """A table's session ledger: each player's buy-ins, cash-outs, chips on the table, net and
    hands, and their total (the words and numbers as ``sheet`` has them)."""
    return encode(draw_ledger(sheet))


def net_chart_png(chart: NetChart) -> bytes:
    """A player's running net over his last hands as a line chart, green while ahead and red
    while behind (the words and digit grouping as ``chart`` has them)."""
    return encode(draw_chart(chart))
