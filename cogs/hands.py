"""/hand verify and /history: fairness reveal and PokerStars-format hand histories."""

from __future__ import annotations

import io
from typing import cast

import discord
from discord import app_commands
from discord.app_commands import Range
from discord.ext import commands

from bot.core.archive import Archive
from bot.core.i18n import language, t
from bot.edge.client import StudBot
from bot.edge.funnel import reply


def guild_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


@app_commands.guild_only()
class HandGroup(app_commands.Group, name="hand", description="Hand tools"):
    def __init__(self, archive: Archive) -> None:
        super().__init__()
        self.archive = archive

    @app_commands.command(
        name="verify",
        description="Check a finished hand's deck against the commitment posted before it",
    )
    @app_commands.describe(hand_id="The hand number")
    async def verify(self, interaction: discord.Interaction, hand_id: Range[int, 1, 2**53]) -> None:
        lang = language(interaction.locale)
        result = await self.archive.verify(
            guild_of(interaction), interaction.user.id, hand_id, lang
        )
        await reply(
            interaction,
            t(
                lang,
                "verify",
                hand_id=hand_id,
                commitment=result.commitment,
                verdict=t(lang, "verify_ok" if result.matches else "verify_bad"),
            ),
            file=discord.File(
                io.BytesIO(result.reveal_file.encode()), filename=f"hand-{hand_id}-reveal.txt"
            ),
        )


class Hands(commands.Cog):
    def __init__(self, bot: StudBot, archive: Archive) -> None:
        self.bot = bot
        self.archive = archive

    def _channel_name(self, channel_id: int) -> str:
        return f"#{getattr(self.bot.get_channel(channel_id), 'name', channel_id)}"

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
        found = await self.archive.history(
            guild_of(interaction),
            interaction.user.id,
            hand_id,
            viewer_name=interaction.user.display_name,
            channel_name=self._channel_name,
        )
        summary = ", ".join(t(lang, "net_result", name=name, net=net) for name, net in found.net)
        await reply(
            interaction,
            t(lang, "history_summary", hand_id=found.hand_id, summary=summary),
            file=discord.File(
                io.BytesIO(found.text.encode()), filename=f"hand-{found.hand_id}.txt"
            ),
        )


async def setup(bot: commands.Bot) -> None:
    stud = cast(StudBot, bot)
    archive = Archive(stud.store)
    stud.tree.add_command(HandGroup(archive))
    await bot.add_cog(Hands(stud, archive))
