"""Errors a player can cause, and the one place that turns any error into a reply.

Slash commands reach :func:`answer_error` through ``CommandTree.on_error``; buttons call it from
their callbacks, so every interaction answers errors the same way: domain errors ephemerally in
the player's language, anything unexpected logged with a short id that the player is given.
"""

from __future__ import annotations

import logging
import secrets

import discord
from discord import app_commands

from bot.i18n import RU, STORE_ERRORS_RU, language, t
from bot.storage import StoreError
from engine.errors import IllegalAction

log = logging.getLogger(__name__)


class TableError(Exception):
    """A player's request that the table refuses; nothing changed. ``key`` is an i18n key."""

    def __init__(self, key: str, /, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def message(self, lang: str) -> str:
        return t(lang, self.key, **self.params)


def _shown(value: object) -> object:
    """Amounts with thousands separators, as the store's English messages show them."""
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else value


def user_message(error: BaseException, lang: str) -> str | None:
    """The reply for an error a player caused, or ``None`` when it is our bug."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        error = error.__cause__ or error
    if isinstance(error, TableError):
        return error.message(lang)
    if isinstance(error, IllegalAction):
        return t(lang, "illegal_action", reason=str(error))
    if isinstance(error, StoreError):
        template = STORE_ERRORS_RU.get(error.code) if lang == RU else None
        if template is None:
            return str(error)
        try:
            return template.format(**{k: _shown(v) for k, v in error.params.items()})
        except (KeyError, IndexError):
            return str(error)
    if isinstance(error, app_commands.NoPrivateMessage):
        return t(lang, "guild_only")
    if isinstance(error, app_commands.MissingPermissions):
        return t(lang, "missing_permission")
    if isinstance(error, app_commands.CheckFailure):
        return t(lang, "owner_only")
    return None


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    lang = language(interaction.locale)
    text = user_message(error, lang)
    if text is None:
        error_id = secrets.token_hex(4)
        original = error.__cause__ or error
        log.error(
            "unexpected error %s in interaction %s",
            error_id,
            interaction.id,
            exc_info=original,
        )
        text = t(lang, "unexpected", error_id=error_id)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        # The interaction expired or Discord is down: the log line above is all we can do.
        log.warning("could not deliver an error reply for interaction %s", interaction.id)


class StudTree(app_commands.CommandTree):
    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error)
