"""A replay is a looping GIF Discord plays inline, at most 2 MB, whose frames are
the pictures the golden replay frames approve (tests/render/golden/replay_frame_*.png)."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import GifImagePlugin, Image, ImageChops

from render.replay import MAX_BYTES, frame_png, replay_gif
from tests.render.cases import replay_frames_of, replay_hand, replay_run_out_hand


def test_a_replay_is_a_looping_gif_of_every_frame_held_as_long_as_asked() -> None:
    frames = replay_frames_of(replay_hand(), viewer=1)
    data = replay_gif(frames)
    assert len(data) <= MAX_BYTES
    picture = Image.open(io.BytesIO(data))
    assert isinstance(picture, GifImagePlugin.GifImageFile)
    assert picture.format == "GIF" and picture.info.get("loop") == 0
    assert picture.n_frames == len(frames) and picture.size == (680, 620)
    for index, frame in enumerate(frames):
        picture.seek(index)
        assert picture.info["duration"] == round(frame.seconds * 1000)
    # Every frame is its picture, pixel for pixel (both keep to the same palette).
    for index in (0, len(frames) // 2, len(frames) - 1):
        picture.seek(index)
        shown = picture.convert("RGB")
        alone = Image.open(io.BytesIO(frame_png(frames[index]))).convert("RGB")
        assert ImageChops.difference(shown, alone).getbbox() is None, index


def test_a_replay_too_big_is_drawn_smaller_and_one_that_never_fits_is_refused() -> None:
    frames = replay_frames_of(replay_hand(), viewer=None)
    full = replay_gif(frames)
    smaller = replay_gif(frames, max_bytes=len(full) - 1)
    assert len(smaller) < len(full)
    assert Image.open(io.BytesIO(smaller)).size[0] < 680
    with pytest.raises(ValueError, match="over 1000 bytes"):
        replay_gif(frames, max_bytes=1000)
    with pytest.raises(ValueError, match="at least one frame"):
        replay_gif(())


def test_a_run_out_replay_draws_the_chances_worked_out_in_the_drawing_process() -> None:
    frames = replay_frames_of(replay_run_out_hand(), viewer=0)
    spot = frames[-1].all_in
    assert spot is not None
    with_odds = frame_png(frames[-1])
    without = frame_png(replace(frames[-1], all_in=None))
    assert with_odds != without
    data = replay_gif(frames)
    picture = Image.open(io.BytesIO(data))
    picture.seek(len(frames) - 1)
    alone = Image.open(io.BytesIO(with_odds)).convert("RGB")
    assert ImageChops.difference(picture.convert("RGB"), alone).getbbox() is None
