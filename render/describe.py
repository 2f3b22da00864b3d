"""Names of hands in the pictures' language, worked out from the cards themselves.

The wording is the language's :class:`render.labels.HandWords`; English is the engine's own
(``HandValue.describe`` and the stud board holdings), so a picture says what the history says.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine import Card, HandCategory, evaluate
from engine.variants import STUD_HIGH
from render.labels import HandWords, RankWords, words

# The stud board's categories (RULES 4.1), weakest first, as poker hand categories.
_BOARD_CATEGORIES: Final = (
    HandCategory.HIGH_CARD,
    HandCategory.PAIR,
    HandCategory.TWO_PAIR,
    HandCategory.THREE_OF_A_KIND,
    HandCategory.FOUR_OF_A_KIND,
)
_ACE: Final = 14
_WHEEL_HIGH: Final = 5


def describe(cards: Sequence[Card], language: str) -> str | None:
    """The best hand in ``cards``: 5 to 7 cards make a poker hand, 1 to 4 a stud holding."""
    if not cards:
        return None
    hands = words(language).hands
    if len(cards) < 5:
        category, *ranks = STUD_HIGH.board_rank(cards).key
        return name_hand(hands, _BOARD_CATEGORIES[category], ranks, board=True)
    value = evaluate(cards)
    return name_hand(hands, value.category, value.ranks)


def name_hand(
    hands: HandWords, category: HandCategory, ranks: Sequence[int], *, board: bool = False
) -> str:
    """``category`` with its ranks (highest first, as the engine orders them) in ``hands``."""
    first = ranks[0]
    params = _forms("", hands.rank(first))
    if len(ranks) > 1:
        params |= _forms("2", hands.rank(ranks[1]))
    low = _ACE if first == _WHEEL_HIGH else first - 4
    if category is HandCategory.STRAIGHT or category is HandCategory.STRAIGHT_FLUSH:
        params |= {"low": hands.rank(low).one, "low_of": hands.rank(low).of_one}
    templates = {
        HandCategory.HIGH_CARD: hands.board_high_card if board else hands.high_card,
        HandCategory.PAIR: hands.pair,
        HandCategory.TWO_PAIR: hands.two_pair,
        HandCategory.THREE_OF_A_KIND: hands.three_of_a_kind,
        HandCategory.STRAIGHT: hands.straight,
        HandCategory.FLUSH: hands.flush,
        HandCategory.FULL_HOUSE: hands.full_house,
        HandCategory.FOUR_OF_A_KIND: hands.four_of_a_kind,
        HandCategory.STRAIGHT_FLUSH: hands.royal_flush if first == _ACE else hands.straight_flush,
    }
    return templates[category].format(**params)


def _forms(suffix: str, rank: RankWords) -> dict[str, str]:
    return {
        f"rank{suffix}": rank.one,
        f"ranks{suffix}": rank.many,
        f"rank{suffix}_of": rank.of_one,
        f"ranks{suffix}_of": rank.of_many,
    }
