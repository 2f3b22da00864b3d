"""What the caller knows and the engine doesn't: names, clocks, who sits out, the last action,
the deck colours and the language of the words on the pictures.

Render knows only English (:data:`ENGLISH`); the bot builds every other language's words from
its text catalogue and hands them over with :func:`add_words`, since render can't import bot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.cards import RANK_NAMES


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

_LANGUAGES: Final[dict[str, Words]] = {ENGLISH.code: ENGLISH}


def add_words(language: Words) -> None:
    """Make ``language`` drawable by its code (the bot adds each language of its catalogue)."""
    _LANGUAGES[language.code] = language


def words(language: str) -> Words:
    try:
        return _LANGUAGES[language]
    except KeyError:
        known = ", ".join(sorted(_LANGUAGES))
        raise ValueError(f"no words for language {language!r}; known: {known}") from None


@dataclass(frozen=True, slots=True)
class SeatLabel:
    """A seated player as the bot knows him.

    ``seconds_left`` is drawn on the seat whose turn it is (``on_time_bank``: they are his time
    bank's). For a player not dealt in, whom the hand knows nothing about, ``chips`` is the stack
    to show and ``sitting_out`` says whether he sits out or just waits for the next hand.
    """

    name: str
    seconds_left: int | None = None
    on_time_bank: bool = False
    sitting_out: bool = False
    chips: int | None = None


@dataclass(frozen=True, slots=True)
class TableLabels:
    """``seats[i]`` labels seat ``i`` (``None``, or a missing entry, is an empty seat).

    ``last_action`` is the short line saying what just happened ("Dana raises to 20"); ``game``
    is the hand's game by name, ``next_game`` what a mixed table deals next ("Razz after 3 more
    hands").
    """

    seats: tuple[SeatLabel | None, ...] = ()
    last_action: str = ""
    four_colour: bool = False
    language: str = "en"
    game: str = ""
    next_game: str = ""

    def __post_init__(self) -> None:
        words(self.language)  # fail now, with a clear message, not halfway through a drawing

    def seat(self, index: int) -> SeatLabel | None:
        return self.seats[index] if index < len(self.seats) else None
