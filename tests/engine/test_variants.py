"""A variant is data plus small strategies; the state machine never asks which
game it deals."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from engine import RAZZ, STUD_HI_LO, STUD_HIGH, StudHand
from engine.variants import VARIANTS, Variant, highest_door_card, low_board
from tests.engine.decks import choose, random_hand, stacked_deck, stud


def test_a_variant_built_from_parts_changes_bring_in_and_first_to_act() -> None:
    """Swapping two strategies of Stud High (Razz's bring-in and board order) changes who brings
    in and who acts first, with no other code."""
    mixed = replace(STUD_HIGH, name="mixed", bring_in_rule=highest_door_card, board_rule=low_board)
    cards = {0: "AsAd2c3h", 1: "KcKdKs9h", 2: "QhQd7s8d"}
    high = stud(cards)
    deck = stacked_deck(cards, dealer=2, seats=3)
    low = StudHand([1000] * 3, high.stakes, deck, 2, variant=mixed)
    assert high.actor == 0 and low.actor == 1  # lowest door 2c vs highest door Ks
    for hand in (high, low):
        while hand.street == 3:
            if hand.legal().bring_in is not None:
                hand.bring_in()
            else:
                hand.call()
    assert high.actor == 1  # Ks 9h is the best board
    assert low.actor == 0  # 2c 3h is the lowest board


def test_every_variant_is_named_once_and_importable_from_engine() -> None:
    assert VARIANTS == {"7 Card Stud": STUD_HIGH, "Razz": RAZZ, "7 Card Stud Hi/Lo": STUD_HI_LO}
    assert all(isinstance(variant, Variant) for variant in VARIANTS.values())


@pytest.mark.parametrize("variant", [STUD_HIGH, RAZZ, STUD_HI_LO], ids=lambda v: v.name)
def test_to_dict_round_trips_every_variant_at_every_decision(variant: Variant) -> None:
    rng = random.Random(hash(variant.name) & 0xFFFF)
    for _ in range(30):
        base = random_hand(rng)
        hand = StudHand(
            list(base.starting_stacks), base.stakes, base.deck, base.dealer, variant=variant
        )
        while True:
            restored = StudHand.from_dict(json.loads(json.dumps(hand.to_dict())))
            assert restored.variant is variant
            assert restored.events == hand.events
            assert restored.legal() == hand.legal()
            if hand.actor is None:
                break
            hand.apply(*choose(hand, rng, aggression=0.4))


def test_a_hand_saved_without_a_variant_name_loads_as_stud_high() -> None:
    """Hands saved before there were several games carry no variant, or Stud High's name."""
    hand = stud({0: "AsKs2c", 1: "AhKh5c"})
    hand.bring_in()
    saved = hand.to_dict()
    assert saved["variant"] == "7 Card Stud"
    del saved["variant"]
    restored = StudHand.from_dict(saved)
    assert restored.variant is STUD_HIGH and restored.events == hand.events


def test_an_unknown_variant_is_refused() -> None:
    saved = stud({0: "AsKs2c", 1: "AhKh5c"}).to_dict()
    saved["variant"] = "Badugi"
    with pytest.raises(ValueError, match="unknown variant"):
        StudHand.from_dict(saved)
