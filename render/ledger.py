"""The session ledger as a picture: one row per player who sat at a table since it opened, with
what he bought in for, cashed out, still has on the table, his net and his hands, and a total
row, as the ledger of a home game (PokerNow's: player, buy-in, buy-out, stack, net) reads.

It takes plain data whose words and numbers the caller has already written in the table's
language (render knows no language's number format); it only lays them out and colours each
net: won green, lost red, even grey.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from render import theme
from render.text import draw_text

MARGIN: Final = 24
TITLE_Y: Final = 34
SUBTITLE_Y: Final = 66
HEADER_TOP: Final = 88
HEADER_HEIGHT: Final = 32
ROW_HEIGHT: Final = 34
TOTAL_HEIGHT: Final = 42
MORE_HEIGHT: Final = 30
BOTTOM: Final = 14
NAME_WIDTH: Final = 250
# Bought in, cashed out, on the table, net, hands: right-aligned numbers.
FIGURE_WIDTHS: Final = (118, 118, 118, 118, 84)
FIGURE_GAP: Final = 10
NET_COLUMN: Final = 3  # among the figures
WIDTH: Final = 2 * MARGIN + NAME_WIDTH + sum(FIGURE_WIDTHS)


@dataclass(frozen=True, slots=True)
class LedgerRow:
    """One player (or the total): his name and his figures, already formatted."""

    name: str
    bought_in: str
    cashed_out: str
    on_table: str
    net: str
    hands: str
    net_sign: int  # > 0 won, < 0 lost, 0 even: the net's colour
    seated: bool = True  # a player who has left is named in grey

    def figures(self) -> tuple[str, ...]:
        return (self.bought_in, self.cashed_out, self.on_table, self.net, self.hands)


@dataclass(frozen=True, slots=True)
class LedgerSheet:
    """``headers``: the name column's, then one per figure of :class:`LedgerRow`. ``more`` is
    a last line for players left out of ``rows`` ("and 3 more"), empty when none are."""

    title: str
    subtitle: str
    headers: tuple[str, str, str, str, str, str]
    rows: tuple[LedgerRow, ...]
    total: LedgerRow
    more: str = ""


def height_of(sheet: LedgerSheet) -> int:
    rows = len(sheet.rows) * ROW_HEIGHT
    more = MORE_HEIGHT if sheet.more else 0
    return HEADER_TOP + HEADER_HEIGHT + rows + TOTAL_HEIGHT + more + BOTTOM


def draw_ledger(sheet: LedgerSheet) -> Image.Image:
    canvas = Image.new("RGB", (WIDTH, height_of(sheet)), theme.PANEL)
    pen = ImageDraw.Draw(canvas)
    inner = WIDTH - 2 * MARGIN
    draw_text(canvas, (MARGIN, TITLE_Y), sheet.title, 24, theme.TEXT, bold=True, max_width=inner)
    draw_text(
        canvas, (MARGIN, SUBTITLE_Y), sheet.subtitle, 16, theme.MUTED, max_width=inner, squeeze=True
    )
    name, *figures = sheet.headers
    _row(canvas, HEADER_TOP + HEADER_HEIGHT // 2, name, tuple(figures), 15, theme.MUTED, bold=True)
    top = HEADER_TOP + HEADER_HEIGHT
    pen.line([(MARGIN, top - 1), (WIDTH - MARGIN, top - 1)], fill=theme.PANEL_EDGE, width=1)
    for index, row in enumerate(sheet.rows):
        if index % 2:
            pen.rectangle(
                [(MARGIN, top), (WIDTH - MARGIN - 1, top + ROW_HEIGHT - 1)], fill=theme.PANEL_DIM
            )
        _row(
            canvas,
            top + ROW_HEIGHT // 2,
            row.name,
            row.figures(),
            18,
            theme.TEXT,
            name_colour=theme.TEXT if row.seated else theme.MUTED,
            net_sign=row.net_sign,
        )
        top += ROW_HEIGHT
    pen.line([(MARGIN, top + 2), (WIDTH - MARGIN, top + 2)], fill=theme.PANEL_EDGE, width=2)
    total = sheet.total
    middle = top + TOTAL_HEIGHT // 2 + 2
    _row(
        canvas,
        middle,
        total.name,
        total.figures(),
        18,
        theme.GOLD,
        bold=True,
        net_sign=total.net_sign,
    )
    if sheet.more:
        middle = top + TOTAL_HEIGHT + MORE_HEIGHT // 2
        draw_text(canvas, (MARGIN, middle), sheet.more, 15, theme.MUTED, max_width=inner)
    return canvas


def _row(
    canvas: Image.Image,
    middle: int,
    name: str,
    figures: tuple[str, ...],
    size: int,
    colour: theme.RGB,
    *,
    bold: bool = False,
    name_colour: theme.RGB | None = None,
    net_sign: int | None = None,
) -> None:
    """A name at the left, then the figures right-aligned in their columns, in ``colour``;
    with ``net_sign``, the net is bold in the colour of its sign."""
    draw_text(
        canvas,
        (MARGIN + 8, middle),
        name,
        size,
        name_colour or colour,
        bold=bold,
        max_width=NAME_WIDTH - 16,
        squeeze=True,
    )
    right = MARGIN + NAME_WIDTH
    for column, (text, width) in enumerate(zip(figures, FIGURE_WIDTHS, strict=True)):
        right += width
        fill, heavy = colour, bold
        if net_sign is not None and column == NET_COLUMN:
            fill, heavy = net_colour(net_sign), True
        draw_text(
            canvas,
            (right - FIGURE_GAP, middle),
            text,
            size,
            fill,
            bold=heavy,
            anchor="rm",
            max_width=width - FIGURE_GAP - 4,
            squeeze=True,
        )


def net_colour(sign: int) -> theme.RGB:
    return theme.GREEN if sign > 0 else theme.RED if sign < 0 else theme.MUTED
