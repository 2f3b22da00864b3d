"""The bot's texts as main() makes them, for tests: one set, read once."""

from __future__ import annotations

from typing import Final

from words import HandWords, Texts, Words

TEXTS: Final = Texts()


def words(lang: str) -> Words:
    """The picture words of ``lang``."""
    return TEXTS.pictures(lang)


def hands(lang: str) -> HandWords:
    """The names of hands in ``lang``."""
    return words(lang).hands
