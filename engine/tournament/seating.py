"""Seating entrants, balancing tables and breaking them (RULES 11.5).

Every random choice takes the ``random.Random`` it is handed: the director seeds one per decision
and logs the seed, so the draw can be repeated by anyone (11.5).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random

# A table's seats by number (from 1): the player in each, or None for an empty seat.
TableSeats = Sequence[int | None]


@dataclass(frozen=True, slots=True)
class Move:
    """``player`` goes from his seat at ``from_table`` to seat ``to_seat`` of ``to_table``."""

    player: int
    from_table: int
    to_table: int
    to_seat: int


@dataclass(frozen=True, slots=True)
class Break:
    """``table`` breaks: its players go where ``moves`` say."""

    table: int
    moves: tuple[Move, ...]


def seat_entrants(
    entrants: Sequence[int], seats_per_table: int, rng: Random
) -> dict[int, list[int | None]]:
    """Tables numbered from 1: as few as the seats allow, as even as can be, seats at random."""
    if not 2 <= seats_per_table <= 8:
        raise ValueError("a table has 2 to 8 seats")
    if len(entrants) < 2:
        raise ValueError("a tournament needs two entrants")
    count = math.ceil(len(entrants) / seats_per_table)
    order = list(entrants)
    rng.shuffle(order)
    tables: dict[int, list[int | None]] = {n: [None] * seats_per_table for n in range(1, count + 1)}
    for index, player in enumerate(order):
        seats = tables[1 + index % count]
        empty = [seat for seat, taken in enumerate(seats) if taken is None]
        seats[rng.choice(empty)] = player
    return tables


def _players(seats: TableSeats) -> list[int]:
    return [player for player in seats if player is not None]


def _empty(seats: TableSeats) -> list[int]:
    return [number for number, player in enumerate(seats, start=1) if player is None]


def plan_after_hand(
    tables: Mapping[int, TableSeats], finished: int, rng: Random
) -> Break | list[Move]:
    """What happens at table ``finished`` now that its hand is over (11.5).

    Players move only from a table between hands: the one that just finished. It breaks when the
    players left fit at one table fewer and it is the highest-numbered; otherwise, while it has
    two or more players more than the smallest table, one of its players at random moves to a
    random empty seat at the smallest (the lowest-numbered of equals). Returns the break, or the
    moves (none when nothing changes).
    """
    seats_per_table = len(tables[finished])
    left = sum(len(_players(seats)) for seats in tables.values())
    breaking = len(tables) > 1 and math.ceil(left / seats_per_table) < len(tables)
    if breaking and finished == max(tables):
        return _break(tables, finished, rng)
    # Nobody is moved to a table that is about to break.
    counts = {
        number: len(_players(seats))
        for number, seats in tables.items()
        if not (breaking and number == max(tables))
    }
    empties = {number: _empty(seats) for number, seats in tables.items() if number in counts}
    mine = _players(tables[finished])
    moves: list[Move] = []
    while True:
        smallest = min(counts, key=lambda number: (counts[number], number))
        if counts[finished] - counts[smallest] < 2:
            return moves
        player = mine.pop(rng.randrange(len(mine)))
        seat = empties[smallest].pop(rng.randrange(len(empties[smallest])))
        moves.append(Move(player, finished, smallest, seat))
        counts[finished] -= 1
        counts[smallest] += 1


def _break(tables: Mapping[int, TableSeats], breaking: int, rng: Random) -> Break:
    """Seat the breaking table's players at random in the empty seats elsewhere, evenly.

    Each goes in turn to one of the tables with the fewest players at that moment, so the tables
    left stay balanced (11.5's "as evenly as possible").
    """
    counts = {n: len(_players(seats)) for n, seats in tables.items() if n != breaking}
    empties = {n: _empty(seats) for n, seats in tables.items() if n != breaking}
    moving = _players(tables[breaking])
    rng.shuffle(moving)
    moves = []
    for player in moving:
        fewest = min(counts[n] for n in counts if empties[n])
        target = rng.choice(sorted(n for n in counts if counts[n] == fewest and empties[n]))
        seat = empties[target].pop(rng.randrange(len(empties[target])))
        counts[target] += 1
        moves.append(Move(player, breaking, target, seat))
    return Break(breaking, tuple(moves))
