"""RULES 5.6: at a showdown a hand that can no longer win any part of a pot is mucked unseen,
unless its player chose always to show; the history, the public view and the fairness reveal
keep its cards secret from everyone but him."""

from __future__ import annotations

from datetime import UTC, datetime

from engine import RAZZ, STUD_HI_LO, StudHand
from engine.events import HandMucked, HandShown
from engine.fairness import new_secret, public_reveal, revealed_cards
from engine.history import write_history
from engine.public import PublicTable
from tests.engine.decks import call_down, stud
from tests.engine.pokerstars_parser import parse_history

# Seat 0 shows first (no bet on the river: the first dealt), with two pair; seat 1 has less.
BEATEN = {0: "AsAd2c2d3h9sKc", 1: "KsKd4c5h7h8sJc"}


def shown_seats(hand: StudHand) -> list[int]:
    return [e.seat for e in hand.events if isinstance(e, HandShown)]


def mucked_seats(hand: StudHand) -> list[int]:
    return [e.seat for e in hand.events if isinstance(e, HandMucked)]


def history(hand: StudHand, viewer: int | None) -> str:
    return write_history(
        hand.events,
        viewer_seat=viewer,
        hand_id=7,
        table_name="Muck",
        names={seat: f"P{seat}" for seat in hand.dealing_order},
        started_at=datetime(2026, 12, 2, tzinfo=UTC),
    )


def test_rules_5_6_a_beaten_hand_is_mucked_and_its_cards_stay_secret() -> None:
    hand = stud(BEATEN)
    call_down(hand)
    assert shown_seats(hand) == [0] and mucked_seats(hand) == [1]
    assert hand.payouts[0] == sum(hand.committed) and hand.payouts[1] == 0
    down = set(hand.down_cards(1))
    # The table: his up cards only, no shown hand, and he is still in it (he lost at showdown).
    view = PublicTable.from_hand(hand)
    assert view.seats[1].shown is None and view.seats[1].mucked and not view.seats[1].folded
    assert not view.seats[0].mucked
    # Another player's history: "mucks hand", and "mucked" with no cards.
    text = history(hand, viewer=0)
    assert "P1: mucks hand\n" in text and "Seat 2: P1 mucked\n" in text
    assert not any(str(card) in text for card in down)
    # His own history lists them, as PokerStars does ("Seat 7: Tumim mucked [5c 6c ...]").
    own = history(hand, viewer=1)
    cards = " ".join(str(card) for card, _ in hand.cards(1))
    assert f"Seat 2: P1 mucked [{cards}]\n" in own
    # Every copy still reads back with the same chips for everyone (a tracker's profit).
    for viewer in (None, 0, 1):
        parsed = parse_history(history(hand, viewer))
        assert parsed.mucked == [1]
        assert parsed.final_stacks() == dict(enumerate(hand.stacks))
    # The public fairness reveal opens no card of his; his own copy opens them.
    secret = new_secret()
    assert not down & set(revealed_cards(public_reveal(hand, secret)))
    assert down <= set(revealed_cards(public_reveal(hand, secret, viewer_seat=1)))


def test_rules_5_6_a_player_who_always_shows_shows_a_beaten_hand() -> None:
    hand = stud(BEATEN, always_show=[1])
    call_down(hand)
    assert shown_seats(hand) == [0, 1] and mucked_seats(hand) == []


def test_rules_5_6_a_hand_that_beats_those_shown_is_shown() -> None:
    hand = stud({0: BEATEN[1], 1: BEATEN[0]})
    call_down(hand)
    assert shown_seats(hand) == [0, 1]
    assert hand.payouts[1] > 0


def test_rules_5_6_a_tie_can_still_win_so_it_is_shown() -> None:
    hand = stud({0: "AsAd2c2d3h9sKc", 1: "AhAc2h2s3d9cKd"})
    call_down(hand)
    assert shown_seats(hand) == [0, 1]
    assert hand.payouts[0] == hand.payouts[1]


def test_rules_5_6_after_a_run_out_every_hand_is_shown_at_once() -> None:
    """RULES 2.4 with 5.6: all in on 3rd street, the rest dealt with no betting."""
    hand = stud(BEATEN, stacks=[30, 1000])
    while hand.actor is not None:
        legal = hand.legal()
        if legal.raise_to:
            hand.raise_to(legal.raise_to[-1])
        elif legal.call is not None:
            hand.call()
        else:
            hand.bring_in()
    assert hand.run_out_from is not None
    assert shown_seats(hand) == [0, 1] and mucked_seats(hand) == []


def test_rules_5_6_a_side_pot_still_open_keeps_a_hand_shown() -> None:
    """Seat 0 is all in and shows the best hand: seat 1, beaten for the main pot, can still win
    the side pot against seat 2, who has not shown yet; seat 2, beaten by seat 1 there and by
    seat 0 in the main pot, mucks."""
    hand = stud(
        {0: "AsAd2c2d3h9sKc", 1: "KsKd4c5h7h8sJc", 2: "QsQd3c6h9d8cTc"},
        stacks=[60, 1000, 1000],
    )
    street = hand.street
    while hand.actor is not None:
        legal = hand.legal()
        # Seat 1 bets every street while seat 0 has chips left to call with.
        if hand.actor == 1 and legal.raise_to and hand.street != street:
            hand.raise_to(legal.raise_to[0])
            street = hand.street
        elif legal.call is not None:
            hand.call()
        elif legal.check:
            hand.check()
        else:
            hand.bring_in()
    assert hand.run_out_from is None and len(hand.pots()) == 2
    seen = shown_seats(hand)
    assert 0 in seen and 1 in seen and mucked_seats(hand) == [2]


def test_rules_5_6_in_razz_the_worse_low_mucks() -> None:
    hand = stud({0: "As2c3d4h5sKcKd", 1: "Ah2d3c4d6cQsQh"}, variant=RAZZ)
    call_down(hand)
    assert shown_seats(hand) == [0] and mucked_seats(hand) == [1]


def test_rules_5_6_in_hi_lo_a_hand_with_the_best_low_half_shows() -> None:
    """Seat 0 shows a high with a poor low; seat 1, beaten for the high, has the better low and
    shows; seat 2, beaten for both halves, mucks."""
    hand = stud(
        {
            0: "KsKdKc8h7h6s5c",  # three kings; 8-7-6-5 is four low cards: no low
            1: "As2c3d9h9sTcJd",  # a pair of nines; A-2-3 is no low
            2: "Qs2d4cJhJcTd3s",  # a pair of jacks; A-less 2-3-4 is no low
        },
        variant=STUD_HI_LO,
    )
    call_down(hand)
    # Nobody has a qualifying low here: only the high counts, and seat 0's trips beat both.
    assert shown_seats(hand) == [0] and mucked_seats(hand) == [1, 2]

    hand = stud(
        {
            0: "KsKdKc9h9cTsQc",  # a full house, no low
            1: "As2c3d4h7sTcJd",  # a seven low, no high to speak of
            2: "Qs2d4cJhJcTd3s",  # a pair of jacks, no low
        },
        variant=STUD_HI_LO,
    )
    call_down(hand)
    assert shown_seats(hand) == [0, 1] and mucked_seats(hand) == [2]
    assert hand.payouts[1] > 0
