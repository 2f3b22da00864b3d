"""Hand evaluation for 5, 6 or 7 cards: high hands (RULES 5.1) and ace-to-five lows (RULES 9.1,
10.1; at the end of this module).

A hand's strength is a :class:`HandValue`, an ``int`` that encodes the category in bits 20 and up
and the ranks that define the hand in the five nibbles below, most significant first (a straight
keeps only its high card, 5 for the wheel). Comparing values therefore compares hands, and two
hands have the same value exactly when they are equally strong: the 2,598,960 five-card hands
have 7,462 values. Suits never rank.

Speed: every card has a weight, and the sum of a hand's weights holds, side by side, a count of
the cards in each suit (offset so that a count of five or more sets that counter's top bit), the
hand's rank multiset in base 5 and one bit per card. A hand without a flush is worth whatever its
rank multiset is worth, and a flush is worth whatever the 13-bit rank mask of its suit is worth.
Both are memoised on first sight (at most 73,775 multisets and 4,096 masks) instead of being
tabulated at import, so importing costs nothing and a warm evaluation is one ``sum``, a
duplicate check on the card bits and one dict lookup.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from enum import IntEnum
from itertools import combinations
from typing import Final

from engine.cards import FULL_DECK, RANK_CHARS, Card, rank_name


class HandCategory(IntEnum):
    """Hand categories, weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


_CATEGORY_SHIFT: Final = 20
_ACE: Final = 14
_WHEEL_HIGH: Final = 5


class HandValue(int):
    """The strength of a hand: greater wins, equal values are equally strong."""

    __slots__ = ()

    @property
    def category(self) -> HandCategory:
        return HandCategory(self >> _CATEGORY_SHIFT)

    @property
    def ranks(self) -> tuple[int, ...]:
        """Ranks that define the hand, significant first: a full house of Kings over Sevens is
        ``(13, 7)``, a pair is its rank then three kickers, a straight is its high card (5 for
        the wheel)."""
        ranks = []
        for shift in (16, 12, 8, 4, 0):
            rank = (self >> shift) & 0xF
            if not rank:
                break
            ranks.append(rank)
        return tuple(ranks)

    def describe(self) -> str:
        """The hand in PokerStars' hand-history wording, e.g. ``"two pair, Kings and Sevens"``."""
        category = self.category
        ranks = self.ranks
        first = ranks[0]
        if category is HandCategory.HIGH_CARD:
            return f"high card {rank_name(first)}"
        if category is HandCategory.PAIR:
            return f"a pair of {rank_name(first, True)}"
        if category is HandCategory.TWO_PAIR:
            return f"two pair, {rank_name(first, True)} and {rank_name(ranks[1], True)}"
        if category is HandCategory.THREE_OF_A_KIND:
            return f"three of a kind, {rank_name(first, True)}"
        if category is HandCategory.STRAIGHT:
            return f"a straight, {_straight_span(first)}"
        if category is HandCategory.FLUSH:
            return f"a flush, {rank_name(first)} high"
        if category is HandCategory.FULL_HOUSE:
            return f"a full house, {rank_name(first, True)} full of {rank_name(ranks[1], True)}"
        if category is HandCategory.FOUR_OF_A_KIND:
            return f"four of a kind, {rank_name(first, True)}"
        if first == _ACE:
            return "a Royal Flush"
        return f"a straight flush, {_straight_span(first)}"

    def __repr__(self) -> str:
        return f"<HandValue {int(self):#x}: {self.describe()}, ranks {self.ranks}>"


def _straight_span(high: int) -> str:
    # PokerStars names the wheel "Ace to Five".
    low = _ACE if high == _WHEEL_HIGH else high - 4
    return f"{rank_name(low)} to {rank_name(high)}"


# Every HandValue is interned, so the memo tables share at most 7,462 objects.
_VALUES: dict[int, HandValue] = {}


def _hand_value(category: HandCategory, ranks: Sequence[int]) -> HandValue:
    encoded = category << _CATEGORY_SHIFT
    shift = 16
    for rank in ranks:
        encoded |= rank << shift
        shift -= 4
    value = _VALUES.get(encoded)
    if value is None:
        value = _VALUES[encoded] = HandValue(encoded)
    return value


# Rank masks use bit (rank - 2): deuce is bit 0, ace bit 12.
_STRAIGHT_MASKS: Final = (
    *((0b11111 << (high - 6), high) for high in range(_ACE, _WHEEL_HIGH, -1)),
    (0b1_0000_0000_1111, _WHEEL_HIGH),
)


def _straight_high(rank_mask: int) -> int:
    """High card of the best straight within the mask, or 0."""
    for window, high in _STRAIGHT_MASKS:
        if rank_mask & window == window:
            return high
    return 0


def _flush_value(rank_mask: int) -> HandValue:
    """Best hand made by the cards of one suit whose ranks are the mask (5 to 7 bits)."""
    high = _straight_high(rank_mask)
    if high:
        return _hand_value(HandCategory.STRAIGHT_FLUSH, (high,))
    ranks = [rank for rank in range(_ACE, 1, -1) if rank_mask >> (rank - 2) & 1]
    return _hand_value(HandCategory.FLUSH, ranks[:5])


def _multiset_value(rank_key: int) -> HandValue:
    """Best non-flush hand from a base-5 rank multiset (digit rank - 2 = cards of that rank)."""
    counts = []
    for _ in range(13):
        rank_key, count = divmod(rank_key, 5)
        counts.append(count)
    by_count: dict[int, list[int]] = {1: [], 2: [], 3: [], 4: []}
    rank_mask = 0
    for rank in range(_ACE, 1, -1):
        count = counts[rank - 2]
        if count:
            by_count[count].append(rank)
            rank_mask |= 1 << (rank - 2)
    quads, trips, pairs, singles = by_count[4], by_count[3], by_count[2], by_count[1]
    if quads:
        kicker = max(trips + pairs + singles)
        return _hand_value(HandCategory.FOUR_OF_A_KIND, (quads[0], kicker))
    if trips and (len(trips) > 1 or pairs):
        return _hand_value(HandCategory.FULL_HOUSE, (trips[0], max(trips[1:] + pairs)))
    high = _straight_high(rank_mask)
    if high:
        return _hand_value(HandCategory.STRAIGHT, (high,))
    if trips:
        return _hand_value(HandCategory.THREE_OF_A_KIND, [trips[0], *singles[:2]])
    if len(pairs) > 1:
        kicker = max(pairs[2:] + singles)
        return _hand_value(HandCategory.TWO_PAIR, (pairs[0], pairs[1], kicker))
    if pairs:
        return _hand_value(HandCategory.PAIR, [pairs[0], *singles[:3]])
    return _hand_value(HandCategory.HIGH_CARD, singles[:5])


class _MultisetValues(dict[int, HandValue]):
    def __missing__(self, rank_key: int) -> HandValue:
        value = self[rank_key] = _multiset_value(rank_key)
        return value


class _FlushValues(dict[int, HandValue]):
    def __missing__(self, rank_mask: int) -> HandValue:
        value = self[rank_mask] = _flush_value(rank_mask)
        return value


_MULTISET_VALUES: Final = _MultisetValues()
_FLUSH_VALUES: Final = _FlushValues()

# Weight layout: bits 0-15 hold four 4-bit suit counters, bits 16-46 the base-5 rank key, bits
# 48-99 the card itself as one bit, suit by suit (13 rank bits each). Counters start at 3 so that
# five or more cards of a suit set the counter's top bit. A sum of n distinct cards' bits has n
# bits set and any repeated card carries, so the card bits also reveal duplicates.
_RANK_KEY_SHIFT: Final = 16
_RANK_KEY_MASK: Final = (1 << 31) - 1
_CARD_BITS_SHIFT: Final = 48
_SUIT_COUNTERS_START: Final = 0x3333
_FLUSH_BITS: Final = 0x8888
_WEIGHT: Final[dict[int, int]] = {
    card: 1 << (_CARD_BITS_SHIFT + 13 * (card & 3) + (card >> 2))
    | (5 ** (card >> 2)) << _RANK_KEY_SHIFT
    | 1 << 4 * (card & 3)
    for card in range(52)
}


def _value_of_key(key: int) -> HandValue:
    flush = key & _FLUSH_BITS
    if flush:
        # Only one suit can hold five of seven cards; the top bit of counter s is bit 4s + 3.
        suit = (flush.bit_length() - 4) >> 2
        return _FLUSH_VALUES[key >> (_CARD_BITS_SHIFT + 13 * suit) & 0x1FFF]
    return _MULTISET_VALUES[key >> _RANK_KEY_SHIFT & _RANK_KEY_MASK]


def _evaluate_unchecked(hand: Iterable[int]) -> HandValue:
    """Value of 5 to 7 distinct cards, without checking them (for exhaustive loops)."""
    return _value_of_key(sum(map(_WEIGHT.__getitem__, hand), _SUIT_COUNTERS_START))


def _refusal(hand: tuple[Card, ...]) -> ValueError:
    if not 5 <= len(hand) <= 7:
        return ValueError(f"a hand is evaluated from 5, 6 or 7 cards, not {len(hand)}")
    strangers = [item for item in hand if not (isinstance(item, int) and 0 <= item < 52)]
    if strangers:
        return ValueError(f"not cards: {', '.join(map(repr, strangers))}")
    twice = [card for card, count in Counter(hand).items() if count > 1]
    return ValueError(f"the same card twice: {' '.join(str(FULL_DECK[c]) for c in twice)}")


def _checked_key(cards: Iterable[Card]) -> int:
    """The summed weights of 5, 6 or 7 distinct cards; ValueError for anything else."""
    hand = tuple(cards)
    try:
        key = sum(map(_WEIGHT.__getitem__, hand), _SUIT_COUNTERS_START)
    except (KeyError, TypeError):
        raise _refusal(hand) from None
    if not 5 <= len(hand) <= 7 or (key >> _CARD_BITS_SHIFT).bit_count() != len(hand):
        raise _refusal(hand)
    return key


def evaluate(cards: Iterable[Card]) -> HandValue:
    """Value of the best five of 5, 6 or 7 distinct cards (RULES 5.1); ValueError otherwise."""
    return _value_of_key(_checked_key(cards))


# How many cards of each defining rank make the five, for categories not built from a sequence.
_SHAPES: Final[dict[HandCategory, tuple[int, ...]]] = {
    HandCategory.HIGH_CARD: (1, 1, 1, 1, 1),
    HandCategory.PAIR: (2, 1, 1, 1),
    HandCategory.TWO_PAIR: (2, 2, 1),
    HandCategory.THREE_OF_A_KIND: (3, 1, 1),
    HandCategory.FULL_HOUSE: (3, 2),
    HandCategory.FOUR_OF_A_KIND: (4, 1),
}


def best_five(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The five cards that make the best hand, significant first.

    Order: the cards of the defining ranks in the order of ``HandValue.ranks`` (pair before
    kickers, trips before the pair of a full house, ...), kickers high to low, a straight from
    its high card down (the wheel ends with its Ace). When several cards could fill a place
    (a third pair's kicker, a straight with two Nines), the one of the highest suit is used,
    which is what RULES 5.4 compares for the odd chip.
    """
    hand = tuple(cards)
    value = evaluate(hand)
    category = value.category
    # Card order is rank then suit, so this puts higher suits first within a rank.
    ordered = sorted((FULL_DECK[card] for card in hand), reverse=True)
    if category in (HandCategory.FLUSH, HandCategory.STRAIGHT_FLUSH):
        suit_counts = [0, 0, 0, 0]
        for card in ordered:
            suit_counts[card & 3] += 1
        flush_suit = max(range(4), key=suit_counts.__getitem__)
        ordered = [card for card in ordered if card & 3 == flush_suit]
        if category is HandCategory.FLUSH:
            return tuple(ordered[:5])
    if category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
        high = value.ranks[0]
        wanted = [(rank if rank > 1 else _ACE, 1) for rank in range(high, high - 5, -1)]
    else:
        wanted = list(zip(value.ranks, _SHAPES[category], strict=True))
    chosen: list[Card] = []
    for rank, count in wanted:
        chosen.extend([card for card in ordered if card.rank == rank][:count])
    return tuple(chosen)


# --------------------------------------------------------------------------- low hands
#
# Ace-to-five lows (RULES 9.1) and eight-or-better lows (RULES 10.1) ignore suits, so a low is a
# function of the rank multiset alone: the base-5 rank key already inside every card weight. A
# warm low evaluation is therefore the same sum and one dict lookup as a high one.

# A low's "badness" is encoded like a HandValue with the ace as 1: the category above bit 20 and
# the defining ranks in five nibbles (pair rank before kickers, each group high first). A smaller
# badness is a better low; LowValue stores _LOW_TOP - badness so that, as for HandValue, the
# greater value wins.
_LOW_TOP: Final = 1 << 24
_LOW_ACE: Final = 1
_EIGHT: Final = 8


class LowValue(int):
    """The strength of an ace-to-five low: greater wins, equal values are equally strong.

    ``category`` is how paired the five are (``HIGH_CARD`` for five unpaired cards, then
    ``PAIR``, ``TWO_PAIR``, ``THREE_OF_A_KIND``, ``FULL_HOUSE``, ``FOUR_OF_A_KIND``); straights
    and flushes never count.
    """

    __slots__ = ()

    @property
    def category(self) -> HandCategory:
        return HandCategory((_LOW_TOP - self) >> _CATEGORY_SHIFT)

    @property
    def ranks(self) -> tuple[int, ...]:
        """The five ranks as they are compared, ace as 1: ``(8, 6, 4, 2, 1)`` is the 8-6 low;
        a paired low lists its pair first, twice: ``(8, 8, 4, 3, 2)``."""
        ranks = _LOW_RANKS.get(self)
        if ranks is None:
            ranks = _LOW_RANKS[self] = self._decode_ranks()
        return ranks

    def _decode_ranks(self) -> tuple[int, ...]:
        badness = _LOW_TOP - self
        groups = []
        for shift in (16, 12, 8, 4, 0):
            rank = (badness >> shift) & 0xF
            if not rank:
                break
            groups.append(rank)
        shape = _SHAPES[self.category]
        return tuple(rank for rank, count in zip(groups, shape, strict=True) for _ in range(count))

    @property
    def qualifies_for_eight(self) -> bool:
        """Five unpaired cards, eight or lower (RULES 10.1)."""
        return self.category is HandCategory.HIGH_CARD and self.ranks[0] <= _EIGHT

    def describe(self) -> str:
        """PokerStars' wording of a low, ranks high first: ``"8,6,4,2,A"``."""
        return ",".join(low_rank_char(rank) for rank in self.ranks)

    def __repr__(self) -> str:
        return f"<LowValue {int(self):#x}: {self.describe()}>"


# Decoded ranks of every low seen (at most 6,175): showdowns and wording read them often.
_LOW_RANKS: dict[int, tuple[int, ...]] = {}


def low_rank_char(rank: int) -> str:
    """The character of a low rank (ace as 1 or 14): ``"A"``, ``"2"`` .. ``"K"``."""
    return "A" if rank in (_LOW_ACE, _ACE) else RANK_CHARS[rank - 2]


_LOW_VALUES_INTERNED: dict[int, LowValue] = {}


def _low_value(counts: Sequence[int]) -> LowValue:
    """The low of exactly five cards given as counts per low rank (index 1 = ace .. 13 = king)."""
    by_count: dict[int, list[int]] = {1: [], 2: [], 3: [], 4: []}
    for rank in range(13, 0, -1):
        if counts[rank]:
            by_count[counts[rank]].append(rank)
    quads, trips, pairs, singles = by_count[4], by_count[3], by_count[2], by_count[1]
    if quads:
        category, groups = HandCategory.FOUR_OF_A_KIND, quads + singles
    elif trips and pairs:
        category, groups = HandCategory.FULL_HOUSE, trips + pairs
    elif trips:
        category, groups = HandCategory.THREE_OF_A_KIND, trips + singles
    elif len(pairs) == 2:
        category, groups = HandCategory.TWO_PAIR, pairs + singles
    elif pairs:
        category, groups = HandCategory.PAIR, pairs + singles
    else:
        category, groups = HandCategory.HIGH_CARD, singles
    badness = category << _CATEGORY_SHIFT
    shift = 16
    for rank in groups:
        badness |= rank << shift
        shift -= 4
    encoded = _LOW_TOP - badness
    value = _LOW_VALUES_INTERNED.get(encoded)
    if value is None:
        value = _LOW_VALUES_INTERNED[encoded] = LowValue(encoded)
    return value


def _low_of_rank_key(rank_key: int) -> LowValue:
    """Best ace-to-five low of 5 to 7 cards given by their base-5 rank key."""
    counts = [0] * 14  # index 1 = ace .. 13 = king
    for rank in range(2, _ACE + 1):
        rank_key, count = divmod(rank_key, 5)
        counts[_LOW_ACE if rank == _ACE else rank] = count
    distinct = [rank for rank in range(1, 14) if counts[rank]]
    if len(distinct) >= 5:
        # Five unpaired cards beat any pair: the five lowest ranks are the best low.
        lowest = [0] * 14
        for rank in distinct[:5]:
            lowest[rank] = 1
        return _low_value(lowest)
    # Fewer than five ranks: some pairing is forced; try every five of the cards.
    cards = [rank for rank in range(1, 14) for _ in range(counts[rank])]
    best: LowValue | None = None
    for five in set(combinations(cards, 5)):
        five_counts = [0] * 14
        for rank in five:
            five_counts[rank] += 1
        value = _low_value(five_counts)
        if best is None or value > best:
            best = value
    assert best is not None
    return best


class _LowValues(dict[int, LowValue]):
    def __missing__(self, rank_key: int) -> LowValue:
        value = self[rank_key] = _low_of_rank_key(rank_key)
        return value


class _EightLowValues(dict[int, "LowValue | None"]):
    def __missing__(self, rank_key: int) -> LowValue | None:
        low = _LOW_VALUES[rank_key]
        value = self[rank_key] = low if low.qualifies_for_eight else None
        return value


_LOW_VALUES: Final = _LowValues()
_EIGHT_LOW_VALUES: Final = _EightLowValues()


def evaluate_low(cards: Iterable[Card]) -> LowValue:
    """The best ace-to-five low of 5, 6 or 7 distinct cards (RULES 9.1); ValueError otherwise."""
    return _LOW_VALUES[_checked_key(cards) >> _RANK_KEY_SHIFT & _RANK_KEY_MASK]


def evaluate_eight_low(cards: Iterable[Card]) -> LowValue | None:
    """The best eight-or-better low of 5, 6 or 7 distinct cards, or ``None`` when they hold no
    five unpaired cards of eight or lower (RULES 10.1)."""
    return _EIGHT_LOW_VALUES[_checked_key(cards) >> _RANK_KEY_SHIFT & _RANK_KEY_MASK]


def _low_unchecked(hand: Iterable[int]) -> LowValue:
    """``evaluate_low`` without checks, for exhaustive loops."""
    key = sum(map(_WEIGHT.__getitem__, hand), _SUIT_COUNTERS_START)
    return _LOW_VALUES[key >> _RANK_KEY_SHIFT & _RANK_KEY_MASK]


def low_card_order(card: Card) -> tuple[int, int]:
    """A card's place when aces are low: rank (ace 1), then suit."""
    rank = card.rank
    return (_LOW_ACE if rank == _ACE else rank), int(card) & 3


def best_low_five(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The five cards that make the best ace-to-five low, in the order of ``LowValue.ranks``.

    When several cards could fill a place, the one of the highest suit is used, which is what the
    odd-chip rule (RULES 5.4, 9.5, 10.2) compares.
    """
    hand = tuple(cards)
    value = evaluate_low(hand)
    by_rank: dict[int, list[Card]] = {}
    for card in sorted((FULL_DECK[card] for card in hand), reverse=True):  # higher suits first
        rank = (card >> 2) + 2
        by_rank.setdefault(_LOW_ACE if rank == _ACE else rank, []).append(card)
    # A rank listed twice in the low (a pair) takes its two highest suits.
    seen: dict[int, int] = {}
    chosen: list[Card] = []
    for rank in value.ranks:
        nth = seen.get(rank, 0)
        seen[rank] = nth + 1
        chosen.append(by_rank[rank][nth])
    return tuple(chosen)


# --------------------------------------------------------------------------- keys, for sampling
#
# A computer player estimates its chances by dealing the unseen cards thousands of times a
# decision. It keeps each hand as its summed card weights (a "key") and adds a sampled card with
# one integer addition, so each evaluation is a lookup. The cards must be distinct and 5 to 7;
# nothing is checked (tests/engine/test_evaluator_keys.py proves these agree with ``evaluate``,
# ``evaluate_low`` and ``evaluate_eight_low``).

EMPTY_KEY: Final = _SUIT_COUNTERS_START
CARD_KEYS: Final[tuple[int, ...]] = tuple(_WEIGHT[card] for card in range(52))


def hand_key(cards: Iterable[Card]) -> int:
    """The key of distinct cards: ``EMPTY_KEY`` plus each card's ``CARD_KEYS`` entry."""
    return sum(map(CARD_KEYS.__getitem__, cards), _SUIT_COUNTERS_START)


def high_of_key(key: int) -> HandValue:
    """``evaluate`` of the 5 to 7 distinct cards whose key this is."""
    return _value_of_key(key)


def low_of_key(key: int) -> LowValue:
    """``evaluate_low`` of the 5 to 7 distinct cards whose key this is."""
    return _LOW_VALUES[key >> _RANK_KEY_SHIFT & _RANK_KEY_MASK]


def eight_low_of_key(key: int) -> LowValue | None:
    """``evaluate_eight_low`` of the 5 to 7 distinct cards whose key this is."""
    return _EIGHT_LOW_VALUES[key >> _RANK_KEY_SHIFT & _RANK_KEY_MASK]
