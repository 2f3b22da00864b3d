"""Each place where PokerKit differs from RULES on purpose (RULES 7), shown directly: the engine
follows RULES, unpatched PokerKit does otherwise, and patched or steered PokerKit (as the
differential test in ``test_pokerkit_diff.py`` uses it) agrees with the engine.

Two differences the differential tests found are not (or not fully) in the RULES 7 list: the
half-bet rule of 4.6 (PokerKit measures a short all-in against the largest raise so far and
counts every one towards the cap) and 10.1's pot-by-pot low (PokerKit halves every pot once
anyone has a low). Their tests are at the end."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import replace

import pytest

from engine import STUD_HI_LO, Stakes, StudHand
from engine.cards import FULL_DECK
from engine.events import PotAwarded
from tests.engine.decks import stacked_deck, stud
from tests.engine.pokerkit_reference import ReferenceHand, engine_view

STAKES = Stakes(ante=1, bring_in=3, small_bet=10, big_bet=20)

Decide = Callable[[StudHand], tuple[str, int | None]]


def passive(hand: StudHand) -> tuple[str, int | None]:
    legal = hand.legal()
    if legal.bring_in is not None:
        return "bring_in", None
    return ("check", None) if legal.check else ("call", None)


def pots_won(hand: StudHand) -> list[tuple[int, dict[int, int]]]:
    return [
        (event.amount, dict(zip(event.winners, event.shares, strict=True)))
        for event in hand.events
        if isinstance(event, PotAwarded)
    ]


def play(hand: StudHand, references: list[ReferenceHand], decide: Decide = passive) -> None:
    """Feed the same decisions to the engine and to each PokerKit hand until the engine's
    street changes or the hand ends."""
    street = hand.street
    while hand.actor is not None and hand.street == street:
        decision = decide(hand)
        hand.apply(*decision)
        for reference in references:
            reference.apply(*decision)


def play_out(hand: StudHand, references: list[ReferenceHand], decide: Decide = passive) -> None:
    while hand.actor is not None:
        play(hand, references, decide)


def test_rules_1_3_no_burn_cards_where_pokerkit_burns() -> None:
    """RULES 1.3: no burn cards, so the 4th-street cards are the next two of the deck. PokerKit
    burns one first; ``burns=False`` makes it deal as the engine does."""
    deck = stacked_deck({0: "AsKs2c3d", 1: "AhKh4c5d"}, dealer=1, seats=2)
    hand = StudHand([100, 100], STAKES, deck, dealer=1)
    burning = ReferenceHand.of(hand, burns=True)
    patched = ReferenceHand.of(hand)
    play(hand, [burning, patched])

    assert hand.street == 4
    assert [str(card) for card in hand.up_cards(0)] == ["2c", "3d"]
    assert [str(card) for card in hand.up_cards(1)] == ["4c", "5d"]
    assert burning.up_cards(0) == ("2c", "5d")  # 3d went to the burn pile
    assert burning.up_cards(1) == ("4c", str(deck[8]))
    assert engine_view(hand) == patched.view()


def test_rules_2_2_community_card_where_pokerkit_reshuffles_mucks() -> None:
    """RULES 2.2: eight players reach 6th street, one folds, seven remain for 4 cards: one
    community card, the next in the deck. PokerKit reshuffles the folded cards back in and deals
    everyone a 7th card (warning that it does); with an empty reserve it deals the community
    card too."""
    deck = list(FULL_DECK)

    def fold_once_on_sixth(hand: StudHand) -> tuple[str, int | None]:
        legal = hand.legal()
        if hand.street == 6 and legal.raise_to and legal.check:
            return "raise_to", legal.raise_to[0]
        if hand.street == 6 and legal.fold and sum(map(hand.folded, range(8))) == 0:
            return "fold", None
        return passive(hand)

    hand = StudHand([200] * 8, STAKES, deck, dealer=7)
    reshuffling = ReferenceHand.of(hand, reshuffle=True)
    patched = ReferenceHand.of(hand)
    while hand.street < 7:
        with pytest.warns(UserWarning) if hand.street == 6 else nullcontext():
            play(hand, [reshuffling, patched], fold_once_on_sixth)

    live = [seat for seat in range(8) if not hand.folded(seat)]
    assert len(live) == 7
    assert hand.community == deck[48]
    assert all(len(hand.cards(seat)) == 6 for seat in live)
    assert reshuffling.community is None
    assert all(len(reshuffling.cards(seat)) == 7 for seat in live)
    assert patched.community == str(deck[48])
    assert engine_view(hand) == patched.view()


def test_rules_4_1_equal_boards_first_dealt_where_pokerkit_goes_by_index() -> None:
    """RULES 4.1: seats 0 and 1 show K-7 on 4th street; seat 1 was dealt first (the dealer is
    seat 0), so he acts first. PokerKit picks the lower index: seat 0 when its indexes are the
    seat numbers; seat 1 when index k is the k-th seat dealt in, as the differential test maps."""
    cards = {0: "2h3hKh7c", 1: "2s3sKs7d", 2: "4h5h9c4d"}
    hand = StudHand([100] * 3, STAKES, stacked_deck(cards, dealer=0, seats=3), dealer=0)
    by_seat_number = ReferenceHand(
        [100] * 3, STAKES, stacked_deck(cards, dealer=2, seats=3), seats=[0, 1, 2]
    )
    by_dealing_order = ReferenceHand.of(hand)
    assert by_dealing_order.seats == (1, 2, 0)
    play(hand, [by_seat_number, by_dealing_order])

    assert hand.street == 4
    assert by_seat_number.up_cards(0) == ("Kh", "7c") and by_seat_number.up_cards(1) == ("Ks", "7d")
    assert hand.actor == 1
    assert by_seat_number.actor == 0
    assert engine_view(hand) == by_dealing_order.view()


def test_rules_4_3_open_pair_big_bet_where_pokerkit_offers_only_the_small() -> None:
    """RULES 4.3: seat 0 shows a pair of deuces on 4th street, so he may bet 10 or 20. PokerKit
    offers only 10 and refuses 20; the differential test compares and chooses only the 10."""
    hand = StudHand(
        [100, 100], STAKES, stacked_deck({0: "AsKs2c2d", 1: "QhJh9c8d"}, dealer=1, seats=2), 1
    )
    reference = ReferenceHand.of(hand)
    play(hand, [reference])

    assert hand.street == 4 and hand.actor == 0
    assert hand.legal().raise_to == (10, 20)
    assert reference.raise_to() == (10,)
    with pytest.raises(ValueError):
        reference.state.complete_bet_or_raise_to(20)
    assert engine_view(hand, small_option_only=True) == reference.view()


def test_rules_5_4_odd_chip_by_highest_card_where_pokerkit_gives_it_to_index_0() -> None:
    """RULES 5.4: seats 0 and 1 tie with A-K-Q-J-9 for a pot of 9; seat 1 holds the A of spades,
    so he gets the odd chip. PokerKit gives it to its index 0 (seat 0, dealt first); the
    differential test resettles PokerKit's pots by RULES 5.4."""
    cards = {0: "AdKc2sQdJc9d3h", 1: "AsKh4cQhJh9c2h", 2: "5c6c8d"}
    hand = StudHand([100] * 3, STAKES, stacked_deck(cards, dealer=2, seats=3), dealer=2)
    reference = ReferenceHand.of(hand)

    def seat_2_folds(hand: StudHand) -> tuple[str, int | None]:
        return ("fold", None) if hand.actor == 2 else passive(hand)

    play_out(hand, [reference], seat_2_folds)
    settlement = reference.finish()

    assert pots_won(hand) == [(9, {0: 4, 1: 5})]
    assert hand.stacks == [100, 101, 99]
    assert settlement.pokerkit_stacks == (101, 100, 99)
    assert settlement.stacks == tuple(hand.stacks)


def test_rules_5_3_each_pot_split_on_its_own_where_pokerkit_merges_them() -> None:
    """RULES 5.3-5.4: seat 2 is all-in for 3 and loses; seats 0 and 1 tie with A-K-Q-J-9. The
    main pot (13) and the side pot (23, with a folded player's chip) are split one by one, each
    odd chip to seat 1's A of spades: 19 to 17. PokerKit forgets the mucked all-in player before
    building its pots, so it splits one pot of 36 evenly: 18 to 18. The differential test
    resettles PokerKit's chips pot by pot (``ReferenceHand.finish``)."""
    cards = {
        0: "AdQc2sKcJc9d3h",
        1: "AsQh4cKhJh9c2h",
        2: "3c4d8c7dTs6h2c",
        3: "5c5d9s",
        4: "6c7cTd3s",
    }
    stacks = [100, 100, 3, 100, 100]
    hand = StudHand(stacks, STAKES, stacked_deck(cards, dealer=4, seats=5), dealer=4)
    reference = ReferenceHand.of(hand)

    def script(hand: StudHand) -> tuple[str, int | None]:
        legal = hand.legal()
        if hand.actor == 3 or (hand.actor == 4 and hand.street == 4):
            return "fold", None
        if hand.street == 4 and hand.actor == 1 and legal.check:
            return "raise_to", legal.raise_to[0]
        return passive(hand)

    play_out(hand, [reference], script)
    settlement = reference.finish()

    assert pots_won(hand) == [(13, {0: 6, 1: 7}), (23, {0: 11, 1: 12})]
    assert hand.stacks == [103, 105, 0, 99, 96]
    assert settlement.pokerkit_stacks == (104, 104, 0, 99, 96)
    assert settlement.stacks == tuple(hand.stacks)


@pytest.mark.parametrize("stack", [3, 4])
def test_rules_3_2_short_bring_in_posts_all_where_pokerkit_also_offers_completing(
    stack: int,
) -> None:
    """RULES 3.2: after the ante, seat 0 has 2 or 3 chips, at most the bring-in of 3: he posts
    them. PokerKit also offers to "complete" to the same amount; the differential test leaves
    that option out of its comparison and always posts the bring-in."""
    deck = stacked_deck({0: "AsKs2c", 1: "AhKh5c", 2: "AdKd6c"}, dealer=2, seats=3)
    hand = StudHand([stack, 100, 100], STAKES, deck, dealer=2)
    reference = ReferenceHand.of(hand)

    legal = hand.legal()
    assert hand.actor == 0
    assert (legal.bring_in, legal.raise_to) == (stack - 1, ())
    assert reference.state.effective_bring_in_amount == stack - 1
    assert reference.raise_to() == (stack - 1,)
    assert engine_view(hand) == reference.view()
    assert reference.short_bring_in_completions_dropped == 1
    play_out(hand, [reference])
    assert reference.finish().stacks == tuple(hand.stacks)


def on_fifth_street(
    cards: dict[int, str],
    stacks: list[int],
    first: int,
    decisions: Sequence[tuple[str, int | None]],
) -> tuple[StudHand, ReferenceHand]:
    """The engine and PokerKit play 3rd and 4th street passively; on 5th street, where seat
    ``first`` acts first, both take ``decisions``."""
    hand = stud(cards, stacks=stacks)
    reference = ReferenceHand.of(hand)
    play(hand, [reference])
    play(hand, [reference])
    assert hand.street == 5 and hand.actor == first
    for decision in decisions:
        hand.apply(*decision)
        reference.apply(*decision)
    return hand, reference


def test_rules_4_6_half_bet_all_in_reopens_where_pokerkit_needs_the_largest_raise() -> None:
    """RULES 4.6: on 5th street (L = 20) seat 0 bets 20 and seat 2 raises all-in by 12, at
    least half a unit: a full raise, so seat 0 may raise again. PokerKit measures it against the
    largest raise so far (20) and lets seat 0 only call. (RULES 7 lists this as "4.5: it
    measures the raise over a short all-in against the largest raise so far"; the half unit of
    4.6 is not written there.)"""
    cards = {0: "AsAd2c3dKh", 1: "KcKd5s4h8c", 2: "QhQd9s9h4c"}
    decisions = (("check", None), ("raise_to", 20), ("call", None), ("raise_to", 32))
    hand, reference = on_fifth_street(cards, [1000, 1000, 36], 2, decisions)
    assert hand.actor == reference.actor == 0
    assert hand.legal().raise_to == (52,)
    assert reference.raise_to() == ()
    assert replace(engine_view(hand), raise_to=()) == reference.view()


def test_rules_4_6_short_all_in_under_half_leaves_the_cap_where_pokerkit_counts_it() -> None:
    """RULES 4.6: bet 20, raise to 40, an all-in raise by 8 (under half of 20), a raise to 68:
    three count towards the cap, so seat 1 may still raise to 88. PokerKit counts the short
    all-in too: four, capped."""
    cards = {0: "AsAd2c3dKh", 1: "KcKdQs5h6c", 2: "QhQd9s9h4c"}
    decisions = (
        ("check", None),
        ("raise_to", 20),
        ("raise_to", 40),
        ("raise_to", 48),
        ("raise_to", 68),
    )
    hand, reference = on_fifth_street(cards, [1000, 1000, 52], 2, decisions)
    assert hand.actor == reference.actor == 1
    assert hand.legal().raise_to == (88,)
    assert reference.raise_to() == ()
    assert reference.state.completion_betting_or_raising_count == 4


def test_rules_4_6_short_bet_under_half_does_not_reopen_where_pokerkit_does() -> None:
    """RULES 4.6: seat 1 checks on 5th street and seat 2 bets all-in 6, under half of L = 20:
    seat 1 already acted and may only call. PokerKit, with no raise yet to measure against, lets
    him raise."""
    cards = {0: "AsAd2c3dKh", 1: "KcKdQs5h5c", 2: "2h2dJs9s4h"}
    decisions = (("check", None), ("raise_to", 6), ("call", None))
    hand, reference = on_fifth_street(cards, [1000, 1000, 10], 1, decisions)
    assert hand.actor == reference.actor == 1
    assert hand.legal().raise_to == ()
    assert reference.raise_to() == (26,)


def test_rules_10_1_a_pot_no_contender_has_a_low_for_goes_whole_to_the_high() -> None:
    """RULES 10.1, pot by pot: seat 0 is all-in on the bring-in with the only low (8-4-3-2-A);
    seat 1 is all-in on 5th street with the best high (a straight); seat 2 outbets seat 3 for
    the last side pot. The main pot (16) is halved between seat 1's high and seat 0's low; the
    first side pot (33) has no low among seats 1-3, so all of it goes to seat 1's straight.
    PokerKit halves every pot once anyone has a low, and shares that side pot's low half (16)
    among its players whose hands it has not killed: seats 1 and 2 (seat 2 wins the last pot),
    8 each. Not in the RULES 7 list; the differential test resettles such pots by RULES and
    counts them."""
    cards = {
        0: "2c3d4hKsAc8dQh",
        1: "AsAdKhQdJcTc9s",
        2: "KcKdQsJhTh9c9d",
        3: "7c7d5c5d6h6d2h",
    }
    hand = stud(cards, stacks=[4, 15, 100, 100], dealer=3, variant=STUD_HI_LO)
    reference = ReferenceHand.of(hand)

    def seat_2_bets(hand: StudHand) -> tuple[str, int | None]:
        legal = hand.legal()
        if hand.street in (4, 5) and hand.actor == 2 and legal.check:
            return "raise_to", legal.raise_to[0]
        return passive(hand)

    assert hand.actor == 0  # 4h is the lowest door card
    play_out(hand, [reference], seat_2_bets)
    settlement = reference.finish()

    pots = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert [(p.amount, p.high_winners, p.high_shares, p.low_winners) for p in pots] == [
        (16, (1,), (8,), (0,)),
        (33, (1,), (33,), ()),
        (38, (2,), (38,), ()),
    ]
    assert settlement.low_without_contender == 2
    assert settlement.stacks == tuple(hand.stacks)
    pokerkit_won = [
        theirs - ours for theirs, ours in zip(settlement.pokerkit_stacks, hand.stacks, strict=True)
    ]
    assert pokerkit_won == [0, -8, 8, 0]
