"""Colours of every picture, and the fixed 256-colour palette the PNGs are written with.

Pictures are drawn in RGB and then mapped onto one fixed palette: a palette PNG is smaller than
an RGB one and faster to encode, for the pictures' time budget (docs/performance.md). The palette is
every theme colour plus, for each pair of colours that meet on screen (text on a panel, a suit on
a card, a card's edge on the felt), a ramp between them, so anti-aliased edges keep their shades.
"""

from __future__ import annotations

from typing import Final

from engine.cards import Suit

RGB = tuple[int, int, int]

BACKGROUND: Final[RGB] = (23, 27, 34)
RAIL: Final[RGB] = (84, 56, 36)
RAIL_LIGHT: Final[RGB] = (122, 86, 56)
FELT: Final[RGB] = (29, 104, 63)
FELT_LINE: Final[RGB] = (48, 130, 84)
PANEL: Final[RGB] = (19, 23, 30)
PANEL_EDGE: Final[RGB] = (74, 82, 96)
PANEL_DIM: Final[RGB] = (40, 44, 51)
PILL: Final[RGB] = (11, 14, 19)

TEXT: Final[RGB] = (242, 244, 247)
MUTED: Final[RGB] = (152, 160, 172)
GOLD: Final[RGB] = (244, 194, 74)
RED: Final[RGB] = (232, 76, 76)
GREEN: Final[RGB] = (110, 216, 124)

CARD: Final[RGB] = (252, 252, 250)
CARD_EDGE: Final[RGB] = (150, 155, 163)
BACK: Final[RGB] = (36, 62, 148)
BACK_LINE: Final[RGB] = (78, 108, 196)

SUIT_BLACK: Final[RGB] = (22, 22, 26)
SUIT_RED: Final[RGB] = (208, 30, 45)
SUIT_BLUE: Final[RGB] = (26, 84, 208)
SUIT_GREEN: Final[RGB] = (20, 132, 58)

# The usual two-colour deck, and the four-colour one poker clients offer.
TWO_COLOUR: Final[dict[Suit, RGB]] = {
    Suit.CLUBS: SUIT_BLACK,
    Suit.DIAMONDS: SUIT_RED,
    Suit.HEARTS: SUIT_RED,
    Suit.SPADES: SUIT_BLACK,
}
FOUR_COLOUR: Final[dict[Suit, RGB]] = {
    Suit.CLUBS: SUIT_GREEN,
    Suit.DIAMONDS: SUIT_BLUE,
    Suit.HEARTS: SUIT_RED,
    Suit.SPADES: SUIT_BLACK,
}


# How far a card that doesn't play at showdown is darkened toward the panel.
DIM: Final = 0.5


def dimmed(colour: RGB) -> RGB:
    r, g, b = (round(c * (1 - DIM) + p * DIM) for c, p in zip(colour, PANEL, strict=True))
    return r, g, b


def suit_colour(suit: Suit, four_colour: bool) -> RGB:
    return (FOUR_COLOUR if four_colour else TWO_COLOUR)[suit]


_TEXT_COLOURS = (TEXT, MUTED, GOLD, RED, GREEN)
_TEXT_GROUNDS = (PANEL, PANEL_DIM, FELT, PILL, BACKGROUND)

# (foreground, background, shades between them)
_RAMPS: Final[tuple[tuple[RGB, RGB, int], ...]] = (
    *((fg, bg, 4) for fg in _TEXT_COLOURS for bg in _TEXT_GROUNDS),
    *((suit, CARD, 6) for suit in (SUIT_BLACK, SUIT_RED, SUIT_BLUE, SUIT_GREEN)),
    (CARD, PANEL, 4),
    (CARD, PANEL_DIM, 3),
    (CARD, FELT, 4),
    (CARD, PILL, 3),
    (CARD_EDGE, CARD, 3),
    (CARD_EDGE, PANEL, 3),
    (CARD_EDGE, FELT, 3),
    (BACK, CARD, 3),
    (BACK, BACK_LINE, 2),
    (BACK, PANEL, 2),
    (TEXT, BACK, 4),
    (PANEL_EDGE, PANEL, 3),
    (PANEL_EDGE, FELT, 3),
    (PANEL_EDGE, BACKGROUND, 2),
    (PANEL, FELT, 3),
    (PANEL_DIM, FELT, 3),
    (PILL, FELT, 3),
    (GOLD, PANEL, 3),
    (GOLD, FELT, 3),
    (RED, FELT, 3),
    (RED, CARD, 3),
    (RAIL, BACKGROUND, 3),
    (RAIL, FELT, 3),
    (RAIL_LIGHT, RAIL, 2),
    (RAIL_LIGHT, FELT, 2),
    (FELT_LINE, FELT, 2),
    (SUIT_BLACK, FELT, 2),
    *((dimmed(suit), dimmed(CARD), 3) for suit in (SUIT_BLACK, SUIT_RED, SUIT_BLUE, SUIT_GREEN)),
    (dimmed(CARD), PANEL, 2),
    (dimmed(CARD_EDGE), dimmed(CARD), 1),
)


def _palette() -> tuple[RGB, ...]:
    colours: dict[RGB, None] = {}  # ordered set: the palette must not depend on hash order
    for fg, bg, shades in _RAMPS:
        colours[fg] = None
        colours[bg] = None
        for step in range(1, shades + 1):
            t = step / (shades + 1)
            shade = tuple(round(a * (1 - t) + b * t) for a, b in zip(fg, bg, strict=True))
            colours[(shade[0], shade[1], shade[2])] = None
    if len(colours) > 256:
        raise AssertionError(f"the palette has {len(colours)} colours; PNG allows 256")
    return tuple(colours)


PALETTE: Final[tuple[RGB, ...]] = _palette()
