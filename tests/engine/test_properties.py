"""Properties that hold for every hand (issue 2, points 4 and 5), checked with hypothesis."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import IllegalAction, Stakes, StudHand
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
    return StudHand(stacks, draw(stakes_strategy), deck, dealer), rng


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

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
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


@SETTINGS
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


@SETTINGS
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


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_state_round_trips_at_every_decision(case: tuple[StudHand, random.Random]) -> None:
    """Issue 2 point 5: from_dict(to_dict()) through JSON continues identically."""
    hand, rng = case
    while True:
        restored = StudHand.from_dict(json.loads(json.dumps(hand.to_dict())))
        assert snapshot(restored) == snapshot(hand)
        assert [hand.cards(seat) for seat in range(hand.seats)] == [
            restored.cards(seat) for seat in range(restored.seats)
        ]
        if hand.actor is None:
            break
        decision = choose(hand, rng)
        hand.apply(*decision)
        restored.apply(*decision)
        assert snapshot(restored) == snapshot(hand)


def test_events_round_trip_through_json() -> None:
    from engine.events import event_from_dict

    rng = random.Random(7)
    for _ in range(50):
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        hand = StudHand([rng.choice([3, 30, 300]) for _ in range(8)], Stakes(1, 3, 10, 20), deck, 0)
        while hand.actor is not None:
            hand.apply(*choose(hand, rng, 0.5))
        encoded = json.loads(json.dumps([event.to_dict() for event in hand.events]))
        assert [event_from_dict(data) for data in encoded] == hand.events
