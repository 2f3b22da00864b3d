"""Every section of RULES.md 1-6, each test citing the section it checks (Razz, RULES 9, and
Stud Hi-Lo, RULES 10, are in test_rules_razz_hi_lo.py)."""

from __future__ import annotations

import pytest

from engine import Card, IllegalAction, Stakes, StudHand, parse_cards, shuffled_deck
from engine.cards import FULL_DECK
from engine.events import (
    AntePosted,
    Bet,
    BettingCapped,
    BringInDue,
    Call,
    CardDealt,
    CommunityCardDealt,
    Complete,
    FirstToAct,
    HandShown,
    OpenPair,
    PotAwarded,
    Raise,
    ShowdownStarted,
    TimedOut,
    UncalledBetReturned,
)
from engine.variants import STUD_HIGH
from tests.engine.decks import call_down, finish_street, stacked_deck, stud

STAKES = Stakes(ante=1, bring_in=3, small_bet=10, big_bet=20)


# --------------------------------------------------------------------------- 1. Table and stakes


def test_rules_1_1_two_to_eight_players() -> None:
    with pytest.raises(ValueError):
        StudHand([100], STAKES, list(FULL_DECK), 0)
    with pytest.raises(ValueError):
        StudHand([100] * 9, STAKES, list(FULL_DECK), 0)
    for seats in range(2, 9):
        assert StudHand([100] * seats, STAKES, list(FULL_DECK), 0).actor is not None


def test_rules_1_1_sitting_out_player_is_not_dealt_and_pays_no_ante() -> None:
    hand = StudHand([100, 0, 100], STAKES, list(FULL_DECK), 2)
    assert hand.cards(1) == []
    assert not any(isinstance(e, AntePosted) and e.seat == 1 for e in hand.events)
    assert hand.stacks[1] == 0 and hand.folded(1)
    with pytest.raises(ValueError, match="two players"):
        StudHand([100, 0, 0], STAKES, list(FULL_DECK), 0)


@pytest.mark.parametrize(
    "ante,bring_in,small,big",
    [(-1, 3, 10, 20), (1, 0, 10, 20), (1, 11, 10, 20), (1, 3, 10, 10), (1, 3, 20, 10)],
)
def test_rules_1_2_invalid_stakes_rejected(ante: int, bring_in: int, small: int, big: int) -> None:
    with pytest.raises(ValueError):
        Stakes(ante, bring_in, small, big)


def test_rules_1_2_valid_stakes_edges() -> None:
    assert Stakes(0, 10, 10, 11).bring_in == 10


def test_rules_1_3_deck_is_a_permutation_and_dealt_without_burns() -> None:
    deck = shuffled_deck()
    assert sorted(deck) == list(FULL_DECK)
    hand = StudHand([100, 100], STAKES, deck, 1)
    dealt = [e.card for e in hand.events if isinstance(e, CardDealt)]
    assert dealt == deck[:6]


def test_rules_1_3_bad_decks_rejected() -> None:
    deck = list(FULL_DECK)
    with pytest.raises(ValueError, match="twice"):
        StudHand([100, 100], STAKES, [*deck[:20], deck[0]], 1)
    with pytest.raises(ValueError, match="needed"):
        StudHand([100, 100], STAKES, deck[:12], 1)


def test_rules_1_4_cards_go_clockwise_from_left_of_dealer() -> None:
    hand = StudHand([100] * 4, STAKES, list(FULL_DECK), dealer=1)
    first_round = [e.seat for e in hand.events if isinstance(e, CardDealt)][:4]
    assert first_round == [2, 3, 0, 1]


# --------------------------------------------------------------------------- 2. Streets


def test_rules_2_cards_per_street_and_units() -> None:
    hand = stud({0: "2c3c4cKs5d6d7d", 1: "2d3d4d9h8s8h8c", 2: "2h3h4h5c9c9d9s"})
    counts = []
    while hand.actor is not None:
        counts.append((hand.street, len(hand.up_cards(0)), len(hand.down_cards(0))))
        legal = hand.legal()
        if legal.bring_in is not None:
            hand.bring_in()
        elif legal.check:
            assert legal.raise_to == ((10,) if hand.street <= 4 else (20,)) or hand.street == 4
            hand.check()
        else:
            hand.call()
    assert (3, 1, 2) in counts and (4, 2, 2) in counts and (5, 3, 2) in counts
    assert (6, 4, 2) in counts and (7, 4, 3) in counts


def test_rules_2_1_every_player_posts_ante_short_one_all_in() -> None:
    hand = StudHand([100, 1, 50], Stakes(2, 3, 10, 20), list(FULL_DECK), 2)
    antes = {e.seat: (e.amount, e.all_in) for e in hand.events if isinstance(e, AntePosted)}
    assert antes == {0: (2, False), 1: (1, True), 2: (2, False)}
    assert hand.pot == 5 and hand.is_all_in(1)


def test_rules_2_2_community_card_with_eight_players_on_seventh() -> None:
    hand = StudHand([1000] * 8, STAKES, list(FULL_DECK), 7)
    call_down(hand)
    community = [e for e in hand.events if isinstance(e, CommunityCardDealt)]
    assert len(community) == 1 and hand.community == community[0].card
    assert all(len(hand.cards(seat)) == 6 for seat in range(8))
    # 8 players x 6 cards = 48, then the 49th card is the shared one.
    assert hand.community == FULL_DECK[48]
    shown = [e for e in hand.events if isinstance(e, HandShown)]
    assert all(len(e.cards) == 7 and hand.community in e.cards for e in shown)


def test_rules_2_2_no_community_card_when_deck_suffices() -> None:
    hand = StudHand([1000] * 7, STAKES, list(FULL_DECK), 6)
    call_down(hand)
    assert hand.community is None
    assert all(len(hand.cards(seat)) == 7 for seat in range(7))


def test_rules_2_2_seventh_street_reaches_players_when_some_folded() -> None:
    hand = StudHand([1000] * 8, STAKES, list(FULL_DECK), 7)
    hand.bring_in()
    hand.fold()  # one fold on 3rd: 7 players need 7 river cards, 52 - 24 - 21 = 7 remain
    call_down(hand)
    assert hand.community is None


def test_rules_2_3_everyone_folds_winner_shows_nothing() -> None:
    hand = stud({0: "2c3c4c", 1: "AdKdQd", 2: "AhKhJh"})
    assert hand.actor == 0  # 4c is the lowest door card
    hand.bring_in()
    hand.raise_to(10)
    hand.fold()
    hand.fold()
    assert hand.is_over and hand.actor is None
    assert not any(isinstance(e, (HandShown, ShowdownStarted)) for e in hand.events)
    # His completion above the bring-in comes back uncalled; he collects 3 antes, the bring-in
    # and the 3 of his completion that the bring-in matched.
    assert any(isinstance(e, UncalledBetReturned) and e.amount == 7 for e in hand.events)
    assert hand.payouts[1] == 3 + 3 + 3
    assert hand.stacks == [996, 1005, 999]


def test_rules_2_4_all_in_players_get_cards_without_betting() -> None:
    hand = stud({0: "2c3c4cAsKs5d6d", 1: "2d3d9dQhQs8h8c"}, stacks=[1000, 8])
    hand.bring_in()  # seat 0 brings in with the 4c
    assert hand.legal().raise_to == (7,)  # seat 1 has 7 after the ante: all-in short of 10
    hand.raise_to(7)
    hand.call()
    assert hand.is_over
    assert len(hand.cards(0)) == 7 and len(hand.cards(1)) == 7
    assert sum(hand.stacks) == 1008


def test_rules_3_1_lowest_door_card_brings_in() -> None:
    hand = stud({0: "AsAd9c", 1: "2c2d5s", 2: "KcKd5h"})
    assert hand.actor == 2  # 5h is lower than 5s: hearts below spades
    due = [e for e in hand.events if isinstance(e, BringInDue)]
    assert due == [BringInDue(2, Card.parse("5h"), passed_on=False)]


@pytest.mark.parametrize(
    "doors,expected", [(("2c", "2d"), 0), (("2s", "2h"), 1), (("3d", "3c"), 1), (("As", "Kc"), 1)]
)
def test_rules_3_1_suit_order_clubs_diamonds_hearts_spades(
    doors: tuple[str, str], expected: int
) -> None:
    hand = stud({0: "7h8h" + doors[0], 1: "7s8s" + doors[1]})
    assert hand.actor == expected


def test_rules_3_2_bring_in_must_post_or_complete() -> None:
    hand = stud({0: "AsAd2c", 1: "KcKdQs"})
    legal = hand.legal()
    assert (legal.fold, legal.check, legal.call, legal.bring_in, legal.raise_to) == (
        False,
        False,
        None,
        3,
        (10,),
    )
    assert legal.raise_kind == "complete"
    for action in (hand.fold, hand.check, hand.call):
        with pytest.raises(IllegalAction):
            action()
    with pytest.raises(IllegalAction):
        hand.raise_to(7)


def test_rules_3_2_short_bring_in_posts_all_he_has() -> None:
    hand = stud({0: "AsAd2c", 1: "KcKdQs"}, stacks=[3, 100])
    legal = hand.legal()
    assert legal.bring_in == 2 and legal.raise_to == ()
    hand.bring_in()
    assert hand.is_all_in(0) and hand.bets[0] == 2


def test_rules_3_3_bring_in_passes_on_when_lowest_is_all_in_from_ante() -> None:
    hand = stud({0: "AsAd9c", 1: "KcKd2c", 2: "QsQdJc", 3: "8h8d3h"}, stacks=[100, 1, 100, 100])
    due = [e for e in hand.events if isinstance(e, BringInDue)]
    assert due == [BringInDue(2, Card.parse("Jc"), passed_on=True)]
    assert hand.actor == 2


def test_rules_3_4_completion_is_the_bet_then_three_raises() -> None:
    hand = stud({0: "AsAd2c", 1: "KcKdQs", 2: "QhQdJs"})
    hand.bring_in()
    legal = hand.legal()
    assert legal.call == 3 and legal.raise_to == (10,) and legal.raise_kind == "complete"
    hand.raise_to(10)
    assert isinstance(hand.events[-1], Complete)
    for total in (20, 30, 40):
        legal = hand.legal()
        assert legal.raise_kind == "raise" and legal.raise_to == (total,)
        hand.raise_to(total)
    assert hand.legal().raise_to == () and hand.legal().call is not None
    assert isinstance(hand.events[-1], BettingCapped)


def test_rules_3_4_bring_in_player_completing_himself_is_the_bet() -> None:
    hand = stud({0: "AsAd2c", 1: "KcKdQs"})
    hand.raise_to(10)
    assert isinstance(hand.events[-1], Complete) and hand.bets[0] == 10
    for total in (20, 30, 40):
        hand.raise_to(total)
    assert hand.legal().raise_to == ()


def test_rules_3_4_everyone_calls_the_bring_in_round_ends() -> None:
    hand = stud({0: "AsAd2c", 1: "KcKdQs", 2: "QhQdJs"})
    hand.bring_in()
    hand.call()
    hand.call()
    assert hand.street == 4


def test_rules_3_4_bring_in_acts_again_after_completion() -> None:
    hand = stud({0: "AsAd2c", 1: "KcKdQs", 2: "QhQdJs"})
    hand.bring_in()
    hand.raise_to(10)
    hand.call()
    assert hand.actor == 0 and hand.legal().call == 7 and hand.legal().fold


def test_rules_3_5_cap_on_later_streets() -> None:
    hand = stud({0: "AsAd2cKh", 1: "KcKdQs5h"})
    finish_street(hand)
    assert hand.street == 4 and hand.actor == 0  # Kh beats 5h... boards: 2c Kh vs Qs 5h
    for total in (10, 20, 30, 40):
        hand.raise_to(total)
    legal = hand.legal()
    assert legal.raise_to == () and legal.call == 10
    with pytest.raises(IllegalAction, match="capped"):
        hand.raise_to(50)


# --------------------------------------------------------------------------- 4. Later streets


def test_rules_4_1_best_board_acts_first() -> None:
    hand = stud({0: "2c3c4dAs", 1: "2d3d9c9h", 2: "2h3h5dKd"})
    finish_street(hand)
    first = [e for e in hand.events if isinstance(e, FirstToAct)]
    assert first[-1].seat == 1 and first[-1].holding == "a pair of Nines"
    assert hand.actor == 1


def test_rules_4_1_straights_and_flushes_do_not_count_ties_by_dealing_order() -> None:
    cards = {
        0: "2c3c5h6h7h8h",  # up 5h 6h 7h 8h: a four-flush straight draw is just 8 high
        1: "2d3dAs4c9dTs",  # up As 4c 9d Ts: Ace high
        2: "2s3sAh4dTc9s",  # up Ah 4d Tc 9s: Ace high, same ranks
    }
    hand = stud(cards, dealer=0)  # dealing order 1, 2, 0
    finish_street(hand)
    finish_street(hand)
    finish_street(hand)
    assert hand.street == 6
    first = [e for e in hand.events if isinstance(e, FirstToAct)][-1]
    # Seats 1 and 2 tie on A-T-9-4; seat 1 was dealt first. Suits never break the tie.
    assert first.seat == 1 and hand.actor == 1


def test_rules_4_1_ties_by_dealing_order_not_seat_index() -> None:
    hand = stud({0: "2c3cAs4c", 1: "2d3dAh4d", 2: "2h3h5h6h"}, dealer=0)
    finish_street(hand)
    assert hand.street == 4 and hand.actor == 1  # dealt before seat 0 with dealer 0


def test_rules_4_2_no_free_folds_check_or_bet() -> None:
    hand = stud({0: "AsAd2cKh", 1: "KcKdQs5h"})
    finish_street(hand)
    legal = hand.legal()
    assert legal.check and not legal.fold and legal.raise_kind == "bet" and legal.call is None
    with pytest.raises(IllegalAction, match="check instead"):
        hand.fold()
    hand.raise_to(10)
    assert isinstance(hand.events[-1], Bet)
    legal = hand.legal()
    assert legal.fold and legal.call == 10 and legal.raise_to == (20,) and not legal.check


def test_rules_4_3_open_pair_allows_small_or_big() -> None:
    hand = stud({0: "AsAd2c2d", 1: "KcKdQs5h", 2: "QhQdJs9s"})
    finish_street(hand)
    assert [e.seat for e in hand.events if isinstance(e, OpenPair)] == [0]
    assert hand.actor == 0
    assert hand.legal().raise_to == (10, 20)
    hand.check()
    hand.raise_to(10)
    assert hand.legal().raise_to == (20, 30)  # raise by S or by L
    hand.raise_to(30)
    assert hand.legal().raise_to == (50,)  # someone went by L: L from now on
    hand.raise_to(50)
    assert hand.legal().raise_to == (70,)


def test_rules_4_3_no_open_pair_means_small_bet_on_fourth() -> None:
    hand = stud({0: "AsAd2c3d", 1: "KcKdQs5h"})
    finish_street(hand)
    assert not any(isinstance(e, OpenPair) for e in hand.events)
    assert hand.legal().raise_to == (10,)


def test_rules_4_3_pair_in_the_hole_is_not_an_open_pair() -> None:
    hand = stud({0: "2h2d2c3d", 1: "KcKdQs5h"})
    finish_street(hand)
    assert hand.legal().raise_to == (10,)


def test_rules_4_3_open_pair_option_stays_when_the_pair_folds() -> None:
    """RULES 4.3: the option is fixed when 4th street is dealt. Seat 0 shows 2-2, the board is
    checked to seat 2, who bets 10; seat 0 folds his pair; seat 1 may still raise by S or L."""
    hand = stud({0: "AsAd2c2d", 1: "KcKdQs5h", 2: "QhQdJs9s"})
    finish_street(hand)
    assert hand.actor == 0
    hand.check()
    hand.check()
    hand.raise_to(10)
    hand.fold()  # the only open pair leaves
    assert hand.actor == 1 and hand.up_cards(1) and hand.folded(0)
    assert hand.legal().raise_to == (20, 30)


def test_rules_4_6_half_bet_short_all_in_reopens_the_betting() -> None:
    """RULES 4.6 (the issue's example): bring-in 2, seat 1 completes to 5, seat 2 raises all-in
    to 8, 3 over 5: at least half of S = 5, so it counts as a full raise and the completer may
    raise again, by a full unit over it (RULES 4.5)."""
    stakes = Stakes(ante=0, bring_in=2, small_bet=5, big_bet=10)
    hand = stud({0: "2c9d8c", 1: "KcKdQs", 2: "QhQdJs"}, stacks=[100, 100, 8], stakes=stakes)
    hand.bring_in()
    hand.raise_to(5)
    assert hand.legal().raise_to == (8,)
    hand.raise_to(8)
    hand.call()  # the bring-in player
    assert hand.actor == 1
    assert hand.legal().raise_to == (13,)
    hand.raise_to(13)
    raises = [e for e in hand.events if isinstance(e, Raise)]
    assert [(e.total, e.all_in, e.full) for e in raises] == [(8, True, True), (13, False, True)]


def test_rules_4_6_a_short_completion_is_measured_over_the_bring_in() -> None:
    """RULES 4.6 on 3rd street: bring-in 6, S = 10. Seat 2 completes all-in to 8, 2 over the
    bring-in (under half of S). If seat 0 just calls, the bring-in player, who already acted,
    may only call. If seat 0 raises a unit over it (RULES 4.5), the short completion has left
    the cap alone: four bets and raises after it, the last capping the round."""
    stakes = Stakes(ante=0, bring_in=6, small_bet=10, big_bet=20)
    cards = {0: "AsAdKs", 1: "KcKd2c", 2: "QhQdJs"}
    for seat_0_raises in (False, True):
        hand = stud(cards, stacks=[1000, 1000, 8], stakes=stakes)
        assert hand.actor == 1  # 2c brings in
        hand.bring_in()
        assert hand.legal().raise_to == (8,) and hand.legal().raise_kind == "complete"
        hand.raise_to(8)
        assert hand.actor == 0 and hand.legal().raise_to == (18,)
        if not seat_0_raises:
            hand.call()
            assert hand.actor == 1 and hand.legal().call == 2 and hand.legal().raise_to == ()
            continue
        for total in (18, 28, 38, 48):
            assert hand.legal().raise_to == (total,)
            hand.raise_to(total)
        assert isinstance(hand.events[-1], BettingCapped)
        assert hand.legal().raise_to == ()


def test_rules_4_6_short_all_in_under_half_a_unit_neither_reopens_nor_counts() -> None:
    """RULES 4.6: on 5th street (L = 20) seat 0 bets 20 and seat 2 raises all-in by 8, less
    than half of 20. Seat 0, who already acted on the bet, may only call or fold; seat 1, who
    hasn't, may raise a unit over it; and the short raise leaves the cap alone: after it come
    a bet and three raises, four in all."""
    hand = stud({0: "AsAd2c3dKh", 1: "KcKdQs5h6c", 2: "QhQd9s9h4c"}, stacks=[1000, 1000, 52])
    finish_street(hand)
    finish_street(hand)
    assert hand.street == 5 and hand.actor == 2  # a pair of nines shows
    hand.check()  # seat 2 has 48 left
    hand.raise_to(20)  # seat 0 bets
    hand.raise_to(40)  # seat 1 raises
    hand.raise_to(48)  # seat 2 all-in: 8 over 40
    assert hand.events[-1] == Raise(2, 48, 8, 48, all_in=True, full=False)
    assert hand.actor == 0 and hand.legal().raise_to == (68,)  # he still faces seat 1's raise
    hand.raise_to(68)
    assert hand.actor == 1 and hand.legal().raise_to == (88,)
    hand.raise_to(88)  # bet, raise, raise, raise: the short all-in did not count
    assert isinstance(hand.events[-1], BettingCapped)
    assert hand.actor == 0 and hand.legal().raise_to == ()


def test_rules_4_6_checked_player_facing_a_short_bet_under_half_may_only_call() -> None:
    """RULES 4.6: seat 1 (a pair of Fives on board) checks on 5th street, seat 2 bets all-in 6,
    under half of L = 20: seat 0, yet to act, may raise to 26 (RULES 4.5); seat 1, who already
    acted, may only call or fold."""
    hand = stud({0: "AsAd2c3dKh", 1: "KcKdQs5h5c", 2: "2h2dJs9s4h"}, stacks=[1000, 1000, 10])
    finish_street(hand)
    finish_street(hand)
    assert hand.street == 5 and hand.actor == 1
    hand.check()
    hand.raise_to(6)
    assert isinstance(hand.events[-1], Bet) and hand.events[-1].all_in
    assert hand.actor == 0 and hand.legal().raise_to == (26,)
    hand.call()
    assert hand.actor == 1
    assert hand.legal().call == 6 and hand.legal().raise_to == ()
    with pytest.raises(IllegalAction, match="short all-in"):
        hand.raise_to(26)


def test_rules_4_6_short_all_ins_adding_up_to_half_a_unit_reopen() -> None:
    """RULES 4.6: seat 0 bets 20 on 5th street; seats 1 and 2 raise all-in by 6 and by 4: each
    under half of 20, but together 10 more than seat 0 last faced, so he may raise again."""
    cards = {0: "AsAd2c3dKh", 1: "KcKd9s5h6c", 2: "QhQdJs8h4c", 3: "JhJdTs7h3h"}
    hand = stud(cards, stacks=[1000, 30, 34, 1000], dealer=3)
    finish_street(hand)
    finish_street(hand)
    assert hand.street == 5 and hand.stacks[1] == 26 and hand.stacks[2] == 30
    while hand.actor != 0:
        hand.check()
    hand.raise_to(20)
    seen = []
    while hand.actor != 0:
        seat = hand.actor
        assert seat is not None
        legal = hand.legal()
        seen.append((seat, legal.raise_to))
        if seat == 3:
            hand.call()
        else:
            hand.raise_to(legal.raise_to[-1])  # all-in
    assert seen == [(1, (26,)), (2, (30,)), (3, (50,))]  # all-in totals, then a unit over 30
    assert hand.bets[1] == 26 and hand.bets[2] == 30
    assert hand.legal().call == 10 and hand.legal().raise_to == (50,)


def test_rules_4_6_on_fourth_with_an_open_pair_a_short_all_in_is_measured_by_the_small_bet() -> (
    None
):
    """RULES 4.6: with an open pair on 4th street the unit is S = 10 until someone bets L.
    Seat 0 bets 10, seat 2 raises all-in to 15 (5, half of S): it reopens for seat 0."""
    hand = stud({0: "AsAd2c2d", 1: "KcKdQs5h", 2: "QhQdJs9s"}, stacks=[1000, 1000, 19])
    finish_street(hand)  # seat 2 has 15 left
    assert hand.legal().raise_to == (10, 20)
    hand.raise_to(10)
    hand.call()
    hand.raise_to(15)
    assert hand.actor == 0 and hand.legal().raise_to == (25, 35)


def test_rules_4_4_big_bets_from_fifth_street() -> None:
    hand = stud({0: "AsAd2c3d4h", 1: "KcKdQs5h6c"})
    finish_street(hand)
    finish_street(hand)
    assert hand.street == 5
    assert hand.legal().raise_to == (20,)
    hand.raise_to(20)
    assert hand.legal().raise_to == (40,)


def test_rules_4_5_call_for_less_and_short_bet() -> None:
    hand = stud({0: "AsAd2c3d4h", 1: "KcKdQs5h6c"}, stacks=[1000, 19])
    finish_street(hand)  # seat 1 calls the bring-in: 15 left
    assert hand.stacks[1] == 15
    assert hand.actor == 1  # Qs 5h beats 2c 3d
    assert hand.legal().raise_to == (10,)
    hand.raise_to(10)
    hand.raise_to(20)
    legal = hand.legal()
    assert legal.call == 5 and legal.raise_to == ()  # nothing left to raise with
    hand.call()
    call = hand.events[hand.events.index(next(e for e in hand.events if isinstance(e, Call)))]
    assert any(
        isinstance(e, Call) and e.seat == 1 and e.amount == 5 and e.all_in for e in hand.events
    ), call
    assert hand.is_over  # RULES 2.4: nobody else can bet, the board is run out
    assert any(
        isinstance(e, UncalledBetReturned) and e == UncalledBetReturned(0, 5) for e in hand.events
    )


def test_rules_4_5_short_all_in_raise_does_not_reopen() -> None:
    hand = stud({0: "AsAd2c3d", 1: "KcKdQs5h", 2: "QhQdKs9s"}, stacks=[1000, 1000, 28])
    finish_street(hand)  # every stack pays 1 ante + 3: seat 2 has 24 left
    assert hand.actor == 2  # Ks 9s is the best board
    hand.check()
    hand.raise_to(10)  # seat 0 bets
    hand.raise_to(20)  # seat 1 raises
    assert hand.legal().raise_to == (24,)  # all-in, 6 short of a full raise
    hand.raise_to(24)
    assert hand.actor == 0
    # Seat 0 still faces seat 1's full raise, so he may raise one unit over the all-in.
    assert hand.legal().raise_to == (34,)
    hand.call()
    legal = hand.legal()
    # Seat 1 already acted on the current bet and only faces the 4 short: call or fold, though
    # betting is not capped.
    assert hand.actor == 1 and legal.call == 4 and legal.raise_to == ()
    with pytest.raises(IllegalAction, match="short all-in"):
        hand.raise_to(34)
    hand.call()
    assert hand.street == 5


def test_rules_4_5_short_all_in_bet_then_full_unit_over_it() -> None:
    hand = stud({0: "AsAd2c3d4h", 1: "KcKdQs5h6c", 2: "QhQdJs9s9h"}, stacks=[1000, 1000, 10])
    finish_street(hand)  # seat 2 has 6 left
    finish_street(hand)
    assert hand.street == 5 and hand.actor == 2  # pair of nines on board
    hand.raise_to(6)  # a bet of 6 when the unit is 20: short all-in bet
    legal = hand.legal()
    assert legal.call == 6 and legal.raise_to == (26,)


# --------------------------------------------------------------------------- 5. Showdown


def test_rules_5_1_best_five_of_seven_wheel_is_lowest_straight() -> None:
    hand = stud({0: "Ac2d3h4s5c9dKh", 1: "2c3c4d5h6sTdJh"})
    call_down(hand)
    shown = {e.seat: e for e in hand.events if isinstance(e, HandShown)}
    assert shown[0].description == "a straight, Ace to Five"
    assert shown[1].description == "a straight, Deuce to Six"
    assert hand.payouts[1] > 0 and hand.payouts[0] == 0


def test_rules_5_2_showdown_order_last_aggressor_first() -> None:
    hand = stud({0: "AsAd2c3d4h5c6c", 1: "KcKdQs5h6d7c8c", 2: "QhQdJs9s9h2h2s"})
    while hand.street < 7:
        finish_street(hand)
    first = hand.actor
    assert first is not None
    hand.check()
    hand.raise_to(20)  # the second player bets
    bettor = (first + 1) % 3
    call_down(hand)
    order = next(e for e in hand.events if isinstance(e, ShowdownStarted)).order
    assert order[0] == bettor
    assert list(order) == [bettor, (bettor + 1) % 3, (bettor + 2) % 3]


def test_rules_5_2_showdown_order_without_bet_starts_left_of_dealer() -> None:
    hand = stud({0: "AsAd2c3d4h5c6c", 1: "KcKdQs5h6d7c8c", 2: "QhQdJs9s9h2h2s"}, dealer=1)
    call_down(hand)
    order = next(e for e in hand.events if isinstance(e, ShowdownStarted)).order
    assert order == (2, 0, 1)


def test_rules_5_3_side_pots_with_several_all_ins_including_on_the_ante() -> None:
    cards = {
        0: "AsAhAdAc5d6d7d",  # all-in on the ante with the best hand
        1: "KsKhKdKc5c6c7c",  # all-in later with the second best
        2: "QsQhQd2c8c9cTh",
        3: "JsJhJd2d3h4s8s",
    }
    hand = stud(cards, stacks=[1, 15, 1000, 1000])
    while hand.actor is not None:
        legal = hand.legal()
        if hand.actor == 2 and legal.raise_to and not legal.call:
            hand.raise_to(legal.raise_to[0])
        elif legal.bring_in is not None:
            hand.bring_in()
        elif legal.check:
            hand.check()
        else:
            hand.call()
    pots = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert [p.eligible for p in pots] == [(0, 1, 2, 3), (1, 2, 3), (2, 3)]
    assert [p.winners for p in pots] == [(0,), (1,), (2,)]
    assert pots[0].amount == 4 and pots[1].amount == 3 * 14
    assert hand.payouts[0] == 4 and hand.payouts[1] == 42
    assert sum(hand.stacks) == 2016


def test_rules_5_3_all_in_on_the_ante_wins_only_the_main_pot() -> None:
    cards = {0: "AsAhAdAc2c3c4c", 1: "KcKdQs5h6d7c8c", 2: "QhQdJs9s9h2h2s"}
    hand = stud(cards, stacks=[1, 1000, 1000])
    call_down(hand)
    assert hand.payouts[0] == 3  # three antes of 1
    assert sum(hand.stacks) == 2001


def test_rules_5_4_split_odd_chips_by_highest_card_then_suit() -> None:
    nine_spades = STUD_HIGH.show(0, parse_cards("5d6h7c8d9s2c3d"))
    nine_hearts = STUD_HIGH.show(1, parse_cards("5c6d7h8c9h2d3c"))
    nine_clubs = STUD_HIGH.show(2, parse_cards("5h6s7d8h9c2h3h"))
    assert STUD_HIGH.split(5, [nine_hearts, nine_spades]).high == {0: 3, 1: 2}
    assert STUD_HIGH.split(8, [nine_clubs, nine_hearts, nine_spades]).high == {0: 3, 1: 3, 2: 2}


def test_rules_5_4_odd_chip_in_a_played_hand() -> None:
    cards = {0: "5c6d7h8c9hKdKc", 1: "5d6h7c8d9sQdQc", 2: "2c3d2hJh"}
    hand = stud(cards, stakes=Stakes(1, 2, 10, 20))
    assert hand.actor == 2  # 2h is the lowest door card
    hand.bring_in()
    hand.call()
    hand.call()
    assert hand.street == 4
    while hand.street == 4:
        legal = hand.legal()
        if hand.actor == 2:
            hand.fold() if legal.fold else hand.check()
        elif legal.check and not any(hand.bets):
            hand.raise_to(10)
        else:
            hand.call()
    call_down(hand)
    main = next(e for e in hand.events if isinstance(e, PotAwarded))
    assert main.amount == 3 + 3 * 2 + 2 * 10 == 29
    assert hand.payouts[1] == 15 and hand.payouts[0] == 14  # the 9s beats the 9h for the chip


def test_rules_5_5_chips_are_conserved() -> None:
    hand = StudHand([55, 120, 9, 400], STAKES, list(FULL_DECK), 0)
    call_down(hand)
    assert sum(hand.stacks) == 55 + 120 + 9 + 400


# --------------------------------------------------------------------------- 6. Players away


def test_rules_6_1_timeout_posts_bring_in_checks_or_folds() -> None:
    hand = stud({0: "AsAd2cKh", 1: "KcKdQs5h", 2: "QhQdJs9s"})
    hand.timeout()
    assert hand.events[-2] == TimedOut(0) and hand.bets[0] == 3
    hand.raise_to(10)
    hand.timeout()  # seat 2 faces a completion: folds
    assert hand.folded(2)
    hand.call()
    assert hand.street == 4
    first = hand.actor
    assert first is not None
    hand.timeout()  # nothing to call: checks
    assert not hand.folded(first) and hand.bets == [0, 0, 0] and hand.actor != first
    assert hand.timed_out == [0, 2, first] if first != 0 else hand.timed_out == [0, 2]


def test_rules_6_2_timed_out_players_are_listed_once() -> None:
    hand = stud({0: "AsAd2cKh", 1: "KcKdQs5h"})
    hand.timeout()
    hand.timeout()
    assert hand.timed_out == [0, 1]
    restored = StudHand.from_dict(hand.to_dict())
    assert restored.timed_out == [0, 1] and restored.events == hand.events


# --------------------------------------------------------------------------- illegal actions


def test_illegal_actions_change_nothing() -> None:
    hand = stud({0: "AsAd2cKh", 1: "KcKdQs5h", 2: "QhQdJs9s"})
    before = (hand.to_dict(), list(hand.events), list(hand.stacks), hand.actor)
    for bad in (hand.fold, hand.check, hand.call, lambda: hand.raise_to(5)):
        with pytest.raises(IllegalAction):
            bad()
    with pytest.raises(IllegalAction):
        hand.raise_to(True)
    assert (hand.to_dict(), list(hand.events), list(hand.stacks), hand.actor) == before


def test_messages_a_player_can_read() -> None:
    hand = stud({0: "AsAd2cKh", 1: "KcKdQs5h"})
    hand.bring_in()
    with pytest.raises(IllegalAction, match="you can't check: 3 to call"):
        hand.check()
    with pytest.raises(IllegalAction, match="you can complete to 10"):
        hand.raise_to(12)


def test_actions_after_the_hand_is_over_are_refused() -> None:
    hand = stud({0: "AsAd2c", 1: "KcKdQs"})
    hand.bring_in()
    hand.fold()
    with pytest.raises(IllegalAction, match="over"):
        hand.check()


def test_stacked_deck_helper_deals_what_it_says() -> None:
    deck = stacked_deck({0: "AsKs", 1: "AdKd"}, dealer=1, seats=2)
    assert deck[:4] == parse_cards("AsAdKsKd")


def test_rules_1_2_and_3_4_bring_in_equal_to_small_bet_is_the_bet() -> None:
    """B == S is allowed (RULES 1.2): the bring-in is then the round's bet, so three raises
    follow (3.5), and a short all-in over it doesn't reopen the betting (4.5)."""
    stakes = Stakes(1, 10, 10, 20)
    capped = stud({0: "2c9d8c", 1: "KcKdQs"}, stakes=stakes)
    capped.bring_in()
    for total in (20, 30, 40):
        assert capped.legal().raise_to == (total,)
        capped.raise_to(total)
    assert capped.legal().raise_to == ()

    hand = stud({0: "2c9d8c", 1: "KcKdQs", 2: "QhQdJs"}, stacks=[1000, 1000, 15], stakes=stakes)
    hand.bring_in()
    hand.call()
    hand.raise_to(14)  # seat 2 is all-in, 4 short of a full raise
    legal = hand.legal()
    assert hand.actor == 0 and legal.call == 4 and legal.raise_to == ()


def test_bad_hand_inputs_are_refused_with_a_reason() -> None:
    deck = list(FULL_DECK)
    with pytest.raises(ValueError, match="whole numbers"):
        StudHand([True, 50], STAKES, deck, 0)
    with pytest.raises(ValueError, match="dealer"):
        StudHand([50, 50], STAKES, deck, True)
    with pytest.raises(ValueError, match="Card"):
        StudHand([50, 50], STAKES, list(range(52)), 0)  # type: ignore[arg-type]
    state = StudHand([50, 50], STAKES, deck, 0).to_dict()
    state["actions"] = [["raise_to"]]
    with pytest.raises(ValueError, match="decision"):
        StudHand.from_dict(state)
