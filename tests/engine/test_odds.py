"""All-in chances, exact where the deals left are few, checked against a brute-force
enumeration written apart (tests/engine/odds_brute.py) for all three games."""

from __future__ import annotations

import random

import pytest

from engine import RAZZ, STUD_HI_LO, STUD_HIGH, StudHand, Variant
from engine.cards import FULL_DECK
from engine.odds import SAMPLES, Position, all_in_odds, deals_left, odds, position
from tests.engine.decks import stud
from tests.engine.odds_brute import brute_force

GAMES = (STUD_HIGH, RAZZ, STUD_HI_LO)


def small_position(
    rng: random.Random,
    variant: Variant,
    seats: int,
    known: int,
    each: int,
    pool: int,
    community: bool,
) -> Position:
    """Seats with ``known`` cards each and only ``pool`` cards unseen: the rest count as seen."""
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    hands = {seat: tuple(deck[seat * known : (seat + 1) * known]) for seat in range(seats)}
    rest = deck[seats * known :]
    return Position(variant, 7 - each, hands, frozenset(rest[pool:]), each, community)


SHAPES = [
    # seats, known cards, cards each to come, unseen pool, a shared last card
    (2, 5, 2, 8, False),
    (3, 6, 1, 9, False),
    (3, 6, 0, 10, True),
    (2, 4, 2, 6, True),
]


@pytest.mark.parametrize("variant", GAMES, ids=lambda variant: variant.name)
@pytest.mark.parametrize("shape", SHAPES)
def test_exact_chances_are_the_brute_force_ones(
    variant: Variant, shape: tuple[int, int, int, int, bool]
) -> None:
    for seed in range(3):
        spot = small_position(random.Random(seed), variant, *shape)
        found = odds(spot)
        assert found.exact and found.deals == deals_left(spot)
        expected = brute_force(variant, spot.hands, spot.unseen, spot.cards_each, spot.community)
        for chances in found.seats:
            assert (chances.win, chances.high, chances.low, chances.scoop) == pytest.approx(
                expected[chances.seat]
            ), (variant.name, shape, seed, chances.seat)
        assert sum(chances.win for chances in found.seats) == pytest.approx(1)


def all_in_on_sixth(variant: Variant) -> StudHand:
    """Three players; seat 2 folds on 3rd street; seat 0 bets his last chips on 6th street and
    seat 1 calls, so the river comes with no betting."""
    hand = stud(
        {0: "As2c3d4h5sKc9d", 1: "KsKd4c6h7h8sJc", 2: "QsQdKh"},
        stacks=[1 + 3 + 20, 1000, 1000],
        variant=variant,
    )
    while hand.actor is not None:
        legal = hand.legal()
        if hand.actor == 2 and legal.fold:
            hand.fold()
        elif legal.bring_in is not None:
            hand.bring_in()
        elif hand.street == 6 and hand.actor == 0 and legal.raise_to:
            hand.raise_to(legal.raise_to[-1])
        elif legal.check:
            hand.check()
        else:
            hand.call()
    return hand


@pytest.mark.parametrize("variant", GAMES, ids=lambda variant: variant.name)
def test_a_run_out_hand_gives_its_position_and_exact_chances(variant: Variant) -> None:
    hand = all_in_on_sixth(variant)
    spot = position(hand)
    assert spot is not None and hand.run_out_from == 7 and spot.street == 6
    live = [seat for seat in range(3) if not hand.folded(seat)]
    assert list(spot.hands) == [s for s in hand.dealing_order if s in live]
    assert all(len(cards) == 6 for cards in spot.hands.values())
    # A folded player's up cards were seen; his down cards are among the unseen: nobody saw them.
    folded = [seat for seat in range(3) if seat not in live]
    assert spot.seen == {card for seat in folded for card in hand.up_cards(seat)}
    assert {card for seat in folded for card in hand.down_cards(seat)} <= set(spot.unseen)
    assert len(spot.unseen) == 52 - 6 * len(live) - len(spot.seen)
    assert spot.cards_each == 1 and not spot.community
    found = all_in_odds(hand)
    assert found is not None and found.exact
    expected = brute_force(variant, spot.hands, spot.unseen[:30], 1, False)
    found = odds(Position(variant, 6, spot.hands, spot.seen | set(spot.unseen[30:]), 1, False))
    for chances in found.seats:
        assert chances.win == pytest.approx(expected[chances.seat][0])


def test_a_hand_bet_to_the_end_or_won_by_a_fold_has_no_odds() -> None:
    hand = stud({0: "As2c3d4h5sKc9d", 1: "KsKd4c6h7h8sJc"})
    while hand.actor is not None:
        legal = hand.legal()
        hand.check() if legal.check else hand.call() if legal.call else hand.bring_in()
    assert position(hand) is None and all_in_odds(hand) is None
    folded = stud({0: "As2c3d", 1: "KsKd4c"}, stacks=[2, 1000])
    folded.bring_in()
    assert folded.is_over or position(folded) is None


@pytest.mark.parametrize("variant", GAMES, ids=lambda variant: variant.name)
def test_too_many_deals_are_sampled_with_a_seed_and_marked_as_an_estimate(variant: Variant) -> None:
    """All in on the antes: 3rd to 7th street to come, far too many deals to go through."""
    hand = stud({0: "As2c3d", 1: "KsKd4c"}, stacks=[1, 1000], variant=variant)
    assert hand.is_over and hand.run_out_from == 3
    spot = position(hand)
    assert spot is not None and spot.street == 0 and spot.cards_each == 7
    found = all_in_odds(hand, seed=5)
    assert found is not None and not found.exact and found.deals == SAMPLES
    assert all_in_odds(hand, seed=5) == found
    assert sum(chances.win for chances in found.seats) == pytest.approx(1)


@pytest.mark.parametrize("variant", GAMES, ids=lambda variant: variant.name)
def test_an_estimate_comes_close_to_the_exact_figures(variant: Variant) -> None:
    spot = small_position(random.Random(9), variant, 2, 5, 2, 12, False)
    exact = odds(spot)
    estimate = odds(spot, seed=1, exact_limit=0, samples=8_000)
    assert exact.exact and not estimate.exact
    for chances in estimate.seats:
        truth = exact.of(chances.seat)
        assert truth is not None
        assert abs(chances.win - truth.win) < 0.03
        assert abs(chances.scoop - truth.scoop) < 0.03
