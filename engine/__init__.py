"""Pure rules of fixed-limit stud (Seven Card Stud, Razz, Stud Hi-Lo): no I/O, no Discord, no
drawing."""

from engine.cards import Card, Suit, parse_cards, shuffled_deck
from engine.errors import IllegalAction
from engine.evaluator import (
    HandCategory,
    HandValue,
    LowValue,
    best_five,
    best_low_five,
    evaluate,
    evaluate_eight_low,
    evaluate_low,
)
from engine.hand import Decision, LegalActions, Pot, StudHand
from engine.stakes import DEFAULT_STAKES, Stakes
from engine.variants import RAZZ, STUD_HI_LO, STUD_HIGH, Variant

__all__ = [
    "DEFAULT_STAKES",
    "RAZZ",
    "STUD_HIGH",
    "STUD_HI_LO",
    "Card",
    "Decision",
    "HandCategory",
    "HandValue",
    "IllegalAction",
    "LegalActions",
    "LowValue",
    "Pot",
    "Stakes",
    "StudHand",
    "Suit",
    "Variant",
    "best_five",
    "best_low_five",
    "evaluate",
    "evaluate_eight_low",
    "evaluate_low",
    "parse_cards",
    "shuffled_deck",
]
