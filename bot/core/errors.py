"""Requests a table refuses. ``str()`` is the key; ``message(lang)`` the player's reply."""

from __future__ import annotations

from bot.core.i18n import t


class TableError(Exception):
    """A player's request that the table refuses; nothing changed. ``key`` is an i18n key."""

    def __init__(self, key: str, /, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def message(self, lang: str) -> str:
        return t(lang, self.key, **self.params)
