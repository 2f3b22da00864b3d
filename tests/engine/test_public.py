"""The public table and the private hand for every game: the views never ask
which game it is, and carry high and low results as data."""

from __future__ import annotations

import random

import pytest

from engine import RAZZ, STUD_HI_LO, STUD_HIGH, StudHand, Variant, evaluate, parse_cards
from engine.evaluator import HandCategory, evaluate_eight_low, evaluate_low
from engine.public import PrivateHand, PublicTable
from tests.engine.decks import call_down, choose, finish_street, random_hand, stud


def test_hi_lo_results_carry_each_half_and_the_low_as_ranks() -> None:
    """RULES 10.1: seat 0's flush takes the high half, seat 1's 7-5-4-3-2 the low half."""
    hand = stud({0: "AhKhQhJh9h2c2d", 1: "7c5d4s3c2hKsKd"}, variant=STUD_HI_LO)
    call_down(hand)
    table = PublicTable.from_hand(hand)
    [result] = table.results
    assert (result.high_winners, result.high_shares) == ((0,), (4,))
    assert (result.low_winners, result.low_shares) == ((1,), (4,))
    assert result.low_qualified and not result.scoop
    assert dict(zip(result.winners, result.shares, strict=True)) == {0: 4, 1: 4}
    low = table.seats[1].shown
    assert low is not None
    assert low.low_category is HandCategory.HIGH_CARD and low.low_ranks == (7, 5, 4, 3, 2)
    assert low.high_category is HandCategory.PAIR and low.high_ranks == (13, 7, 5, 4)
    assert set(low.low_five) == set(parse_cards("7c5d4s3c2h"))
    high = table.seats[0].shown
    assert high is not None and high.low_category is None and high.low_ranks == ()


def test_razz_results_are_a_low_half_only() -> None:
    hand = stud({0: "As2c3d4h5sKcKd", 1: "Ah2d3c4d6cQsQh"}, variant=RAZZ)
    call_down(hand)
    table = PublicTable.from_hand(hand)
    [result] = table.results
    assert result.high_winners == () and result.low_winners == (0,) and not result.scoop
    shown = table.seats[0].shown
    assert shown is not None and shown.high_category is None
    assert shown.low_ranks == (5, 4, 3, 2, 1) and shown.best_five == shown.low_five


def test_an_uncontested_pot_has_no_halves() -> None:
    hand = stud({0: "AsKs2c", 1: "AhKh5c"}, variant=STUD_HI_LO)
    hand.bring_in()
    hand.raise_to(10)
    hand.fold()
    [result] = PublicTable.from_hand(hand).results
    assert result.winners == (1,) and result.high_winners == result.low_winners == ()


def test_private_hand_gives_the_best_high_and_low_so_far() -> None:
    hand = stud({0: "Ac2c3d4h5s", 1: "KcKdQsJhTc"}, variant=STUD_HI_LO)
    finish_street(hand)
    early = PrivateHand.for_seat(hand, 0)
    assert early.high is None and early.low is None and early.description == "Ace high"
    finish_street(hand)
    assert hand.street == 5
    mine = PrivateHand.for_seat(hand, 0)
    cards = parse_cards("Ac2c3d4h5s")
    assert mine.high == evaluate(cards) and mine.high.category is HandCategory.STRAIGHT
    assert mine.low == evaluate_eight_low(cards) and mine.low is not None
    assert mine.low.ranks == (5, 4, 3, 2, 1)
    assert mine.description == "HI: a straight, Ace to Five; LO: 5,4,3,2,A"
    theirs = PrivateHand.for_seat(hand, 1)
    assert theirs.low is None and theirs.low_five == ()


def test_private_razz_hand_plays_its_low() -> None:
    hand = stud({0: "9c2c3d4hKs", 1: "KcKdQsJhTc"}, variant=RAZZ)
    while hand.street < 5:
        finish_street(hand)
    mine = PrivateHand.for_seat(hand, 0)
    assert mine.high is None and mine.low == evaluate_low(parse_cards("9c2c3d4hKs"))
    assert mine.best_five == mine.low_five and mine.description == "Lo: K,9,4,3,2"


@pytest.mark.parametrize("variant", [STUD_HIGH, RAZZ, STUD_HI_LO], ids=lambda v: v.name)
def test_views_add_up_in_every_game(variant: Variant) -> None:
    """The same view code for every game: results pay what the engine paid, halves add up."""
    rng = random.Random(len(variant.name))
    for _ in range(150):
        base = random_hand(rng)
        hand = StudHand(
            list(base.starting_stacks), base.stakes, base.deck, base.dealer, variant=variant
        )
        while hand.actor is not None:
            hand.apply(*choose(hand, rng, 0.4))
        table = PublicTable.from_hand(hand)
        assert [seat.won for seat in table.seats] == hand.payouts
        for result in table.results:
            assert sum(result.shares) == result.amount
            if result.high_winners or result.low_winners:
                assert sum(result.high_shares) + sum(result.low_shares) == result.amount
                assert bool(result.high_winners) == variant.high
                if variant is RAZZ:
                    assert result.low_winners
                if result.low_winners and result.high_winners:
                    assert sum(result.high_shares) - sum(result.low_shares) in (0, 1)
