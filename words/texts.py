"""Everything the bot says, in every language it has a catalogue for: one :class:`Texts`, made
in ``main()`` and handed to whatever words a message, a button or a picture.

A player's replies follow his Discord client's locale; what the table says in the channel, and
its pictures, follow the table's language (``/table open language``: the server's unless chosen).
Any locale without a catalogue gets English.

Messages name commands with ``{cmd_...}`` placeholders: "/table open" as typed in the reader's
language until the commands are synced, then Discord's mentions (``</table open:ID>``), which
each reader's client shows in his own language (:meth:`Texts.commands_synced`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path

from babel.dates import format_date
from babel.units import format_unit

from engine.cards import Card
from words.catalogue import EN, LOCALES, Catalogue, load_catalogues
from words.pictures import Words, picture_words


class Texts:
    def __init__(self, directory: Path = LOCALES) -> None:
        self.catalogues: Mapping[str, Catalogue] = load_catalogues(directory, self.mention)
        self._command_ids: Mapping[str, int] = {}
        self._languages: dict[str, str] = {}  # a locale as Discord names it -> its language
        self._pictures = {code: picture_words(words) for code, words in self.catalogues.items()}

    @property
    def codes(self) -> tuple[str, ...]:
        """The languages, English first."""
        return tuple(self.catalogues)

    def catalogue(self, lang: str) -> Catalogue:
        return self.catalogues.get(lang) or self.catalogues[EN]

    def t(self, lang: str, key: str, /, **params: object) -> str:
        """The message ``key`` in ``lang`` (falling back to English), formatted with ``params``."""
        return self.catalogue(lang).text(key, params)

    def language(self, locale: object) -> str:
        """The catalogue language for a Discord locale, given as its code or as discord.py's
        ``Locale`` (whose ``value`` is the code): "pt-BR" -> "pt_BR", else "pt", else English."""
        value = str(getattr(locale, "value", locale) or "")
        known = self._languages.get(value)
        if known is None:
            # Every interaction asks, for a few dozen locales: each is worked out once.
            known = self._languages[value] = self._match(value)
        return known

    def _match(self, value: str) -> str:
        exact = value.replace("-", "_")
        for code in (exact, exact.split("_")[0]):
            for known in self.catalogues:
                if known.lower() == code.lower():
                    return known
        return EN

    def pictures(self, lang: str) -> Words:
        """Every word the pictures draw in ``lang`` (English for a language it doesn't have)."""
        return self._pictures.get(lang) or self._pictures[EN]

    # ------------------------------------------------------------------ commands

    def slash_command(self, name: str, lang: str) -> str:
        """``"table open"`` as a player in ``lang`` types it: "/стол открыть"."""
        words = self.catalogue(lang)
        return "/" + " ".join(words.raw(f"cmdname_{word}") for word in name.split())

    def mention(self, name: str, lang: str) -> str:
        """How a message names a command: Discord's mention once the commands are synced (the
        reader's client shows it in his language), else as typed in ``lang``."""
        command_id = self._command_ids.get(name.split()[0])
        return self.slash_command(name, lang) if command_id is None else f"</{name}:{command_id}>"

    def commands_synced(self, ids: Mapping[str, int]) -> None:
        """The commands Discord has, by top-level name -> id; empty: named as typed again."""
        self._command_ids = dict(ids)

    def with_default(self, key: str, value: object) -> str:
        """An option's description (``key``, a cmddesc_option_ message) saying its default, in
        English; every catalogue learns its own wording of it, which the command translator
        gives. The defaults come from the settings, so these descriptions are made when the
        bot starts."""
        english = self.t(
            EN, "option_default", description=self.catalogues[EN].raw(key), value=value
        )
        for code, words in self.catalogues.items():
            words.commands[english] = self.t(
                code, "option_default", description=words.raw(key), value=value
            )
        return english

    # ------------------------------------------------------------------ words of a language

    def language_name(self, code: str) -> str:
        """A language's name in itself: "English", "Русский"."""
        name = self.catalogue(code).locale.get_display_name(code) or code
        return name[:1].upper() + name[1:]

    def rank_plural(self, lang: str, rank: int) -> str:
        """ "Kings", "короли": a rank named as a pair shows it."""
        return self.catalogue(lang).raw(f"rank_{rank}_many")

    def duration(self, lang: str, delta: timedelta) -> str:
        """A wait rounded up to the minute, in the language's words: "3 hours 12 minutes"."""
        minutes = max(1, -(-int(delta.total_seconds()) // 60))
        hours, minutes = divmod(minutes, 60)
        locale = self.catalogue(lang).locale
        parts = [
            format_unit(value, unit, length="long", locale=locale)
            for value, unit in ((hours, "duration-hour"), (minutes, "duration-minute"))
            if value
        ]
        return " ".join(parts)

    def day(self, lang: str, moment: datetime) -> str:
        """The day of ``moment`` (in UTC) as the language writes dates: "Dec 1, 2026"."""
        locale = self.catalogue(lang).locale
        return format_date(moment.astimezone(UTC).date(), "medium", locale=locale)

    def store_error_text(
        self, lang: str, code: str, params: Mapping[str, object], *, now: datetime | None = None
    ) -> str | None:
        """A store error (``StoreError.code`` and ``.params``) in ``lang``; ``None`` if unknown."""
        key = f"store_{code}"
        if key not in self.catalogues[EN].template:
            return None
        values = dict(params)
        retry_at = values.get("retry_at")
        if isinstance(retry_at, datetime):
            # The store's own {wait} is English; say it again in this language.
            values["wait"] = self.duration(lang, retry_at - (now or datetime.now(UTC)))
        try:
            return self.t(lang, key, **values)
        except (KeyError, IndexError, TypeError):
            return None


def cards_text(cards: Iterable[Card]) -> str:
    """Cards as text in any language: "A♠ K♥", or a dash for none."""
    return " ".join(card.pretty for card in cards) or "—"
