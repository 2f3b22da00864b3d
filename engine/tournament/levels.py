"""Level schedules (RULES 11.2) and the presets an organiser picks from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.stakes import Stakes

# RULES 11.2's table: (S, L, A, B) for levels 1 to 12.
_STANDARD: Final = (
    (20, 40, 3, 5),
    (30, 60, 5, 10),
    (50, 100, 10, 15),
    (80, 160, 15, 25),
    (100, 200, 20, 30),
    (150, 300, 25, 50),
    (200, 400, 40, 60),
    (300, 600, 50, 100),
    (400, 800, 75, 125),
    (600, 1200, 100, 200),
    (800, 1600, 150, 250),
    (1000, 2000, 200, 300),
)
# Two gentler levels in front of the standard ones, for a longer evening.
_DEEP_START: Final = ((10, 20, 2, 3), (15, 30, 3, 5))


def _round5(value: float) -> int:
    """The nearest multiple of 5, halves up (docs/rules.md 11.2)."""
    return int(value / 5 + 0.5) * 5


@dataclass(frozen=True, slots=True)
class Level:
    """One level: its number (from 1) and its stakes."""

    number: int
    stakes: Stakes


@dataclass(frozen=True, slots=True)
class Structure:
    """A named schedule: its first levels as listed, then 11.2's growth by half."""

    name: str
    listed: tuple[tuple[int, int, int, int], ...]
    starting_stack: int

    def level(self, number: int) -> Level:
        """Level ``number`` (from 1), as far up as a tournament can go."""
        if number < 1:
            raise ValueError("levels are numbered from 1")
        if number <= len(self.listed):
            small, big, ante, bring_in = self.listed[number - 1]
        else:
            small = self.listed[-1][0]
            for _ in range(number - len(self.listed)):
                small = _round5(small * 1.5)
            # The big bet stays twice the small one, as at every listed level.
            big = 2 * small
            ante, bring_in = _round5(small / 5), _round5(small / 4)
        return Level(number, Stakes(ante=ante, bring_in=bring_in, small_bet=small, big_bet=big))


STRUCTURES: Final = {
    # RULES 11.2 as written: 50 big bets to start.
    "standard": Structure("standard", _STANDARD, 2000),
    # Every other level from the third on: the stakes double about as fast.
    "turbo": Structure("turbo", _STANDARD[:2] + _STANDARD[3::2], 1500),
    # Two gentler levels first and 100 big bets of level 1 to start.
    "deep": Structure("deep", _DEEP_START + _STANDARD, 4000),
}


def structure(name: str) -> Structure:
    """The preset called ``name``; ValueError names the ones there are."""
    try:
        return STRUCTURES[name]
    except KeyError:
        raise ValueError(f"no structure {name!r}: one of {', '.join(STRUCTURES)}") from None


def level_at(elapsed: int, length: int) -> int:
    """The level number once ``elapsed`` units (seconds or hands) of play have gone by."""
    if length < 1:
        raise ValueError("a level lasts at least one second or one hand")
    return 1 + max(0, elapsed) // length
