"""What differs between stud variants, as data plus small strategies.

The state machine in ``engine.hand`` never asks which game it deals. It asks its ``Variant``: how
the streets are dealt and bet, who brings in, whose board acts first, whether an open pair on
4th street allows the big bet, and how a pot is shared at showdown. Seven Card Stud (RULES 1-8),
Razz (RULES 9) and Stud Hi-Lo eight or better (RULES 10) are three ``Variant`` values built from
the same parts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from engine.cards import Card, rank_name
from engine.evaluator import (
    HandCategory,
    HandValue,
    LowValue,
    best_five,
    best_low_five,
    evaluate,
    evaluate_eight_low,
    evaluate_low,
    low_card_order,
)


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
    """A partial face-up board's strength for acting first (RULES 4.1, 9.3), and why.

    ``key``: greater acts first. ``category`` and ``ranks`` are the holding as data (ranks high
    first, pairs before kickers; a low board counts the ace as 1); ``holding`` is its English
    wording. ``low`` tells that the lowest board acts first (Razz).
    """

    key: tuple[int, ...]
    category: HandCategory
    ranks: tuple[int, ...]
    low: bool = False

    @property
    def holding(self) -> str:
        # Worded on demand: first-to-act ranks every board but names only the best one.
        if self.low:
            return _describe_low_board(self.category, self.ranks)
        return _describe_high_board(self.category, self.ranks)


class LowRule(StrEnum):
    """Which low hand a game plays, if any."""

    ACE_TO_FIVE = "ace-to-five"  # RULES 9.1: every hand has a low
    EIGHT_OR_BETTER = "eight-or-better"  # RULES 10.1: only five unpaired cards eight or lower


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand at showdown: the high hand and the low it makes, in the variant's terms.

    ``high`` is ``None`` in a game without a high half (Razz); ``low`` is ``None`` in a game
    without a low half, or when no eight-or-better low qualifies.
    """

    seat: int
    cards: tuple[Card, ...]
    high: HandValue | None
    high_five: tuple[Card, ...]
    low: LowValue | None
    low_five: tuple[Card, ...]
    split_game: bool = False  # a high-low game: the wording names each half ("HI:", "LO:")

    @property
    def best_five(self) -> tuple[Card, ...]:
        """The five that play for the game's main result: the high hand, or the low in Razz."""
        return self.high_five if self.high is not None else self.low_five

    @property
    def description(self) -> str:
        """PokerStars' wording: ``"two pair, Kings and Sevens"``, ``"Lo: 8,6,4,3,2"``,
        ``"HI: a pair of Sevens; LO: 8,7,5,4,2"``."""
        if self.high is None:
            assert self.low is not None
            return f"Lo: {self.low.describe()}"
        high = self.high.describe()
        if self.split_game:
            low = f"; LO: {self.low.describe()}" if self.low is not None else ""
            return f"HI: {high}{low}"
        return high


@dataclass(frozen=True, slots=True)
class PotSplit:
    """One pot's shares: ``high`` and ``low`` map seats to chips won in each half (Razz plays
    only the low, Stud High only the high). The shares add up to the pot."""

    high: dict[int, int]
    low: dict[int, int]

    @property
    def total(self) -> dict[int, int]:
        shares = dict(self.high)
        for seat, share in self.low.items():
            shares[seat] = shares.get(seat, 0) + share
        return shares

    @property
    def scoop(self) -> bool:
        """One player won both halves of a split pot (RULES 10.4)."""
        return (
            bool(self.low)
            and bool(self.high)
            and len(self.high) == 1
            and (self.high.keys() == self.low.keys())
        )


# Up to four face-up cards: the counts of repeated ranks decide the holding's category.
_BOARD_CATEGORIES: Final = {
    (): HandCategory.HIGH_CARD,
    (2,): HandCategory.PAIR,
    (2, 2): HandCategory.TWO_PAIR,
    (3,): HandCategory.THREE_OF_A_KIND,
    (4,): HandCategory.FOUR_OF_A_KIND,
}
_ACE: Final = 14


def _grouped(ranks: Iterable[int]) -> tuple[HandCategory, tuple[int, ...]]:
    """The holding's category and its ranks by how many there are, then by rank, high first."""
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    ordered = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    shape = tuple(counts[rank] for rank in ordered if counts[rank] > 1)
    return _BOARD_CATEGORIES[shape], tuple(ordered)


# Boards are ranked for every live player on every street; a board's rank depends only on its
# ranks, so each one is worked out once (at most 2,379 rank multisets of one to four cards).
_HIGH_BOARDS: dict[tuple[int, ...], BoardRank] = {}
_LOW_BOARDS: dict[tuple[int, ...], BoardRank] = {}


def high_board(up_cards: Sequence[Card]) -> BoardRank:
    """RULES 4.1: quads > trips > two pair > pair > high card; straights and flushes don't count."""
    # A card's rank is (index >> 2) + 2; reading it inline keeps this hot path quick.
    ranks = tuple(sorted([(card >> 2) + 2 for card in up_cards]))
    board = _HIGH_BOARDS.get(ranks)
    if board is None:
        category, ordered = _grouped(ranks)
        board = _HIGH_BOARDS[ranks] = BoardRank((category, *ordered), category, ordered)
    return board


def low_board(up_cards: Sequence[Card]) -> BoardRank:
    """RULES 9.3: the lowest board acts first, aces low, pairs count against it: any unpaired
    board beats any pair, then compare the highest card first."""
    # Index >> 2 is 12 for an ace: as a low card it is 1, the others keep rank (index >> 2) + 2.
    ranks = tuple(sorted([1 if card >> 2 == 12 else (card >> 2) + 2 for card in up_cards]))
    board = _LOW_BOARDS.get(ranks)
    if board is None:
        category, ordered = _grouped(ranks)
        # Negated, so that the greatest key is the lowest board, as first-to-act expects.
        key = (-category, *(-rank for rank in ordered))
        board = _LOW_BOARDS[ranks] = BoardRank(key, category, ordered, True)
    return board


def _describe_high_board(category: HandCategory, ordered: Sequence[int]) -> str:
    if category is HandCategory.FOUR_OF_A_KIND:
        return f"four of a kind, {rank_name(ordered[0], True)}"
    if category is HandCategory.THREE_OF_A_KIND:
        return f"three of a kind, {rank_name(ordered[0], True)}"
    if category is HandCategory.TWO_PAIR:
        return f"two pair, {rank_name(ordered[0], True)} and {rank_name(ordered[1], True)}"
    if category is HandCategory.PAIR:
        return f"a pair of {rank_name(ordered[0], True)}"
    return f"{rank_name(ordered[0])} high"


def _describe_low_board(category: HandCategory, ordered: Sequence[int]) -> str:
    if category is not HandCategory.HIGH_CARD:
        return _describe_high_board(category, [_ACE if rank == 1 else rank for rank in ordered])
    names = [rank_name(_ACE if rank == 1 else rank) for rank in ordered]
    return "-".join(names) + " low"


def lowest_door_card(door_cards: Mapping[int, Card]) -> int:
    """RULES 3.1: card order is rank (ace high), then suit clubs < diamonds < hearts < spades."""
    return min(door_cards, key=lambda seat: door_cards[seat])


def highest_door_card(door_cards: Mapping[int, Card]) -> int:
    """RULES 9.2: king highest, ace lowest, then suit: the K of spades always brings in."""
    return max(door_cards, key=lambda seat: low_card_order(door_cards[seat]))


@dataclass(frozen=True, slots=True)
class Variant:
    """A stud game as data. ``name`` is PokerStars' name of the game (the hand-history header
    writes it, and a saved hand stores it); ``high`` and ``low`` say which hands win a pot."""

    name: str
    streets: tuple[StreetSpec, ...]
    bring_in_rule: Callable[[Mapping[int, Card]], int]
    board_rule: Callable[[Sequence[Card]], BoardRank]
    open_pair: bool  # RULES 4.3 (Stud High only; 9.4, 10.3)
    high: bool
    low: LowRule | None

    def bring_in_seat(self, door_cards: Mapping[int, Card]) -> int:
        """The seat that must bring in, from the live players' door cards."""
        return self.bring_in_rule(door_cards)

    def board_rank(self, up_cards: Sequence[Card]) -> BoardRank:
        """Greater key acts first from 4th street on."""
        return self.board_rule(up_cards)

    def show(self, seat: int, cards: Sequence[Card]) -> ShownHand:
        high = evaluate(cards) if self.high else None
        low: LowValue | None = None
        if self.low is LowRule.ACE_TO_FIVE:
            low = evaluate_low(cards)
        elif self.low is LowRule.EIGHT_OR_BETTER:
            low = evaluate_eight_low(cards)
        return ShownHand(
            seat,
            tuple(cards),
            high,
            best_five(cards) if high is not None else (),
            low,
            best_low_five(cards) if low is not None else (),
            split_game=self.high and self.low is not None,
        )

    def best_so_far(self, cards: Sequence[Card]) -> ShownHand | None:
        """A player's best hand from five or more of his cards, as ``show`` would value it (for
        his own eyes, not a showdown: the result's ``seat`` is -1)."""
        return self.show(-1, cards) if len(cards) >= 5 else None

    def can_win(self, hand: ShownHand, shown: Sequence[ShownHand]) -> bool:
        """Whether ``hand`` can still win some part of a pot whose hands already shown are
        ``shown`` (RULES 5.6): no shown hand beats it for the high, or it has a low that no
        shown low beats. Equal hands split, so a tie can still win."""
        if self.high:
            assert hand.high is not None
            if all(other.high is not None and other.high <= hand.high for other in shown):
                return True
        if hand.low is None:
            return False
        return all(other.low is None or other.low <= hand.low for other in shown)

    def split(self, amount: int, contenders: Sequence[ShownHand]) -> PotSplit:
        """Share one pot among the hands eligible for it (given in dealing order)."""
        lows = [hand for hand in contenders if hand.low is not None]
        if not self.high:
            return PotSplit({}, _share(amount, lows, _low_strength, _low_odd_chip))
        if not lows:
            return PotSplit(_share(amount, contenders, _high_strength, _high_odd_chip), {})
        # RULES 10.1-10.2: half to the best high, half to the best low, the odd chip to the high.
        low_half = amount // 2
        return PotSplit(
            _share(amount - low_half, contenders, _high_strength, _high_odd_chip),
            _share(low_half, lows, _low_strength, _low_odd_chip),
        )


def _high_strength(hand: ShownHand) -> int:
    assert hand.high is not None
    return hand.high


def _low_strength(hand: ShownHand) -> int:
    assert hand.low is not None
    return hand.low


def _high_odd_chip(hand: ShownHand) -> int:
    # RULES 5.4: the highest card of his five, rank then suit; Card's int order is exactly that.
    return int(max(hand.high_five))


def _low_odd_chip(hand: ShownHand) -> int:
    # RULES 9.5, 10.2: as 5.4, with the ace low as it plays in a low.
    rank, suit = max(map(low_card_order, hand.low_five))
    return rank * 4 + suit


def _share(
    amount: int,
    hands: Sequence[ShownHand],
    strength: Callable[[ShownHand], int],
    odd_chip_order: Callable[[ShownHand], int],
) -> dict[int, int]:
    best = max(map(strength, hands))
    winners = [hand for hand in hands if strength(hand) == best]
    share, odd = divmod(amount, len(winners))
    # Stable sort: a tie the odd-chip rule can't break stays in dealing order (first dealt).
    winners.sort(key=odd_chip_order, reverse=True)
    return {hand.seat: share + (1 if i < odd else 0) for i, hand in enumerate(winners)}


STUD_HIGH: Final = Variant(
    "7 Card Stud",
    STUD_STREETS,
    lowest_door_card,
    high_board,
    open_pair=True,
    high=True,
    low=None,
)
RAZZ: Final = Variant(
    "Razz",
    STUD_STREETS,
    highest_door_card,
    low_board,
    open_pair=False,
    high=False,
    low=LowRule.ACE_TO_FIVE,
)
STUD_HI_LO: Final = Variant(
    "7 Card Stud Hi/Lo",
    STUD_STREETS,
    lowest_door_card,
    high_board,
    open_pair=False,
    high=True,
    low=LowRule.EIGHT_OR_BETTER,
)
VARIANTS: Final[dict[str, Variant]] = {v.name: v for v in (STUD_HIGH, RAZZ, STUD_HI_LO)}
