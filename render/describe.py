# ruff: noqa: RUF001  (the Russian words are meant to be Cyrillic)
"""Names of hands in the pictures' language, worked out from the cards themselves.

English is the engine's own wording (``HandValue.describe`` and the stud board holdings), so a
picture says exactly what the hand history says. Other languages name the same value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine import Card, HandCategory, evaluate
from engine.variants import STUD_HIGH

# Russian rank names: nominative singular, nominative plural, genitive singular, genitive plural.
_RU_RANKS: Final[dict[int, tuple[str, str, str, str]]] = {
    2: ("двойка", "двойки", "двойки", "двоек"),
    3: ("тройка", "тройки", "тройки", "троек"),
    4: ("четвёрка", "четвёрки", "четвёрки", "четвёрок"),
    5: ("пятёрка", "пятёрки", "пятёрки", "пятёрок"),
    6: ("шестёрка", "шестёрки", "шестёрки", "шестёрок"),
    7: ("семёрка", "семёрки", "семёрки", "семёрок"),
    8: ("восьмёрка", "восьмёрки", "восьмёрки", "восьмёрок"),
    9: ("девятка", "девятки", "девятки", "девяток"),
    10: ("десятка", "десятки", "десятки", "десяток"),
    11: ("валет", "валеты", "валета", "валетов"),
    12: ("дама", "дамы", "дамы", "дам"),
    13: ("король", "короли", "короля", "королей"),
    14: ("туз", "тузы", "туза", "тузов"),
}
_ONE, _MANY, _OF_ONE, _OF_MANY = range(4)


def describe(cards: Sequence[Card], language: str) -> str | None:
    """The best hand in ``cards``: 5 to 7 cards make a poker hand, 1 to 4 a stud holding."""
    if not cards:
        return None
    if len(cards) < 5:
        if language == "en":
            return STUD_HIGH.board_rank(cards).holding
        return _holding_ru(cards)
    value = evaluate(cards)
    if language == "en":
        return value.describe()
    return _hand_ru(value.category, value.ranks)


# The stud board's categories (RULES 4.1), weakest first, as poker hand categories.
_BOARD_CATEGORIES: Final = (
    HandCategory.HIGH_CARD,
    HandCategory.PAIR,
    HandCategory.TWO_PAIR,
    HandCategory.THREE_OF_A_KIND,
    HandCategory.FOUR_OF_A_KIND,
)


def _holding_ru(cards: Sequence[Card]) -> str:
    category, *ranks = STUD_HIGH.board_rank(cards).key
    return _hand_ru(_BOARD_CATEGORIES[category], ranks)


def _hand_ru(category: HandCategory, ranks: Sequence[int]) -> str:
    first = _RU_RANKS[ranks[0]]
    if category is HandCategory.HIGH_CARD:
        return f"старшая карта — {first[_ONE]}"
    if category is HandCategory.PAIR:
        return f"пара {first[_OF_MANY]}"
    if category is HandCategory.TWO_PAIR:
        return f"две пары: {first[_MANY]} и {_RU_RANKS[ranks[1]][_MANY]}"
    if category is HandCategory.THREE_OF_A_KIND:
        return f"тройка {first[_OF_MANY]}"
    if category is HandCategory.STRAIGHT:
        return f"стрит до {first[_OF_ONE]}"
    if category is HandCategory.FLUSH:
        return f"флеш от {first[_OF_ONE]}"
    if category is HandCategory.FULL_HOUSE:
        return f"фулл-хаус: {first[_MANY]} и {_RU_RANKS[ranks[1]][_MANY]}"
    if category is HandCategory.FOUR_OF_A_KIND:
        return f"каре {first[_OF_MANY]}"
    if ranks[0] == 14:
        return "роял-флеш"
    return f"стрит-флеш до {first[_OF_ONE]}"
