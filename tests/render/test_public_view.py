"""engine.public: the public view hides every down card; the private view is one player's own."""

from __future__ import annotations

import random
from dataclasses import fields, is_dataclass, replace
from typing import Any

import pytest

from engine import Card, StudHand, best_five
from engine.events import CardDealt, CommunityCardDealt, HandShown, PotAwarded
from engine.public import PrivateHand, PublicTable, ShownCards, pots_in_play
from engine.variants import STUD_HIGH
from render import TableLabels, table_png
from tests.engine.decks import choose, random_hand, stud
from tests.render.cases import community_card_hand

HANDS = 150


def cards_in(value: Any) -> list[Card]:
    """Every card anywhere inside a view, however deep."""
    if isinstance(value, Card):
        return [value]
    if is_dataclass(value) and not isinstance(value, type):
        return [card for field in fields(value) for card in cards_in(getattr(value, field.name))]
    if isinstance(value, tuple | list):
        return [card for item in value for card in cards_in(item)]
    if value is None or isinstance(value, int | str):
        return []
    raise AssertionError(f"the view holds a {type(value).__name__}: teach cards_in to walk it")


def all_down_cards(hand: StudHand) -> set[Card]:
    return {card for seat in range(hand.seats) for card in hand.down_cards(seat)}


def decision_points(seed: int) -> list[StudHand]:
    """One random hand, snapshotted (by replay) at every decision point and at its end."""
    rng = random.Random(seed)
    hand = random_hand(rng)
    snapshots = [StudHand.from_dict(hand.to_dict())]
    while hand.actor is not None:
        hand.apply(*choose(hand, rng))
        snapshots.append(StudHand.from_dict(hand.to_dict()))
    return snapshots


def test_live_public_view_never_holds_a_down_card() -> None:
    """Privacy by construction: random hands, every decision point, every field."""
    checked = 0
    for seed in range(HANDS):
        rng = random.Random(seed)
        hand = random_hand(rng)
        while True:
            view = PublicTable.from_hand(hand)
            leaked = set(cards_in(view)) & all_down_cards(hand)
            if hand.is_over:
                # At the end only hands shown at showdown are open, never a folded player's.
                shown = {event.seat for event in hand.events if isinstance(event, HandShown)}
                mucked = [s for s in range(hand.seats) if s not in shown]
                hidden = {card for s in mucked for card in hand.down_cards(s)}
                assert not set(cards_in(view)) & hidden, f"seed {seed}"
                break
            assert not leaked, f"seed {seed}: down cards {leaked} in the public view"
            assert all(seat.shown is None for seat in view.seats)
            checked += 1
            hand.apply(*choose(hand, rng))
    assert checked > HANDS * 5  # the walk really visited many decision points


def test_a_live_view_refuses_shown_cards() -> None:
    hand = stud({0: "AsKdQc", 1: "2h3h4h"})
    view = PublicTable.from_hand(hand)
    shown = ShownCards(tuple(hand.down_cards(0)), (), "")
    with pytest.raises(ValueError, match="live hand"):
        replace(view, seats=(replace(view.seats[0], shown=shown), *view.seats[1:]))


def _twin_with_other_down_cards(hand: StudHand) -> StudHand:
    """The same hand, same decisions, same up cards, but every down card a different one."""
    dealt = [e for e in hand.events if isinstance(e, CardDealt | CommunityCardDealt)]
    down_positions = [
        i for i, event in enumerate(dealt) if isinstance(event, CardDealt) and not event.face_up
    ]
    deck = list(hand.deck)
    pool = down_positions + list(range(len(dealt), len(deck)))
    # Rotating the pool moves every down card to another place: no position keeps its card.
    cards = [deck[i] for i in pool[1:] + pool[:1]]
    for position, card in zip(pool, cards, strict=True):
        deck[position] = card
    state = hand.to_dict()
    state["deck"] = [str(card) for card in deck]
    return StudHand.from_dict(state)


def test_table_picture_depends_on_public_information_only() -> None:
    """Changing every down card changes neither the public view nor a byte of the picture."""
    compared = 0
    for seed in range(8):
        for hand in decision_points(seed)[1::3]:
            if hand.is_over:
                continue
            twin = _twin_with_other_down_cards(hand)
            for seat in hand.dealing_order:
                mine, theirs = hand.down_cards(seat), twin.down_cards(seat)
                assert all(a != b for a, b in zip(mine, theirs, strict=True))
            view = PublicTable.from_hand(hand)
            assert PublicTable.from_hand(twin) == view
            labels = TableLabels(last_action="x")
            assert table_png(PublicTable.from_hand(twin), labels) == table_png(view, labels)
            compared += 1
    assert compared >= 8


def test_pots_match_the_engine_once_a_round_is_over_and_always_add_up() -> None:
    """RULES 5.3: mid-round only all-ins split pots; between rounds they equal StudHand.pots()."""
    between_rounds = 0
    for seed in range(HANDS):
        for hand in decision_points(seed):
            view = PublicTable.from_hand(hand)
            assert sum(pot.amount for pot in view.pots) == view.pot == sum(hand.committed)
            if not hand.is_over and not any(hand.bets):
                assert view.pots == tuple(hand.pots()), f"seed {seed}"
                between_rounds += 1
    assert between_rounds > HANDS


def test_pots_in_play_splits_only_at_all_ins() -> None:
    """A bet not yet called is not a side pot; an all-in caps a pot (RULES 5.3)."""
    # Door cards Qc, 4h, 7c: seat 1 brings in; he has 6 chips, 5 after the ante.
    hand = stud({0: "AsKdQc", 1: "2h3h4h", 2: "5c6c7c"}, stacks=[100, 6, 100], dealer=2)
    hand.bring_in()
    hand.raise_to(10)  # seat 2 completes
    view = PublicTable.from_hand(hand)
    assert [pot.amount for pot in view.pots] == [1 + 4 + 11]
    assert len(hand.pots()) == 3  # the engine's end-of-round split, not meant for mid-round
    hand.call()  # seat 0
    hand.call()  # seat 1, all-in for 2 more
    view = PublicTable.from_hand(hand)
    assert view.street == 4 and view.seats[1].all_in
    assert [(pot.amount, pot.eligible) for pot in view.pots] == [(18, (0, 1, 2)), (10, (0, 2))]
    assert pots_in_play(view.seats) == view.pots


def test_showdown_results_pay_out_every_chip() -> None:
    """RULES 5.5: what the pots paid equals what was committed; shown hands as the engine."""
    for seed in range(60):
        hand = decision_points(seed)[-1]
        view = PublicTable.from_hand(hand)
        assert view.is_over
        assert sum(seat.won for seat in view.seats) == sum(hand.committed)
        assert [seat.won for seat in view.seats] == hand.payouts
        for event in hand.events:
            if isinstance(event, HandShown):
                shown = view.seats[event.seat].shown
                assert shown is not None
                assert (shown.cards, shown.best_five) == (event.cards, event.best_five)


def test_private_hand_third_street_names_the_holding() -> None:
    hand = stud({0: "9d9s9c", 1: "2h5d7s"}, stacks=[100, 100], dealer=1)
    mine = PrivateHand.for_seat(hand, 0)
    assert [(str(c.card), c.face_up) for c in mine.cards] == [
        ("9d", False),
        ("9s", False),
        ("9c", True),
    ]
    assert mine.best_five == ()
    assert mine.description == "three of a kind, Nines"


def test_private_hand_best_five_uses_the_community_card() -> None:
    """RULES 2.2 and 5.1: with a community card a player's hand is his six plus that card."""
    hand = community_card_hand()
    assert hand.community is not None
    for seat in range(hand.seats):
        mine = PrivateHand.for_seat(hand, seat)
        own = [item.card for item in mine.cards]
        assert len(own) == 6 and mine.community == hand.community
        assert mine.best_five == best_five([*own, hand.community])


def test_private_hand_of_a_seat_not_dealt_in_and_a_bad_seat() -> None:
    hand = stud({0: "AsKdQc", 2: "2h3h4h"}, stacks=[100, 0, 100], dealer=2)
    empty = PrivateHand.for_seat(hand, 1)
    assert empty.cards == () and empty.description is None and not empty.folded
    with pytest.raises(ValueError, match="no seat 3"):
        PrivateHand.for_seat(hand, 3)


def test_private_description_matches_the_board_rank_before_five_cards() -> None:
    rng = random.Random(11)
    for _ in range(40):
        hand = random_hand(rng)
        for seat in hand.dealing_order:
            mine = PrivateHand.for_seat(hand, seat)
            cards = [item.card for item in mine.cards]
            if len(cards) < 5:  # an all-in on the ante can run the board out at once (RULES 2.4)
                assert mine.description == STUD_HIGH.board_rank(cards).holding


def test_finished_hand_view_shows_the_pots_that_were_awarded_and_who_was_all_in() -> None:
    rng = random.Random(11)
    checked = 0
    for _ in range(300):
        hand = random_hand(rng)
        while hand.actor is not None:
            hand.apply(*choose(hand, rng, 0.5))
        view = PublicTable.from_hand(hand)
        awarded = [(e.amount, e.eligible) for e in hand.events if isinstance(e, PotAwarded)]
        assert [(pot.amount, pot.eligible) for pot in view.pots] == awarded
        for seat in view.seats:
            all_in = seat.dealt_in and not seat.folded and seat.stack - seat.won == 0
            assert seat.all_in == all_in
        checked += any(seat.all_in and seat.won for seat in view.seats)
    assert checked  # some all-in player won chips, so payouts had to be set aside
