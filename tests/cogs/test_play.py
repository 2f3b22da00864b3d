"""A hand played through the real discord.py client on simcord: buttons, commands, settlement."""

from __future__ import annotations

import hashlib
import re

from engine import events as ev
from tests.cogs.conftest import (
    World,
    channel_text,
    labels,
    live_table,
    member,
    open_and_seat,
    passive_label,
    play_out_with_buttons,
    table_message,
)


async def total_chips(world: World, user_id: int) -> int:
    wallet = await world.bot.store.wallet(world.guild.id, user_id)
    return wallet.total


async def test_hand_played_with_buttons_settles_and_reveals_the_committed_deck(world: World) -> None:
    await open_and_seat(world)
    table = live_table(world)
    assert table.live is not None
    hand = table.live.hand
    hand_users = table.live.users
    commitment_line = next(m for m in world.channel.history() if "commitment" in m.content)
    digest = re.search(r"`([0-9a-f]{64})`", commitment_line.content)
    assert digest is not None
    await play_out_with_buttons(world)
    assert hand.is_over and any(isinstance(e, ev.ShowdownStarted) for e in hand.events)
    # Chips are conserved (RULES 5.5): both players' wallets + seats still hold 2,000.
    for seat, user_id in enumerate(hand_users):
        expected = 1000 - hand.starting_stacks[seat] + hand.stacks[seat]
        assert await total_chips(world, user_id) == expected
    assert sum(hand.stacks) == sum(hand.starting_stacks)
    await world.bot.store.audit()
    # The reveal after the hand recomputes to the commitment posted before the first card.
    reveal = next(m for m in world.channel.history() if "is over. Deck" in m.content)
    deck, salt = re.search(r"Deck: `(\w+)` salt `(\w+)`", reveal.content).groups()  # type: ignore[union-attr]
    assert hashlib.sha256((deck + salt).encode()).hexdigest() == digest.group(1)
    assert deck == "".join(str(card) for card in hand.deck)
