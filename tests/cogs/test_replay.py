"""/history replay through the real client on the fake Discord: the hand as a GIF, for the
asker only, drawn from the stored hand."""

from __future__ import annotations

import io

from PIL import GifImagePlugin, Image

from tests.cogs.world import World, open_and_seat, play_out_with_buttons, refused


async def test_history_replay_answers_privately_with_the_hand_as_a_gif(world: World) -> None:
    await open_and_seat(world)
    await play_out_with_buttons(world)
    ann, _, cy = world.players[:3]
    result = await ann.slash(world.channel, "history", replay=True)
    assert result.ephemeral and result.response is not None
    (attachment,) = result.response.attachments
    assert attachment.filename == "hand-1-replay.gif"
    data = await attachment.read()
    picture = Image.open(io.BytesIO(data))
    assert isinstance(picture, GifImagePlugin.GifImageFile)
    record = await world.bot.store.hands.get(1)
    assert picture.format == "GIF" and picture.n_frames >= 2 and len(data) <= 2_000_000
    assert result.response.content.startswith("Hand #1 (Seven Card Stud) again, street by street")
    # By number too, and for a player who did not play it (he sees what the table saw).
    by_number = await cy.slash(world.channel, "history", replay=True, hand_id=1)
    assert by_number.response is not None and by_number.response.attachments
    assert record.outcome == "settled"
    refused(await ann.slash(world.channel, "history", replay=True, last=2), "one thing at a time")
    refused(await ann.slash(world.channel, "history", replay=True, hand_id=99), "99")
