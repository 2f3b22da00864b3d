"""Prizes (RULES 11.7) and how tied places share them (11.4)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

# RULES 11.7's table: (most entrants, shares in percent).
_TABLE: Final = (
    (4, (100,)),
    (7, (65, 35)),
    (12, (50, 30, 20)),
    (20, (40, 25, 17, 11, 7)),
    (40, (33, 21, 15, 11, 8, 7, 5)),
)
# Above 40 entrants the organiser picks a curve (11.7): place i's weight is 1 / i ** exponent,
# so "steep" pays the winner more and "flat" spreads the pool further down.
CURVES: Final = {"standard": 1.0, "steep": 1.3, "flat": 0.7}


def paid_places(entrants: int) -> int:
    """How many places are paid: 11.7's table, then the top 15% rounded up."""
    if entrants < 2:
        raise ValueError("a tournament has at least two entrants")
    for most, shares in _TABLE:
        if entrants <= most:
            return len(shares)
    return math.ceil(entrants * 15 / 100)


def payout_shares(entrants: int, curve: str = "standard") -> tuple[float, ...]:
    """Each paid place's share of the pool, in percent, best place first."""
    for most, shares in _TABLE:
        if entrants <= most:
            return tuple(float(share) for share in shares)
    try:
        exponent = CURVES[curve]
    except KeyError:
        raise ValueError(f"no curve {curve!r}: one of {', '.join(CURVES)}") from None
    weights = [1 / place**exponent for place in range(1, paid_places(entrants) + 1)]
    total = sum(weights)
    return tuple(100 * weight / total for weight in weights)


def prize_table(pool: int, entrants: int, curve: str = "standard") -> tuple[int, ...]:
    """Each paid place's prize in chips: rounded down, what is left to the winner (11.7)."""
    if pool < 0:
        raise ValueError("a prize pool can't be negative")
    prizes = [math.floor(pool * share / 100) for share in payout_shares(entrants, curve)]
    prizes[0] += pool - sum(prizes)
    return tuple(prizes)


def award(finishes: Sequence[tuple[int, Sequence[int]]], prizes: Sequence[int]) -> dict[int, int]:
    """Chips per player from ``prizes`` (best place first) for places as ranked.

    ``finishes`` holds (best place, players tied there in dealing order) for each group that
    finished in the prizes; a group of n tied at place p shares places p..p+n-1 equally, an odd
    chip to the first of them (11.4). Players outside the prizes get nothing.
    """
    paid: dict[int, int] = {}
    for place, players in finishes:
        shared = sum(prizes[place - 1 : place - 1 + len(players)])
        each, odd = divmod(shared, len(players))
        for index, player in enumerate(players):
            if each or index < odd:
                paid[player] = each + (1 if index < odd else 0)
    return paid
