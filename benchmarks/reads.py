"""How reasonable players act with each class of holding: the table the computer players read
their opponents by (``strategy/reads.json``, loaded by ``strategy.equity``).

    python -m benchmarks.reads [--hands N] [--seed S] [--write]

The benchmark's reasonable players (``benchmarks.bots.REASONABLE``: the chart player, the
station, the aggressor and the frozen computer players of each style) play one another, each
seat one of them drawn at random: ``--hands`` hands a game heads-up, as many at 3 to 6 seats.
For every street a player acted on, his strongest action there is counted as
``strategy.sight.actions`` reads it (checked, called, bet, raised), or his fold, by the class of
the cards he held then (``strategy.equity.holding_class``); on 3rd street also whether he
completed from the best door showing, among the players whose door was the best when they first
acted. And what a computer player's memory weighs each opponent's own habits against
(``strategy.habits``): how often a 3rd street a player acted on was one he completed or raised
on, and, on 3rd street and later, how often a player folded to a lone completion or bet from
another, and how often a player who bet folded when raised.

Prints, per game and format, for 3rd street and for the later streets, how many holdings of
each class acted and how likely each action was for each class; ``--write`` writes them to
``strategy/reads.json`` as the players read them: each row over its largest entry, rounded and
floored so that a bluff or a slowplay from a player unlike these is never ruled out. A class
seen rarely (rolled-up trips) is drawn toward the row's rate over every class, as if it had been
seen ``PRIOR`` more times acting like the rest.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.bots import BUY_IN, GAMES, REASONABLE, STAKES, opponent
from engine import StudHand, Variant
from engine.cards import FULL_DECK
from strategy.equity import holding_class
from strategy.habits import answers
from strategy.sight import BET, CALLED, CHECKED, RAISED, actions, best_door

FOLDED = RAISED + 1
LEVELS = {CHECKED: "checked", CALLED: "called", BET: "bet", RAISED: "raised", FOLDED: "folded"}
CLASSES = range(4)
FORMATS = {"heads-up": (2, 2), "multiway": (3, 6)}
FLOOR = 0.02
PRIOR = 20
SAMPLES = 64  # the frozen players' deals per decision, as in benchmarks.bots
TABLE = Path(__file__).resolve().parents[1] / "strategy" / "reads.json"

Rows = dict[str, list[float]]
Read = dict[str, Rows | list[float] | dict[str, float] | float]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=6_000, help="hands per game and format")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--write", action="store_true", help=f"write {TABLE.name}")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"{args.hands:,} hands a game and format, players from {', '.join(REASONABLE)}")
    table: dict[str, dict[str, Read]] = {}
    for game, variant in GAMES.items():
        for name, seats in FORMATS.items():
            counts = _play(variant, seats, args.hands, rng)
            table.setdefault(variant.name, {})[name] = _report(f"{game}, {name}", counts)
    if args.write:
        TABLE.write_text(dumps(table))
        print(f"\nWritten to {TABLE}")


def dumps(table: object) -> str:
    """The table as JSON, a row of figures to a line."""
    text = json.dumps(table, indent=1)
    return re.sub(r"\[[^\[\]{}]*\]", lambda row: json.dumps(json.loads(row[0])), text) + "\n"


@dataclass(frozen=True, slots=True)
class Counts:
    """``acted``: (3rd street?, class, level) over every street a player acted on; ``doors``:
    (class, completed?) over the players with the best door on 3rd street; ``opens``: the level
    of every 3rd street a player acted on; ``to_bets`` and ``to_raises``: (3rd street?,
    folded?) over the lone bets a player met from another and the raises he met after he bet;
    all as a player's memory counts them (``strategy.habits``)."""

    acted: Counter[tuple[bool, int, int]] = field(default_factory=Counter)
    doors: Counter[tuple[int, bool]] = field(default_factory=Counter)
    opens: Counter[int] = field(default_factory=Counter)
    to_bets: Counter[tuple[bool, bool]] = field(default_factory=Counter)
    to_raises: Counter[tuple[bool, bool]] = field(default_factory=Counter)


def _play(variant: Variant, seats: tuple[int, int], hands: int, rng: random.Random) -> Counts:
    """The reasonable players' ``hands`` at ``seats`` (the least and most), counted."""
    players = {name: opponent(name, SAMPLES) for name in REASONABLE}
    counts = Counts()
    acted, doors = counts.acted, counts.doors
    for _ in range(hands):
        size = rng.randint(*seats)
        names = [rng.choice(REASONABLE) for _ in range(size)]
        deck = rng.sample(FULL_DECK, 52)
        hand = StudHand([BUY_IN] * size, STAKES, deck, rng.randrange(size), variant)
        held: dict[tuple[int, int], int] = {}
        folds: set[tuple[int, int]] = set()
        best_doors: dict[int, bool] = {}
        while hand.actor is not None:
            seat, street = hand.actor, hand.street
            decision = players[names[seat]](hand, seat, rng)
            if decision.action != "bring_in":
                cards = [card for card, _ in hand.cards(seat)]
                held[street, seat] = holding_class(cards, hand.variant.high, hand.variant.low)
                if street == 3 and seat not in best_doors:
                    folded = {other for other in range(size) if hand.folded(other)}
                    best_doors[seat] = best_door(hand, seat, folded)
                if decision.action == "fold":
                    folds.add((street, seat))
            hand.decide(decision)
        strongest = actions(hand)[0]
        for (street, _), level in strongest.items():
            if street == 3:
                counts.opens[level] += 1
        for counter, answered in zip(
            (counts.to_bets, counts.to_raises), answers(hand), strict=True
        ):
            for (street, _), gave_up in answered.items():
                counter[street == 3, gave_up] += 1
        for (street, seat), kind in held.items():
            level = FOLDED if (street, seat) in folds else strongest[street, seat]
            acted[street == 3, kind, level] += 1
            if street == 3 and best_doors[seat]:
                doors[kind, level == BET] += 1
    return counts


def _report(title: str, counts: Counts) -> Read:
    acted, doors = counts.acted, counts.doors
    read: Read = {}
    for third in (True, False):
        by_class = [sum(acted[third, held, level] for level in LEVELS) for held in CLASSES]
        print(f"\n{title}, {'3rd street' if third else 'later streets'}: by class {by_class}")
        rows: Rows = {}
        for level, name in LEVELS.items():
            seen = [acted[third, held, level] for held in CLASSES]
            chance = _smoothed(seen, by_class)
            print(f"  {name:8} " + " ".join(f"{p:.3f}" for p in chance))
            if level != FOLDED:
                rows[name] = _relative(chance)
        read["third" if third else "later"] = rows
    opened = counts.opens[BET] + counts.opens[RAISED]
    read["completes"] = round(opened / max(1, sum(counts.opens.values())), 3)
    print(f"  completed or raised on 3rd street {read['completes']}")
    for kind, counter in (("bets", counts.to_bets), ("raises", counts.to_raises)):
        folds = {}
        for third in (True, False):
            answered = counter[third, True], counter[third, False]
            folds["third" if third else "later"] = round(answered[0] / max(1, sum(answered)), 3)
        print(f"  folded to {kind} on 3rd street {folds['third']}, later {folds['later']}")
        read[f"folds_to_{kind}"] = folds
    completed = [doors[held, True] for held in CLASSES]
    chance = _smoothed(completed, [completed[h] + doors[h, False] for h in CLASSES])
    print("  completed from the best door " + " ".join(f"{p:.3f}" for p in chance))
    read["steal"] = _relative(chance)
    return read


def _smoothed(seen: list[int], counts: list[int]) -> list[float]:
    """Each class's rate, as if it had acted PRIOR more times at the rate of every class."""
    overall = sum(seen) / max(1, sum(counts))
    return [(n + PRIOR * overall) / (count + PRIOR) for n, count in zip(seen, counts, strict=True)]


def _relative(chance: list[float]) -> list[float]:
    """Each entry over the largest (all 1 when the action never happened), floored."""
    top = max(chance)
    if not top:
        return [1.0 for _ in chance]
    return [max(FLOOR, round(p / top, 2)) for p in chance]


if __name__ == "__main__":
    main()
