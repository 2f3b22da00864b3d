"""How fast and how well the computer players play.

    python -m benchmarks.bots [--hands N] [--samples N] [--decisions N] [--seed S]
                              [--games ...] [--styles ...] [--against ...]

1. CPU per decision: ``strategy.decide`` at the bot's own budget (``MAX_SAMPLES``) over
   ``--decisions`` decisions of bots playing each other, 2 to 8 seats, the three games; prints
   the median, the 95th percentile and the worst, in CPU milliseconds (``time.process_time``).
2. Strength: each style against three fixed players, heads-up (one of each) and six-handed (the
   bot and five of them), ``--hands`` hands per cell, every game: a player who always calls
   (checks when he can), a random legal player (every legal action alike), and a fit-or-fold
   player (only strong starting hands, then calls down with a pair or better; in Razz and Hi-Lo
   the low equivalents, below). Every hand starts with 100 big bets a seat, the dealer moves one
   seat a hand, the deck comes from the seeded generator. The bot's result is in big bets per
   100 hands with its 95% confidence interval (1.96 standard errors of the per-hand results);
   ``beats`` says whether the whole interval is above zero. Here the bot samples ``--samples``
   deals per decision at most (cheaper than at the table, so the figures understate it).

Fit-or-fold starts with: Stud, rolled-up trips, a pair of tens or better, or three suited cards;
Razz, three unpaired cards of eight or lower; Hi-Lo, three unpaired cards of eight or lower, or
a pair of tens or better. It then calls down while it holds a pair or better (Stud), while its
lowest unpaired cards are one fewer than its cards, nine or lower (Razz), or either (Hi-Lo: its
distinct ranks of eight or lower one fewer than its cards, at most five needed).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence

from engine import RAZZ, STUD_HI_LO, STUD_HIGH, Decision, Stakes, StudHand, Variant
from engine.cards import FULL_DECK, Card
from strategy import STYLES, Sight, decide
from strategy.decide import MAX_SAMPLES

STAKES = Stakes(ante=1, bring_in=3, small_bet=10, big_bet=20)
BUY_IN = 100 * STAKES.big_bet
GAMES: dict[str, Variant] = {"stud": STUD_HIGH, "razz": RAZZ, "hilo": STUD_HI_LO}

Player = Callable[[StudHand, int, random.Random], Decision]


def caller(hand: StudHand, seat: int, rng: random.Random) -> Decision:
    legal = hand.legal()
    if legal.bring_in is not None:
        return Decision("bring_in")
    return Decision("check") if legal.check else Decision("call")


def random_player(hand: StudHand, seat: int, rng: random.Random) -> Decision:
    legal = hand.legal()
    options = [Decision("raise_to", total) for total in legal.raise_to]
    for name, allowed in (
        ("fold", legal.fold),
        ("check", legal.check),
        ("call", legal.call is not None),
        ("bring_in", legal.bring_in is not None),
    ):
        if allowed:
            options.append(Decision(name))  # type: ignore[arg-type]
    return rng.choice(options)


def _low_rank(card: Card) -> int:
    return 1 if card.rank == 14 else card.rank


def _fits(cards: Sequence[Card], variant: Variant) -> bool:
    ranks = [card.rank for card in cards]
    lows = sorted({_low_rank(card) for card in cards})
    pair_or_better = len(set(ranks)) < len(ranks)
    if len(cards) == 3:
        high_pair = any(ranks.count(rank) >= 2 and rank >= 10 for rank in ranks)
        three_low = len([r for r in lows if r <= 8]) == 3
        if variant is STUD_HIGH:
            return len(set(ranks)) == 1 or high_pair or len({c.suit for c in cards}) == 1
        return three_low if variant is RAZZ else three_low or high_pair
    needed = min(5, len(cards) - 1)
    if variant is RAZZ:
        return len([r for r in lows if r <= 9]) >= needed
    low_draw = len([r for r in lows if r <= 8]) >= needed
    return pair_or_better if variant is STUD_HIGH else pair_or_better or low_draw


def fit_or_fold(hand: StudHand, seat: int, rng: random.Random) -> Decision:
    legal = hand.legal()
    if legal.bring_in is not None:
        return Decision("bring_in")
    cards = [card for card, _ in hand.cards(seat)]
    if hand.community is not None:
        cards.append(hand.community)
    if legal.check:
        return Decision("check")
    if _fits(cards if len(cards) > 3 else cards[:3], hand.variant) or not legal.fold:
        return Decision("call")
    return Decision("fold")


OPPONENTS: dict[str, Player] = {
    "always calls": caller,
    "random": random_player,
    "fit-or-fold": fit_or_fold,
}


def play_hand(
    variant: Variant,
    seats: list[Player | None],
    dealer: int,
    rng: random.Random,
    style_name: str,
    samples: int,
    hand_number: int,
) -> int:
    """One hand; returns the bot's net chips. ``None`` in ``seats`` is the bot."""
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    hand = StudHand([BUY_IN] * len(seats), STAKES, deck, dealer, variant)
    style = STYLES[style_name]
    bot = seats.index(None)
    while hand.actor is not None:
        seat = hand.actor
        player = seats[seat]
        if player is None:
            seed = hand_number * 1000 + len(hand.events)
            decision = decide(Sight.of(hand, seat), style, seed, budget=samples).decision
        else:
            decision = player(hand, seat, rng)
        hand.decide(decision)
    return hand.stacks[bot] - BUY_IN


def cell(
    variant: Variant, style: str, opponent: str, size: int, hands: int, samples: int, seed: int
) -> tuple[float, float]:
    """The bot's big bets per 100 hands and the half-width of its 95% interval."""
    rng = random.Random(f"{seed}:{variant.name}:{style}:{opponent}:{size}")
    results = []
    for number in range(hands):
        seats: list[Player | None] = [OPPONENTS[opponent]] * size
        seats[number % size] = None  # the bot moves round the table
        net = play_hand(variant, seats, number % size, rng, style, samples, number)
        results.append(net / STAKES.big_bet)
    mean = statistics.fmean(results)
    error = statistics.stdev(results) / math.sqrt(len(results)) if len(results) > 1 else math.inf
    return 100 * mean, 100 * 1.96 * error


def decision_times(count: int, seed: int) -> list[float]:
    """CPU seconds of ``count`` decisions at the bot's own budget, bots playing bots."""
    rng = random.Random(seed)
    times: list[float] = []
    styles = list(STYLES.values())
    while len(times) < count:
        variant = rng.choice(list(GAMES.values()))
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        size = rng.randint(2, 8)
        hand = StudHand([rng.choice((30, BUY_IN)) for _ in range(size)], STAKES, deck, 0, variant)
        while hand.actor is not None and len(times) < count:
            sight = Sight.of(hand, hand.actor)
            start = time.process_time()
            thought = decide(sight, rng.choice(styles), rng.getrandbits(32), budget=MAX_SAMPLES)
            times.append(time.process_time() - start)
            hand.decide(thought.decision)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands per cell")
    parser.add_argument("--samples", type=int, default=64, help="deals per decision at most")
    parser.add_argument("--decisions", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--styles", nargs="*", default=list(STYLES), choices=list(STYLES))
    parser.add_argument("--against", nargs="*", default=list(OPPONENTS), choices=list(OPPONENTS))
    args = parser.parse_args()

    times = sorted(decision_times(args.decisions, args.seed))
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(f"CPU per decision over {len(times):,} decisions (budget {MAX_SAMPLES} deals):")
    print(
        f"  median {1000 * statistics.median(times):.1f} ms, 95th percentile {1000 * p95:.1f} ms,"
        f" worst {1000 * times[-1]:.1f} ms"
    )
    print()
    print(f"Strength: {args.hands:,} hands per cell, at most {args.samples} deals per decision")
    print(f"{'game':6} {'style':8} {'against':13} {'seats':>5} {'bb/100':>8} {'95% CI':>16} beats")
    started = time.process_time()
    for game in args.games:
        for style in args.styles:
            for opponent in args.against:
                for size in (2, 6):
                    rate, half = cell(
                        GAMES[game], style, opponent, size, args.hands, args.samples, args.seed
                    )
                    low, high = rate - half, rate + half
                    print(
                        f"{game:6} {style:8} {opponent:13} {size:>5} {rate:>8.1f}"
                        f" [{low:>6.1f}, {high:>6.1f}] {'yes' if low > 0 else 'NO'}",
                        flush=True,
                    )
    print(f"CPU for the strength table: {time.process_time() - started:.0f} s")


if __name__ == "__main__":
    main()
