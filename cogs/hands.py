"""/hand verify and /history: fairness reveal and PokerStars-format hand histories (one hand,
the player's last few, or his hands at the channel's table), each with its reveal in a second
file, and a line saying which game each hand was; and a hand's replay, an animated picture."""

from __future__ import annotations

import io
from typing import cast

import discord
from discord import app_commands
from discord.app_commands import Range
from discord.ext import commands

from bot.core.archive import Archive
from bot.core.errors import TableError
from bot.core.games import game_name
from bot.edge.client import StudBot
from bot.edge.funnel import language_of, reply
from bot.edge.replays import replay_file
from words import Texts

# Discord's INTEGER options run from -2^53+1 to 2^53-1: a max_value past that can have the whole
# command sync refused.
HAND_ID_MAX = 2**53 - 1


def guild_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


@app_commands.guild_only()
class HandGroup(app_commands.Group, name="hand", description="Hand tools"):
    def __init__(self, archive: Archive, texts: Texts) -> None:
        super().__init__()
        self.archive = archive
        self.texts = texts

    @app_commands.command(
        name="verify",
        description="Check a finished hand's deck against the commitment posted before it",
    )
    @app_commands.describe(hand_id="The hand number")
    async def verify(
        self, interaction: discord.Interaction, hand_id: Range[int, 1, HAND_ID_MAX]
    ) -> None:
        lang = language_of(interaction)
        result = await self.archive.verify(
            guild_of(interaction), interaction.user.id, hand_id, lang
        )
        t = self.texts.t
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


class HandCommands(commands.Cog):
    def __init__(self, bot: StudBot, archive: Archive) -> None:
        self.bot = bot
        self.archive = archive

    def _channel_name(self, channel_id: int) -> str:
        return f"#{getattr(self.bot.get_channel(channel_id), 'name', channel_id)}"

    @app_commands.command(
        name="history",
        description=(
            "Your hands as a PokerStars text file: the last one, one by number, your last few"
            " or this table's"
        ),
    )
    @app_commands.describe(
        hand_id="The hand number",
        last="Your last hands, up to 100, in one file",
        session="Your hands at this channel's table since it opened, in one file",
        replay="The hand as an animated picture, street by street (with hand_id, that hand)",
    )
    @app_commands.guild_only()
    async def history(
        self,
        interaction: discord.Interaction,
        hand_id: Range[int, 1, HAND_ID_MAX] | None = None,
        last: Range[int, 1, 100] | None = None,
        session: bool = False,
        replay: bool = False,
    ) -> None:
        lang = language_of(interaction)
        if (hand_id is not None) + (last is not None) + session > 1 or (
            replay and (last is not None or session)
        ):
            raise TableError("history_one_choice")
        if replay:
            await self._replay(interaction, hand_id, lang)
            return
        if last is None and not session:
            await self._one_hand(interaction, hand_id, lang)
            return
        found = await self.archive.export(
            guild_of(interaction),
            interaction.user.id,
            last=last,
            session_channel=interaction.channel_id if session else None,
            viewer_name=interaction.user.display_name,
            channel_name=self._channel_name,
            lang=lang,
        )
        first, newest = found.hand_ids[0], found.hand_ids[-1]
        text = self.bot.texts.t(
            lang,
            "history_session" if session else "history_export",
            count=len(found.hand_ids),
            first=first,
            last=newest,
            net=found.net,
        )
        t = self.bot.texts.t
        games = ", ".join(
            t(lang, "history_game_count", game=game_name(self.bot.texts, game, lang), count=count)
            for game, count in found.games
        )
        text += " " + t(lang, "history_games", games=games)
        if found.more:
            text += " " + t(lang, "history_session_more", count=len(found.hand_ids))
        name = f"hands-{first}-{newest}"
        await reply(
            interaction,
            text,
            files=[
                discord.File(io.BytesIO(found.text.encode()), filename=f"{name}.txt"),
                discord.File(io.BytesIO(found.reveal.encode()), filename=f"{name}-reveal.txt"),
            ],
        )

    async def _replay(
        self, interaction: discord.Interaction, hand_id: int | None, lang: str
    ) -> None:
        user_id = interaction.user.id
        found = await self.archive.replay(
            guild_of(interaction),
            user_id,
            hand_id,
            viewer_name=interaction.user.display_name,
            lang=lang,
            four_colour=await self.bot.house.players.four_colour(user_id),
        )
        file = await replay_file(self.bot.presenter.drawing, found)
        texts = self.bot.texts
        await reply(
            interaction,
            texts.t(
                lang,
                "history_replay",
                hand_id=found.hand_id,
                game=game_name(texts, found.game, lang),
            ),
            file=file,
        )

    async def _one_hand(
        self, interaction: discord.Interaction, hand_id: int | None, lang: str
    ) -> None:
        found = await self.archive.history(
            guild_of(interaction),
            interaction.user.id,
            hand_id,
            viewer_name=interaction.user.display_name,
            channel_name=self._channel_name,
            lang=lang,
        )
        t = self.bot.texts.t
        summary = ", ".join(t(lang, "net_result", name=name, net=net) for name, net in found.net)
        name = f"hand-{found.hand_id}"
        await reply(
            interaction,
            self.bot.texts.t(
                lang,
                "history_summary",
                hand_id=found.hand_id,
                game=game_name(self.bot.texts, found.game, lang),
                summary=summary,
            ),
            files=[
                discord.File(io.BytesIO(found.text.encode()), filename=f"{name}.txt"),
                discord.File(io.BytesIO(found.reveal.encode()), filename=f"{name}-reveal.txt"),
            ],
        )


async def setup(bot: commands.Bot) -> None:
    stud = cast(StudBot, bot)
    archive = Archive(stud.store, stud.texts)
    stud.tree.add_command(HandGroup(archive, stud.texts))
    await bot.add_cog(HandCommands(stud, archive))
