"""Requests a table refuses. ``str()`` is the key; ``message(texts, lang)`` the player's reply."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from bot.core.storage import StoreError
from engine.errors import IllegalAction
from words import Texts


class TableError(Exception):
    """A player's request that the table refuses; nothing changed. ``key`` is a message key."""

    def __init__(self, key: str, /, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def message(self, texts: Texts, lang: str) -> str:
        return texts.t(lang, self.key, **self.params)


class BotLacksPermissions(TableError):
    """The bot can't show a table in the channel; names are Discord's permission flag names
    ("send_messages"), each worded by its ``perm_`` message."""

    def __init__(self, names: Sequence[str]) -> None:
        super().__init__("missing_bot_permissions")
        self.names = tuple(names)

    def message(self, texts: Texts, lang: str) -> str:
        listed = ", ".join(texts.t(lang, f"perm_{name}") for name in self.names)
        return texts.t(lang, self.key, permissions=listed)


def error_id() -> str:
    """A short id that ties what a player or channel is told to the log line with details."""
    return secrets.token_hex(4)


def refusal(error: BaseException, texts: Texts, lang: str) -> str | None:
    """The player's reply to a request the core refused (a table's rule, an action the rules
    don't allow, the store's refusal), in ``lang``; None for any other error, or a store's
    refusal that has no words."""
    if isinstance(error, TableError):
        return error.message(texts, lang)
    if isinstance(error, IllegalAction):
        return texts.t(lang, "illegal_action", reason=str(error))
    if isinstance(error, StoreError):
        return texts.store_error_text(lang, error.code, error.params)
    return None
