"""The key path the computer players sample with agrees with the checked evaluators."""

from __future__ import annotations

import random

from engine.cards import FULL_DECK
from engine.evaluator import (
    CARD_KEYS,
    EMPTY_KEY,
    eight_low_of_key,
    evaluate,
    evaluate_eight_low,
    evaluate_low,
    hand_key,
    high_of_key,
    low_of_key,
)


def test_keys_agree_with_the_evaluators_on_random_hands() -> None:
    rng = random.Random(2026)
    for _ in range(20_000):
        size = rng.choice((5, 6, 7))
        cards = rng.sample(FULL_DECK, size)
        key = hand_key(cards)
        assert high_of_key(key) == evaluate(cards)
        assert low_of_key(key) == evaluate_low(cards)
        assert eight_low_of_key(key) == evaluate_eight_low(cards)


def test_a_key_grows_one_card_at_a_time() -> None:
    """Adding a card's key is dealing it: the sampler's incremental keys are hands' keys."""
    rng = random.Random(7)
    for _ in range(1_000):
        cards = rng.sample(FULL_DECK, 7)
        key = EMPTY_KEY
        for card in cards:
            key += CARD_KEYS[card]
        assert key == hand_key(cards)
        assert high_of_key(key) == evaluate(cards)
