"""A player's net chips over his last hands, as a line chart (/stats).

It takes plain data: the net of each hand, oldest first, and words the caller has already
written in the reader's language (render knows no language's number format beyond the digit
grouping it is given). The line is the running total from 0 before the first hand, green while
he is ahead and red while he is behind, on a grid whose steps are round numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import accumulate, pairwise
from typing import Final

from PIL import Image, ImageDraw

from render import theme
from render.text import draw_text

WIDTH: Final = 800
HEIGHT: Final = 380
MARGIN: Final = 24
TITLE_Y: Final = 34
SUBTITLE_Y: Final = 66
PLOT_TOP: Final = 100
PLOT_BOTTOM: Final = HEIGHT - 52
LABEL_WIDTH: Final = 84  # the y axis' figures, right-aligned before the plot
PLOT_LEFT: Final = MARGIN + LABEL_WIDTH + 8
PLOT_RIGHT: Final = WIDTH - MARGIN - 8
AXIS_Y: Final = HEIGHT - 26
LINE_WIDTH: Final = 3
# The plot is drawn this many times larger and scaled down: smooth lines without Pillow's
# anti-aliasing, which its line drawing lacks.
SCALE: Final = 2
TARGET_STEPS: Final = 4  # about this many grid steps between the lowest and highest value
PAD: Final = 0.08  # room above the highest value and below the lowest, as a part of their span


@dataclass(frozen=True, slots=True)
class NetChart:
    """``nets``: the net of each hand, oldest first (the chart draws their running total).
    ``axis`` is the caption under the plot ("Last 57 hands"); ``empty`` is drawn instead of a
    line when there are no hands; ``thousands`` groups the digits of the axis' figures."""

    title: str
    subtitle: str
    nets: tuple[int, ...]
    axis: str = ""
    empty: str = ""
    thousands: str = ","


def running_total(nets: tuple[int, ...]) -> list[int]:
    """The chart's points: 0 before the first hand, then the total after each."""
    return [0, *accumulate(nets)]


def scale(low: int, high: int) -> tuple[float, float, list[int]]:
    """The plot's range for values from ``low`` to ``high`` (0 always in it), a little wider
    than they are, and the round values of its grid lines within it."""
    low, high = min(low, 0), max(high, 0)
    span = max(high - low, 1)
    raw = span / TARGET_STEPS
    magnitude = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    # The round step that cuts the span into the number of steps nearest the target.
    step = min((m * magnitude for m in (1, 2, 5, 10)), key=lambda s: abs(span / s - TARGET_STEPS))
    bottom, top = low - span * PAD, high + span * PAD
    first = math.ceil(bottom / step) * step
    return bottom, top, list(range(first, math.floor(top) + 1, step))


def figure(value: int, thousands: str) -> str:
    """An axis figure with its sign: "+1,500", "-20", "0"."""
    text = f"{abs(value):,}".replace(",", thousands)
    return "0" if value == 0 else ("+" if value > 0 else "-") + text


def draw_chart(chart: NetChart) -> Image.Image:
    canvas = Image.new("RGB", (WIDTH, HEIGHT), theme.PANEL)
    inner = WIDTH - 2 * MARGIN
    draw_text(canvas, (MARGIN, TITLE_Y), chart.title, 24, theme.TEXT, bold=True, max_width=inner)
    draw_text(
        canvas, (MARGIN, SUBTITLE_Y), chart.subtitle, 16, theme.MUTED, max_width=inner, squeeze=True
    )
    points = running_total(chart.nets)
    low, high, values = scale(min(points), max(points))

    def y_of(value: float) -> float:
        return PLOT_BOTTOM - (value - low) / (high - low) * (PLOT_BOTTOM - PLOT_TOP)

    def x_of(index: float) -> float:
        return PLOT_LEFT + index / max(len(points) - 1, 1) * (PLOT_RIGHT - PLOT_LEFT)

    plot = Image.new("RGB", (WIDTH * SCALE, HEIGHT * SCALE), theme.PANEL)
    pen = ImageDraw.Draw(plot)
    for value in values:
        y = y_of(value) * SCALE
        colour, width = (theme.PANEL_EDGE, 2) if value == 0 else (theme.PANEL_DIM, 1)
        pen.line(
            [(PLOT_LEFT * SCALE, y), (PLOT_RIGHT * SCALE, y)], fill=colour, width=width * SCALE
        )
    if chart.nets:
        _draw_line(pen, [(x_of(i), y_of(v), v) for i, v in enumerate(points)], y_of(0))
        end_x, end_y = x_of(len(points) - 1) * SCALE, y_of(points[-1]) * SCALE
        radius = (LINE_WIDTH + 2) * SCALE
        pen.ellipse(
            [(end_x - radius, end_y - radius), (end_x + radius, end_y + radius)],
            fill=net_colour(points[-1]),
        )
    # Only the plot's band is scaled down and pasted: the titles above stay as drawn.
    band = (0, (PLOT_TOP - 12) * SCALE, WIDTH * SCALE, (PLOT_BOTTOM + 12) * SCALE)
    small = plot.crop(band).resize((WIDTH, PLOT_BOTTOM - PLOT_TOP + 24), Image.Resampling.LANCZOS)
    canvas.paste(small, (0, PLOT_TOP - 12))
    for value in values:
        draw_text(
            canvas,
            (PLOT_LEFT - 10, round(y_of(value))),
            figure(value, chart.thousands),
            14,
            theme.TEXT if value == 0 else theme.MUTED,
            anchor="rm",
            max_width=LABEL_WIDTH,
            squeeze=True,
        )
    if not chart.nets and chart.empty:
        middle = (PLOT_LEFT + PLOT_RIGHT) // 2, (PLOT_TOP + PLOT_BOTTOM) // 2 - 24
        draw_text(canvas, middle, chart.empty, 18, theme.MUTED, anchor="mm", max_width=inner)
    if chart.axis:
        draw_text(
            canvas,
            ((PLOT_LEFT + PLOT_RIGHT) // 2, AXIS_Y),
            chart.axis,
            15,
            theme.MUTED,
            anchor="mm",
            max_width=PLOT_RIGHT - PLOT_LEFT,
            squeeze=True,
        )
    return canvas


def _draw_line(
    pen: ImageDraw.ImageDraw, points: list[tuple[float, float, int]], zero_y: float
) -> None:
    """The running total, each stretch in the colour of its side of zero (a stretch that
    crosses zero changes colour where it crosses)."""
    width = LINE_WIDTH * SCALE
    for (x1, y1, v1), (x2, y2, v2) in pairwise(points):
        if v1 * v2 < 0:
            cross = x1 + (x2 - x1) * v1 / (v1 - v2)
            pieces = [((x1, y1), (cross, zero_y), v1), ((cross, zero_y), (x2, y2), v2)]
        else:
            pieces = [((x1, y1), (x2, y2), v2 if v2 else v1)]
        for start, end, value in pieces:
            pen.line(
                [(start[0] * SCALE, start[1] * SCALE), (end[0] * SCALE, end[1] * SCALE)],
                fill=net_colour(value),
                width=width,
                joint="curve",
            )
            # Round ends, so the stretches join without gaps at any angle.
            for x, y in (start, end):
                r = width / 2
                pen.ellipse(
                    [(x * SCALE - r, y * SCALE - r), (x * SCALE + r, y * SCALE + r)],
                    fill=net_colour(value),
                )


def net_colour(value: int) -> theme.RGB:
    return theme.GREEN if value > 0 else theme.RED if value < 0 else theme.MUTED
