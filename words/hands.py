"""Names of hands in a language, worked out from the cards themselves.

The wording is the language's :class:`words.pictures.HandWords`; English is the engine's own
(``HandValue.describe`` and the stud board holdings), so a picture and the channel say what the
history says.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine import Card, HandCategory, evaluate
from engine.public import PrivateHand, ShownCards
from engine.variants import STUD_HIGH, low_board
from words.pictures import HandWords, RankWords

_ACE: Final = 14
_WHEEL_HIGH: Final = 5
_LOW_DIGITS: Final = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}


def describe(cards: Sequence[Card], hands: HandWords) -> str | None:
    """The best hand in ``cards``: 5 to 7 cards make a poker hand, 1 to 4 a stud holding."""
    if not cards:
        return None
    if len(cards) < 5:
        board = STUD_HIGH.board_rank(cards)
        return name_hand(hands, board.category, board.ranks, board=True)
    value = evaluate(cards)
    return name_hand(hands, value.category, value.ranks)


def describe_board(
    category: HandCategory, ranks: Sequence[int], hands: HandWords, *, low: bool = False
) -> str:
    """A stud board (one to four up cards) as data: ``ranks`` high first, pairs first; on a low
    board the ace is 1 and unpaired cards read as a low ("Seven-Four low")."""
    if low:
        if category is HandCategory.HIGH_CARD:
            return hands.low.format(ranks="-".join(hands.rank(_high(r)).one for r in ranks))
        ranks = [_high(rank) for rank in ranks]
    return name_hand(hands, category, ranks, board=True)


def describe_low(category: HandCategory, ranks: Sequence[int], hands: HandWords) -> str:
    """A five-card low (ace as 1) as players say it: "Eight-Six low"; a paired low (Razz) by
    its pairs."""
    if category is HandCategory.HIGH_CARD:
        return hands.low.format(ranks="-".join(hands.rank(_high(r)).one for r in ranks[:2]))
    return name_hand(hands, category, [_high(rank) for rank in dict.fromkeys(ranks)])


def low_digits(ranks: Sequence[int]) -> str:
    """A low's five ranks, highest first, as players write them: "8-6-4-2-A"."""
    return "-".join(_LOW_DIGITS.get(rank, str(rank)) for rank in ranks)


def describe_shown(
    shown: ShownCards, hands: HandWords, *, high_game: bool, low_game: bool, short: bool = False
) -> str:
    """A hand at showdown in the game's terms: its high, its low, or both ("a flush · no low").
    ``short`` writes an unpaired low as digits only (for a seat on the picture); otherwise
    "Eight-Six low (8-6-4-2-A)"."""
    parts: list[str] = []
    if high_game and shown.high_category is not None:
        parts.append(name_hand(hands, shown.high_category, shown.high_ranks))
    if low_game:
        parts.append(describe_shown_low(shown, hands, short=short))
    if parts:
        return " · ".join(parts)
    # Hands shown before the halves were data were all Stud High: name them from their cards.
    return describe(shown.best_five or shown.cards, hands) or shown.description


def describe_shown_low(shown: ShownCards, hands: HandWords, *, short: bool = False) -> str:
    """The low half of a hand at showdown: "no low" where none qualifies (see describe_shown)."""
    if shown.low_category is None:
        return hands.no_low
    spoken = describe_low(shown.low_category, shown.low_ranks, hands)
    if shown.low_category is not HandCategory.HIGH_CARD:
        return spoken
    digits = low_digits(shown.low_ranks)
    return digits if short else f"{spoken} ({digits})"


def describe_private(hand: PrivateHand, hands: HandWords) -> str | None:
    """A player's best hand so far, for his eyes: with five cards or more his best high and his
    best low in the game's terms; with fewer, his holding."""
    if hand.high is None and hand.low is None:
        own = [item.card for item in hand.cards]
        if not own:
            return None
        if hand.high_game:
            return describe(own, hands)
        board = low_board(own)
        return describe_board(board.category, board.ranks, hands, low=True)
    parts: list[str] = []
    if hand.high_game and hand.high is not None:
        parts.append(name_hand(hands, hand.high.category, hand.high.ranks))
    if hand.low_game:
        if hand.low is None:
            parts.append(hands.no_low)
        elif hand.low.category is HandCategory.HIGH_CARD:
            parts.append(low_digits(hand.low.ranks))
        else:
            parts.append(describe_low(hand.low.category, hand.low.ranks, hands))
    return " · ".join(parts)


def _high(rank: int) -> int:
    """A low's rank (ace as 1) as the hand words number ranks (ace as 14)."""
    return _ACE if rank == 1 else rank


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
