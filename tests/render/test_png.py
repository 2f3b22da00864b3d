"""render.png writes its own PNG: any decoder reads back exactly Pillow's palette mapping."""

from __future__ import annotations

import zlib
from io import BytesIO

import pytest
from PIL import Image, ImageDraw

import render
from render import png, theme
from tests.render.cases import CASES


def _decoded(data: bytes) -> Image.Image:
    image = Image.open(BytesIO(data))
    image.load()
    return image


def test_every_picture_decodes_to_pillows_own_palette_mapping(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same indices and palette Pillow's quantize gives, for each golden case's picture."""
    pictures: list[tuple[Image.Image, bytes]] = []

    def keep(image: Image.Image) -> bytes:
        data = png.encode(image)
        pictures.append((image, data))
        return data

    monkeypatch.setattr(render, "encode", keep)
    for case in CASES.values():
        case()
    assert len(pictures) == len(CASES)
    for image, data in pictures:
        expected = image.quantize(palette=png._palette_image(), dither=Image.Dither.NONE)
        decoded = _decoded(data)
        assert decoded.mode == "P" and decoded.size == image.size
        assert decoded.tobytes() == expected.tobytes()
        assert decoded.getpalette() == expected.getpalette()


def test_rows_are_unfiltered_and_checksummed() -> None:
    """A strict reading of the file: chunk CRCs hold and every row's filter byte is 0."""
    image = Image.new("RGB", (37, 5), theme.FELT)
    ImageDraw.Draw(image).line((0, 0, 36, 4), fill=theme.GOLD, width=2)
    data = png.encode(image)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    at, chunks = 8, {}
    while at < len(data):
        length = int.from_bytes(data[at : at + 4], "big")
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        crc = int.from_bytes(data[at + 8 + length : at + 12 + length], "big")
        assert crc == zlib.crc32(kind + body), kind
        chunks[kind] = body
        at += 12 + length
    assert list(chunks) == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    raw = zlib.decompress(chunks[b"IDAT"])
    rows = [raw[i : i + 38] for i in range(0, len(raw), 38)]
    assert len(rows) == 5 and all(row[0] == 0 for row in rows)
    assert _decoded(data).convert("RGB").getpixel((0, 0)) == theme.GOLD
