"""The message catalogue: both languages complete and formatting the same placeholders."""

from __future__ import annotations

import re
import string

import discord
import pytest
from discord import app_commands

from bot.core.errors import TableError
from bot.core.storage import NotEnoughChips, errors
from bot.edge.funnel import user_message
from bot.i18n import (
    COMMAND_TEXT_RU,
    EN,
    MESSAGES,
    RU,
    STORE_ERRORS_RU,
    CommandTranslator,
    language,
    t,
)


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_every_message_has_english_and_russian_with_the_same_placeholders(key: str) -> None:
    entry = MESSAGES[key]
    assert set(entry) == {EN, RU}
    # English may need more (the plural "s" of "wins"); Russian never needs anything else.
    assert placeholders(entry[RU]) <= placeholders(entry[EN])
    t(EN, key, **dict.fromkeys(placeholders(entry[EN]), 1))


def test_every_store_error_code_has_a_russian_sentence_with_its_params() -> None:
    codes = {
        cls.code: cls
        for cls in vars(errors).values()
        if isinstance(cls, type) and issubclass(cls, errors.StoreError)
    }
    assert set(STORE_ERRORS_RU) == set(codes)
    for code, cls in codes.items():
        assert placeholders(STORE_ERRORS_RU[code]) == placeholders(cls.template), code


def test_locales_map_to_a_language() -> None:
    assert language(discord.Locale.russian) == RU
    assert language(discord.Locale.american_english) == EN
    assert language(discord.Locale.french) == EN
    assert language(None) == EN


def test_errors_answer_in_the_players_language() -> None:
    error = NotEnoughChips(needed=1500, available=1000)
    assert (
        user_message(error, EN)
        == "You don't have enough chips: 1,500 needed, 1,000 in your wallet."
    )
    assert user_message(error, RU) == "Недостаточно фишек: нужно 1,500, в кошельке 1,000."
    assert user_message(TableError("not_your_turn"), RU) == t(RU, "not_your_turn")
    assert user_message(RuntimeError("bug"), EN) is None


async def test_translator_gives_russian_command_names_and_descriptions() -> None:
    translator = CommandTranslator()
    context: app_commands.TranslationContextTypes = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.other, None
    )
    assert (
        await translator.translate(app_commands.locale_str("sit"), discord.Locale.russian, context)
        == "сесть"
    )
    assert (
        await translator.translate(app_commands.locale_str("sit"), discord.Locale.german, context)
        is None
    )


def test_russian_command_names_are_valid_discord_names() -> None:
    names = {
        key: value for key, value in COMMAND_TEXT_RU.items() if key.islower() and " " not in key
    }
    assert names
    for value in names.values():
        assert re.fullmatch(r"[-_\w]{1,32}", value) and value == value.lower(), value
