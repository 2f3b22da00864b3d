"""Pure rules of fixed-limit Seven Card Stud: no I/O, no Discord, no drawing."""

from engine.cards import Card, Suit, parse_cards, shuffled_deck
from engine.errors import IllegalAction
from engine.evaluator import HandCategory, HandValue, best_five, evaluate
from engine.hand import LegalActions, Pot, StudHand
from engine.stakes import DEFAULT_STAKES, Stakes

__all__ = [
    "DEFAULT_STAKES",
    "Card",
    "HandCategory",
    "HandValue",
    "IllegalAction",
    "LegalActions",
    "Pot",
    "Stakes",
    "StudHand",
    "Suit",
    "best_five",
    "evaluate",
    "parse_cards",
    "shuffled_deck",
]
