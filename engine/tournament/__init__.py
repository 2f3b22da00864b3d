"""Pure rules of stud tournaments (RULES 11): levels, tables and balancing, places and prizes.

Nothing here keeps state or does I/O: the core's tournament director asks these functions what to
do and stores the answers, so every choice can be replayed and checked from its seed.
"""

from engine.tournament.levels import STRUCTURES, Level, Structure, level_at, structure
from engine.tournament.places import (
    Finish,
    hand_for_hand,
    places_after_reentry,
    rank_hands,
    rank_out,
    round_dealt,
)
from engine.tournament.prizes import CURVES, award, paid_places, payout_shares, prize_table
from engine.tournament.seating import Break, Move, TableSeats, plan_after_hand, seat_entrants

__all__ = [
    "CURVES",
    "STRUCTURES",
    "Break",
    "Finish",
    "Level",
    "Move",
    "Structure",
    "TableSeats",
    "award",
    "hand_for_hand",
    "level_at",
    "paid_places",
    "payout_shares",
    "places_after_reentry",
    "plan_after_hand",
    "prize_table",
    "rank_hands",
    "rank_out",
    "round_dealt",
    "seat_entrants",
    "structure",
]
