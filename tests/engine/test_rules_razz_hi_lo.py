"""RULES 9 (Razz) and 10 (Stud Hi-Lo eight or better), each test citing the section it checks."""

from __future__ import annotations

from engine import RAZZ, STUD_HI_LO, Stakes, StudHand, parse_cards
from engine.evaluator import HandCategory
from engine.events import BringInDue, FirstToAct, HandShown, OpenPair, PotAwarded
from engine.public import PublicTable
from tests.engine.decks import call_down, finish_street, passive, stud


def shown(hand: StudHand) -> dict[int, HandShown]:
    return {e.seat: e for e in hand.events if isinstance(e, HandShown)}


def pots(hand: StudHand) -> list[PotAwarded]:
    return [e for e in hand.events if isinstance(e, PotAwarded)]


# --------------------------------------------------------------------------- 9. Razz


def test_rules_9_1_the_wheel_is_best_and_lows_compare_highest_card_first() -> None:
    hand = stud(
        {0: "As2c3d4h5sKcKd", 1: "Ah2d3c4d6cQsQh", 2: "7c7d7h7sJcJdJh"},
        variant=RAZZ,
        always_show=range(3),  # RULES 5.6: the losers show too, to be compared here
    )
    call_down(hand)
    cards = shown(hand)
    assert cards[0].description == "Lo: 5,4,3,2,A" and cards[0].low_ranks == (5, 4, 3, 2, 1)
    assert cards[1].description == "Lo: 6,4,3,2,A"
    assert cards[2].low_category == HandCategory.FULL_HOUSE  # the best five of 7-7-7-7-J-J-J
    assert cards[0].high_category is None and cards[0].best_five == cards[0].low_five
    [pot] = pots(hand)
    assert (pot.low_winners, pot.low_shares, pot.high_winners) == ((0,), (12,), ())
    assert hand.payouts == [12, 0, 0]


def test_rules_9_1_any_five_unpaired_cards_beat_any_pair() -> None:
    king_low = RAZZ.show(0, parse_cards("KsQdJhTc9s"))
    aces = RAZZ.show(1, parse_cards("AcAd2c3c4c"))
    assert RAZZ.split(10, [aces, king_low]).low == {0: 10}


def test_rules_9_2_highest_door_card_brings_in_king_of_spades_first() -> None:
    kings = stud({0: "2c3cKc", 1: "4c5cKh", 2: "6c7cKs"}, variant=RAZZ)
    assert kings.actor == 2
    assert next(e for e in kings.events if isinstance(e, BringInDue)).card == parse_cards("Ks")[0]
    suits = stud({0: "2c3cKc", 1: "4c5cKh", 2: "6c7cQs"}, variant=RAZZ)
    assert suits.actor == 1  # equal kings: hearts over clubs
    ace = stud({0: "2d3dAs", 1: "4c5c2h"}, variant=RAZZ)
    assert ace.actor == 1  # the ace is the lowest card: the deuce brings in


def test_rules_9_3_lowest_board_acts_first_pairs_count_against_it() -> None:
    hand = stud({0: "2c3cKd5h", 1: "2d3d7c4d", 2: "2h3hAhAd"}, variant=RAZZ)
    finish_street(hand)
    first = [e for e in hand.events if isinstance(e, FirstToAct)][-1]
    assert first.seat == 1 and hand.actor == 1  # 7-4 beats K-5 and a pair of aces
    assert first.low and first.ranks == (7, 4) and first.holding == "Seven-Four low"


def test_rules_9_3_equal_low_boards_first_dealt_acts_first() -> None:
    hand = stud({0: "2c3cKd7h4s", 1: "2d3dQc7c4d", 2: "2h3hJhKhQh"}, dealer=0, variant=RAZZ)
    finish_street(hand)
    assert hand.street == 4 and hand.actor == 1  # 7-4 each; seat 1 is dealt first


def test_rules_9_4_no_open_pair_in_razz() -> None:
    hand = stud({0: "2c3cKdKh", 1: "2d3d7c4d"}, variant=RAZZ)
    finish_street(hand)
    assert hand.actor == 1
    assert hand.legal().raise_to == (10,)
    assert not any(isinstance(e, OpenPair) for e in hand.events)


def test_rules_9_5_tied_lows_split_odd_chip_by_the_highest_card_of_the_five() -> None:
    """Two wheels split a pot of 29: the odd chip goes to the one whose five has the highest
    card by suit, aces low as they play: the 5 of spades over the 5 of hearts."""
    cards = {0: "Ac2c3c4c5s9d9h", 1: "Ad2d3d4d5h9c9s", 2: "JcQcKsKh"}
    hand = stud(cards, stakes=Stakes(ante=1, bring_in=2, small_bet=10, big_bet=20), variant=RAZZ)
    assert hand.actor == 2  # Ks brings in
    while hand.actor is not None:
        legal = hand.legal()
        if hand.street == 4 and hand.actor == 0 and legal.check:
            hand.raise_to(10)
        elif hand.actor == 2 and legal.fold:
            hand.fold()
        else:
            passive(hand)
    [pot] = pots(hand)
    assert pot.amount == 29 and dict(zip(pot.low_winners, pot.low_shares, strict=True)) == {
        0: 15,
        1: 14,
    }


# --------------------------------------------------------------------------- 10. Stud Hi-Lo


def test_rules_10_1_half_to_the_high_half_to_the_low_with_different_cards() -> None:
    hand = stud({0: "AhKhQhJh9h2c2d", 1: "7c5d4s3c2hKsKd"}, variant=STUD_HI_LO)
    call_down(hand)
    [pot] = pots(hand)
    assert pot.amount == 8
    assert (pot.high_winners, pot.high_shares, pot.low_winners, pot.low_shares) == (
        (0,),
        (4,),
        (1,),
        (4,),
    )
    low = shown(hand)[1]
    assert low.description == "HI: a pair of Kings; LO: 7,5,4,3,2"
    assert set(low.best_five) != set(low.low_five)  # the kings play high, the 7-low plays low
    assert shown(hand)[0].description == "HI: a flush, Ace high" and shown(hand)[0].low_ranks == ()


def test_rules_10_1_without_a_qualifying_low_the_high_takes_the_pot() -> None:
    hand = stud({0: "AhKhQhJh9h2c2d", 1: "9c9dTsJcQsKsKd"}, variant=STUD_HI_LO)
    call_down(hand)
    [pot] = pots(hand)
    assert (pot.high_winners, pot.high_shares, pot.low_winners) == ((0,), (8,), ())
    assert not pot.scoop


def test_rules_10_2_odd_chip_between_halves_goes_high_ties_within_a_half_as_5_4() -> None:
    cards = {0: "AhKhQhJh9hTcTd", 1: "7c5d4s3c2hKsKd", 2: "7d5c4h3d2sQsQd"}
    odd_pot = stud(cards, stakes=Stakes(1, 2, 10, 20), variant=STUD_HI_LO)
    call_down(odd_pot)
    [pot] = pots(odd_pot)
    assert pot.amount == 9
    assert dict(zip(pot.high_winners, pot.high_shares, strict=True)) == {0: 5}
    assert dict(zip(pot.low_winners, pot.low_shares, strict=True)) == {1: 2, 2: 2}
    odd_half = stud(cards, stakes=Stakes(0, 2, 10, 20), variant=STUD_HI_LO)
    call_down(odd_half)
    [pot] = pots(odd_half)
    assert pot.amount == 6
    assert dict(zip(pot.high_winners, pot.high_shares, strict=True)) == {0: 3}
    # Tied 7-lows: the 7 of diamonds is the higher card of the two fives.
    assert dict(zip(pot.low_winners, pot.low_shares, strict=True)) == {1: 1, 2: 2}


def test_rules_10_3_bring_in_and_first_to_act_as_stud_high_and_no_open_pair() -> None:
    hand = stud({0: "2c3cKdKh", 1: "2d3d7c4d", 2: "4h5h6c9s"}, variant=STUD_HI_LO)
    assert hand.actor == 2  # 6c is the lowest door card (RULES 3.1)
    finish_street(hand)
    assert hand.actor == 0  # a pair of kings is the best board (RULES 4.1)
    assert hand.legal().raise_to == (10,)
    assert not any(isinstance(e, OpenPair) for e in hand.events)


def test_rules_10_4_scoop_and_shares_of_a_half() -> None:
    """Seat 1's 6-high straight is the best high and his 6-5-4-3-2 the best low: he scoops."""
    hand = stud({0: "AhAdKcQs9h8c8d", 1: "2c3d4h5s6cKsKd"}, variant=STUD_HI_LO)
    call_down(hand)
    [pot] = pots(hand)
    assert pot.scoop and pot.winners == (1,) and pot.shares == (8,)
    assert (pot.high_winners, pot.low_winners) == ((1,), (1,))
    [result] = PublicTable.from_hand(hand).results
    assert result.scoop and result.low_qualified
    assert (result.high_shares, result.low_shares) == ((4,), (4,))
