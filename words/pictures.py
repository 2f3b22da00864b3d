"""Every word a picture draws, in one language: hand names, streets, labels.

:class:`Words` is what render draws with; the bot makes one per language from its catalogue
(:func:`picture_words`) and hands it over with the picture's labels. :data:`ENGLISH` is the
default, and the English catalogue says the same (a test holds them equal).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from babel.numbers import get_group_symbol

from engine.cards import RANK_NAMES
from words.catalogue import Catalogue

# Hand categories as the rankings picture names them, strongest first (pic_category_NAME).
CATEGORIES: Final = (
    "royal_flush",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "pair",
    "high_card",
)


@dataclass(frozen=True, slots=True)
class RankWords:
    """One rank's name in the forms hand names need; English uses two, Russian four cases."""

    one: str  # "Ace": "high card Ace"
    many: str  # "Aces": "two pair, Aces and Kings"
    of_one: str  # "a straight to the Ace" (Russian genitive: "туза")
    of_many: str  # "a pair of Aces" (Russian genitive plural: "тузов")


@dataclass(frozen=True, slots=True)
class HandWords:
    """Templates naming a hand, filled by :func:`render.describe.describe`.

    Placeholders: ``{rank}``, ``{ranks}``, ``{rank_of}``, ``{ranks_of}`` for the hand's first
    rank (as in :class:`RankWords`), the same with ``2`` (``{ranks2}``...) for the second rank of
    two pair and full houses, and ``{low}``, ``{low_of}`` for a straight's lowest card.
    """

    high_card: str
    board_high_card: str  # up cards only (a stud board): "Ace high"
    pair: str
    two_pair: str
    three_of_a_kind: str
    straight: str
    flush: str
    full_house: str
    four_of_a_kind: str
    straight_flush: str
    royal_flush: str
    ranks: tuple[RankWords, ...]  # ranks[0] is the Deuce, ranks[12] the Ace
    low: str  # "{ranks} low": an unpaired low by its top ranks ("Eight-Six low")
    no_low: str  # a high-low hand that makes no eight-or-better low

    def rank(self, rank: int) -> RankWords:
        return self.ranks[rank - 2]


@dataclass(frozen=True, slots=True)
class Words:
    """Every word drawn on a picture, in one language (``code``: "en", "ru")."""

    code: str
    pot: str
    main_pot: str
    side_pot: str
    side_pots: str
    streets: tuple[str, ...]  # 3rd to 7th street
    ante: str  # "{n}"
    bring_in: str  # "{n}"
    all_in: str
    folded: str
    mucked: str  # a hand mucked unseen at the showdown (RULES 5.6)
    odds: str  # the heading of the all-in chances
    odds_estimate: str  # the same, when they are an estimate
    odds_halves: str  # what a Stud Hi-Lo hand's three figures are
    sitting_out: str
    next_hand: str
    empty_seat: str
    seat: str  # "{n}" is the seat's number from 1
    community: str
    seconds: str  # "{n}"
    time_bank: str  # "{n}": the actor's time bank running
    each: str  # "{n}": a split pot's share
    high: str  # a high-low pot's high half
    low: str  # its low half
    scoops: str  # "{name}": one player won both halves
    showdown: str
    your_cards: str
    hidden: str
    best_hand: str
    folded_hand: str
    thousands: str  # digit group separator
    hands: HandWords
    rankings: str  # the hand rankings picture's title
    rankings_note: str
    categories: tuple[str, ...]  # hand categories by name, the royal flush first

    def street_name(self, street: int) -> str:
        return self.streets[street - 3]

    def chips(self, amount: int) -> str:
        return f"{amount:,}".replace(",", self.thousands)


# The bot's English catalogue says the same (a test holds them equal). Hand names are the
# engine's hand-history wording, so a picture says exactly what the history says.
ENGLISH: Final = Words(
    code="en",
    pot="Pot",
    main_pot="Main pot",
    side_pot="Side pot",
    side_pots="Side pots",
    streets=("3rd street", "4th street", "5th street", "6th street", "7th street"),
    ante="ante {n}",
    bring_in="bring-in {n}",
    all_in="ALL-IN",
    folded="Folded",
    mucked="Mucked",
    odds="All in: chances",
    odds_estimate="All in: chances (estimate)",
    odds_halves="High · Low · Scoop",
    sitting_out="Sitting out",
    next_hand="In from next hand",
    empty_seat="Empty seat",
    seat="Seat {n}",
    community="Community card",
    seconds="{n}s",
    time_bank="time bank {n}s",
    each="{n} each",
    high="High",
    low="Low",
    scoops="{name} scoops",
    showdown="Showdown",
    your_cards="Your cards",
    hidden="hidden",
    best_hand="Best hand",
    folded_hand="You folded",
    thousands=",",
    hands=HandWords(
        high_card="high card {rank}",
        board_high_card="{rank} high",
        pair="a pair of {ranks}",
        two_pair="two pair, {ranks} and {ranks2}",
        three_of_a_kind="three of a kind, {ranks}",
        straight="a straight, {low} to {rank}",
        flush="a flush, {rank} high",
        full_house="a full house, {ranks} full of {ranks2}",
        four_of_a_kind="four of a kind, {ranks}",
        straight_flush="a straight flush, {low} to {rank}",
        royal_flush="a Royal Flush",
        ranks=tuple(RankWords(one, many, one, many) for one, many in RANK_NAMES.values()),
        low="{ranks} low",
        no_low="no low",
    ),
    rankings="Hand rankings, best first",
    rankings_note="The best five of your seven cards play. Suits never break a tie.",
    categories=(
        "Royal flush",
        "Straight flush",
        "Four of a kind",
        "Full house",
        "Flush",
        "Straight",
        "Three of a kind",
        "Two pair",
        "One pair",
        "High card",
    ),
)


def picture_words(words: Catalogue) -> Words:
    """Every word the pictures draw in ``words``' language, from its catalogue."""
    raw = words.raw
    return Words(
        code=words.code,
        pot=raw("pic_pot"),
        main_pot=raw("pic_main_pot"),
        side_pot=raw("pic_side_pot"),
        side_pots=raw("pic_side_pots"),
        streets=tuple(raw(f"pic_street_{street}") for street in range(3, 8)),
        ante=raw("pic_ante"),
        bring_in=raw("pic_bring_in"),
        all_in=raw("pic_all_in"),
        folded=raw("pic_folded"),
        mucked=raw("pic_mucked"),
        odds=raw("pic_odds"),
        odds_estimate=raw("pic_odds_estimate"),
        odds_halves=raw("pic_odds_halves"),
        sitting_out=raw("pic_sitting_out"),
        next_hand=raw("pic_next_hand"),
        empty_seat=raw("pic_empty_seat"),
        seat=raw("pic_seat"),
        community=raw("pic_community"),
        seconds=raw("pic_seconds"),
        time_bank=raw("pic_time_bank"),
        each=raw("pic_each"),
        high=raw("pic_high"),
        low=raw("pic_low"),
        scoops=raw("pic_scoops"),
        showdown=raw("pic_showdown"),
        your_cards=raw("pic_your_cards"),
        hidden=raw("pic_hidden"),
        best_hand=raw("pic_best_hand"),
        folded_hand=raw("pic_folded_hand"),
        thousands=get_group_symbol(locale=words.locale),
        hands=HandWords(
            high_card=raw("hand_high_card"),
            board_high_card=raw("hand_board_high_card"),
            pair=raw("hand_pair"),
            two_pair=raw("hand_two_pair"),
            three_of_a_kind=raw("hand_three_of_a_kind"),
            straight=raw("hand_straight"),
            flush=raw("hand_flush"),
            full_house=raw("hand_full_house"),
            four_of_a_kind=raw("hand_four_of_a_kind"),
            straight_flush=raw("hand_straight_flush"),
            royal_flush=raw("hand_royal_flush"),
            ranks=tuple(
                RankWords(
                    one=raw(f"rank_{rank}"),
                    many=raw(f"rank_{rank}_many"),
                    of_one=raw(f"rank_{rank}_of"),
                    of_many=raw(f"rank_{rank}_of_many"),
                )
                for rank in range(2, 15)
            ),
            low=raw("hand_low"),
            no_low=raw("hand_no_low"),
        ),
        rankings=raw("pic_rankings_title"),
        rankings_note=raw("pic_rankings_note"),
        categories=tuple(raw(f"pic_category_{name}") for name in CATEGORIES),
    )
