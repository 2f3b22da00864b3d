"""The net chart of /stats: the running total's line in the colour of its side of zero, round
grid values with zero among them, and any words drawn."""

from __future__ import annotations

import itertools
from io import BytesIO
from typing import cast

from PIL import Image

from render import NetChart, net_chart_png, theme
from render import chart as chart_picture


def colours_in(image: Image.Image, box: tuple[int, int, int, int]) -> set[theme.RGB]:
    return {
        cast(theme.RGB, colour) for _, colour in image.crop(box).getcolors(maxcolors=65536) or []
    }


def plot(image: Image.Image, top: int, bottom: int) -> set[theme.RGB]:
    return colours_in(image, (chart_picture.PLOT_LEFT, top, chart_picture.PLOT_RIGHT, bottom))


def test_the_points_are_the_running_total_from_zero() -> None:
    assert chart_picture.running_total((5, -20, 7)) == [0, 5, -15, -8]
    assert chart_picture.running_total(()) == [0]


def test_the_grid_has_round_values_zero_among_them_and_covers_every_point() -> None:
    for low, high in ((0, 0), (-37, 120), (-5000, 0), (3, 3), (0, 1_234_567), (-4, 850)):
        bottom, top, values = chart_picture.scale(low, high)
        assert bottom < min(low, 0) and top > max(high, 0)
        assert 0 in values and values == sorted(values)
        assert all(bottom <= value <= top for value in values)
        steps = {b - a for a, b in itertools.pairwise(values)}
        assert len(steps) <= 1
        for step in steps:
            digits = str(step).rstrip("0")
            assert digits in ("1", "2", "5"), step
        assert len(values) <= chart_picture.TARGET_STEPS + 3


def test_axis_figures_carry_their_sign_and_the_languages_grouping() -> None:
    assert chart_picture.figure(1500, ",") == "+1,500"
    assert chart_picture.figure(-1500, "\xa0") == "-1\xa0500"
    assert chart_picture.figure(0, ",") == "0"


def test_ahead_is_green_behind_is_red() -> None:
    up = chart_picture.draw_chart(NetChart("Ann", "", (10, 20, 5, 30)))
    down = chart_picture.draw_chart(NetChart("Ann", "", (-10, -20, -5, -30)))
    top, bottom = chart_picture.PLOT_TOP, chart_picture.PLOT_BOTTOM
    assert theme.GREEN in plot(up, top, bottom) and theme.RED not in plot(up, top, bottom)
    assert theme.RED in plot(down, top, bottom) and theme.GREEN not in plot(down, top, bottom)
    # Up, then down below zero: the line changes colour where it crosses.
    both = plot(chart_picture.draw_chart(NetChart("Ann", "", (50, -100))), top, bottom)
    assert {theme.GREEN, theme.RED} <= both


def test_no_hands_draw_the_empty_words_and_no_line() -> None:
    empty = chart_picture.draw_chart(NetChart("Ann", "Season 1", (), empty="No hands yet"))
    colours = plot(empty, chart_picture.PLOT_TOP, chart_picture.PLOT_BOTTOM)
    assert not {theme.GREEN, theme.RED} & colours and theme.MUTED in colours
    blank = chart_picture.draw_chart(NetChart("Ann", "Season 1", ()))
    assert empty.tobytes() != blank.tobytes()


def test_any_words_draw_and_the_png_is_small() -> None:
    words = ["🂡 Royal 😀🔥", "line\nbreak\ttab\x00nul", "\ud800 lone surrogate", "", "W" * 200]
    nets = tuple((-1) ** n * n * 37 for n in range(200))
    for text in words:
        image = chart_picture.draw_chart(NetChart(text, text, nets, axis=text, empty=text))
        assert image.size == (chart_picture.WIDTH, chart_picture.HEIGHT)
    data = net_chart_png(NetChart("Ann", "Season 1 · 200 hands", nets, axis="Last 200 hands"))
    image = Image.open(BytesIO(data))
    assert image.format == "PNG" and image.mode == "P" and len(data) <= 100 * 1024
