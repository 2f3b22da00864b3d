"""Playing cards drawn with Pillow: faces, backs and small icons, each made once and cached.

A face is drawn at four times its size and scaled down, which gives smooth corners and glyphs.
The rank and a small suit sit in the top-left corner, inside the strip that stays visible when
cards overlap in a row; a large suit fills the rest of the card for when it is seen whole.
Cached images are shared between threads and must only ever be read (pasted from).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.cards import RANK_CHARS, Card
from render import theme
from render.text import font

SUPERSAMPLE = 4
DIM = theme.DIM


@dataclass(frozen=True, slots=True)
class CardSize:
    """A card's size in pixels; ``index_width`` is the overlapped strip that must show the index."""

    width: int
    height: int
    index_width: int

    @property
    def radius(self) -> int:
        return max(3, round(self.width * 0.12))


TABLE_CARD = CardSize(48, 68, 26)
SHOWN_CARD = CardSize(48, 68, 23)
PRIVATE_CARD = CardSize(96, 134, 60)


def rank_text(card: Card) -> str:
    return "10" if card.rank == 10 else RANK_CHARS[card.rank - 2]


def _blank(size: CardSize, fill: theme.RGB, edge: theme.RGB) -> tuple[Image.Image, int]:
    """A big RGBA rounded card and the supersampling factor to shrink it by."""
    s = SUPERSAMPLE
    image = Image.new("RGBA", (size.width * s, size.height * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (0, 0, size.width * s - 1, size.height * s - 1),
        radius=size.radius * s,
        fill=fill,
        outline=edge,
        width=s,
    )
    return image, s


def _glyph_mask(text: str, px: int, bold: bool, max_width: int) -> Image.Image:
    """``text`` as an L mask of height ``px``-ish, squeezed sideways to at most ``max_width``."""
    face = font(px, bold)
    left, top, right, bottom = face.getbbox(text)
    mask = Image.new("L", (int(right - left), int(bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255)
    if mask.width > max_width:
        # "10" is the one rank wider than the index strip: narrow it rather than shrink it.
        mask = mask.resize((max_width, mask.height), Image.Resampling.LANCZOS)
    return mask


@lru_cache(maxsize=1024)
def face(card: Card, size: CardSize, four_colour: bool, dim: bool = False) -> Image.Image:
    """The face of ``card``, RGBA with transparent corners; ``dim`` darkens it toward a panel."""
    if dim:
        bright = face(card, size, four_colour)
        shaded = Image.blend(bright, Image.new("RGBA", bright.size, (*theme.PANEL, 255)), DIM)
        shaded.putalpha(bright.getchannel("A"))
        return shaded
    image, s = _blank(size, theme.CARD, theme.CARD_EDGE)
    colour = theme.suit_colour(card.suit, four_colour)
    pad = round(size.width * 0.08) * s
    index_width = size.index_width * s - pad - s
    rank = _glyph_mask(rank_text(card), round(size.height * 0.34) * s, True, index_width)
    small_suit = _glyph_mask(card.suit.symbol, round(size.height * 0.25) * s, False, index_width)
    top = round(size.height * 0.07) * s
    rank_x = pad + max(0, (index_width - rank.width) // 2)
    image.paste(colour, (rank_x, top), rank)
    suit_top = top + rank.height + round(size.height * 0.05) * s
    suit_x = pad + max(0, (index_width - small_suit.width) // 2)
    image.paste(colour, (suit_x, suit_top), small_suit)
    big = _glyph_mask(card.suit.symbol, round(size.height * 0.46) * s, False, size.width * s)
    big_x = size.width * s - big.width - round(size.width * 0.1) * s
    big_y = size.height * s - big.height - round(size.height * 0.08) * s
    image.paste(colour, (big_x, big_y), big)
    return image.resize((size.width, size.height), Image.Resampling.LANCZOS)


@lru_cache(maxsize=8)
def back(size: CardSize) -> Image.Image:
    """A card's back: a blue lattice inside a white border."""
    image, s = _blank(size, theme.CARD, theme.CARD_EDGE)
    draw = ImageDraw.Draw(image)
    inset = max(3, round(size.width * 0.09)) * s
    box = (inset, inset, size.width * s - 1 - inset, size.height * s - 1 - inset)
    draw.rounded_rectangle(box, radius=max(1, size.radius - 2) * s, fill=theme.BACK)
    # A diagonal lattice, clipped to the inner panel by drawing it on a separate layer.
    lattice = Image.new("L", image.size, 0)
    lattice_draw = ImageDraw.Draw(lattice)
    step = max(6, size.width // 6) * s
    span = image.width + image.height
    for offset in range(-span, span, step):
        lattice_draw.line((offset, 0, offset + span, span), fill=255, width=s)
        lattice_draw.line((offset, span, offset + span, 0), fill=255, width=s)
    panel = Image.new("L", image.size, 0)
    ImageDraw.Draw(panel).rounded_rectangle(box, radius=max(1, size.radius - 2) * s, fill=255)
    inner = Image.new("L", image.size, 0)
    inner.paste(lattice, (0, 0), panel)
    image.paste(theme.BACK_LINE, (0, 0), inner)
    return image.resize((size.width, size.height), Image.Resampling.LANCZOS)


@lru_cache(maxsize=8)
def disc(diameter: int, fill: theme.RGB, edge: theme.RGB, label: str = "") -> Image.Image:
    """A round token: the dealer button (with "D") or a chip."""
    s = SUPERSAMPLE
    image = Image.new("RGBA", (diameter * s, diameter * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((0, 0, diameter * s - 1, diameter * s - 1), fill=fill, outline=edge, width=2 * s)
    if label:
        draw.text(
            (diameter * s / 2, diameter * s / 2),
            label,
            font=font(round(diameter * 0.62) * s, True),
            fill=edge,
            anchor="mm",
        )
    else:
        # A chip's edge marks.
        inner = diameter * s * 0.28
        draw.ellipse(
            (inner, inner, diameter * s - 1 - inner, diameter * s - 1 - inner),
            outline=edge,
            width=s * 2,
        )
    return image.resize((diameter, diameter), Image.Resampling.LANCZOS)


@lru_cache(maxsize=4)
def clock(diameter: int, colour: theme.RGB) -> Image.Image:
    """A small clock face for the actor's time left (DejaVu has no stopwatch glyph)."""
    s = SUPERSAMPLE
    d = diameter * s
    image = Image.new("RGBA", (d, d), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((s, s, d - 1 - s, d - 1 - s), outline=colour, width=2 * s)
    centre = d / 2
    draw.line((centre, centre, centre, d * 0.22), fill=colour, width=2 * s)
    draw.line((centre, centre, d * 0.72, centre), fill=colour, width=2 * s)
    return image.resize((diameter, diameter), Image.Resampling.LANCZOS)
