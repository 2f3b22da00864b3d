# ruff: noqa: RUF001  (Russian text is meant to be Cyrillic)
"""The text catalogue: every message in every language, plural forms, numbers, commands."""

from __future__ import annotations

import importlib
import pkgutil
import re
import shutil
import string
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord
import pytest
from babel.messages.pofile import read_po
from discord import app_commands
from discord.ext import commands

import cogs
from bot.core.errors import TableError
from bot.core.storage import HandNotFound, NotEnoughChips, errors
from bot.edge.funnel import user_message
from bot.edge.translator import CommandTranslator
from engine.cards import parse_cards
from engine.stakes import Stakes
from render import TableLabels
from tests.texts import TEXTS
from words import EN, ENGLISH, RU, Texts
from words import catalogue as catalogue_module
from words.catalogue import LOCALES
from words.catalogue import TEMPLATE as TEMPLATE_FILE
from words.hands import describe

CATALOGUES = TEXTS.catalogues
t = TEXTS.t
language = TEXTS.language
store_error_text = TEXTS.store_error_text

TEMPLATE = CATALOGUES[EN].template
NBSP = "\xa0"

# A value for every placeholder any message has (a new placeholder needs one here). Names are
# Cyrillic so that any Latin word left in a Russian rendering is the catalogue's own.
SAMPLES: dict[str, object] = {
    "name": "Оля",
    "winners": "Оля, Борис",
    "mention": "<@123456>",
    "reason": "причина",
    "options": "Чек",
    "action": "чек",
    "players": "Место 1: Оля",
    "status": "",
    "all_in": "",
    "description": "",
    "holding": "пара королей",
    "rank": 13,
    "card": "A♠",
    "cards": "A♠ K♥ 7♦",
    "down": "A♠ K♥",
    "up": "7♦",
    "channel": "стад",
    "summary": "Оля +20",
    "verdict": "совпадает",
    "commitment": "3fa9c01d",
    "digest": "3fa9c01d",
    "error_id": "9b2e77aa",
    "when": "<t:1767225600:R>",
    "stakes": Stakes(ante=10, bring_in=30, small_bet=1000, big_bet=2000),
    "allowed": (1000, 2000),
    "problem": "проблема",
    "wait": "3 часа",
    "marker": "▶ ",
    "extra": " (ставка 20)",
    "reveal": "9♠:1f2e 7c0d",
    "game": "Разз",
    "after": "Стад хай-лоу",
    "until": "<t:1767225600:f>",
    "date": "6 янв. 2025 г.",
    "games": "Разз: 2 раздачи",
}
NUMBER = 1500
# Hand names may use any form of their ranks, whichever English happens to need (HandWords).
RANK_FORMS = {
    f"{stem}{suffix}": "туз"
    for stem in ("rank", "ranks", "rank2", "ranks2")
    for suffix in ("", "_of")
} | {"low": "десятка", "low_of": "десятки"}


def params_for(key: str) -> dict[str, object]:
    message = TEMPLATE[key]
    names = {name for form in message.english for name, _ in fields(form)}
    names |= {message.count} if message.count else set()
    params = {name: SAMPLES.get(name, NUMBER) for name in names if not name.startswith("cmd_")}
    return params | RANK_FORMS if key.startswith("hand_") else params


def fields(text: str) -> set[tuple[str, str]]:
    return {(name, spec or "") for _, name, spec, _ in string.Formatter().parse(text) if name}


def russian_renderings() -> Iterator[tuple[str, str]]:
    for key in TEMPLATE:
        params = params_for(key)
        count = TEMPLATE[key].count
        for n in (1, 2, 5) if count else (NUMBER,):
            yield key, t(RU, key, **(params | ({count: n} if count else {})))


@pytest.mark.parametrize("key", sorted(TEMPLATE))
def test_every_message_renders_in_both_languages_with_its_placeholders(key: str) -> None:
    english = t(EN, key, **params_for(key))
    russian = t(RU, key, **params_for(key))
    assert english and russian and "{" not in english + russian
    assert key in CATALOGUES[RU].translations, "not translated"
    # A translation may leave out a placeholder (an English-only reason), never invent one.
    source = set().union(*(fields(form) for form in TEMPLATE[key].english))
    source |= {(name, "") for name in RANK_FORMS} if key.startswith("hand_") else set()
    for form in CATALOGUES[RU].forms(key):
        assert fields(form) <= source, form
    if TEMPLATE[key].count is not None:
        assert len(CATALOGUES[RU].forms(key)) == 3


@pytest.mark.parametrize("code", [EN, RU])
def test_a_message_reads_the_same_as_str_format_would_write_it(
    code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Templates are parsed once and formatted field by field (a table update formats some
    twenty): every message, in every plural form, must read as string.Formatter writes it."""
    catalogue = CATALOGUES[code]
    params: dict[tuple[str, int], dict[str, object]] = {}
    for key in TEMPLATE:
        count = TEMPLATE[key].count
        for n in (1, 2, 5) if count else (NUMBER,):
            params[key, n] = params_for(key) | ({count: n} if count else {})
    assert catalogue_module._fields("{a}{{{b:+}}} {c:d}") == (
        ("", "a", ""),
        ("{", None, ""),
        ("", "b", "+"),
        ("}", None, ""),
        (" ", "c", "d"),
    )
    assert catalogue_module._fields("{a!r}") is None and catalogue_module._fields("{a.b}") is None
    fast = {case: catalogue.text(case[0], values) for case, values in params.items()}
    monkeypatch.setattr(catalogue_module, "_fields", lambda text: None)
    assert fast == {case: catalogue.text(case[0], values) for case, values in params.items()}


def test_the_catalogues_have_no_stale_fuzzy_or_unknown_entries() -> None:
    with (LOCALES / "ru.po").open("rb") as file:
        russian = read_po(file, locale="ru")
    entries = [entry for entry in russian if entry.id]
    assert {entry.context for entry in entries} == set(TEMPLATE)
    for entry in entries:
        english = TEMPLATE[entry.context or ""].english
        assert (entry.id,) == english or tuple(entry.id) == english, entry.context
        assert not entry.fuzzy, entry.context
    for message in TEMPLATE.values():
        assert (message.count is not None) == (len(message.english) == 2), message.key


PLURALS = {
    1: "1 фишка",
    2: "2 фишки",
    5: "5 фишек",
    11: "11 фишек",
    21: "21 фишка",
    22: "22 фишки",
    25: "25 фишек",
    101: "101 фишка",
    111: "111 фишек",
}


@pytest.mark.parametrize(("count", "russian"), PLURALS.items())
def test_russian_plurals_agree_with_the_number(count: int, russian: str) -> None:
    assert t(RU, "leaderboard_you", rank=3, chips=count) == f"Вы на 3-м месте: {russian}."
    assert t(RU, "info_player", seat=1, name="Оля", stack=count, status="").endswith(russian)
    # The same rule picks the instrumental case (1 and 21 "фишкой", 2 and 5 "фишками").
    instrumental = "фишкой" if count % 10 == 1 and count % 100 != 11 else "фишками"
    assert t(RU, "sat_down", seat=2, stack=count).endswith(f"с {count} {instrumental}.")
    english = "chip" if count == 1 else "chips"
    assert t(EN, "leaderboard_you", rank=3, chips=count) == f"You are #3 with {count} {english}."


def test_numbers_use_the_languages_digit_grouping_everywhere() -> None:
    assert t(EN, "pot", pot=1500) == "Pot: 1,500"
    assert t(RU, "pot", pot=1500) == f"Банк: 1{NBSP}500"
    assert t(RU, "illegal_amount", amount=1500, allowed=(1000, 2000)) == (
        f"Нельзя поставить 1{NBSP}500. Сейчас можно: 1{NBSP}000 или 2{NBSP}000."
    )
    stakes = SAMPLES["stakes"]
    stud_ru, stud_en = t(RU, "game_stud"), t(EN, "game_stud")
    assert t(RU, "table_waiting", game=stud_ru, stakes=stakes) == (
        f"Семикарточный стад 1{NBSP}000/2{NBSP}000 (анте 10, бринг-ин 30) — ждём игроков"
    )
    assert t(EN, "table_waiting", game=stud_en, stakes=stakes).startswith(
        "Seven Card Stud 1,000/2,000 (ante 10"
    )
    assert store_error_text(RU, "not_enough_chips", {"needed": 1500, "available": 1000}) == (
        f"Недостаточно фишек: нужно 1{NBSP}500, в кошельке 1{NBSP}000."
    )
    assert TEXTS.pictures(RU).chips(1500) == f"1{NBSP}500"
    assert TEXTS.pictures(EN).chips(1500) == "1,500"
    assert t(RU, "net_result", name="Оля", net=-1500) == f"Оля: -1{NBSP}500"
    assert t(EN, "net_result", name="Ann", net=1500) == "Ann: +1,500"
    # Ids are not amounts: hand numbers are never grouped.
    assert t(EN, "verify_live", hand_id=12345).startswith("Hand #12345 ")
    assert t(RU, "restored", hand_id=12345) == "Бот перезапущен; раздача №12345 продолжается."


LATIN = re.compile(r"[A-Za-z]{2,}")
LATIN_ALLOWED = {"SHA", "PokerStars"}
# Code spans, hex digests, Discord mentions and timestamps.
CODE_SPANS = re.compile(r"`[^`]*`|\b[0-9a-f]{8,}\b|<[@#t][^>]*>")


def test_russian_has_no_latin_words() -> None:
    for key, text in russian_renderings():
        words = set(LATIN.findall(CODE_SPANS.sub("", text))) - LATIN_ALLOWED
        assert not words, (key, text)
    for key in TEMPLATE:
        if key.startswith("cmd"):
            assert not LATIN.findall(CATALOGUES[RU].raw(key).replace("PokerStars", "")), key


# Past-tense verbs and short adjectives in the masculine (сбросил, поставил, успел, вышел...),
# and pronouns or adjectives that make a player a "he".
MASCULINE = re.compile(
    r"\b\w+(?:ил|ал|ял|ел|ёл|ул|ыл|лся)\b|\b(?:он|ему|старший|первым|должен|готов)\b"
)
NOT_VERBS = {"предел", "роял", "канал"}  # "ставки достигли предела", "роял-флеш", "канал"


def test_russian_wording_assumes_no_gender() -> None:
    for key in TEMPLATE:
        for form in CATALOGUES[RU].forms(key):
            found = {word for word in MASCULINE.findall(form.lower()) if word not in NOT_VERBS}
            assert not found, (key, form)


def test_commands_in_messages_are_named_in_the_readers_language() -> None:
    assert t(EN, "table_exists") == "This channel already has a table. Join it with /sit."
    assert t(RU, "no_table").endswith("командой /стол открыть.")
    # Once the commands are synced, messages name them as Discord mentions.
    texts = Texts()
    texts.commands_synced({"hand": 42})
    assert texts.t(RU, "reveal", hand_id=7).endswith("</hand verify:42> 7.")
    texts.commands_synced({})
    assert texts.t(EN, "reveal", hand_id=7).endswith("/hand verify 7.")


def walk(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> Iterator[str]:
    yield command.name
    yield command.description
    if isinstance(command, app_commands.Group):
        for child in command.commands:
            yield from walk(child)
    else:
        for parameter in command.parameters:
            yield parameter.name
            yield parameter.description


def command_strings() -> set[str]:
    found: set[str] = set()
    for info in pkgutil.iter_modules(cogs.__path__):
        module = importlib.import_module(f"cogs.{info.name}")
        for value in vars(module).values():
            if not isinstance(value, type) or value.__module__ != module.__name__:
                continue
            if issubclass(value, commands.Cog):
                for command in value.__cog_app_commands__:
                    found.update(walk(command))
            elif issubclass(value, app_commands.Group):
                found.add(value.__discord_app_commands_group_name__)
                found.add(value.__discord_app_commands_group_description__)
                for child in value.__discord_app_commands_group_children__:
                    found.update(walk(child))
    return found


def test_every_command_name_and_description_is_translated() -> None:
    strings = command_strings()
    assert {"sit", "table", "open", "buy_in", "Seconds per turn"} <= strings
    english = [
        message.english[0]
        for key, message in TEMPLATE.items()
        if key.startswith(("cmdname_", "cmddesc_"))
    ]
    assert len(english) == len(set(english)), "one English text, one translation"
    assert strings <= set(CATALOGUES[RU].commands), strings - set(CATALOGUES[RU].commands)
    for key in TEMPLATE:
        russian = CATALOGUES[RU].raw(key)
        if key.startswith("cmdname_"):
            assert re.fullmatch(r"[-_\w]{1,32}", russian) and russian == russian.lower(), russian
        elif key.startswith("cmddesc_"):
            assert 1 <= len(russian) <= 100, russian


async def test_translator_gives_command_names_and_descriptions() -> None:
    translator = CommandTranslator(TEXTS)
    context: app_commands.TranslationContextTypes = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.other, None
    )

    async def translate(text: str, locale: discord.Locale) -> str | None:
        return await translator.translate(app_commands.locale_str(text), locale, context)

    assert await translate("sit", discord.Locale.russian) == "сесть"
    assert await translate("Seconds per turn", discord.Locale.russian) == "Секунд на ход"
    assert await translate("sit", discord.Locale.german) is None


def test_locales_map_to_a_language() -> None:
    assert language(discord.Locale.russian) == RU
    assert language(discord.Locale.american_english) == EN
    assert language(discord.Locale.french) == EN
    assert language(None) == EN


def test_store_errors_have_the_stores_english_and_a_translation() -> None:
    codes = {
        cls.code: cls
        for cls in vars(errors).values()
        if isinstance(cls, type) and issubclass(cls, errors.StoreError)
    }
    for code, cls in codes.items():
        message = TEMPLATE[f"store_{code}"]
        # The store's own English sentence, except that ids are never digit-grouped.
        assert message.english[-1].replace(":d}", "}") == cls.template, code
    now = datetime(2026, 1, 1, tzinfo=UTC)
    daily = {"wait": "3 h 12 min", "retry_at": now + timedelta(hours=3, minutes=11, seconds=5)}
    assert store_error_text(RU, "daily_not_ready", daily, now=now) == (
        "Ежедневные фишки уже получены: приходите через 3 часа 12 минут."
    )
    assert store_error_text(EN, "daily_not_ready", daily, now=now) == (
        "You already took your daily chips: come back in 3 hours 12 minutes."
    )
    limits = {"amount": 50, "minimum": 100, "maximum": 21}
    assert store_error_text(RU, "buy_in_out_of_range", limits) == (
        "Бай-ин за этим столом: от 100 до 21 фишки, а не 50."
    )
    assert store_error_text(RU, "no_such_code", {}) is None
    assert store_error_text(RU, "not_enough_chips", {"needed": 1}) is None  # a param missing


def test_errors_answer_in_the_players_language() -> None:
    error = NotEnoughChips(needed=1500, available=1000)
    assert user_message(error, TEXTS, EN) == (
        "You don't have enough chips: 1,500 needed, 1,000 in your wallet."
    )
    russian = user_message(error, TEXTS, RU)
    assert russian is not None and russian.startswith("Недостаточно фишек: нужно 1")
    assert user_message(HandNotFound(1234), TEXTS, RU) == "Раздачи №1234 нет."
    assert user_message(TableError("not_your_turn"), TEXTS, RU) == t(RU, "not_your_turn")
    assert user_message(RuntimeError("bug"), TEXTS, EN) is None


def test_pictures_and_hand_names_take_their_words_from_the_catalogue() -> None:
    assert TEXTS.pictures(EN) == ENGLISH  # the pictures' own English default says the same
    assert TEXTS.pictures(RU).street_name(3) == "3-я улица"
    russian = TEXTS.pictures(RU).hands
    assert describe(parse_cards("KsKd"), russian) == "пара королей"
    assert describe(parse_cards("Ah5d4c3s2h"), russian) == "стрит до пятёрки"
    assert describe(parse_cards("Ah5d4c3s2h"), ENGLISH.hands) == "a straight, Ace to Five"
    # A language with no catalogue is spoken, and drawn, in English.
    assert TEXTS.pictures("de") == ENGLISH and t("de", "pot", pot=5) == t(EN, "pot", pot=5)


GERMAN = r"""
msgid ""
msgstr ""
"Language: de\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
"Content-Type: text/plain; charset=utf-8\n"

msgctxt "no_hand"
msgid "No hand is being played right now."
msgstr "Gerade läuft keine Hand."

msgctxt "info_player"
msgid "Seat {seat}: {name} — {stack} chip{status}"
msgid_plural "Seat {seat}: {name} — {stack} chips{status}"
msgstr[0] "Platz {seat}: {name} — {stack} Chip{status}"
msgstr[1] "Platz {seat}: {name} — {stack} Chips{status}"

#, fuzzy
msgctxt "not_your_turn"
msgid "It's not your turn."
msgstr "Du bist nicht dran (unsicher)."

msgctxt "no_cards"
msgid "An English text that has since changed."
msgstr "Veraltet."

msgctxt "pic_pot"
msgid "Pot"
msgstr "Pott"

msgctxt "cmdname_sit"
msgid "sit"
msgstr "setzen"
"""


def test_a_new_language_is_one_more_catalogue_file(tmp_path: Path) -> None:
    shutil.copy(LOCALES / TEMPLATE_FILE, tmp_path)
    (tmp_path / "de.po").write_text(GERMAN, encoding="utf-8")
    texts = Texts(tmp_path)
    t, language = texts.t, texts.language

    german = language(discord.Locale.german)
    assert german == "de" and language(discord.Locale.russian) == EN  # no ru.po in tmp_path
    assert t(german, "no_hand") == "Gerade läuft keine Hand."
    seat = {"seat": 1, "name": "Jo", "status": ""}
    assert t(german, "info_player", stack=1, **seat) == "Platz 1: Jo — 1 Chip"
    assert t(german, "info_player", stack=1500, **seat) == "Platz 1: Jo — 1.500 Chips"
    # Untranslated, fuzzy or outdated: English words, German numbers.
    assert t(german, "pot", pot=1500) == "Pot: 1.500"
    assert t(german, "not_your_turn") == "It's not your turn."
    assert t(german, "no_cards") == "You have no cards in this hand."
    assert t(german, "table_exists").endswith("Join it with /setzen.")
    words = texts.pictures(german)
    assert words.pot == "Pott" and words.chips(1500) == "1.500"
    assert TableLabels(words=words).words.code == german


@pytest.mark.parametrize("lang", [EN, RU])
def test_help_fits_discords_embed_limits(lang: str) -> None:
    """/help: five lines on the game; each field within Discord's 1,024 characters."""
    assert len(t(lang, "help_what").splitlines()) == 5
    keys = (
        "help_how",
        "help_buttons",
        "help_games",
        "help_commands",
        "help_chips",
        "help_bots",
        "help_tournaments",
    )
    fields = [t(lang, key) for key in keys]
    assert all(0 < len(value) <= 1024 for value in fields), [len(v) for v in fields]
    titles = [t(lang, f"{key}_title") for key in keys]
    total = len(t(lang, "help_title")) + len(t(lang, "help_what"))
    assert total + sum(map(len, fields)) + sum(map(len, titles)) <= 6000
    # Every command the bot has is listed under its name in this language.
    listed = "\n".join(fields[3:])
    for command in (
        "settings deck",
        "stats",
        "leaderboard",
        "chips take",
        "chips reset",
        "tournament create",
        "tournament reenter",
        "tournament addprize",
    ):
        assert TEXTS.slash_command(command, lang) in listed, command


def test_option_descriptions_with_defaults_are_translated_and_fit() -> None:
    texts = Texts()  # learns the descriptions: not the shared one
    english = texts.with_default("cmddesc_option_max_buy_in", 1_000_000)
    assert english == "Largest buy-in (default 1,000,000)"
    russian = texts.catalogues[RU].commands[english]
    assert russian == f"Наибольший бай-ин (по умолчанию 1{NBSP}000{NBSP}000)", russian
    # /table open's options that say their defaults, with a default as long as one gets.
    for option in TABLE_DEFAULTS:
        described = texts.with_default(f"cmddesc_option_{option}", 1_000_000)
        for words in texts.catalogues.values():
            assert len(words.commands[described]) <= 100, option


TABLE_DEFAULTS = (
    "ante",
    "bring_in",
    "small_bet",
    "big_bet",
    "seats",
    "min_buy_in",
    "max_buy_in",
    "turn_seconds",
)


def test_languages_are_named_in_themselves() -> None:
    assert [TEXTS.language_name(code) for code in (EN, RU)] == ["English", "Русский"]
