"""Picture speed and size:

    python -m benchmarks.render [--rounds N]

1. A full 8-seat table on 6th street (every seat dealt in, two down cards and four up cards each,
   long names, a bet in front of each, the actor's clock, the last action) to PNG bytes:
   median target at most 10 ms, size at most 150 KB.
2. The same 8 seats at showdown, seven cards face up each.
3. One player's private picture of his seven cards: median target at most 3 ms.
4. Two threads rendering tables at once, as ``asyncio.to_thread`` does for two busy tables.

The first render of each kind is timed apart: it draws and caches card faces, backs and the felt.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import PIL

from engine import DEFAULT_STAKES, StudHand
from engine.cards import FULL_DECK
from engine.public import PrivateHand, PublicTable
from render import SeatLabel, TableLabels, private_hand_png, showdown_png, table_png

TABLE_TARGET_MS = 10.0
PRIVATE_TARGET_MS = 3.0
SIZE_TARGET_KB = 150
NAMES = (
    "Александра Константиновна",
    "Dana",
    "Zoë Ångström",
    "Mateus Oliveira",
    "Олег",
    "Émilie",
    "Kofi Boateng",
    "Ji-woo",
)


def _hand(seed: int) -> StudHand:
    """8 players, all still in on 6th street, each with a bet in front of him."""
    rng = random.Random(seed)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    hand = StudHand([2000] * 8, DEFAULT_STAKES, deck, dealer=7)
    while hand.street < 6:
        legal = hand.legal()
        if legal.bring_in is not None:
            hand.bring_in()
        elif legal.call is not None:
            hand.call()
        else:
            hand.check()
    hand.raise_to(hand.legal().raise_to[0])
    for _ in range(6):
        hand.call()
    return hand


def _labels(hand: StudHand) -> TableLabels:
    return TableLabels(
        seats=tuple(
            SeatLabel(name, seconds_left=27 if seat == hand.actor else None)
            for seat, name in enumerate(NAMES)
        ),
        last_action="Kofi Boateng calls 20",
    )


def _time(render: Callable[[], bytes], rounds: int) -> tuple[float, float, float, int]:
    """Cold time, median and 90th percentile in ms, and the output's size."""
    start = time.perf_counter()
    data = render()
    cold = (time.perf_counter() - start) * 1000
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        render()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return cold, statistics.median(times), times[int(len(times) * 0.9)], len(data)


def _report(title: str, figures: tuple[float, float, float, int], target: float | None) -> None:
    cold, median, p90, size = figures
    verdict = ""
    if target is not None:
        verdict = f"  target <= {target:g} ms: {'met' if median <= target else 'MISSED'}"
    print(
        f"{title:<34} median {median:6.2f} ms  p90 {p90:6.2f} ms  first {cold:6.1f} ms"
        f"  {size / 1024:6.1f} KB{verdict}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="Picture speed and size")
    parser.add_argument("--rounds", type=int, default=200)
    rounds = parser.parse_args().rounds
    print(
        f"Python {platform.python_version()}, Pillow {PIL.__version__}, "
        f"{os.cpu_count()} CPUs, {rounds} rounds each"
    )
    live = _hand(1)
    view = PublicTable.from_hand(live)
    labels = _labels(live)
    table = _time(lambda: table_png(view, labels), rounds)
    _report("8-seat table, 6th street", table, TABLE_TARGET_MS)

    finished = _hand(2)
    while finished.actor is not None:
        finished.call() if finished.legal().call is not None else finished.check()
    ended = PublicTable.from_hand(finished)
    _report("8-seat showdown", _time(lambda: showdown_png(ended, labels), rounds), TABLE_TARGET_MS)

    mine = PrivateHand.for_seat(finished, 0)
    private = _time(lambda: private_hand_png(mine, name=NAMES[0]), rounds)
    _report("private picture, 7 cards", private, PRIVATE_TARGET_MS)

    size_ok = table[3] <= SIZE_TARGET_KB * 1024
    print(
        f"table PNG {table[3] / 1024:.1f} KB, target <= {SIZE_TARGET_KB} KB: "
        f"{'met' if size_ok else 'MISSED'}"
    )

    views = [PublicTable.from_hand(_hand(seed)) for seed in range(3, 7)]
    per_thread = rounds // 2
    with ThreadPoolExecutor(max_workers=2) as pool:
        start = time.perf_counter()
        list(pool.map(lambda i: table_png(views[i % len(views)], labels), range(2 * per_thread)))
        elapsed = time.perf_counter() - start
    print(
        f"2 threads: {2 * per_thread} tables in {elapsed * 1000:.0f} ms, "
        f"{2 * per_thread / elapsed:.0f} tables/s ({elapsed * 1000 / (2 * per_thread):.2f} ms each)"
    )


if __name__ == "__main__":
    main()
