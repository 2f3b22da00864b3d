"""render.png: bands compressed apart and reused still make one valid PNG of the same pixels."""

from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image

from render import png, theme


def _decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()  # checks every chunk's CRC and inflates the whole stream
    return image


def _idat(data: bytes) -> bytes:
    """The IDAT payload, found by walking the chunks."""
    at, found = len(png.SIGNATURE), b""
    while at < len(data):
        size = int.from_bytes(data[at : at + 4], "big")
        if data[at + 4 : at + 8] == b"IDAT":
            found += data[at + 8 : at + 8 + size]
        at += 12 + size
    return found


def _mapped(image: Image.Image) -> bytes:
    """Each pixel's palette index, as Pillow maps it."""
    return image.quantize(palette=png._palette_image(), dither=Image.Dither.NONE).tobytes()


def _picture(width: int, height: int, seed: int) -> Image.Image:
    """Blocks of palette colours on the felt: runs to compress, rows that differ."""
    rng = random.Random(seed)
    image = Image.new("RGB", (width, height), theme.FELT)
    for _ in range(40):
        x, y = rng.randrange(width), rng.randrange(height)
        colour = rng.choice(theme.PALETTE)
        image.paste(colour, (x, y, min(width, x + rng.randrange(1, 60)), min(height, y + 9)))
    return image


@pytest.mark.parametrize(("width", "height"), [(680, 620), (300, 17), (5, 1), (33, 16)])
def test_the_png_holds_exactly_the_palette_pixels(width: int, height: int) -> None:
    image = _picture(width, height, seed=width * height)
    data = png.encode(image)
    decoded = _decoded(data)
    assert data.startswith(png.SIGNATURE)
    assert decoded.mode == "P" and decoded.size == (width, height)
    assert decoded.tobytes() == _mapped(image)
    # One zlib stream whose checksum zlib itself accepts.
    assert len(zlib.decompress(_idat(data))) == height * (width + 1)


def test_a_band_seen_before_is_reused_and_the_next_picture_is_still_right() -> None:
    first = _picture(200, 64, seed=1)
    second = first.copy()
    second.paste(theme.GOLD, (0, 40, 200, 44))  # only the third of four 16-row bands changes
    png.encode(first)
    before = (png.BANDS.hits, png.BANDS.misses)
    data = png.encode(second)
    assert (png.BANDS.hits - before[0], png.BANDS.misses - before[1]) == (3, 1)
    assert _decoded(data).tobytes() == _mapped(second)


def test_the_least_recently_used_band_goes_first() -> None:
    cache = png.BandCache(2)
    cache.deflated(b"a" * 100)
    cache.deflated(b"b" * 100)
    cache.deflated(b"a" * 100)  # a is now the newer
    cache.deflated(b"c" * 100)  # b goes
    hits = cache.hits
    cache.deflated(b"a" * 100)
    assert cache.hits == hits + 1
    cache.deflated(b"b" * 100)
    assert (cache.hits, cache.misses) == (hits + 1, 4)
    assert (
        zlib.decompress(
            b"\x78\x01"
            + cache.deflated(b"c" * 100)[0]
            + png.FINAL_EMPTY_BLOCK
            + (zlib.adler32(b"c" * 100)).to_bytes(4, "big")
        )
        == b"c" * 100
    )


@pytest.mark.parametrize("seed", range(20))
def test_checksums_combine_as_of_the_whole(seed: int) -> None:
    rng = random.Random(seed)
    first = rng.randbytes(rng.randrange(0, 70_000))
    second = rng.randbytes(rng.randrange(0, 70_000))
    combined = png.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(first + second)
