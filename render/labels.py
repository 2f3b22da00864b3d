# ruff: noqa: RUF001  (the Russian words are meant to be Cyrillic)
"""What the caller knows and the engine doesn't: names, clocks, who sits out, the last action,
the deck colours and the language of the words on the pictures."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Words:
    """Every word drawn on a picture, in one language (``code``: "en", "ru")."""

    code: str
    pot: str
    main_pot: str
    side_pot: str
    side_pots: str
    street: str  # "{n}" is 3..7
    ante: str  # "{n}"
    bring_in: str  # "{n}"
    all_in: str
    folded: str
    sitting_out: str
    next_hand: str
    empty_seat: str
    seat: str  # "{n}" is the seat's number from 1
    community: str
    seconds: str  # "{n}"
    each: str  # "{n}": a split pot's share
    showdown: str
    your_cards: str
    hidden: str
    best_hand: str
    folded_hand: str
    thousands: str  # digit group separator

    def street_name(self, street: int) -> str:
        return self.street.format(n=street, th=_ordinal_suffix(street))

    def chips(self, amount: int) -> str:
        return f"{amount:,}".replace(",", self.thousands)


def _ordinal_suffix(n: int) -> str:
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10 if n % 100 not in (11, 12, 13) else 0, "th")


ENGLISH: Final = Words(
    code="en",
    pot="Pot",
    main_pot="Main pot",
    side_pot="Side pot",
    side_pots="Side pots",
    street="{n}{th} street",
    ante="ante {n}",
    bring_in="bring-in {n}",
    all_in="ALL-IN",
    folded="Folded",
    sitting_out="Sitting out",
    next_hand="In from next hand",
    empty_seat="Empty seat",
    seat="Seat {n}",
    community="Community card",
    seconds="{n}s",
    each="{n} each",
    showdown="Showdown",
    your_cards="Your cards",
    hidden="hidden",
    best_hand="Best hand",
    folded_hand="You folded",
    thousands=",",
)

RUSSIAN: Final = Words(
    code="ru",
    pot="Банк",
    main_pot="Основной банк",
    side_pot="Побочный банк",
    side_pots="Побочные банки",
    street="Улица {n}",
    ante="анте {n}",
    bring_in="открытие {n}",
    all_in="ВА-БАНК",
    folded="Пас",
    sitting_out="Не играет",
    next_hand="Со следующей раздачи",
    empty_seat="Свободно",
    seat="Место {n}",
    community="Общая карта",
    seconds="{n} с",
    each="по {n}",
    showdown="Вскрытие",
    your_cards="Ваши карты",
    hidden="скрыта",
    best_hand="Лучшая рука",
    folded_hand="Вы сбросили карты",
    thousands=" ",
)

LANGUAGES: Final[dict[str, Words]] = {"en": ENGLISH, "ru": RUSSIAN}


def words(language: str) -> Words:
    try:
        return LANGUAGES[language]
    except KeyError:
        known = ", ".join(sorted(LANGUAGES))
        raise ValueError(f"no words for language {language!r}; known: {known}") from None


@dataclass(frozen=True, slots=True)
class SeatLabel:
    """A seated player as the bot knows him.

    ``seconds_left`` is drawn on the seat whose turn it is. For a player not dealt in, whom the
    hand knows nothing about, ``chips`` is the stack to show and ``sitting_out`` says whether he
    sits out or just waits for the next hand.
    """

    name: str
    seconds_left: int | None = None
    sitting_out: bool = False
    chips: int | None = None


@dataclass(frozen=True, slots=True)
class TableLabels:
    """``seats[i]`` labels seat ``i`` (``None``, or a missing entry, is an empty seat).

    ``last_action`` is the short line saying what just happened ("Dana raises to 20").
    """

    seats: tuple[SeatLabel | None, ...] = ()
    last_action: str = ""
    four_colour: bool = False
    language: str = "en"

    def __post_init__(self) -> None:
        words(self.language)  # fail now, with a clear message, not halfway through a drawing

    def seat(self, index: int) -> SeatLabel | None:
        return self.seats[index] if index < len(self.seats) else None
