"""RGB picture to PNG bytes, through the fixed palette of ``render.theme``."""

from __future__ import annotations

from functools import cache
from io import BytesIO

from PIL import Image

from render import theme


@cache
def _palette_image() -> Image.Image:
    image = Image.new("P", (1, 1))
    flat = [channel for colour in theme.PALETTE for channel in colour]
    # Pad with the background so no unused entry is a stray colour the mapping could pick.
    flat += list(theme.BACKGROUND) * (256 - len(theme.PALETTE))
    image.putpalette(flat)
    return image


def encode(image: Image.Image) -> bytes:
    """PNG bytes of an RGB ``image``: each pixel mapped to its nearest palette colour."""
    indexed = image.quantize(palette=_palette_image(), dither=Image.Dither.NONE)
    out = BytesIO()
    indexed.save(out, "PNG", compress_level=1)
    return out.getvalue()
