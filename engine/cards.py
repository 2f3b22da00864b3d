"""Cards and decks.

A card is an immutable ``int`` from 0 to 51: ``(rank - 2) * 4 + suit``. Being an int keeps hashing
and evaluation fast, and the natural order is rank first, then suit in the order the rule book
uses for the bring-in and the odd chip (clubs < diamonds < hearts < spades, RULES 3.1 and 5.4).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from enum import IntEnum
from typing import Final

RANK_CHARS: Final = "23456789TJQKA"
SUIT_CHARS: Final = "cdhs"
SUIT_SYMBOLS: Final = "♣♦♥♠"


class Suit(IntEnum):
    """Suits in bring-in order: clubs lowest, spades highest (RULES 3.1)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]


RANK_NAMES: Final = {
    2: ("Deuce", "Deuces"),
    3: ("Three", "Threes"),
    4: ("Four", "Fours"),
    5: ("Five", "Fives"),
    6: ("Six", "Sixes"),
    7: ("Seven", "Sevens"),
    8: ("Eight", "Eights"),
    9: ("Nine", "Nines"),
    10: ("Ten", "Tens"),
    11: ("Jack", "Jacks"),
    12: ("Queen", "Queens"),
    13: ("King", "Kings"),
    14: ("Ace", "Aces"),
}


def rank_name(rank: int, plural: bool = False) -> str:
    """English name of a rank: ``rank_name(13) == "King"``, ``rank_name(6, True) == "Sixes"``."""
    return RANK_NAMES[rank][1 if plural else 0]


class Card(int):
    """One playing card; ``Card.parse("As")``, ``Card(14, Suit.SPADES)``, ``str(card) == "As"``."""

    __slots__ = ()

    def __new__(cls, rank: int, suit: int) -> Card:
        if not 2 <= rank <= 14:
            raise ValueError(f"rank must be 2..14, not {rank!r}")
        if not 0 <= suit <= 3:
            raise ValueError(f"suit must be 0..3, not {suit!r}")
        return _CARDS[(rank - 2) * 4 + suit]

    @classmethod
    def _make(cls, index: int) -> Card:
        return int.__new__(cls, index)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with this 0..51 index (the int value of a card)."""
        if not 0 <= index < 52:
            raise ValueError(f"card index must be 0..51, not {index!r}")
        return _CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse two characters, rank then suit: ``"As"``, ``"Td"``, ``"2c"``."""
        if not isinstance(text, str) or len(text) != 2:
            raise ValueError(f"a card is two characters like 'As', not {text!r}")
        rank_index = RANK_CHARS.find(text[0].upper())
        suit_index = SUIT_CHARS.find(text[1].lower())
        if rank_index < 0 or suit_index < 0:
            raise ValueError(f"not a card: {text!r} (ranks 2-9TJQKA, suits cdhs)")
        return _CARDS[rank_index * 4 + suit_index]

    @property
    def rank(self) -> int:
        """2..14, ace high."""
        return (int(self) >> 2) + 2

    @property
    def suit(self) -> Suit:
        return Suit(int(self) & 3)

    @property
    def pretty(self) -> str:
        """Rank and suit symbol, for people: ``"A♠"``."""
        return RANK_CHARS[self.rank - 2] + SUIT_SYMBOLS[int(self) & 3]

    def __str__(self) -> str:
        return RANK_CHARS[self.rank - 2] + SUIT_CHARS[int(self) & 3]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (int(self),))


_CARDS: Final[tuple[Card, ...]] = tuple(Card._make(index) for index in range(52))

FULL_DECK: Final[tuple[Card, ...]] = _CARDS


def parse_cards(text: str) -> list[Card]:
    """Parse cards written together or apart: ``"AsKd"``, ``"As Kd"``."""
    compact = "".join(text.split())
    if len(compact) % 2:
        raise ValueError(f"cards are two characters each: {text!r}")
    return [Card.parse(compact[i : i + 2]) for i in range(0, len(compact), 2)]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)


def shuffled_deck() -> list[Card]:
    """A uniformly shuffled 52-card deck from the operating system's CSPRNG (RULES 1.3)."""
    deck = list(FULL_DECK)
    secrets.SystemRandom().shuffle(deck)
    return deck
