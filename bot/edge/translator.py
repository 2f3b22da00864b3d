"""Command and option names and descriptions in each Discord client's language."""

from __future__ import annotations

import discord
from discord import app_commands

from words import Texts


class CommandTranslator(app_commands.Translator):
    """Names and descriptions from the catalogue; English is the source."""

    def __init__(self, texts: Texts) -> None:
        self.texts = texts

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return self.texts.catalogue(self.texts.language(locale)).commands.get(string.message)
