"""What the caller knows and the engine doesn't: names, clocks, who sits out, the last action,
the deck colours and the words of the picture's language (:class:`words.Words`, English unless
the caller hands over another).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.odds import AllInOdds
from words.pictures import ENGLISH, Words


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
    hands"). ``odds``: each live hand's chances when the betting stopped with players all in.
    Without ``figures`` the picture draws no stack and no pot: a live message shows them in its
    text, which a click changes without a new picture.
    """

    seats: tuple[SeatLabel | None, ...] = ()
    last_action: str = ""
    four_colour: bool = False
    words: Words = ENGLISH
    game: str = ""
    next_game: str = ""
    odds: AllInOdds | None = None
    figures: bool = True

    def seat(self, index: int) -> SeatLabel | None:
        return self.seats[index] if index < len(self.seats) else None
