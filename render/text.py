"""The shipped fonts and safe text: any Unicode name draws, nothing crashes.

Fonts load from ``render/fonts`` only, never from the system. DejaVu Sans draws Latin, Greek
and Cyrillic; a run of characters it lacks is drawn with the first fallback that has them (Noto
Sans CJK for Chinese, Japanese and Korean, then Symbola for emoji, in monochrome), since Pillow
draws one font a call. Characters no shipped font has are drawn as DejaVu's ``.notdef`` box, a
visible placeholder; characters that draw nothing or break a line are removed or replaced first.

FreeType faces are not safe to share between threads, so each thread that renders gets its own
font objects (DejaVu's bytes are read once and shared; the fallbacks, far larger and rarely
needed, are opened by path, which FreeType maps rather than copies).
"""

from __future__ import annotations

import threading
import unicodedata
from functools import cache, lru_cache
from io import BytesIO
from pathlib import Path

from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).parent / "fonts"
REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"
# In the order tried, each in one weight (bold text falls back to them too); subsets made by
# tests/render/subset_fonts.py.
FALLBACKS = ("NotoSansCJK-Subset.otf", "Symbola-Subset.ttf")
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


def _face(file_name: str, size: int) -> Font:
    """A fallback font at ``size`` pixels, private to the calling thread."""
    faces: dict[tuple[str, int], Font] | None = getattr(_local, "faces", None)
    if faces is None:
        faces = _local.faces = {}
    loaded = faces.get((file_name, size))
    if loaded is None:
        loaded = ImageFont.truetype(
            str(FONT_DIR / file_name), size, layout_engine=ImageFont.Layout.BASIC
        )
        faces[(file_name, size)] = loaded
    return loaded


@cache
def _characters(file_name: str) -> frozenset[int]:
    """The code points a shipped font has a glyph for."""
    with TTFont(FONT_DIR / file_name, lazy=True) as loaded:
        return frozenset(loaded.getBestCmap())


@lru_cache(maxsize=4096)
def _runs(text: str, bold: bool = False) -> tuple[tuple[str | None, str], ...]:
    """``text`` cut where its font changes: each run with the fallback font that draws it, or
    None for DejaVu (which also draws, as boxes, what no font has)."""
    main = _characters(BOLD if bold else REGULAR)
    if all(ord(char) in main for char in text):
        return ((None, text),)
    cut: list[tuple[str | None, str]] = []
    for char in text:
        code = ord(char)
        chosen = None
        if code not in main:
            chosen = next((f for f in FALLBACKS if code in _characters(f)), None)
        if cut and cut[-1][0] == chosen:
            cut[-1] = (chosen, cut[-1][1] + char)
        else:
            cut.append((chosen, char))
    return tuple(cut)


def _length(text: str, size: int, bold: bool) -> float:
    """The width of ``text`` in pixels, each run in its own font."""
    return sum(
        (font(size, bold) if file_name is None else _face(file_name, size)).getlength(run)
        for file_name, run in _runs(text, bold)
    )


@lru_cache(maxsize=4096)
def clean(text: str) -> str:
    """``text`` made safe to draw on one line.

    Composed form (NFC), so "e" + combining acute draws as one "é"; line breaks and other
    controls become spaces; invisible format characters (joiners, direction marks, variation
    selectors) are dropped, since they would draw as boxes; lone surrogates become U+FFFD.
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
    if _length(text, size, bold) <= max_width:
        return text
    low, high = 0, len(text)
    # Longest prefix that still fits with the ellipsis after it.
    while low < high:
        middle = (low + high + 1) // 2
        if _length(text[:middle].rstrip() + ELLIPSIS, size, bold) <= max_width:
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
    width = round(_length(line, size, bold))
    height = size * 2
    mask = Image.new("L", (width + 2 * _MASK_PAD, height), 0)
    draw = ImageDraw.Draw(mask)
    cut = _runs(line, bold)
    if len(cut) == 1 and cut[0][0] is None:
        draw.text((_MASK_PAD, height // 2), line, font=face, fill=255, anchor="lm")
    else:
        # Every run on DejaVu's baseline, where the line would sit drawn in DejaVu alone.
        ascent, descent = face.getmetrics()
        baseline = height // 2 + (ascent - descent) / 2
        x: float = _MASK_PAD
        for file_name, run in cut:
            run_face = face if file_name is None else _face(file_name, size)
            draw.text((x, baseline), run, font=run_face, fill=255, anchor="ls")
            x += run_face.getlength(run)
    if max_width is not None and width > max_width:
        mask = mask.resize((max_width + 2 * _MASK_PAD, height), Image.Resampling.LANCZOS)
        width = max_width
    return mask, width
