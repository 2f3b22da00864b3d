"""Everything the bot says, in every language it has a catalogue for, and the command translator.

The text lives in gettext catalogues in ``bot/core/locales``: ``stud.pot`` is the English source and
``<language>.po`` (``ru.po``...) a translation, read at start-up with Babel. Each message's
``msgctxt`` is its key, ``msgid`` the English, ``msgstr`` the translation; a message whose wording
depends on a number has ``msgid_plural`` and one ``msgstr[n]`` per plural form of the language
(its ``Plural-Forms`` header), and the template names the number in a ``#. count: NAME`` comment.
A missing, fuzzy or outdated translation (its ``msgid`` no longer the template's) reads as English.

Messages are ``str.format`` templates. Whole numbers are written with the language's digit
grouping ("1,500", "1 500"), signed with ``{net:+}``, and as Python has them with any other
format spec (``{hand_id:d}`` for ids, never grouped); stakes with the ``stakes`` message, lists
of numbers as alternatives ("10 or 20"), and a ``{cmd_table_open}`` placeholder by
:data:`command_mention` ("/table open" in that language).

A player's replies follow his Discord client's locale; what the table says in the channel, and its
pictures, follow the table's language (``/table open language``: the server's unless chosen). Any
locale without a catalogue gets English.
"""

from __future__ import annotations

import gettext
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Final

from babel import Locale
from babel.dates import format_date
from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, get_group_symbol
from babel.units import format_unit

from engine.cards import Card
from engine.stakes import Stakes
from render.labels import HandWords, RankWords, Words, add_words

EN: Final = "en"
RU: Final = "ru"

LOCALES: Final = Path(__file__).with_name("locales")
TEMPLATE: Final = "stud.pot"
_COUNT: Final = "count:"  # the template comment naming a plural message's number
_COMMAND_KEYS: Final = ("cmdname_", "cmddesc_")
# Hand categories as the rankings picture names them, strongest first (pic_category_NAME).
CATEGORIES: Final = (
    "royal_flush",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "pair",
    "high_card",
)


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
    ) -> None:
        self.code = code
        self.locale = Locale.parse(code)
        self.template = template
        self.translations = translations
        self._plural = gettext.c2py(plural_expr)
        self._english_plural = gettext.c2py(english_plural_expr)
        self._formatter = _Formatter(self)
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
                params = {**params, name: command_mention(name[4:].replace("_", " "), self.code)}
        return self._formatter.vformat(text, (), params)

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
def _placeholders(text: str) -> tuple[str, ...]:
    return tuple(name for _, name, _, _ in string.Formatter().parse(text) if name)


def _read(path: Path, locale: str | None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale, ignore_obsolete=True)


def _forms(value: str | Iterable[str] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def load_catalogues(directory: Path = LOCALES) -> dict[str, Catalogue]:
    """Every language in ``directory``: English from the template, one per ``<code>.po``."""
    source = _read(directory / TEMPLATE, None)
    template: dict[str, Message] = {}
    for entry in source:
        if not entry.id:
            continue  # the header
        if not entry.context:
            raise ValueError(f"{TEMPLATE}: {entry.id!r} has no msgctxt (its key)")
        counts = [c[len(_COUNT) :].strip() for c in entry.auto_comments if c.startswith(_COUNT)]
        template[entry.context] = Message(entry.context, _forms(entry.id), next(iter(counts), None))
    english = source.plural_expr
    catalogues = {EN: Catalogue(EN, template, {}, english, english)}
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
        catalogues[path.stem] = Catalogue(
            path.stem, template, translations, po.plural_expr, english
        )
    return catalogues


CATALOGUES: dict[str, Catalogue] = load_catalogues()


def catalogue(lang: str) -> Catalogue:
    return CATALOGUES.get(lang) or CATALOGUES[EN]


def language(locale: object) -> str:
    """The catalogue language for a Discord locale, given as its code or as discord.py's
    ``Locale`` (whose ``value`` is the code): "pt-BR" -> "pt_BR", else "pt", else English."""
    value = str(getattr(locale, "value", locale) or "")
    exact = value.replace("-", "_")
    for code in (exact, exact.split("_")[0]):
        for known in CATALOGUES:
            if known.lower() == code.lower():
                return known
    return EN


def t(lang: str, key: str, /, **params: object) -> str:
    """The message ``key`` in ``lang`` (falling back to English), formatted with ``params``."""
    return catalogue(lang).text(key, params)


def slash_command(name: str, lang: str) -> str:
    """``"table open"`` as a player in ``lang`` types it: "/стол открыть"."""
    words = catalogue(lang)
    return "/" + " ".join(words.raw(f"cmdname_{word}") for word in name.split())


# How messages name a command ({cmd_sit}). The client may replace it once the commands are
# synced, e.g. with Discord mentions (f"</{name}:{command_id}>"), which Discord shows in the
# reader's language.
command_mention: Callable[[str, str], str] = slash_command


def with_default(key: str, value: object) -> str:
    """An option's description (``key``, a cmddesc_option_ message) saying its default, in
    English; every catalogue learns its own wording of it, which the command translator gives.
    The defaults come from the settings, so these descriptions are made when the bot starts."""
    english = t(EN, "option_default", description=CATALOGUES[EN].raw(key), value=value)
    for code, words in CATALOGUES.items():
        words.commands[english] = t(code, "option_default", description=words.raw(key), value=value)
    return english


def language_name(code: str) -> str:
    """A language's name in itself: "English", "Русский"."""
    name = catalogue(code).locale.get_display_name(code) or code
    return name[:1].upper() + name[1:]


def rank_plural(lang: str, rank: int) -> str:
    """ "Kings", "короли": a rank named as a pair shows it."""
    return catalogue(lang).raw(f"rank_{rank}_many")


def cards_text(cards: list[Card] | tuple[Card, ...]) -> str:
    return " ".join(card.pretty for card in cards) or "—"


def duration(lang: str, delta: timedelta) -> str:
    """A wait rounded up to the minute, in the language's words: "3 hours 12 minutes"."""
    minutes = max(1, -(-int(delta.total_seconds()) // 60))
    hours, minutes = divmod(minutes, 60)
    locale = catalogue(lang).locale
    parts = [
        format_unit(value, unit, length="long", locale=locale)
        for value, unit in ((hours, "duration-hour"), (minutes, "duration-minute"))
        if value
    ]
    return " ".join(parts)


def day(lang: str, moment: datetime) -> str:
    """The day of ``moment`` (in UTC) as the language writes dates: "Dec 1, 2026"."""
    return format_date(moment.astimezone(UTC).date(), "medium", locale=catalogue(lang).locale)


def store_error_text(
    lang: str, code: str, params: Mapping[str, object], *, now: datetime | None = None
) -> str | None:
    """A store error (``StoreError.code`` and ``.params``) in ``lang``; ``None`` if unknown."""
    key = f"store_{code}"
    if key not in CATALOGUES[EN].template:
        return None
    values = dict(params)
    retry_at = values.get("retry_at")
    if isinstance(retry_at, datetime):
        # The store's own {wait} is English; say it again in this language.
        values["wait"] = duration(lang, retry_at - (now or datetime.now(UTC)))
    try:
        return t(lang, key, **values)
    except (KeyError, IndexError, TypeError):
        return None


def words_for(lang: str) -> Words:
    """Every word the pictures draw in ``lang``, from the catalogue."""
    words = catalogue(lang)
    raw = words.raw
    return Words(
        code=words.code,
        pot=raw("pic_pot"),
        main_pot=raw("pic_main_pot"),
        side_pot=raw("pic_side_pot"),
        side_pots=raw("pic_side_pots"),
        streets=tuple(raw(f"pic_street_{street}") for street in range(3, 8)),
        ante=raw("pic_ante"),
        bring_in=raw("pic_bring_in"),
        all_in=raw("pic_all_in"),
        folded=raw("pic_folded"),
        sitting_out=raw("pic_sitting_out"),
        next_hand=raw("pic_next_hand"),
        empty_seat=raw("pic_empty_seat"),
        seat=raw("pic_seat"),
        community=raw("pic_community"),
        seconds=raw("pic_seconds"),
        time_bank=raw("pic_time_bank"),
        each=raw("pic_each"),
        high=raw("pic_high"),
        low=raw("pic_low"),
        scoops=raw("pic_scoops"),
        showdown=raw("pic_showdown"),
        your_cards=raw("pic_your_cards"),
        hidden=raw("pic_hidden"),
        best_hand=raw("pic_best_hand"),
        folded_hand=raw("pic_folded_hand"),
        thousands=get_group_symbol(locale=words.locale),
        hands=HandWords(
            high_card=raw("hand_high_card"),
            board_high_card=raw("hand_board_high_card"),
            pair=raw("hand_pair"),
            two_pair=raw("hand_two_pair"),
            three_of_a_kind=raw("hand_three_of_a_kind"),
            straight=raw("hand_straight"),
            flush=raw("hand_flush"),
            full_house=raw("hand_full_house"),
            four_of_a_kind=raw("hand_four_of_a_kind"),
            straight_flush=raw("hand_straight_flush"),
            royal_flush=raw("hand_royal_flush"),
            ranks=tuple(
                RankWords(
                    one=raw(f"rank_{rank}"),
                    many=raw(f"rank_{rank}_many"),
                    of_one=raw(f"rank_{rank}_of"),
                    of_many=raw(f"rank_{rank}_of_many"),
                )
                for rank in range(2, 15)
            ),
            low=raw("hand_low"),
            no_low=raw("hand_no_low"),
        ),
        rankings=raw("pic_rankings_title"),
        rankings_note=raw("pic_rankings_note"),
        categories=tuple(raw(f"pic_category_{name}") for name in CATEGORIES),
    )


def install_picture_words() -> None:
    """Give render the words of every catalogue language (render can't read the catalogue)."""
    for code in CATALOGUES:
        add_words(words_for(code))


install_picture_words()
