"""All-in chances by brute force, written apart from ``engine.odds`` to check it: every ordered
way of dealing the unseen cards, each settled by the engine's own showdown code (``Variant.show``
and ``Variant.split``) on a pot every tie divides evenly."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations

from engine.cards import Card
from engine.variants import Variant

POT = 1680  # 2 x 840, and 840 is divisible by 1 to 8: every share of every half is whole


def brute_force(
    variant: Variant,
    hands: Mapping[int, Sequence[Card]],
    unseen: Sequence[Card],
    cards_each: int,
    community: bool,
) -> dict[int, tuple[float, float, float, float]]:
    """Seat -> (win, high, low, scoop), averaged over every ordered deal."""
    seats = list(hands)
    totals = {seat: [0.0, 0.0, 0.0, 0.0] for seat in seats}
    deals = 0
    needed = len(seats) * cards_each + (1 if community else 0)
    for drawn in permutations(unseen, needed):
        deals += 1
        shared = list(drawn[len(seats) * cards_each :])
        shown = []
        for index, seat in enumerate(seats):
            own = drawn[index * cards_each : (index + 1) * cards_each]
            shown.append(variant.show(seat, [*hands[seat], *own, *shared]))
        split = variant.split(POT, shown)
        for seat in seats:
            won = split.total.get(seat, 0)
            if split.low and split.high:
                high = split.high.get(seat, 0) / (POT // 2)
                low = split.low.get(seat, 0) / (POT // 2)
            elif split.high:
                high, low = split.high.get(seat, 0) / POT, 0.0
            else:
                high, low = 0.0, split.low.get(seat, 0) / POT
            for at, figure in enumerate((won / POT, high, low, float(won == POT))):
                totals[seat][at] += figure
    return {seat: (w / deals, h / deals, lo / deals, s / deals) for seat, (w, h, lo, s) in
            totals.items()}
