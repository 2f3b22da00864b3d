"""Issue 2 point 7: what differs between variants lives in a Variant, not in the state machine."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine import Card, StudHand
from engine.variants import BoardRank, StudHigh
from tests.engine.decks import stacked_deck, stud


class HighCardBringsIn(StudHigh):
    """Razz-like bring-in and first-to-act rules, to show they plug in without a new engine."""

    def bring_in_seat(self, door_cards: Mapping[int, Card]) -> int:
        return max(door_cards, key=lambda seat: door_cards[seat])

    def board_rank(self, up_cards: Sequence[Card]) -> BoardRank:
        high = super().board_rank(up_cards)
        return BoardRank(tuple(-part for part in high.key), "lowest board")


def test_a_variant_changes_bring_in_and_first_to_act_without_touching_the_engine() -> None:
    cards = {0: "AsAd2c3h", 1: "KcKdKs9h", 2: "QhQd7s8d"}
    high = stud(cards)
    deck = stacked_deck(cards, dealer=2, seats=3)
    low = StudHand([1000] * 3, high.stakes, deck, 2, variant=HighCardBringsIn())
    assert high.actor == 0 and low.actor == 1  # lowest door 2c vs highest door Ks
    for hand in (high, low):
        while hand.street == 3:
            if hand.legal().bring_in is not None:
                hand.bring_in()
            else:
                hand.call()
    assert high.actor == 1  # Ks 9h is the best board
    assert low.actor == 0  # 2c 3h is the lowest board
