"""/hand verify and /history: fairness reveal and PokerStars-format hand histories."""

from __future__ import annotations

import io
from typing import cast

import discord
from discord import app_commands
from discord.app_commands import Range
from discord.ext import commands

from bot.client import StudBot
from bot.errors import TableError
from bot.i18n import language, t
from bot.storage import HandNotFound, HandRecord
from bot.tables import fallback_name, public_reveal
from engine.fairness import verify
from engine.hand import StudHand
from engine.history import write_history


def viewer_seat(record: HandRecord, user_id: int) -> int | None:
    return next((p.seat_index for p in record.players if p.user_id == user_id), None)


def reveal_text(record: HandRecord, hand: StudHand, viewer: int | None, lang: str) -> str:
    """The fairness reveal for one viewer: what he saw in clear, every other card hashed."""
    reveal = public_reveal(hand, record.salt, viewer)
    return f"Commitment: {record.commitment}\nReveal: {reveal}\n{t(lang, 'verify_howto')}\n"


@app_commands.guild_only()
class HandGroup(app_commands.Group, name="hand", description="Hand tools"):
    def __init__(self, bot: StudBot) -> None:
        super().__init__()
        self.bot = bot

    @app_commands.command(
        name="verify",
        description="Check a finished hand's deck against the commitment posted before it",
    )
    @app_commands.describe(hand_id="The hand number")
    async def verify(self, interaction: discord.Interaction, hand_id: Range[int, 1, 2**53]) -> None:
        lang = language(interaction.locale)
        record = await self.bot.store.get_hand(hand_id)
        if record.guild_id != interaction.guild_id:
            raise HandNotFound(hand_id)
        if record.is_live:
            raise TableError("verify_live", hand_id=hand_id)
        hand = StudHand.from_dict(record.state)
        viewer = viewer_seat(record, interaction.user.id)
        reveal = public_reveal(hand, record.salt, viewer)
        matches = verify(record.commitment, reveal)
        text = reveal_text(record, hand, viewer, lang)
        await interaction.response.send_message(
            t(
                lang,
                "verify",
                hand_id=hand_id,
                commitment=record.commitment,
                verdict=t(lang, "verify_ok" if matches else "verify_bad"),
            ),
            file=discord.File(io.BytesIO(text.encode()), filename=f"hand-{hand_id}-reveal.txt"),
            ephemeral=True,
        )


class Hands(commands.Cog):
    def __init__(self, bot: StudBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="history",
        description="Your copy of your last hand (or a hand by id) as a PokerStars text file",
    )
    @app_commands.describe(hand_id="The hand number")
    @app_commands.guild_only()
    async def history(
        self, interaction: discord.Interaction, hand_id: Range[int, 1, 2**53] | None = None
    ) -> None:
        lang = language(interaction.locale)
        if hand_id is None:
            record = await self.bot.store.last_hand_for(
                interaction.user.id, guild_id=interaction.guild_id
            )
            if record is None:
                raise TableError("no_history")
            if record.is_live:
                raise TableError("verify_live", hand_id=record.hand_id)
        else:
            record = await self.bot.store.get_hand(hand_id)
            if record.guild_id != interaction.guild_id:
                raise HandNotFound(hand_id)
            if record.is_live:
                raise TableError("verify_live", hand_id=hand_id)
        hand = StudHand.from_dict(record.state)
        names: dict[int, str] = {}
        viewer: int | None = None
        guild = interaction.guild
        for player in record.players:
            member = guild.get_member(player.user_id) if guild is not None else None
            names[player.seat_index] = (
                member.display_name if member is not None else fallback_name(player.user_id)
            )
            if player.user_id == interaction.user.id:
                viewer = player.seat_index
                names[player.seat_index] = interaction.user.display_name
        channel = self.bot.get_channel(record.channel_id)
        text = write_history(
            hand.events,
            viewer_seat=viewer,
            hand_id=record.hand_id,
            table_name=f"#{getattr(channel, 'name', record.channel_id)}",
            names=names,
            started_at=record.started_at,
            reveal=reveal_text(record, hand, viewer, "en"),
        )
        summary = []
        for player in record.players:
            if player.final_stack is not None:
                net = player.final_stack - player.starting_stack
                summary.append(f"{names[player.seat_index]} {net:+d}")
        await interaction.response.send_message(
            t(lang, "history_summary", hand_id=record.hand_id, summary=", ".join(summary)),
            file=discord.File(io.BytesIO(text.encode()), filename=f"hand-{record.hand_id}.txt"),
            ephemeral=True,
        )


async def setup(bot: commands.Bot) -> None:
    stud = cast(StudBot, bot)
    stud.tree.add_command(HandGroup(stud))
    await bot.add_cog(Hands(stud))
