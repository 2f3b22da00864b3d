"""RGB picture to PNG bytes, through the fixed palette of ``render.theme``.

Deflate is most of a picture's cost, and most of a picture is the same as one drawn before: the
felt and rail every table shares, and the seats and corners that did not change since that
table's last picture. So the image data is compressed in bands
of rows, each band on its own (a fresh compressor, ended byte-aligned with a sync flush), and a
band seen recently reuses its compressed bytes. The bands join into one valid zlib stream: no
band refers back into another, an empty final block ends it, and the checksum covers it all.
Over whole hands most bands are reused, for a few per cent more bytes (docs/performance.md).

Mapping RGB to the palette is most of what is left: a picture drawn over a known background (the
table's felt) maps only the boxes drawn in and takes the rest from the background mapped once.
"""

from __future__ import annotations

import hashlib
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from PIL import Image

from render import theme

BAND_ROWS: Final = 16
# Bands kept, under a digest of their rows: about 1 KB each, so at most ~16 MB, enough for the
# felt every table shares plus the recent bands of a hundred busy tables (fewer reuse less:
# docs/performance.md).
KEPT_BANDS: Final = 16_384
SIGNATURE: Final = b"\x89PNG\r\n\x1a\n"
ZLIB_HEADER: Final = b"\x78\x01"  # deflate, 32 KB window, fastest level
FINAL_EMPTY_BLOCK: Final = b"\x03\x00"  # BFINAL with fixed codes and only end-of-block


def palette_image() -> Image.Image:
    """A one-pixel image holding the palette, for ``Image.quantize`` (the GIF replays)."""
    return _palette_image()


@cache
def _palette_image() -> Image.Image:
    image = Image.new("P", (1, 1))
    image.putpalette(_palette_bytes())
    return image


@cache
def _palette_bytes() -> bytes:
    flat = [channel for colour in theme.PALETTE for channel in colour]
    # Pad with the background so no unused entry is a stray colour the mapping could pick.
    flat += list(theme.BACKGROUND) * (256 - len(theme.PALETTE))
    return bytes(flat)


class BandCache:
    """Compressed bands by a digest of their bytes, the least recently used dropped first.
    Pictures may be drawn in several threads at once: one lock guards the order."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.hits = self.misses = 0
        self._kept: OrderedDict[bytes, tuple[bytes, int]] = OrderedDict()
        self._lock = threading.Lock()

    def deflated(self, band: bytes | memoryview) -> tuple[bytes, int]:
        """``band`` as raw deflate blocks that end on a byte boundary and are not final, and
        its Adler-32 checksum."""
        # A content address, not a secret: SHA-1 is the fastest digest here (the CPU does it).
        key = hashlib.sha1(band, usedforsecurity=False).digest()
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self.hits += 1
                self._kept.move_to_end(key)
                return found
            self.misses += 1
        kept = _deflated(band)
        with self._lock:
            self._kept[key] = kept
            if len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return kept


def _deflated(band: bytes | memoryview) -> tuple[bytes, int]:
    compressor = zlib.compressobj(1, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(band) + compressor.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(band)


def _bands(filtered: Image.Image) -> list[memoryview]:
    """The image data, ``BAND_ROWS`` rows at a time (views of one copy of its bytes)."""
    data = memoryview(filtered.tobytes())
    stride = BAND_ROWS * filtered.width
    return [data[start : start + stride] for start in range(0, len(data), stride)]


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from theirs (zlib's
    ``adler32_combine``, which Python's zlib does not offer)."""
    base = 65521
    rest = second_length % base
    low = first & 0xFFFF
    high = (rest * low) % base
    low = (low + (second & 0xFFFF) + base - 1) % base
    high = (high + (first >> 16) + (second >> 16) + base - rest) % base
    return low | (high << 16)


BANDS: Final = BandCache(KEPT_BANDS)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


Box = tuple[int, int, int, int]  # left, top, right, bottom, as Pillow takes them


@dataclass(frozen=True, slots=True)
class Background:
    """What a picture is drawn over, already mapped and compressed: only the boxes drawn in
    need mapping, and a band of rows that no box reaches is the background's own."""

    filtered: Image.Image  # the background's palette indices, each row after its filter byte
    bands: tuple[tuple[bytes, int], ...]  # each band's deflate blocks and Adler-32

    @classmethod
    def of(cls, image: Image.Image) -> Background:
        filtered = _filtered(_mapped(image))
        return cls(filtered, tuple(_deflated(band) for band in _bands(filtered)))


@dataclass(frozen=True, slots=True)
class Piece:
    """A part of a picture drawn and mapped to the palette ahead (one that often repeats)."""

    box: Box
    image: Image.Image  # RGB, the box's size
    mapped: Image.Image

    @classmethod
    def of(cls, box: Box, image: Image.Image) -> Piece:
        return cls(box, image, _mapped(image))


def _mapped(image: Image.Image) -> Image.Image:
    return image.quantize(palette=_palette_image(), dither=Image.Dither.NONE)


def _filtered(indexed: Image.Image) -> Image.Image:
    # Each row starts with its filter type, 0 (none; a palette image gains little by one):
    # pasted one column in, the image's bytes are the rows with that byte before each.
    width, height = indexed.size
    filtered = Image.new("P", (width + 1, height), 0)
    filtered.paste(indexed, (1, 0))
    return filtered


def encode(
    image: Image.Image,
    over: Background | None = None,
    drawn: Sequence[Box] = (),
    pieces: Sequence[Piece] = (),
) -> bytes:
    """PNG bytes of an RGB ``image``: each pixel mapped to its nearest palette colour.

    ``over``: the background ``image`` was drawn on, which it still is outside the ``drawn``
    boxes (mapping a pixel is most of the work left once bands are reused); of those, the
    ``pieces`` (as ``image`` has them) are mapped already."""
    width, height = image.size
    if over is None:
        filtered = _filtered(_mapped(image))
    else:
        if over.filtered.size != (width + 1, height):
            raise ValueError("the background is not the picture's size")
        filtered = over.filtered.copy()
        ready = {piece.box: piece.mapped for piece in pieces}
        for box in drawn:
            left, top, _, _ = box
            mapped = ready.get(box)
            filtered.paste(
                mapped if mapped is not None else _mapped(image.crop(box)), (left + 1, top)
            )
    # Bands a drawn box reaches; the others are the background's (every band without one).
    touched = {
        index
        for _, top, _, bottom in drawn
        for index in range(top // BAND_ROWS, (bottom - 1) // BAND_ROWS + 1)
    }
    stream = [ZLIB_HEADER]
    checksum = zlib.adler32(b"")
    for index, band in enumerate(_bands(filtered)):
        if over is not None and index not in touched:
            blocks, band_checksum = over.bands[index]
        else:
            blocks, band_checksum = BANDS.deflated(band)
        stream.append(blocks)
        checksum = adler32_combine(checksum, band_checksum, len(band))
    stream += [FINAL_EMPTY_BLOCK, struct.pack(">I", checksum)]
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette, no interlace
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", _palette_bytes()),
            _chunk(b"IDAT", b"".join(stream)),
            _chunk(b"IEND", b""),
        )
    )
