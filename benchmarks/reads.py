"""How reasonable players act with each class of holding: the table the computer players read
their opponents by (``strategy.equity.LIKELIHOOD`` and ``STEAL``).

    python -m benchmarks.reads [--hands N] [--seed S]

The benchmark's reasonable players (``benchmarks.bots.REASONABLE``: the chart player, the
station, the aggressor and the frozen computer players of each style) play one another, ``--hands``
hands a game at 2 to 6 seats, each seat one of them drawn at random. For every street a player
acted on, his strongest action there is counted as ``strategy.sight`` reads it (checked, called,
bet, raised), or his fold, by the class of the cards he held then
(``strategy.equity.holding_class``); on 3rd street also whether he completed from the best door
showing, among the players whose door was the best when they first acted.

Prints, per game, for 3rd street and for the later streets, how many holdings of each class
acted and how likely each action was for each class; then the rows as ``strategy.equity``
holds them: each over its largest entry, rounded, and floored so that a bluff or a slowplay from
a player unlike these is never ruled out.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from benchmarks.bots import BUY_IN, GAMES, REASONABLE, STAKES, opponent
from engine import StudHand
from engine import events as ev
from engine.cards import FULL_DECK
from strategy.equity import holding_class
from strategy.sight import BET, CALLED, CHECKED, RAISED

FOLDED = RAISED + 1
LEVELS = {CHECKED: "checked", CALLED: "called", BET: "bet", RAISED: "raised", FOLDED: "folded"}
CLASSES = range(4)
FLOOR = 0.02
SAMPLES = 64  # the frozen players' deals per decision, as in benchmarks.bots


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=4_000, help="hands per game")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    players = {name: opponent(name, SAMPLES) for name in REASONABLE}
    print(f"{args.hands:,} hands a game, players drawn from {', '.join(REASONABLE)}")
    tables = {}
    for game, variant in GAMES.items():
        acted: Counter[tuple[bool, int, int]] = Counter()
        doors: Counter[tuple[int, bool]] = Counter()
        for _ in range(args.hands):
            size = rng.randint(2, 6)
            names = [rng.choice(REASONABLE) for _ in range(size)]
            deck = rng.sample(FULL_DECK, 52)
            hand = StudHand([BUY_IN] * size, STAKES, deck, rng.randrange(size), variant)
            strongest: dict[tuple[int, int], tuple[int, int]] = {}
            best_door: dict[int, bool] = {}
            while hand.actor is not None:
                seat, street = hand.actor, hand.street
                decision = players[names[seat]](hand, seat, rng)
                if decision.action != "bring_in":
                    held = holding_class(
                        [c for c, _ in hand.cards(seat)], variant.high, variant.low
                    )
                    if street == 3 and seat not in best_door:
                        best_door[seat] = _best_door(hand, seat)
                    level = {"check": CHECKED, "call": CALLED, "fold": FOLDED}.get(decision.action)
                    if level is None:
                        level = RAISED if _bets_this_street(hand) else BET
                    before = strongest.get((street, seat))
                    if before is None or level == FOLDED or level > before[1]:
                        strongest[street, seat] = (held, level)
                hand.decide(decision)
            for (street, seat), (held, level) in strongest.items():
                acted[street == 3, held, level] += 1
                if street == 3 and best_door[seat]:
                    doors[held, level == BET] += 1
        tables[game] = _report(game, acted, doors)
    print("\nAs strategy.equity holds them (each row over its largest, floored):")
    for game, (third, later, steal) in tables.items():
        print(f"    {GAMES[game].name!r}: (")
        for rows in (third, later):
            print("        {")
            for level, row in rows.items():
                print(f"            {LEVELS[level].upper()}: {row},")
            print("        },")
        print(f"    ),  # steal: {steal}")


def _report(
    game: str, acted: Counter[tuple[bool, int, int]], doors: Counter[tuple[int, bool]]
) -> tuple[dict[int, tuple[float, ...]], dict[int, tuple[float, ...]], tuple[float, ...]]:
    rows: list[dict[int, tuple[float, ...]]] = []
    for third in (True, False):
        counts = [sum(acted[third, held, level] for level in LEVELS) for held in CLASSES]
        print(f"\n{game}, {'3rd street' if third else 'later streets'}: holdings by class {counts}")
        relative: dict[int, tuple[float, ...]] = {}
        for level, name in LEVELS.items():
            chance = [acted[third, held, level] / max(1, counts[held]) for held in CLASSES]
            print(f"  {name:8} " + " ".join(f"{p:.3f}" for p in chance))
            if level != FOLDED:
                relative[level] = _relative(chance)
        rows.append(relative)
    stole = [doors[held, True] / max(1, doors[held, True] + doors[held, False]) for held in CLASSES]
    print("  completed from the best door " + " ".join(f"{p:.3f}" for p in stole))
    return rows[0], rows[1], _relative(stole)


def _relative(chance: list[float]) -> tuple[float, ...]:
    """Each entry over the largest (all 1 when the action never happened), floored."""
    top = max(chance)
    if not top:
        return tuple(1.0 for _ in chance)
    return tuple(max(FLOOR, round(p / top, 2)) for p in chance)


def _bets_this_street(hand: StudHand) -> int:
    count = 0
    for event in reversed(hand.events):
        if isinstance(event, ev.StreetStarted):
            break
        count += isinstance(event, ev.Complete | ev.Bet | ev.Raise)
    return count


def _best_door(hand: StudHand, seat: int) -> bool:
    """Whether ``seat``'s door beats every other door still in (high in Stud and Hi-Lo, low in
    Razz), as ``strategy.sight`` tells a possible steal."""

    def strength(rank: int) -> int:
        return rank if hand.variant.high else -(1 if rank == 14 else rank)

    door = strength(hand.up_cards(seat)[0].rank)
    return all(
        door > strength(hand.up_cards(other)[0].rank)
        for other in range(len(hand.stacks))
        if other != seat and not hand.folded(other)
    )


if __name__ == "__main__":
    main()
