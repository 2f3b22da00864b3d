"""A finished hand replayed as an animated GIF, which Discord plays inline: one frame per
decision, street by street, then the showdown, from one viewer's seat.

GIF because every Discord client plays it where it is posted; the pictures already keep to the
fixed palette of ``render.theme`` (at most 256 colours), so a frame is mapped to it without
dithering and loses nothing. Frames after the first keep only what changed (Pillow's GIF writer
crops each to the box where it differs from the one before), which is what keeps a hand of
forty decisions small. A replay over ``MAX_BYTES`` is drawn again smaller.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image

from engine.public import PrivateHand, PublicTable
from render.labels import TableLabels
from render.png import encode, palette_image
from render.table import draw_table

MAX_BYTES: Final = 2_000_000  # what the issue allows; Discord's own limit is far above it
SCALES: Final = (1.0, 0.8, 0.64, 0.5)


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture of the replay and how long it stays (seconds). ``own``: the viewer's own
    cards, when he played the hand."""

    view: PublicTable
    labels: TableLabels
    own: PrivateHand | None
    seconds: float


def replay_gif(frames: Sequence[Frame], max_bytes: int = MAX_BYTES) -> bytes:
    """The frames as a looping GIF of at most ``max_bytes``; ``ValueError`` if even the
    smallest size is larger."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    drawn = [draw_table(frame.view, frame.labels, own=frame.own) for frame in frames]
    durations = [round(frame.seconds * 1000) for frame in frames]
    for scale in SCALES:
        data = _gif(drawn, durations, scale)
        if len(data) <= max_bytes:
            return data
    raise ValueError(f"a replay of {len(frames)} frames is over {max_bytes} bytes")


def frame_png(frame: Frame) -> bytes:
    """One frame alone, as a PNG (the golden pictures of replays)."""
    return encode(draw_table(frame.view, frame.labels, own=frame.own))


def _gif(drawn: Sequence[Image.Image], durations: list[int], scale: float) -> bytes:
    palette = palette_image()
    frames = []
    for image in drawn:
        if scale != 1.0:
            size = (round(image.width * scale), round(image.height * scale))
            image = image.resize(size, Image.Resampling.LANCZOS)
        frames.append(image.quantize(palette=palette, dither=Image.Dither.NONE))
    out = io.BytesIO()
    frames[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return out.getvalue()
