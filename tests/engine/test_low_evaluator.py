"""Low hands (RULES 9.1, 10.1): an exhaustive five-card census against the known counts, the
order of every low against PokerKit's own tables, and 100,000 random seven-card hands against
PokerKit's ``RegularLowHand`` and ``EightOrBetterLowHand``.

The known figures (ranks counted once, suits free):

- ace-to-five: unpaired lows are 5 of 13 ranks, C(13,5) = 1,287, each dealt 4^5 = 1,024 ways:
  1,317,888 hands (the high census's 1,302,540 high cards + 10,200 straights + 5,108 flushes
  + 40 straight flushes, as straights and flushes don't count). With the paired shapes (2,860
  pairs, 858 two pairs, 858 trips, 156 full houses, 156 quads, the high census's counts) that
  makes 6,175 distinct lows over 2,598,960 hands;
- eight or better: 5 of the 8 ranks A-8, C(8,5) = 56 distinct lows, 56 x 1,024 = 57,344 hands.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from pokerkit import Card as PokerKitCard
from pokerkit import EightOrBetterLowHand, RegularLowHand
from pokerkit.lookups import Entry

from engine.cards import FULL_DECK, parse_cards
from engine.evaluator import (
    HandCategory,
    LowValue,
    _low_unchecked,
    best_low_five,
    evaluate_eight_low,
    evaluate_low,
)

POKERKIT_CARD = [next(PokerKitCard.parse(str(card))) for card in FULL_DECK]

Census = tuple[Counter[LowValue], dict[LowValue, tuple[int, ...]]]


# Built once a test process: the tests checking it run in one (xdist_group), not one each.
@pytest.fixture(scope="module")
def low_census() -> Census:
    """Every five-card hand's ace-to-five low counted, and one hand per low."""
    deck = range(52)
    values = list(map(_low_unchecked, combinations(deck, 5)))
    return Counter(values), dict(zip(values, combinations(deck, 5), strict=True))


@pytest.mark.xdist_group("low census")
def test_rules_9_1_all_five_card_hands_have_6175_lows(low_census: Census) -> None:
    counts, _ = low_census
    assert sum(counts.values()) == 2_598_960
    assert len(counts) == 6175
    classes: Counter[HandCategory] = Counter()
    hands: Counter[HandCategory] = Counter()
    for value, count in counts.items():
        classes[value.category] += 1
        hands[value.category] += count
    c = HandCategory
    assert classes == {
        c.HIGH_CARD: 1287,
        c.PAIR: 2860,
        c.TWO_PAIR: 858,
        c.THREE_OF_A_KIND: 858,
        c.FULL_HOUSE: 156,
        c.FOUR_OF_A_KIND: 156,
    }
    assert hands == {
        c.HIGH_CARD: 1_317_888,
        c.PAIR: 1_098_240,
        c.TWO_PAIR: 123_552,
        c.THREE_OF_A_KIND: 54_912,
        c.FULL_HOUSE: 3_744,
        c.FOUR_OF_A_KIND: 624,
    }
    assert max(counts).ranks == (5, 4, 3, 2, 1) and max(counts).describe() == "5,4,3,2,A"
    assert min(counts).ranks == (13, 13, 13, 13, 12)


@pytest.mark.xdist_group("low census")
def test_rules_10_1_eight_or_better_has_56_lows(low_census: Census) -> None:
    counts, representatives = low_census
    qualifying = {value: count for value, count in counts.items() if value.qualifies_for_eight}
    assert len(qualifying) == 56
    assert sum(qualifying.values()) == 57_344
    assert set(qualifying.values()) == {1024}
    for value, cards in representatives.items():
        eight = evaluate_eight_low(FULL_DECK[card] for card in cards)
        assert eight == (value if value in qualifying else None)
    assert min(qualifying).describe() == "8,7,6,5,4"


@pytest.mark.xdist_group("low census")
def test_every_low_is_ordered_as_pokerkit_orders_it(low_census: Census) -> None:
    """Our 6,175 lows in order are PokerKit's RegularLookup entries in order (a smaller entry
    is a better low there), and our 56 eight-or-better lows are its EightOrBetterLookup's."""
    _, representatives = low_census
    ordered = sorted(representatives)  # worst low first
    entries = [
        RegularLowHand.lookup.get_entry([POKERKIT_CARD[c] for c in representatives[value]])
        for value in ordered
    ]
    assert entries == sorted(entries, reverse=True) and len(set(entries)) == 6175
    eights = [value for value in ordered if value.qualifies_for_eight]
    eight_entries = [
        EightOrBetterLowHand.lookup.get_entry([POKERKIT_CARD[c] for c in representatives[value]])
        for value in eights
    ]
    assert eight_entries == sorted(eight_entries, reverse=True) and len(set(eight_entries)) == 56


def _pokerkit_best(lookup_entries: dict[tuple[int, ...], Entry], hand: list[int]) -> Entry | None:
    """PokerKit's ``from_game``, best of the 21 fives by its own lookup entries, read from a
    table of those entries per five-card rank multiset (suits don't enter a low)."""
    found = [
        entry
        for five in combinations(sorted(card >> 2 for card in hand), 5)
        if (entry := lookup_entries.get(five)) is not None
    ]
    return min(found) if found else None


@pytest.mark.parametrize(
    ("count", "seed"),
    [
        # 100,000 hands in the slow tier (and CI), 20,000 others in the quick one.
        pytest.param(100_000, 0, id="100,000 hands", marks=pytest.mark.slow),
        pytest.param(20_000, 1, id="20,000 hands"),
    ],
)
@pytest.mark.parametrize("kind", ["ace-to-five", "eight-or-better"])
def test_random_seven_card_hands_agree_with_pokerkit(
    kind: str, count: int, seed: int, low_census: Census
) -> None:
    """RULES 9.1 / 10.1 on seven cards: each hand's low ranks against every other hand's as
    PokerKit's ``RegularLowHand`` / ``EightOrBetterLowHand`` rank them. PokerKit's
    ``from_game`` takes 150 us a hand, so it is called directly on 2,000 of them; for all
    100,000 (or 20,000) its entries come from its lookup per five-card rank multiset (built from
    every five-card low above) with the same best-of-21 ``from_game`` applies."""
    hand_type = RegularLowHand if kind == "ace-to-five" else EightOrBetterLowHand
    ours_of = evaluate_low if kind == "ace-to-five" else evaluate_eight_low
    _, representatives = low_census
    table: dict[tuple[int, ...], Entry] = {}
    for cards in representatives.values():
        entry = hand_type.lookup.get_entry_or_none([POKERKIT_CARD[c] for c in cards])
        if entry is not None:
            table[tuple(sorted(card >> 2 for card in cards))] = entry
    rng = random.Random((9_1 if kind == "ace-to-five" else 10_1) + 1000 * seed)
    hands = [rng.sample(range(52), 7) for _ in range(count)]
    ours = [ours_of(FULL_DECK[card] for card in hand) for hand in hands]
    theirs = [_pokerkit_best(table, hand) for hand in hands]
    for hand, mine, entry in zip(hands[:2000], ours, theirs, strict=False):
        direct = hand_type.from_game_or_none([POKERKIT_CARD[card] for card in hand])
        assert (direct.entry if direct is not None else None) == entry
        assert (mine is None) == (entry is None)
    pairs = sorted(
        {
            (mine, entry)
            for mine, entry in zip(ours, theirs, strict=True)
            if mine is not None and entry is not None
        },
        key=lambda pair: pair[0],
    )
    assert len({mine for mine, _ in pairs}) == len(pairs), "one of our lows, two PokerKit lows"
    assert len({entry for _, entry in pairs}) == len(pairs), "one PokerKit low, two of ours"
    entries = [entry for _, entry in pairs]
    assert entries == sorted(entries, reverse=True)  # our better lows, PokerKit's smaller entries
    assert all((mine is None) == (entry is None) for mine, entry in zip(ours, theirs, strict=True))
    if kind == "eight-or-better":
        assert 0 < sum(value is None for value in ours) < len(ours)


@pytest.mark.parametrize(
    "cards,low,five",
    [
        ("2h8dKh6h3d6d4h", "8,6,4,3,2", "8d6h4h3d2h"),  # PokerStars Razz sample, HIWAII2
        ("6h8h3dAdAcKh8c", "K,8,6,3,A", "Kh8h6h3dAd"),  # kobreli: pairs are never used
        ("3d3s5h4h4c4d3c", "4,4,3,3,5", "4h4d3s3d5h"),  # four ranks: two pair is forced
        ("As2s3s4s5s6s7s", "5,4,3,2,A", "5s4s3s2sAs"),  # a straight flush is the wheel
        ("AcAdAhAsKcKdKh", "A,A,A,K,K", "AsAhAdKhKd"),  # the lowest full house beats quads
    ],
)
def test_rules_9_1_seven_card_lows_and_their_five(cards: str, low: str, five: str) -> None:
    value = evaluate_low(parse_cards(cards))
    assert value.describe() == low
    assert best_low_five(parse_cards(cards)) == tuple(parse_cards(five))


def test_rules_10_1_eight_or_better_needs_five_unpaired_cards_eight_or_lower() -> None:
    assert evaluate_eight_low(parse_cards("7h2h4c5dJcTc8c")) == evaluate_low(
        parse_cards("7h2h4c5d8c")
    )
    assert evaluate_eight_low(parse_cards("9c2h4c5dJcTcKc")) is None  # 9 low
    assert evaluate_eight_low(parse_cards("2c2h4c4d5c5sAc")) is None  # four ranks only
    with pytest.raises(ValueError, match="twice"):
        evaluate_low(parse_cards("2c2c4c5c6c"))
    with pytest.raises(ValueError, match="5, 6 or 7"):
        evaluate_eight_low(parse_cards("2c3c4c5c"))
