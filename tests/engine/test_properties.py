"""Properties that hold for every hand of every game, checked with hypothesis."""

from __future__ import annotations

import json
import random

from hypothesis import given
from hypothesis import strategies as st

from engine import RAZZ, STUD_HI_LO, STUD_HIGH, Decision, IllegalAction, Stakes, StudHand
from engine.cards import FULL_DECK
from tests.engine.decks import choose, options

stacks_strategy = st.lists(
    st.one_of(st.integers(0, 40), st.integers(41, 2000)), min_size=2, max_size=8
).filter(lambda stacks: sum(1 for stack in stacks if stack) >= 2)

stakes_strategy = st.builds(
    lambda ante, bring_in, small, extra: Stakes(ante, min(bring_in, small), small, small + extra),
    st.integers(0, 5),
    st.integers(1, 10),
    st.integers(2, 20),
    st.integers(1, 30),
)


@st.composite
def hands(draw: st.DrawFn) -> tuple[StudHand, random.Random]:
    stacks = draw(stacks_strategy)
    deck = draw(st.permutations(FULL_DECK))
    dealer = draw(st.integers(0, len(stacks) - 1))
    rng = random.Random(draw(st.integers(0, 2**32)))
    variant = draw(st.sampled_from([STUD_HIGH, RAZZ, STUD_HI_LO]))
    return StudHand(stacks, draw(stakes_strategy), deck, dealer, variant=variant), rng


def snapshot(hand: StudHand) -> tuple[object, ...]:
    return (
        hand.to_dict(),
        list(hand.events),
        list(hand.stacks),
        list(hand.bets),
        list(hand.committed),
        hand.actor,
        hand.street,
        hand.legal(),
    )


BAD_ACTIONS = (
    ("fold", None),
    ("check", None),
    ("call", None),
    ("bring_in", None),
    ("raise_to", -1),
    ("raise_to", 0),
    ("raise_to", 10**9),
    ("shove", None),
)


@given(hands(), st.floats(0.0, 0.9))
def test_chips_conserved_and_every_hand_ends(
    case: tuple[StudHand, random.Random], aggression: float
) -> None:
    """RULES 5.5: stacks plus pot never change; every hand reaches its end."""
    hand, rng = case
    total = sum(hand.starting_stacks)
    decisions = 0
    while hand.actor is not None:
        hand.apply(*choose(hand, rng, aggression))
        decisions += 1
        assert sum(hand.stacks) + hand.pot == total
        assert all(stack >= 0 for stack in hand.stacks)
        assert decisions < 200
    assert hand.is_over and sum(hand.stacks) == total
    assert sum(hand.payouts) == sum(hand.committed)


@given(hands())
def test_legal_offers_something_whenever_someone_must_act(
    case: tuple[StudHand, random.Random],
) -> None:
    hand, rng = case
    while hand.actor is not None:
        legal = hand.legal()
        assert legal.any and options(hand)
        # Exactly one of check or call is offered, except to the bring-in player.
        assert legal.bring_in is not None or legal.check != (legal.call is not None)
        hand.apply(*choose(hand, rng))
    assert not hand.legal().any


@given(hands())
def test_illegal_actions_raise_and_change_nothing(case: tuple[StudHand, random.Random]) -> None:
    hand, rng = case
    while True:
        legal_now = set(options(hand))
        for action in BAD_ACTIONS:
            if action in legal_now:
                continue
            before = snapshot(hand)
            try:
                hand.apply(*action)
            except IllegalAction as error:
                assert str(error)
            else:
                raise AssertionError(f"{action} was accepted but not offered")
            assert snapshot(hand) == before
        if hand.actor is None:
            break
        hand.apply(*choose(hand, rng))


@given(hands())
def test_every_offered_decision_is_accepted_and_nearby_amounts_are_not(
    case: tuple[StudHand, random.Random],
) -> None:
    """Actions are checked against legal() itself, so everything it offers is
    taken and a total next to an offered one is refused."""
    hand, rng = case
    while hand.actor is not None:
        saved = hand.to_dict()
        offered = options(hand)
        for decision in offered:
            StudHand.from_dict(saved).decide(Decision.of(*decision))
        for total in {total + step for total in hand.legal().raise_to for step in (-1, 1)}:
            if ("raise_to", total) not in offered:
                copy = StudHand.from_dict(saved)
                try:
                    copy.raise_to(total)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"raise_to {total} accepted, offered {offered}")
        hand.apply(*choose(hand, rng, 0.5))


@given(hands())
def test_state_round_trips_at_every_decision(case: tuple[StudHand, random.Random]) -> None:
    """A hand through from_dict(to_dict()) and JSON continues identically, timeouts
    included (each saved as the timeout it was, RULES 6.1)."""
    hand, rng = case
    while True:
        restored = StudHand.from_dict(json.loads(json.dumps(hand.to_dict())))
        assert snapshot(restored) == snapshot(hand)
        assert [hand.cards(seat) for seat in range(hand.seats)] == [
            restored.cards(seat) for seat in range(restored.seats)
        ]
        if hand.actor is None:
            break
        decision = ("timeout", None) if rng.random() < 0.1 else choose(hand, rng)
        hand.apply(*decision)
        restored.apply(*decision)
        assert hand.to_dict()["actions"][-1] == list(decision)
        assert snapshot(restored) == snapshot(hand)


def test_events_round_trip_through_json() -> None:
    from engine.events import event_from_dict

    rng = random.Random(7)
    for _ in range(50):
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        variant = (STUD_HIGH, RAZZ, STUD_HI_LO)[rng.randrange(3)]
        stacks = [rng.choice([3, 30, 300]) for _ in range(8)]
        hand = StudHand(stacks, Stakes(1, 3, 10, 20), deck, 0, variant=variant)
        while hand.actor is not None:
            hand.apply(*choose(hand, rng, 0.5))
        encoded = json.loads(json.dumps([event.to_dict() for event in hand.events]))
        assert [event_from_dict(data) for data in encoded] == hand.events


def test_events_stored_before_the_new_fields_still_load() -> None:
    """Events saved before Razz and Stud Hi-Lo lack the structured fields: they take defaults."""
    from engine.events import FirstToAct, HandShown, HandStarted, PotAwarded, event_from_dict

    old_start = {
        "kind": "hand_started",
        "dealer": 1,
        "seats": [0, 1],
        "stacks": [100, 100],
        "stakes": {"ante": 1, "bring_in": 3, "small_bet": 10, "big_bet": 20},
    }
    old_first = {
        "kind": "first_to_act", "street": 4, "seat": 1, "holding": "a pair of Kings",
        "up_cards": ["Ks", "Kd"],
    }  # fmt: skip
    old_shown = {
        "kind": "shown", "seat": 0, "cards": ["As", "Ks", "Qs", "Js", "Ts", "2c", "3d"],
        "best_five": ["As", "Ks", "Qs", "Js", "Ts"], "description": "a Royal Flush",
    }  # fmt: skip
    old_pot = {
        "kind": "pot", "index": 0, "amount": 8, "eligible": [0, 1], "winners": [0],
        "shares": [8], "description": "a Royal Flush",
    }  # fmt: skip
    start = event_from_dict(old_start)
    assert isinstance(start, HandStarted) and start.game == "7 Card Stud"
    first = event_from_dict(old_first)
    assert isinstance(first, FirstToAct) and first.ranks == () and not first.low
    shown = event_from_dict(old_shown)
    assert isinstance(shown, HandShown) and shown.low_five == () and shown.high_category is None
    pot = event_from_dict(old_pot)
    assert isinstance(pot, PotAwarded) and pot.high_winners == () and not pot.scoop
