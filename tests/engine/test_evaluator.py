"""Hand evaluator: exhaustive five-card census, agreement with treys, PokerStars wording."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from engine.cards import FULL_DECK, Card, parse_cards
from engine.evaluator import (
    HandCategory,
    HandValue,
    _evaluate_unchecked,
    best_five,
    evaluate,
)

TREYS_CARD = [TreysCard.new(str(card)) for card in FULL_DECK]


def value(text: str) -> HandValue:
    return evaluate(parse_cards(text))


# Built once a test process: the tests checking it run in one (xdist_group), not one each.
@pytest.fixture(scope="module")
def five_card_census() -> tuple[Counter[HandValue], dict[HandValue, tuple[int, ...]]]:
    """Every five-card hand's value counted, and one hand per value."""
    deck = range(52)
    values = list(map(_evaluate_unchecked, combinations(deck, 5)))
    return Counter(values), dict(zip(values, combinations(deck, 5), strict=True))


@pytest.mark.xdist_group("five-card census")
def test_all_five_card_hands_have_7462_values_rules_5_1(
    five_card_census: tuple[Counter[HandValue], dict[HandValue, tuple[int, ...]]],
) -> None:
    """RULES 5.1: standard high hands, suits never rank, so 7,462 distinct strengths."""
    counts, _ = five_card_census
    assert sum(counts.values()) == 2_598_960
    assert len(counts) == 7462


@pytest.mark.xdist_group("five-card census")
def test_five_card_classes_and_frequencies_per_category(
    five_card_census: tuple[Counter[HandValue], dict[HandValue, tuple[int, ...]]],
) -> None:
    counts, _ = five_card_census
    classes: Counter[HandCategory] = Counter()
    frequencies: Counter[HandCategory] = Counter()
    for hand_value, count in counts.items():
        classes[hand_value.category] += 1
        frequencies[hand_value.category] += count
    c = HandCategory
    assert classes == {
        c.STRAIGHT_FLUSH: 10,
        c.FOUR_OF_A_KIND: 156,
        c.FULL_HOUSE: 156,
        c.FLUSH: 1277,
        c.STRAIGHT: 10,
        c.THREE_OF_A_KIND: 858,
        c.TWO_PAIR: 858,
        c.PAIR: 2860,
        c.HIGH_CARD: 1277,
    }
    assert frequencies == {
        c.STRAIGHT_FLUSH: 40,
        c.FOUR_OF_A_KIND: 624,
        c.FULL_HOUSE: 3744,
        c.FLUSH: 5108,
        c.STRAIGHT: 10200,
        c.THREE_OF_A_KIND: 54912,
        c.TWO_PAIR: 123552,
        c.PAIR: 1098240,
        c.HIGH_CARD: 1302540,
    }


@pytest.mark.xdist_group("five-card census")
def test_five_card_classes_are_ordered_as_treys_orders_them(
    five_card_census: tuple[Counter[HandValue], dict[HandValue, tuple[int, ...]]],
) -> None:
    """One hand per class: ascending values must be strictly descending treys ranks."""
    _, representatives = five_card_census
    treys = TreysEvaluator()
    treys_ranks = [
        treys.evaluate([TREYS_CARD[card] for card in representatives[hand_value]], [])
        for hand_value in sorted(representatives)
    ]
    assert treys_ranks == sorted(treys_ranks, reverse=True)
    assert len(set(treys_ranks)) == 7462


def assert_same_order(ours: list[HandValue], theirs: list[int]) -> None:
    """Every pair of hands compares the same way (treys: lower is better)."""
    pairs = sorted(set(zip(ours, theirs, strict=True)))
    assert len({mine for mine, _ in pairs}) == len(pairs), "one of our values, two treys ranks"
    assert len({rank for _, rank in pairs}) == len(pairs), "one treys rank, two of our values"
    ranks_by_our_order = [rank for _, rank in pairs]
    assert ranks_by_our_order == sorted(ranks_by_our_order, reverse=True)


@pytest.mark.parametrize(
    ("size", "count", "seed"),
    [
        # The slow tier's (and CI's) runs, and the quick tier's: a fifth as many other hands.
        pytest.param(7, 100_000, 5_1_007, id="7 cards", marks=pytest.mark.slow),
        pytest.param(6, 20_000, 5_1_006, id="6 cards", marks=pytest.mark.slow),
        pytest.param(7, 20_000, 5_1_107, id="7 cards, fewer"),
        pytest.param(6, 4_000, 5_1_106, id="6 cards, fewer"),
    ],
)
def test_random_hands_compare_as_treys_compares_them_rules_5_1(
    size: int, count: int, seed: int
) -> None:
    """RULES 5.1: the best five of six or seven cards, checked against treys."""
    rng = random.Random(seed)
    hands = [rng.sample(range(52), size) for _ in range(count)]
    treys = TreysEvaluator()
    ours = [evaluate(FULL_DECK[card] for card in hand) for hand in hands]
    theirs = [treys.evaluate([TREYS_CARD[card] for card in hand], []) for hand in hands]
    assert_same_order(ours, theirs)
    # A random sample has every category, so the check above did compare across all of them.
    if size == 7:
        assert {hand_value.category for hand_value in ours} == set(HandCategory)


def test_seven_cards_are_worth_their_best_five_rules_5_1() -> None:
    """RULES 5.1: each player's best five of his seven cards counts."""
    rng = random.Random(7)
    for _ in range(2000):
        hand = [FULL_DECK[card] for card in rng.sample(range(52), 7)]
        assert evaluate(hand) == max(evaluate(five) for five in combinations(hand, 5))


@pytest.mark.parametrize(
    ("cards", "category", "ranks", "wording"),
    [
        ("Ah Jd 9c 5s 3h 2d 7c", HandCategory.HIGH_CARD, (14, 11, 9, 7, 5), "high card Ace"),
        ("Kh Kd 9c 5s 3h", HandCategory.PAIR, (13, 9, 5, 3), "a pair of Kings"),
        ("6h 6d Ac 5s 3h", HandCategory.PAIR, (6, 14, 5, 3), "a pair of Sixes"),
        ("Kh Kd 7c 7s 3h 3c 2d", HandCategory.TWO_PAIR, (13, 7, 3), "two pair, Kings and Sevens"),
        ("4h 4d 4c As Jh", HandCategory.THREE_OF_A_KIND, (4, 14, 11), "three of a kind, Fours"),
        ("5h 6d 7c 8s 9h", HandCategory.STRAIGHT, (9,), "a straight, Five to Nine"),
        ("As Kd Qh Jc Th 2c", HandCategory.STRAIGHT, (14,), "a straight, Ten to Ace"),
        ("Ah Kh 9h 5h 2h Ks Kd", HandCategory.FLUSH, (14, 13, 9, 5, 2), "a flush, Ace high"),
        (
            "Kh Kd Kc 7s 7h 7c 2d",
            HandCategory.FULL_HOUSE,
            (13, 7),
            "a full house, Kings full of Sevens",
        ),
        ("Ah Ad Ac As 2h 3h 4h", HandCategory.FOUR_OF_A_KIND, (14, 4), "four of a kind, Aces"),
        ("5d 6d 7d 8d 9d Td", HandCategory.STRAIGHT_FLUSH, (10,), "a straight flush, Six to Ten"),
        ("5d 6d 7d 8d 9d", HandCategory.STRAIGHT_FLUSH, (9,), "a straight flush, Five to Nine"),
        ("Ts Js Qs Ks As 9s", HandCategory.STRAIGHT_FLUSH, (14,), "a Royal Flush"),
    ],
)
def test_category_ranks_and_pokerstars_wording(
    cards: str, category: HandCategory, ranks: tuple[int, ...], wording: str
) -> None:
    hand_value = value(cards)
    assert type(hand_value) is HandValue
    assert hand_value.category is category
    assert hand_value.ranks == ranks
    assert hand_value.describe() == wording


def test_wheel_is_the_lowest_straight_rules_5_1() -> None:
    """RULES 5.1: A-2-3-4-5 is a straight, five high, below 2-3-4-5-6 and above any trips."""
    wheel = value("Ah 2d 3c 4s 5h")
    assert wheel.category is HandCategory.STRAIGHT
    assert wheel.ranks == (5,)
    assert wheel.describe() == "a straight, Ace to Five"
    assert wheel < value("2d 3c 4s 5h 6c")
    assert wheel > value("Ah Ad Ac Ks Qh")
    steel_wheel = value("Ah 2h 3h 4h 5h")
    assert steel_wheel.describe() == "a straight flush, Ace to Five"
    assert value("Kc Kd Ks Kh Ac") < steel_wheel < value("2h 3h 4h 5h 6h")
    # With a six as well, the six-high straight counts, not the wheel.
    assert value("Ah 2d 3c 4s 5h 6c Kd").ranks == (6,)
    # Q-K-A-2-3 does not wrap around.
    assert value("Qh Kd Ac 2s 3h").category is HandCategory.HIGH_CARD


def test_suits_never_rank_rules_5_1() -> None:
    """RULES 5.1: the same ranks in other suits are exactly as strong."""
    assert value("As Ks 9h 7d 2c") == value("Ac Kd 9s 7h 2h")
    assert value("Ah Kh Qh 9h 2h") == value("As Ks Qs 9s 2s")


def test_kickers_and_ordering_between_categories() -> None:
    assert value("Kh Kd Ac 5s 3h") > value("Kc Ks Qc Js 9h")
    assert value("Kh Kd 7c 7s 9h") > value("Kh Kd 7c 7s 8h")
    # A third pair only competes for the kicker.
    assert value("Kh Kd 7c 7s 3h 3c 2d") < value("Kh Kd 7c 7s 4h 3c 2d")
    # Two trips make a full house with the lower trips as the pair.
    assert value("9h 9d 9c 4s 4h 4c Ad") == value("9h 9d 9c 4s 4h Kc Ad")
    assert value("2h 2d 2c 3s 3h") > value("Ah Kh Qh Jh 9h")
    assert value("Ah Kh Qh Jh 9h") > value("Ac Kd Qs Jh Tc")


def test_six_card_hands() -> None:
    six = parse_cards("Qh Qd 8c 8s 3h Jd")
    assert evaluate(six).describe() == "two pair, Queens and Eights"
    assert evaluate(six).ranks == (12, 8, 11)
    assert evaluate(parse_cards("2h 7h 9h Jh Kh 3c")).ranks == (13, 11, 9, 7, 2)


def test_evaluate_accepts_any_iterable_of_cards() -> None:
    cards = parse_cards("Ah Ad 9c 5s 3h 2d")
    assert evaluate(iter(cards)) == evaluate(tuple(cards)) == evaluate(cards)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ([], "5, 6 or 7 cards, not 0"),
        (parse_cards("Ah Kd Qc Js"), "5, 6 or 7 cards, not 4"),
        (parse_cards("Ah Kd Qc Js Th 9h 8h 7h"), "5, 6 or 7 cards, not 8"),
        (parse_cards("Ah Kd Qc Js Ah"), "the same card twice: Ah"),
        (parse_cards("Ah Kd Kd Js Js"), "the same card twice: Kd Js"),
    ],
)
def test_bad_hands_are_refused_with_a_readable_message(cards: list[Card], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        evaluate(cards)
    with pytest.raises(ValueError, match=message):
        best_five(cards)


def test_any_repeated_card_is_refused() -> None:
    """Duplicates are found from the hand's card bits, so try every size and position."""
    rng = random.Random(99)
    for _ in range(3000):
        hand = [FULL_DECK[card] for card in rng.sample(range(52), rng.choice((5, 6, 7)))]
        copied, replaced = rng.sample(range(len(hand)), 2)
        hand[replaced] = hand[copied]
        with pytest.raises(ValueError, match=f"the same card twice: {hand[copied]}"):
            evaluate(hand)
    with pytest.raises(ValueError, match="the same card twice: 7c"):
        evaluate(parse_cards("7c") * 7)


def test_things_that_are_not_cards_are_refused() -> None:
    with pytest.raises(ValueError, match="not cards: 52"):
        evaluate([*parse_cards("Ah Kd Qc Js"), 52])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="not cards: 'As'"):
        evaluate([*parse_cards("Ah Kd Qc Js"), "As"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"not cards: -1, \[\]"):
        evaluate([*parse_cards("Ah Kd Qc"), -1, []])  # type: ignore[list-item]


def cards_text(cards: tuple[Card, ...]) -> str:
    return " ".join(map(str, cards))


@pytest.mark.parametrize(
    ("cards", "best"),
    [
        ("3c Kh 9d Kd Ac 5s 2h", "Kh Kd Ac 9d 5s"),
        ("7c Kh 7s Kd 3h 3c Qd", "Kh Kd 7s 7c Qd"),
        # Two trips: the lower one's pair is its two highest suits.
        ("4c 9h 4s 9d 4h 9c Ad", "9h 9d 9c 4s 4h"),
        ("5d 2c 9s 3h Ah 4s Ks", "5d 4s 3h 2c Ah"),
        # Two Nines could end the straight: the spade is used (RULES 5.4 compares suits).
        ("9c 5h 6d 7c 8s 9s Kd", "9s 8s 7c 6d 5h"),
        ("Ac 9s 2s 5s Js As 3s", "As Js 9s 5s 3s"),
        ("8h 9h Th Jh Qh Kh 2c", "Kh Qh Jh Th 9h"),
        ("Qd Qc Qh Qs 7d 7c Ks", "Qs Qh Qd Qc Ks"),
        # A Six in another suit must not be taken into the straight flush.
        ("Ah 2h 3h 4h 5h 6c Kd", "5h 4h 3h 2h Ah"),
    ],
)
def test_best_five_cards_significant_first(cards: str, best: str) -> None:
    assert cards_text(best_five(parse_cards(cards))) == best


def test_best_five_is_five_of_the_cards_worth_the_hand() -> None:
    rng = random.Random(55)
    for _ in range(3000):
        hand = [FULL_DECK[card] for card in rng.sample(range(52), rng.choice((5, 6, 7)))]
        five = best_five(hand)
        assert len(five) == 5
        assert set(five) <= set(hand)
        assert all(type(card) is Card for card in five)
        assert evaluate(five) == evaluate(hand)
        # Significant first: the defining ranks lead, in the value's order.
        ranks = evaluate(hand).ranks
        if evaluate(hand).category not in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
            leading = list(dict.fromkeys(card.rank for card in five))
            assert leading == list(ranks)
