"""The hand rankings picture for /help: every category, strongest first, with example cards.

Two columns of five: the rank's number, five cards, the category's name and the example named
as a showdown names it (so the words match what the table says). The examples use all four
suits, so the four-colour deck shows its colours.
"""

from __future__ import annotations

from typing import Final

from PIL import Image

from engine.cards import parse_cards
from render import cards, theme
from render.text import draw_text
from words.hands import describe
from words.pictures import Words

# Strongest first, one per category (the order of Words.categories).
EXAMPLES: Final = tuple(
    parse_cards(text)
    for text in (
        "As Ks Qs Js Ts",
        "9h 8h 7h 6h 5h",
        "Qc Qd Qh Qs 7d",
        "Kh Kd Ks 4c 4h",
        "Ad Jd 8d 6d 3d",
        "Tc 9d 8s 7h 6c",
        "7c 7h 7s Kd 2c",
        "Jh Jc 5d 5s Ah",
        "Ts Td Ac 8h 4d",
        "Ah Qd 9c 6s 3h",
    )
)

MARGIN: Final = 20
TITLE_HEIGHT: Final = 52
NOTE_HEIGHT: Final = 40
ROWS: Final = 5
COLUMNS: Final = 2
ROW_HEIGHT: Final = 86
NUMBER_WIDTH: Final = 40
CARD_GAP: Final = 4
TEXT_GAP: Final = 14
TEXT_WIDTH: Final = 230
COLUMN_GAP: Final = 24


def draw_rankings(text: Words, *, four_colour: bool) -> Image.Image:
    if len(text.categories) != len(EXAMPLES):
        raise ValueError(f"{len(EXAMPLES)} hand categories to name, not {len(text.categories)}")
    size = cards.TABLE_CARD
    cards_width = 5 * size.width + 4 * CARD_GAP
    column_width = NUMBER_WIDTH + cards_width + TEXT_GAP + TEXT_WIDTH
    width = 2 * MARGIN + COLUMNS * column_width + (COLUMNS - 1) * COLUMN_GAP
    height = TITLE_HEIGHT + ROWS * ROW_HEIGHT + NOTE_HEIGHT
    canvas = Image.new("RGB", (width, height), theme.PANEL)
    draw_text(
        canvas,
        (MARGIN, TITLE_HEIGHT // 2 + 2),
        text.rankings,
        24,
        theme.TEXT,
        bold=True,
        max_width=width - 2 * MARGIN,
    )
    for index, (name, example) in enumerate(zip(text.categories, EXAMPLES, strict=True)):
        column, row = divmod(index, ROWS)
        left = MARGIN + column * (column_width + COLUMN_GAP)
        top = TITLE_HEIGHT + row * ROW_HEIGHT
        middle = top + size.height // 2
        draw_text(canvas, (left, middle), f"{index + 1}.", 20, theme.GOLD, bold=True, anchor="lm")
        for position, card in enumerate(example):
            face = cards.face(card, size, four_colour)
            x = left + NUMBER_WIDTH + position * (size.width + CARD_GAP)
            canvas.paste(face, (x, top), face)
        text_left = left + NUMBER_WIDTH + cards_width + TEXT_GAP
        draw_text(
            canvas,
            (text_left, middle - 12),
            name,
            20,
            theme.TEXT,
            bold=True,
            anchor="lm",
            max_width=TEXT_WIDTH,
            squeeze=True,
        )
        draw_text(
            canvas,
            (text_left, middle + 14),
            describe(example, text.hands) or "",
            15,
            theme.MUTED,
            anchor="lm",
            max_width=TEXT_WIDTH,
            squeeze=True,
        )
    draw_text(
        canvas,
        (MARGIN, height - NOTE_HEIGHT // 2 - 4),
        text.rankings_note,
        17,
        theme.MUTED,
        max_width=width - 2 * MARGIN,
        squeeze=True,
    )
    return canvas
