"""The shipped DejaVu Sans fonts and safe text: any Unicode name draws, nothing crashes.

Fonts load from ``render/fonts`` only, never from the system. FreeType faces are not safe to share
between threads, so each thread that renders gets its own font objects (the font files' bytes
are read once and shared). Characters DejaVu lacks are drawn as its ``.notdef`` box, a visible
placeholder; characters that draw nothing or break a line are removed or replaced first.
"""

from __future__ import annotations

import threading
import unicodedata
from functools import cache, lru_cache
from io import BytesIO
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).parent / "fonts"
REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"
ELLIPSIS = "…"
# Shown for characters that can't be drawn as themselves (lone surrogates).
PLACEHOLDER = "\ufffd"
# Text may be narrowed to this fraction of its width before it is cut: a long hand description
# ("a full house, Deuces full of Queens") reads better a little condensed than cut short.
MIN_SQUEEZE = 0.72

Font = ImageFont.FreeTypeFont

_local = threading.local()


@cache
def _font_bytes(file_name: str) -> bytes:
    return (FONT_DIR / file_name).read_bytes()


def font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans (Bold) at ``size`` pixels, private to the calling thread."""
    fonts: dict[tuple[int, bool], Font] | None = getattr(_local, "fonts", None)
    if fonts is None:
        fonts = _local.fonts = {}
    key = (size, bold)
    loaded = fonts.get(key)
    if loaded is None:
        data = BytesIO(_font_bytes(BOLD if bold else REGULAR))
        # BASIC layout: no shaping library needed, the same pixels on every machine.
        loaded = ImageFont.truetype(data, size, layout_engine=ImageFont.Layout.BASIC)
        fonts[key] = loaded
    return loaded


@lru_cache(maxsize=4096)
def clean(text: str) -> str:
    """``text`` made safe to draw on one line.

    Composed form (NFC), so "e" + combining acute draws as one "é"; line breaks and other
    controls become spaces; invisible format characters (joiners, direction marks, variation
    selectors) are dropped, since DejaVu would draw them as boxes; lone surrogates become U+FFFD.
    """
    text = unicodedata.normalize("NFC", text)
    out: list[str] = []
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Zl", "Zp"):
            out.append(" ")
        elif category == "Cf" or _is_variation_selector(char):
            continue
        elif category == "Cs":
            out.append(PLACEHOLDER)
        else:
            out.append(char)
    return " ".join("".join(out).split())


def _is_variation_selector(char: str) -> bool:
    code = ord(char)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


@lru_cache(maxsize=4096)
def fit(text: str, size: int, bold: bool, max_width: int) -> str:
    """``text`` cleaned and, if wider than ``max_width`` pixels, cut with an ellipsis."""
    text = clean(text)
    face = font(size, bold)
    if face.getlength(text) <= max_width:
        return text
    low, high = 0, len(text)
    # Longest prefix that still fits with the ellipsis after it.
    while low < high:
        middle = (low + high + 1) // 2
        if face.getlength(text[:middle].rstrip() + ELLIPSIS) <= max_width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS


def draw_text(
    canvas: Image.Image,
    xy: tuple[int, int],
    text: str,
    size: int,
    fill: tuple[int, int, int],
    *,
    bold: bool = False,
    anchor: str = "lm",
    max_width: int | None = None,
    squeeze: bool = False,
) -> int:
    """Draw one line of ``text`` anchored at ``xy`` ("lm", "mm" or "rm"); return its width.

    Wider than ``max_width``, it is narrowed (with ``squeeze``) down to ``MIN_SQUEEZE`` of its
    width, then cut with an ellipsis.
    """
    mask, width = _text_mask(text, size, bold, max_width, squeeze)
    x, y = xy
    left = {"l": x, "m": x - width // 2, "r": x - width}[anchor[0]]
    canvas.paste(fill, (left - _MASK_PAD, y - mask.height // 2), mask)
    return width


_MASK_PAD = 1


@lru_cache(maxsize=2048)
def _text_mask(
    text: str, size: int, bold: bool, max_width: int | None, squeeze: bool
) -> tuple[Image.Image, int]:
    """The line as an L mask, vertically centred, and its width. Rasterising is most of the
    cost of a picture and names and labels repeat from one picture to the next, so masks are
    kept; they are only ever read."""
    face = font(size, bold)
    if max_width is None:
        line = clean(text)
    else:
        line = fit(text, size, bold, round(max_width / MIN_SQUEEZE) if squeeze else max_width)
    width = round(face.getlength(line))
    height = size * 2
    mask = Image.new("L", (width + 2 * _MASK_PAD, height), 0)
    ImageDraw.Draw(mask).text((_MASK_PAD, height // 2), line, font=face, fill=255, anchor="lm")
    if max_width is not None and width > max_width:
        mask = mask.resize((max_width + 2 * _MASK_PAD, height), Image.Resampling.LANCZOS)
        width = max_width
    return mask, width
