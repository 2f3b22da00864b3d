"""How fast and how well the computer players play.

    python -m benchmarks.bots [--hands N] [--samples N] [--decisions N] [--seed S] [--jobs N]
                              [--games ...] [--styles ...] [--against ...] [--seats ...]
                              [--before]

1. CPU per decision: ``strategy.decide`` at the bot's own budget (``MAX_SAMPLES``) over
   ``--decisions`` decisions of bots playing each other, 2 to 8 seats, the three games, and the
   players before they read their opponents (``benchmarks.baseline``: ``strategy/`` at a commit
   before, from ``git archive``) on the very same decisions; prints the median, the 95th
   percentile and the worst, in CPU milliseconds (``time.process_time``), and today's 95th
   percentile over the one before's.
2. Strength: each style against each opponent, heads-up (one of each) and six-handed (the bot and
   five of them), ``--hands`` hands per cell, every game. Dealing is duplicate: each deck is
   dealt twice with the same dealer, the bot in one seat and then in another's (heads-up: the
   seats swapped), and the two results count as one observation, so the luck of the cards
   largely cancels. Every hand starts with 50 big bets a seat; the decks come from the seeded
   generator and are the same for every style and opponent. The bot's result is in big bets per
   100 hands with its 95% confidence interval (1.96 standard errors of the per-deck results);
   ``target`` says whether the whole interval is above +2 big bets per 100 heads-up, above 0
   six-handed. Here the bot samples ``--samples`` deals per decision at most (cheaper than at
   the table, so the figures understate it); the frozen players sample as many. ``--before``:
   the bot of each style is the frozen player of that style, for the table before.

The opponents. Reasonable ones, each written apart (``benchmarks.rivals``): ``chart``, a tight
aggressive player by a starting-hand chart; ``station``, who calls down unless the board beats
him; ``aggressor``, a thoughtful aggressive player; and ``was-tight``, ``was-loose`` and
``was-careful``, the computer players of each style as they were before. Weak ones, kept to
compare with older figures: ``always calls`` (checks when he can), ``random`` (every legal
action alike) and ``fit-or-fold``, who starts with: Stud, rolled-up trips, a pair of tens or
better, or three suited cards; Razz, three unpaired cards of eight or lower; Hi-Lo, three
unpaired cards of eight or lower, or a pair of tens or better; and then calls down while he holds
a pair or better (Stud), while his lowest unpaired cards are one fewer than his cards, nine or
lower (Razz), or either (Hi-Lo: his distinct ranks of eight or lower one fewer than his cards,
at most five needed).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial

from benchmarks.baseline import load
from benchmarks.rivals.aggressor import aggressor
from benchmarks.rivals.chart import chart
from benchmarks.rivals.station import station
from engine import RAZZ, STUD_HI_LO, STUD_HIGH, Decision, Stakes, StudHand, Variant
from engine.cards import FULL_DECK, Card
from strategy import STYLES, Sight, decide
from strategy.decide import MAX_SAMPLES
from strategy.habits import by_seat, remember
from strategy.sight import Habits

baseline = load()  # the players before, from the repository's history

STAKES = Stakes(ante=1, bring_in=3, small_bet=10, big_bet=20)
BUY_IN = 50 * STAKES.big_bet
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


def was(style: str, samples: int, hand: StudHand, seat: int, rng: random.Random) -> Decision:
    """The frozen computer player of ``style``, as it played before it read its opponents."""
    sight = baseline.Sight.of(hand, seat)
    decision: Decision = baseline.decide(
        sight, baseline.STYLES[style], rng.getrandbits(32), budget=samples
    ).decision
    return decision


WEAK: dict[str, Player] = {
    "always calls": caller,
    "random": random_player,
    "fit-or-fold": fit_or_fold,
}
RIVALS: dict[str, Player] = {"chart": chart, "station": station, "aggressor": aggressor}
REASONABLE = [*RIVALS, *(f"was-{style}" for style in baseline.STYLES)]
OPPONENTS = [*REASONABLE, *WEAK]


def opponent(name: str, samples: int) -> Player:
    if name.startswith("was-"):
        return partial(was, name.removeprefix("was-"), samples)
    return {**RIVALS, **WEAK}[name]


def play_hand(
    variant: Variant,
    seats: Sequence[Player | None],
    deck: list[Card],
    dealer: int,
    rng: random.Random,
    style_name: str,
    samples: int,
    seed: int,
    memory: dict[int, Habits],
    before: bool = False,
) -> int:
    """One hand; returns the bot's net chips. ``None`` in ``seats`` is the bot; ``memory``: how
    the others have played the hands before, each known by his place from the bot (one more
    hand counted in when this one ends); ``before``: the bot is the frozen player of its style,
    who remembers nothing."""
    hand = StudHand([BUY_IN] * len(seats), STAKES, deck, dealer, variant)
    bot = seats.index(None)
    players = [(seat - bot) % len(seats) for seat in range(len(seats))]
    while hand.actor is not None:
        seat = hand.actor
        player = seats[seat]
        if player is None:
            seed_now = seed * 1000 + len(hand.events)
            if before:
                old = baseline.STYLES[style_name]
                sight = baseline.Sight.of(hand, seat)
                decision = baseline.decide(sight, old, seed_now, budget=samples).decision
            else:
                style = STYLES[style_name]
                sight = Sight.of(hand, seat, by_seat(memory, players))
                decision = decide(sight, style, seed_now, budget=samples).decision
        else:
            decision = player(hand, seat, rng)
        hand.decide(decision)
    remember(memory, hand, players)
    return hand.stacks[bot] - BUY_IN


@dataclass(frozen=True, slots=True)
class Cell:
    game: str
    style: str
    against: str
    seats: int
    hands: int
    rate: float  # big bets per 100 hands
    half: float  # half the width of the 95% interval

    @property
    def meets_target(self) -> bool:
        return self.rate - self.half > (2.0 if self.seats == 2 else 0.0)


def cell(
    game: str,
    style: str,
    against: str,
    size: int,
    hands: int,
    samples: int,
    seed: int,
    before: bool = False,
) -> Cell:
    """The bot's big bets per 100 hands and its 95% interval, each deck dealt twice, at one
    table: the bot remembers how its opponents play from the first hand to the last."""
    decks = random.Random(f"{seed}:{game}:{size}")
    player = opponent(against, samples)
    memory: dict[int, Habits] = {}
    per_deck = []
    for number in range((hands + 1) // 2):
        deck = decks.sample(FULL_DECK, 52)
        dealer = number % size
        net = 0
        for turn, bot in enumerate((number % size, (number + size // 2) % size)):
            seats: list[Player | None] = [player] * size
            seats[bot] = None
            rng = random.Random(f"{seed}:{number}:{turn}")
            net += play_hand(
                GAMES[game],
                seats,
                deck,
                dealer,
                rng,
                style,
                samples,
                number * 2 + turn,
                memory,
                before,
            )
        per_deck.append(net / 2 / STAKES.big_bet)
    mean = statistics.fmean(per_deck)
    spread = (
        statistics.stdev(per_deck) / math.sqrt(len(per_deck)) if len(per_deck) > 1 else math.inf
    )
    return Cell(game, style, against, size, 2 * len(per_deck), 100 * mean, 100 * 1.96 * spread)


def decision_times(count: int, seed: int) -> tuple[list[float], list[float]]:
    """CPU seconds of ``count`` decisions at the bot's own budget, bots playing bots: today's
    player and the frozen one on each same decision, in turns as to who goes first, after as
    many untimed decisions to fill the evaluators' memos both share."""
    rng = random.Random(seed)
    today: list[float] = []
    before: list[float] = []
    names = list(STYLES)
    decisions = 0
    while decisions < 2 * count:
        variant = rng.choice(list(GAMES.values()))
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        size = rng.randint(2, 8)
        hand = StudHand([rng.choice((30, BUY_IN)) for _ in range(size)], STAKES, deck, 0, variant)
        while hand.actor is not None and decisions < 2 * count:
            name = rng.choice(names)
            seed_now = rng.getrandbits(32)
            old_style = baseline.STYLES.get(name, baseline.DEFAULT_STYLE)
            order = (0, 1) if decisions % 2 else (1, 0)
            for which in order:
                start = time.process_time()
                if which == 0:
                    thought = decide(Sight.of(hand, hand.actor), STYLES[name], seed_now)
                else:
                    baseline.decide(baseline.Sight.of(hand, hand.actor), old_style, seed_now)
                spent = time.process_time() - start
                if decisions >= count:
                    (today if which == 0 else before).append(spent)
            decisions += 1
            hand.decide(thought.decision)
    return today, before


def _p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=4_000, help="hands per cell (decks twice)")
    parser.add_argument("--samples", type=int, default=64, help="deals per decision at most")
    parser.add_argument("--decisions", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--jobs", type=int, default=1, help="cells played at once")
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--styles", nargs="*", default=list(STYLES), choices=list(STYLES))
    parser.add_argument("--against", nargs="*", default=REASONABLE, choices=OPPONENTS)
    parser.add_argument("--seats", nargs="*", type=int, default=[2, 6], choices=[2, 6])
    parser.add_argument(
        "--before", action="store_true", help="the bot is the frozen player of each style"
    )
    args = parser.parse_args()

    if args.decisions:
        today, before = decision_times(args.decisions, args.seed)
        print(f"CPU per decision over {len(today):,} decisions (budget {MAX_SAMPLES} deals):")
        for label, times in (("today", today), ("before", before)):
            print(
                f"  {label:6}: median {1000 * statistics.median(times):.1f} ms, 95th percentile"
                f" {1000 * _p95(times):.1f} ms, worst {1000 * max(times):.1f} ms"
            )
        print(f"  95th percentile, today over before: {_p95(today) / _p95(before):.2f}")
        print()
    who = "the frozen players" if args.before else "today's players"
    print(
        f"Strength of {who}: {args.hands:,} hands per cell, at most {args.samples} deals per"
        " decision"
    )
    print(
        f"{'game':6} {'style':8} {'against':13} {'seats':>5} {'hands':>7} {'bb/100':>8}"
        f" {'95% CI':>16} target"
    )
    started = time.time()
    jobs = [
        (game, style, against, size, args.hands, args.samples, args.seed, args.before)
        for game in args.games
        for style in args.styles
        for against in args.against
        for size in args.seats
    ]
    with ProcessPoolExecutor(args.jobs) as pool:
        for result in pool.map(_cell, jobs):
            low, high = result.rate - result.half, result.rate + result.half
            print(
                f"{result.game:6} {result.style:8} {result.against:13} {result.seats:>5}"
                f" {result.hands:>7,} {result.rate:>8.1f} [{low:>6.1f}, {high:>6.1f}]"
                f" {'yes' if result.meets_target else 'NO'}",
                flush=True,
            )
    print(f"Wall time for the strength table: {time.time() - started:.0f} s")


def _cell(job: tuple[str, str, str, int, int, int, int, bool]) -> Cell:
    return cell(*job)


if __name__ == "__main__":
    main()
