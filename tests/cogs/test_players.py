"""Issue 10: stored names, a language and a deck per table, /settings deck, /help, defaults."""

from __future__ import annotations

from bot.core.settings import Settings
from tests.cogs.conftest import (
    World,
    live_table,
    make_bot,
    member,
    open_and_seat,
    passive_label,
    table_message,
)
from tests.cogs.conftest import labels as button_labels
from tests.cogs.test_commands import stop_like_a_crash


async def test_a_restart_mid_hand_keeps_every_name_in_seats_and_histories(
    world: World, settings: Settings
) -> None:
    """10.4: with no member cache, names come from the database after a restart."""
    await open_and_seat(world)
    table = live_table(world)
    actor = member(world, table.actor_id() or 0)
    await actor.click(table_message(world), label="Bring in 3")
    await stop_like_a_crash(world.bot)
    world.bot = await make_bot(settings)
    await world.env.restart_bot(world.bot)
    await world.env.settle()
    message = table_message(world)
    (embed,) = message.embeds
    seats = embed.description or ""
    assert "ann" in seats and "bob" in seats and "Player" not in seats, seats
    while live_table(world).live is not None:
        current = table_message(world)
        who = member(world, live_table(world).actor_id() or 0)
        await who.click(current, label=passive_label(button_labels(current)))
    for player, other in zip(world.players[:2], ("bob", "ann"), strict=True):
        result = await player.slash(world.channel, "history")
        assert result.response is not None
        (attachment,) = result.response.attachments
        text = (await attachment.read()).decode()
        assert f"{other}:" in text and "Player" not in text, text
        assert other in result.response.content and "Player" not in result.response.content
