"""The one place that turns any error into a reply, and acknowledges commands before work.

Every slash command is deferred (privately) in :meth:`StudTree.interaction_check`, before the
command body touches a table or the database, so Discord's 3-second window is met however slow
the work is; the command then answers its player with a followup. What everyone should see
goes to the channel through the table's outbox. Errors reach :func:`answer_error`: domain errors
ephemerally in the player's language, anything unexpected logged with a short id that the
player is given.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final, Protocol, TypeVar, cast

import aiohttp
import discord
from discord import app_commands

from bot.core.errors import TableError, error_id, refusal
from bot.core.house import House
from bot.core.storage import DailyNotReady, StoreError
from words import Texts

log = logging.getLogger(__name__)

# A followup carries the answer to an action already applied: Discord keeps its token for 15
# minutes, so a 5xx or a timeout is worth waiting out for a while rather than leaving the
# player untold.
FOLLOWUP_RETRIES = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0)

T = TypeVar("T")


class Host(Protocol):
    """What an interaction's client is to the edge (``bot.edge.client.StudBot``)."""

    texts: Texts
    house: House
    accepting: bool  # False while shutting down


def host(interaction: discord.Interaction) -> Host:
    return cast(Host, interaction.client)


def relative_time(timestamp: float) -> str:
    """A moment as Discord shows it to each reader: "in 3 hours", "2 minutes ago"."""
    return f"<t:{int(timestamp)}:R>"


def full_time(timestamp: float) -> str:
    """A date and time each reader sees in his own time zone and language."""
    return f"<t:{int(timestamp)}:f>"


def language_of(interaction: discord.Interaction) -> str:
    """The language the player's Discord client is in, as the bot speaks it."""
    bot = host(interaction)
    return bot.texts.language(interaction.locale)


def user_message(error: BaseException, texts: Texts, lang: str) -> str | None:
    """The reply for an error a player caused, or ``None`` when it is our bug."""
    t = texts.t
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        error = error.__cause__ or error
    if isinstance(error, DailyNotReady) and error.streak_until is not None:
        # When, as a Discord timestamp: each reader sees it in his own time zone, counting down.
        return t(
            lang,
            "daily_wait",
            when=relative_time(error.retry_at.timestamp()),
            streak=error.streak,
            until=full_time(error.streak_until.timestamp()),
        )
    if (worded := refusal(error, texts, lang)) is not None:
        return worded
    if isinstance(error, StoreError):
        return str(error)
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return t(lang, "command_unknown")
    if isinstance(error, app_commands.NoPrivateMessage):
        return t(lang, "guild_only")
    if isinstance(error, app_commands.MissingPermissions):
        return t(lang, "missing_permission")
    if isinstance(error, app_commands.CheckFailure):
        return t(lang, "owner_only")
    return None


def is_retryable(error: BaseException) -> bool:
    """Discord (or the way to it) failed, not the request: the same request may succeed later."""
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return isinstance(error, OSError | asyncio.TimeoutError | aiohttp.ClientError)


async def with_retries(
    send: Callable[[], Awaitable[T]],
    sleep: Callable[[float], Awaitable[None]],
    pauses: tuple[float, ...] = FOLLOWUP_RETRIES,
) -> T:
    """``send()``, again after each pause while Discord fails; the last failure propagates."""
    for pause in pauses:
        try:
            return await send()
        except Exception as error:
            if not is_retryable(error):
                raise
            log.warning("Discord failed (%s); trying again in %.0f s", brief(error), pause)
            await sleep(pause)
    return await send()


def brief(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        return f"HTTP {error.status}"
    return type(error).__name__


async def reply(interaction: discord.Interaction, content: str = "", **kwargs: Any) -> None:
    """The command's one answer, private to its player (retried while Discord fails: the action
    behind it is already done). What the channel should see goes through the table's outbox."""
    bot = host(interaction)
    await with_retries(lambda: answer(interaction, content, **kwargs), bot.house.clock.sleep)


async def answer(interaction: discord.Interaction, content: str = "", **kwargs: Any) -> None:
    """A private answer to an acknowledged interaction. The first answer to a deferral that
    shows "thinking" replaces it (Discord documents a followup there as deprecated: it edits the
    original response instead); any later one is a followup of its own. ``file``/``files`` go
    up with either."""
    if _owes_original(interaction):
        files = list(kwargs.pop("files", ()))
        if "file" in kwargs:
            files.append(kwargs.pop("file"))
        if files:
            kwargs["attachments"] = files
        await interaction.edit_original_response(content=content or None, **kwargs)
        interaction.extras[_ANSWERED] = True
    else:
        await interaction.followup.send(content, ephemeral=True, **kwargs)


def _command_name(
    error: app_commands.CommandNotFound | app_commands.CommandSignatureMismatch,
) -> str:
    if isinstance(error, app_commands.CommandNotFound):
        return " ".join([*error.parents, error.name])
    return error.command.qualified_name


_ANSWERED: Final = "stud_answered"  # set in Interaction.extras once the deferral is replaced


def _owes_original(interaction: discord.Interaction) -> bool:
    """Deferred with "thinking" and not answered yet: the answer edits that response."""
    deferred = interaction.response.type is discord.InteractionResponseType.deferred_channel_message
    return deferred and not interaction.extras.get(_ANSWERED, False)


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    bot = host(interaction)
    lang = language_of(interaction)
    text = user_message(error, bot.texts, lang)
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        # Discord still offers a command this bot no longer has in that shape (a server's stale
        # copy after an upgrade, until the sync reaches it): the player is told, nothing is ours.
        log.warning(
            "interaction %s: /%s is not this bot's command in that shape (a stale copy, %s)",
            interaction.id,
            _command_name(error),
            type(error).__name__,
        )
    elif text is None:
        ident = error_id()
        original = error.__cause__ or error
        log.error("unexpected error %s in interaction %s", ident, interaction.id, exc_info=original)
        text = bot.texts.t(lang, "unexpected", error_id=ident)
    assert text is not None
    try:
        if interaction.response.is_done():
            await answer(interaction, text)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as failure:
        # The interaction expired or Discord is down: the log is all we can do.
        log.warning(
            "could not deliver an error reply for interaction %s (%s)",
            interaction.id,
            brief(failure),
        )


async def acknowledge(interaction: discord.Interaction, *, ephemeral: bool, thinking: bool) -> bool:
    """Defer ``interaction`` now; ``False`` (and nothing done) if Discord no longer takes it."""
    try:
        await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
    except discord.HTTPException as error:
        # Usually 10062 Unknown interaction: it reached us after Discord's 3 seconds. Doing the
        # work now would apply an action its player is never told about.
        log.warning(
            "interaction %s could not be acknowledged (%s); nothing was done",
            interaction.id,
            brief(error),
        )
        return False
    return True


class StudTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if interaction.type is not discord.InteractionType.application_command:
            return True
        bot = host(interaction)
        if not bot.accepting:
            await answer_error(interaction, TableError("shutting_down"))
            return False
        return await acknowledge(interaction, ephemeral=True, thinking=True)

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error)
