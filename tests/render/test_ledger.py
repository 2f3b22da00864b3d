"""The session ledger picture: nets coloured by their sign, one row a player, any name drawn."""

from __future__ import annotations

from io import BytesIO
from typing import cast

from PIL import Image

from render import LedgerRow, LedgerSheet, ledger_png, theme
from render import ledger as ledger_picture

HEADERS = ("Player", "Bought in", "Cashed out", "On table", "Net", "Hands")


def row(name: str, net: int, *, seated: bool = True) -> LedgerRow:
    return LedgerRow(name, "100", "0", "100", f"{net:+}", "3", net_sign=net, seated=seated)


def sheet(*rows: LedgerRow, more: str = "") -> LedgerSheet:
    total = LedgerRow("Total", "300", "0", "300", "+0", "3", net_sign=0)
    return LedgerSheet("Table ledger · #stud", "Opened Dec 1, 2026", HEADERS, rows, total, more)


def colours_in(image: Image.Image, box: tuple[int, int, int, int]) -> set[theme.RGB]:
    return {
        cast(theme.RGB, colour) for _, colour in image.crop(box).getcolors(maxcolors=4096) or []
    }


def net_cell(index: int) -> tuple[int, int, int, int]:
    """The net column of row ``index``."""
    right = (
        ledger_picture.MARGIN + ledger_picture.NAME_WIDTH + sum(ledger_picture.FIGURE_WIDTHS[:4])
    )
    left = right - ledger_picture.FIGURE_WIDTHS[3]
    top = (
        ledger_picture.HEADER_TOP + ledger_picture.HEADER_HEIGHT + index * ledger_picture.ROW_HEIGHT
    )
    return left, top, right, top + ledger_picture.ROW_HEIGHT


def test_a_win_is_green_a_loss_red_and_even_grey() -> None:
    image = ledger_picture.draw_ledger(sheet(row("Dana", 40), row("Oleg", -40), row("Zoë", 0)))
    won, lost, even = (colours_in(image, net_cell(i)) for i in range(3))
    assert theme.GREEN in won and theme.RED not in won
    assert theme.RED in lost and theme.GREEN not in lost
    assert theme.MUTED in even and not {theme.GREEN, theme.RED} & even


def test_a_player_who_left_is_named_in_grey() -> None:
    image = ledger_picture.draw_ledger(sheet(row("Dana", 0), row("Oleg", 0, seated=False)))
    name = (ledger_picture.MARGIN, 0, ledger_picture.MARGIN + ledger_picture.NAME_WIDTH, 0)
    first, second = ((name[0], net_cell(i)[1], name[2], net_cell(i)[3]) for i in range(2))
    assert theme.TEXT in colours_in(image, first) and theme.TEXT not in colours_in(image, second)
    assert theme.MUTED in colours_in(image, second)


def test_each_row_and_the_more_line_add_height_and_the_png_stays_small() -> None:
    one = ledger_picture.draw_ledger(sheet(row("Dana", 0)))
    three = ledger_picture.draw_ledger(sheet(row("A", 1), row("B", -1), row("C", 0)))
    assert three.height - one.height == 2 * ledger_picture.ROW_HEIGHT
    more = ledger_picture.draw_ledger(sheet(row("Dana", 0), more="and 3 more players"))
    assert more.height - one.height == ledger_picture.MORE_HEIGHT
    assert one.width == three.width == ledger_picture.WIDTH
    rows = [row(f"Player {n}", n - 12) for n in range(25)]
    data = ledger_png(sheet(*rows, more="and 3 more players"))
    image = Image.open(BytesIO(data))
    assert image.format == "PNG" and image.mode == "P" and len(data) <= 150 * 1024


def test_any_name_draws_and_a_long_one_stays_in_its_column() -> None:
    names = ["🂡 Royal 😀🔥", "line\nbreak\ttab\x00nul", "\ud800 lone surrogate", "", "W" * 100]
    image = ledger_picture.draw_ledger(sheet(*(row(name, 0) for name in names)))
    # The long name is cut before the first figure column: the gap in front of it stays bare.
    last = net_cell(len(names) - 1)
    gap_left = ledger_picture.MARGIN + ledger_picture.NAME_WIDTH - 6
    gap = (gap_left, last[1], gap_left + 4, last[3])
    assert colours_in(image, gap) == {theme.PANEL}
