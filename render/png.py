"""RGB picture to PNG bytes, through the fixed palette of ``render.theme``.

Deflate is most of a picture's cost (1.4 of a two-seat table's 2.5 ms), and most of a picture is
the same as one drawn before: the felt and rail every table shares, and the seats and corners
that did not change since that table's last picture. So the image data is compressed in bands
of rows, each band on its own (a fresh compressor, ended byte-aligned with a sync flush), and a
band seen recently reuses its compressed bytes. The bands join into one valid zlib stream: no
band refers back into another, an empty final block ends it, and the checksum covers it all.
Measured over whole hands: about 70% of the bands are reused, at about 1% more bytes.
"""

from __future__ import annotations

import hashlib
import struct
import threading
import zlib
from collections import OrderedDict
from functools import cache
from typing import Final

from PIL import Image

from render import theme

BAND_ROWS: Final = 16
# Bands kept, under a digest of their rows: about 1 KB each, so at most ~16 MB, enough for the
# felt every table shares plus the recent bands of a hundred busy tables (2,048 reused 67% of
# the bands in benchmarks/bot.py, 16,384 reuse more).
KEPT_BANDS: Final = 16_384
SIGNATURE: Final = b"\x89PNG\r\n\x1a\n"
ZLIB_HEADER: Final = b"\x78\x01"  # deflate, 32 KB window, fastest level
FINAL_EMPTY_BLOCK: Final = b"\x03\x00"  # BFINAL with fixed codes and only end-of-block


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
        self._kept: OrderedDict[bytes, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def deflated(self, band: bytes) -> bytes:
        """``band`` as raw deflate blocks that end on a byte boundary and are not final."""
        # A content address, not a secret: SHA-1 is the fastest digest here (the CPU does it).
        key = hashlib.sha1(band, usedforsecurity=False).digest()
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self.hits += 1
                self._kept.move_to_end(key)
                return found
            self.misses += 1
        compressor = zlib.compressobj(1, zlib.DEFLATED, -zlib.MAX_WBITS)
        blocks = compressor.compress(band) + compressor.flush(zlib.Z_SYNC_FLUSH)
        with self._lock:
            self._kept[key] = blocks
            if len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return blocks


BANDS: Final = BandCache(KEPT_BANDS)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode(image: Image.Image) -> bytes:
    """PNG bytes of an RGB ``image``: each pixel mapped to its nearest palette colour."""
    indexed = image.quantize(palette=_palette_image(), dither=Image.Dither.NONE)
    width, height = indexed.size
    # Each row starts with its filter type, 0 (none; a palette image gains little by one):
    # pasted one column in, the image's bytes are the rows with that byte before each.
    filtered = Image.new("P", (width + 1, height), 0)
    filtered.paste(indexed, (1, 0))
    data = filtered.tobytes()
    stride = BAND_ROWS * (width + 1)
    stream = [ZLIB_HEADER]
    for start in range(0, len(data), stride):
        stream.append(BANDS.deflated(data[start : start + stride]))
    stream += [FINAL_EMPTY_BLOCK, struct.pack(">I", zlib.adler32(data))]
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
