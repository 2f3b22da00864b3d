"""Gettext catalogues: every message of one language, read with Babel from ``words/locales``.

``stud.pot`` is the English source and ``<language>.po`` (``ru.po``...) a translation. Each
message's ``msgctxt`` is its key, ``msgid`` the English, ``msgstr`` the translation; a message whose
wording depends on a number has ``msgid_plural`` and one ``msgstr[n]`` per plural form of the
language (its ``Plural-Forms`` header), and the template names the number in a ``#. count: NAME``
comment. A missing, fuzzy or outdated translation (its ``msgid`` no longer the template's) reads
as English.

Messages are ``str.format`` templates. Whole numbers are written with the language's digit
grouping ("1,500", "1 500"), signed with ``{net:+}``, and as Python has them with any other
format spec (``{hand_id:d}`` for ids, never grouped); stakes with the ``stakes`` message, lists
of numbers as alternatives ("10 or 20"), and a ``{cmd_table_open}`` placeholder by the
``mention`` the catalogue was made with ("/table open" in that language, or a Discord mention).
"""

from __future__ import annotations

import gettext
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Final

from babel import Locale
from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from engine.stakes import Stakes

EN: Final = "en"
RU: Final = "ru"

LOCALES: Final = Path(__file__).with_name("locales")
TEMPLATE: Final = "stud.pot"
_COUNT: Final = "count:"  # the template comment naming a plural message's number
_COMMAND_KEYS: Final = ("cmdname_", "cmddesc_")

# How a message names a command: (the command as typed in English, the language) -> text.
Mention = Callable[[str, str], str]


@dataclass(frozen=True, slots=True)
class Message:
    """One template entry: the English forms (one, or singular and plural) and its number."""

    key: str
    english: tuple[str, ...]
    count: str | None = None


class Catalogue:
    """One language: its translations over the English template, plural rule and number format."""

    def __init__(
        self,
        code: str,
        template: Mapping[str, Message],
        translations: Mapping[str, tuple[str, ...]],
        plural_expr: str,
        english_plural_expr: str,
        mention: Mention,
    ) -> None:
        self.code = code
        self.locale = Locale.parse(code)
        self.template = template
        self.translations = translations
        self._plural = gettext.c2py(plural_expr)
        self._english_plural = gettext.c2py(english_plural_expr)
        self._formatter = _Formatter(self)
        self._mention = mention
        # English command and option names and descriptions -> this language's, where translated.
        self.commands: Final[dict[str, str]] = {
            template[key].english[0]: forms[0]
            for key, forms in translations.items()
            if key.startswith(_COMMAND_KEYS)
        }

    def forms(self, key: str) -> tuple[str, ...]:
        """The message's forms in this language (English where it has no translation)."""
        return self.translations.get(key) or self.template[key].english

    def raw(self, key: str) -> str:
        """The unformatted text of a message that has no plural (picture words, templates)."""
        return self.forms(key)[0]

    def text(self, key: str, params: Mapping[str, object]) -> str:
        message = self.template[key]
        text = self._choose(message, params)
        for name in _placeholders(text):
            if name.startswith("cmd_") and name not in params:
                params = {**params, name: self._mention(name[4:].replace("_", " "), self.code)}
        fields = _fields(text)
        if fields is None:
            return self._formatter.vformat(text, (), params)
        # string.Formatter's own walk through a template, in Python, was most of the cost of
        # the twenty-odd messages of a table update.
        field = self._formatter.format_field
        return "".join(
            [
                literal if name is None else literal + field(params[name], spec)
                for literal, name, spec in fields
            ]
        )

    def number(self, value: int) -> str:
        return _decimal(value, self.locale)

    def signed(self, value: int) -> str:
        """A result, always with its sign: "+1,500", "-20", "+0"."""
        return ("+" if value >= 0 else "") + self.number(value)

    def _choose(self, message: Message, params: Mapping[str, object]) -> str:
        if message.count is None:
            return self.forms(message.key)[0]
        count = params[message.count]
        if not isinstance(count, int):
            raise TypeError(f"{message.key}: {message.count} must be an int, not {count!r}")
        translated = self.translations.get(message.key)
        if translated is None:
            return message.english[self._english_plural(count)]
        # A catalogue with fewer forms than its rule asks for is a translator's slip: last form.
        return translated[min(self._plural(count), len(translated) - 1)]


class _Formatter(string.Formatter):
    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "+" and isinstance(value, int):
            return self.catalogue.signed(value)
        if format_spec:
            return str(super().format_field(value, format_spec))
        if isinstance(value, int) and not isinstance(value, bool):
            return self.catalogue.number(value)
        if isinstance(value, Stakes):
            return self.catalogue.text(
                "stakes",
                {
                    "ante": value.ante,
                    "bring_in": value.bring_in,
                    "small_bet": value.small_bet,
                    "big_bet": value.big_bet,
                },
            )
        if isinstance(value, list | tuple) and value:
            items = [self.format_field(item, "") for item in value]
            return format_list(items, style="or", locale=self.catalogue.locale)
        return str(value)


@lru_cache(maxsize=8192)
def _decimal(value: int, locale: Locale) -> str:
    # Every table redraw formats its stacks and pot: Babel's formatting was the bot's busiest
    # pure-Python call at 130 clicks/s, and the same few amounts recur.
    return format_decimal(value, locale=locale)


@cache
def _fields(text: str) -> tuple[tuple[str, str | None, str], ...] | None:
    """``text`` parsed once: each literal and the field after it (its name, or None after the
    last, and its format spec); None if a field asks more than a name and a plain spec (an
    attribute, an index, a conversion, a nested field), which ``str.format``'s walk handles."""
    fields = []
    for literal, name, spec, conversion in string.Formatter().parse(text):
        if name is not None and (conversion or not name.isidentifier() or "{" in (spec or "")):
            return None
        fields.append((literal, name, spec or ""))
    return tuple(fields)


@cache
def _placeholders(text: str) -> tuple[str, ...]:
    return tuple(name for _, name, _, _ in string.Formatter().parse(text) if name)


def _read(path: Path, locale: str | None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale, ignore_obsolete=True)


def _forms(value: str | Iterable[str] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def load_catalogues(directory: Path, mention: Mention) -> dict[str, Catalogue]:
    """Every language in ``directory``: English from the template, one per ``<code>.po``."""
    template, english, languages = _parsed(directory)
    catalogues = {EN: Catalogue(EN, template, {}, english, english, mention)}
    for code, translations, plural_expr in languages:
        catalogues[code] = Catalogue(code, template, translations, plural_expr, english, mention)
    return catalogues


Parsed = tuple[
    Mapping[str, Message], str, tuple[tuple[str, Mapping[str, tuple[str, ...]], str], ...]
]


@cache
def _parsed(directory: Path) -> Parsed:
    """The template, its plural rule and each language's translations and plural rule, read
    once a process: Babel's reading is most of making a ``Texts`` (each bot, and every test's)."""
    source = _read(directory / TEMPLATE, None)
    template: dict[str, Message] = {}
    for entry in source:
        if not entry.id:
            continue  # the header
        if not entry.context:
            raise ValueError(f"{TEMPLATE}: {entry.id!r} has no msgctxt (its key)")
        counts = [c[len(_COUNT) :].strip() for c in entry.auto_comments if c.startswith(_COUNT)]
        template[entry.context] = Message(entry.context, _forms(entry.id), next(iter(counts), None))
    languages = []
    for path in sorted(directory.glob("*.po")):
        po = _read(path, path.stem)
        translations = {}
        for entry in po:
            message = template.get(entry.context or "")
            if message is None or entry.fuzzy or _forms(entry.id) != message.english:
                continue
            forms = _forms(entry.string)
            if all(forms):
                translations[message.key] = forms
        languages.append((path.stem, translations, po.plural_expr))
    return template, source.plural_expr, tuple(languages)
