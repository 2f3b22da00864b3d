"""The floor of ``python -m benchmarks.bot``: a minimal discord.py client that makes the requests
the bot makes, against the same fake Discord and its players, with no game, store or drawing.

Its commands are deferred and answered (two requests, as the bot's); once its players sit it
posts a table message of the bot's shape (a Components V2 container: a picture, text naming
whose turn it is, buttons); each click is answered with the table's update (UPDATE_MESSAGE) for
the next player. ``Shape`` says how often the bot, in the run before, uploaded a picture with
an update, sent a DM with a picture, and started a new message (a new hand): the floor does the
same, counted out over its clicks, with a picture drawn once before it starts.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

import discord

from tests.render.cases import fourth_street_open_pair

TEXT = "\n".join(["**Seat {n}** — 1,000 · 🂠 🂠 7♥ 8♣ (bet 10)"] * 2) + "\n**Pot: 40**"


@dataclass(frozen=True, slots=True)
class Shape:
    """What the bot did per click in the run the floor copies."""

    pictures: float  # pictures uploaded with table updates, per click
    dms: float  # DMs with a picture, per click
    clicks_per_hand: float  # clicks between one table message and the next
    seats: int = 2  # players at each table


@dataclass
class _Table:
    players: list[tuple[int, str]] = field(default_factory=list)  # (user id, display name)
    message_id: int | None = None
    turn: int = 0
    clicks: int = 0


class FloorClient(discord.Client):
    def __init__(self, shape: Shape, png: bytes) -> None:
        super().__init__(intents=discord.Intents(guilds=True))
        self.shape = shape
        self.png = png
        self.tables: dict[int, _Table] = {}
        self.dm_channels: dict[int, int] = {}
        self._pictures = 0.0
        self._dms = 0.0

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        channel_id = interaction.channel_id or 0
        table = self.tables.setdefault(channel_id, _Table())
        if interaction.type is discord.InteractionType.application_command:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.edit_original_response(content="ok")
            data: Any = interaction.data or {}
            if data.get("name") == "sit":
                table.players.append((interaction.user.id, interaction.user.display_name))
                if len(table.players) == self.shape.seats:
                    channel = self.get_partial_messageable(channel_id)
                    message = await channel.send(view=self._layout(table), file=self._file())
                    table.message_id = message.id
            return
        table.turn = (table.turn + 1) % len(table.players)
        table.clicks += 1
        self._pictures += self.shape.pictures
        self._dms += self.shape.dms
        if table.clicks % max(1, round(self.shape.clicks_per_hand)) == 0:
            await interaction.response.defer()
            channel = self.get_partial_messageable(channel_id)
            message = await channel.send(view=self._layout(table), file=self._file())
            table.message_id = message.id
        elif self._pictures >= 1:
            self._pictures -= 1
            await interaction.response.edit_message(
                view=self._layout(table), attachments=[self._file()]
            )
        else:
            await interaction.response.edit_message(view=self._layout(table))
        if self._dms >= 1:
            self._dms -= 1
            await self._dm(interaction.user.id)

    async def _dm(self, user_id: int) -> None:
        channel_id = self.dm_channels.get(user_id)
        if channel_id is None:
            channel_id = self.dm_channels[user_id] = (
                await self.create_dm(discord.Object(user_id))
            ).id
        dm = self.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        await dm.send("cards", file=discord.File(io.BytesIO(self.png), filename="cards.png"))

    def _file(self) -> discord.File:
        return discord.File(io.BytesIO(self.png), filename="table.png")

    def _layout(self, table: _Table) -> discord.ui.LayoutView:
        _, name = table.players[table.turn]
        prefix = f"stud:a:0:{table.message_id or 0}:{table.clicks}"
        buttons = [
            discord.ui.Button[Any](label=label, custom_id=f"{prefix}:{action}:")
            for label, action in (("Fold", "fold"), ("Check", "check"), ("Bet 10", "bet"))
        ]
        layout = discord.ui.LayoutView(timeout=None)
        layout.add_item(
            discord.ui.Container[Any](
                discord.ui.MediaGallery[Any](discord.MediaGalleryItem("attachment://table.png")),
                discord.ui.TextDisplay[Any](f"▶ **{name}**\n{TEXT}"),
                discord.ui.ActionRow[Any](*buttons),
                discord.ui.ActionRow[Any](discord.ui.Button[Any](label="My cards", custom_id="x")),
            )
        )
        layout.stop()
        return layout


def floor_png() -> bytes:
    """A table picture of the bot's size, drawn once (the floor draws nothing while it runs)."""
    return fourth_street_open_pair()
