"""What differs between stud variants, as data plus small strategies.

The state machine in ``engine.hand`` only asks a ``Variant`` four questions: how the streets are
dealt and bet, who brings in, who is high on board, and how a pot is split at showdown. Seven Card
Stud High answers them here; Razz or Stud Hi-Lo would be another ``Variant`` with other answers,
not another state machine.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.cards import Card, rank_name
from engine.evaluator import HandValue, best_five, evaluate


@dataclass(frozen=True, slots=True)
class StreetSpec:
    """One street: the cards each live player gets, in dealing rounds, and the betting unit."""

    number: int
    face_up_rounds: tuple[bool, ...]  # one entry per card dealt to each player, in order
    big_bet: bool  # False: small bet S (4th may still allow L, RULES 4.3); True: big bet L


STUD_STREETS: tuple[StreetSpec, ...] = (
    StreetSpec(3, (False, False, True), big_bet=False),  # RULES 2: 2 down, 1 up
    StreetSpec(4, (True,), big_bet=False),
    StreetSpec(5, (True,), big_bet=True),
    StreetSpec(6, (True,), big_bet=True),
    StreetSpec(7, (False,), big_bet=True),
)


@dataclass(frozen=True, slots=True)
class BoardRank:
    """A partial face-up board's strength for acting first (RULES 4.1), and why."""

    key: tuple[int, ...]
    holding: str


@dataclass(frozen=True, slots=True)
class ShownHand:
    seat: int
    cards: tuple[Card, ...]
    value: HandValue
    best_five: tuple[Card, ...]

    @property
    def description(self) -> str:
        return self.value.describe()


class Variant(Protocol):
    name: str
    streets: tuple[StreetSpec, ...]

    def bring_in_seat(self, door_cards: Mapping[int, Card]) -> int:
        """The seat that must bring in, from the live players' door cards."""
        ...

    def board_rank(self, up_cards: Sequence[Card]) -> BoardRank:
        """Greater key acts first from 4th street on."""
        ...

    def show(self, seat: int, cards: Sequence[Card]) -> ShownHand: ...

    def split(self, amount: int, contenders: Sequence[ShownHand]) -> dict[int, int]:
        """Share one pot among the hands eligible for it (given in dealing order); shares add up
        to ``amount``."""
        ...


# Up to four face-up cards: the counts of repeated ranks decide the holding's category.
_BOARD_CATEGORIES = {(): 0, (2,): 1, (2, 2): 2, (3,): 3, (4,): 4}


def _board_rank(up_cards: Sequence[Card]) -> BoardRank:
    """Quads > trips > two pair > pair > high card; straights and flushes don't count."""
    counts = Counter(card.rank for card in up_cards)
    # Ranks ordered by how many there are, then by rank: the kickers come last, high first.
    ordered = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    category = _BOARD_CATEGORIES[tuple(counts[rank] for rank in ordered if counts[rank] > 1)]
    return BoardRank((category, *ordered), _describe_board(category, ordered))


def _describe_board(category: int, ordered: Sequence[int]) -> str:
    if category == 4:
        return f"four of a kind, {rank_name(ordered[0], True)}"
    if category == 3:
        return f"three of a kind, {rank_name(ordered[0], True)}"
    if category == 2:
        return f"two pair, {rank_name(ordered[0], True)} and {rank_name(ordered[1], True)}"
    if category == 1:
        return f"a pair of {rank_name(ordered[0], True)}"
    return f"{rank_name(ordered[0])} high"


class StudHigh:
    """Seven Card Stud, high hand wins (RULES 3.1, 4.1, 5.1, 5.4)."""

    name = "7 Card Stud"
    streets = STUD_STREETS

    def bring_in_seat(self, door_cards: Mapping[int, Card]) -> int:
        # Card order is rank, then suit clubs < diamonds < hearts < spades: exactly RULES 3.1.
        return min(door_cards, key=lambda seat: door_cards[seat])

    def board_rank(self, up_cards: Sequence[Card]) -> BoardRank:
        return _board_rank(up_cards)

    def show(self, seat: int, cards: Sequence[Card]) -> ShownHand:
        return ShownHand(seat, tuple(cards), evaluate(cards), best_five(cards))

    def split(self, amount: int, contenders: Sequence[ShownHand]) -> dict[int, int]:
        best = max(hand.value for hand in contenders)
        winners = [hand for hand in contenders if hand.value == best]
        share, odd = divmod(amount, len(winners))
        # RULES 5.4: odd chips go to the tied hand holding the highest card of its five (rank, then
        # suit); Card's int order is exactly that.
        winners.sort(key=lambda hand: max(hand.best_five), reverse=True)
        return {hand.seat: share + (1 if i < odd else 0) for i, hand in enumerate(winners)}


STUD_HIGH = StudHigh()
