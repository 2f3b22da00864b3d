"""A hand's replay (``bot.core.archive.Replay``) as a file for Discord: an animated GIF, drawn
in the drawing process like every picture, so its tens of frames never hold the event loop."""

from __future__ import annotations

import io

import discord

from bot.core.archive import Replay
from bot.edge.drawing import Drawing
from render.replay import replay_gif


async def replay_file(drawing: Drawing, replay: Replay) -> discord.File:
    picture = await drawing.draw(replay_gif, replay.frames)
    return discord.File(io.BytesIO(picture), filename=f"hand-{replay.hand_id}-replay.gif")
