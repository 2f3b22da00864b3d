"""All-in odds: each live hand's chance to win once no more betting is possible (RULES 2.4).

From the moment the betting stops, the cards still to come are dealt from the cards nobody has
seen: the deck's rest and the folded players' down cards alike, since no player knows which is
which. Every live hand is shown at once then (RULES 5.6), so each one's chances follow from its
known cards and the unseen ones. Where the deals left to come are few enough to go through in
well under a second (counted before starting: ``EXACT_LIMIT`` hand valuations), every one is
valued and the figures are exact; otherwise ``SAMPLES`` deals are drawn with a seed, and the
figures are an estimate, marked as one.

The figures are for the main pot, which every live hand is in. A tie counts as the share it
wins: two equal hands each win half a pot, so the chances of a hand add up to 1 over the seats.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Final

from engine.cards import FULL_DECK, Card
from engine.evaluator import evaluate, evaluate_eight_low, evaluate_low
from engine.events import CardDealt
from engine.hand import StudHand
from engine.variants import LowRule, Variant

EXACT_LIMIT: Final = 120_000  # hands valued (both halves count): about half a second here
SAMPLES: Final = 4_000  # deals drawn for an estimate: a figure within about 1.5 points


@dataclass(frozen=True, slots=True)
class Chances:
    """One live hand's chances, each from 0 to 1.

    ``win`` is the share of the pot it can expect (the high half and the low half together in
    Stud Hi-Lo). ``high`` and ``low`` are its chances of the high half and of the low half in
    Stud Hi-Lo (the low only where a low qualifies; with none, the high takes the whole pot);
    in Stud High ``high`` is ``win`` and in Razz ``low`` is. ``scoop``: the whole pot alone.
    """

    seat: int
    win: float
    high: float
    low: float
    scoop: float


@dataclass(frozen=True, slots=True)
class AllInOdds:
    """Every live hand's chances after the betting stopped on ``street`` (0: before any card,
    all in on the antes). ``exact``: every deal left was valued; else ``deals`` were sampled."""

    street: int
    seats: tuple[Chances, ...]
    exact: bool
    deals: int

    def of(self, seat: int) -> Chances | None:
        return next((chances for chances in self.seats if chances.seat == seat), None)


@dataclass(frozen=True, slots=True)
class Position:
    """Where the betting stopped: each live seat's cards, the cards seen elsewhere (folded
    players' up cards), how many more each live hand gets, and whether the last is shared."""

    variant: Variant
    street: int
    hands: Mapping[int, tuple[Card, ...]]
    seen: frozenset[Card]
    cards_each: int
    community: bool

    @property
    def unseen(self) -> tuple[Card, ...]:
        known = self.seen.union(*self.hands.values())
        return tuple(card for card in FULL_DECK if card not in known)


def position(hand: StudHand) -> Position | None:
    """The position when the betting stopped for good, for a hand run out with two or more live
    hands (RULES 2.4); ``None`` for any other hand."""
    start = hand.run_out_from
    if start is None:
        return None
    live = [seat for seat in hand.dealing_order if not hand.folded(seat)]
    if len(live) < 2:
        return None
    hands: dict[int, list[Card]] = {seat: [] for seat in live}
    seen: set[Card] = set()
    dealt = 0
    for event in hand.events:
        if isinstance(event, CardDealt) and event.street < start:
            dealt += 1
            if event.seat in hands:
                hands[event.seat].append(event.card)
            elif event.face_up:
                seen.add(event.card)
    # How the rest would be dealt (RULES 2.2): a card each a street, all of 3rd street's if the
    # betting never began, and one shared card on the river if the deck can't give everyone one.
    streets = hand.variant.streets
    left = len(hand.deck) - dealt
    each, community = 0, False
    for spec in streets:
        if spec.number < start:
            continue
        count = len(spec.face_up_rounds)
        if spec is streets[-1] and left - each * len(live) < len(live) * count:
            community = True
        else:
            each += count
    last = max((spec.number for spec in streets if spec.number < start), default=0)
    return Position(
        hand.variant,
        last,
        {seat: tuple(cards) for seat, cards in hands.items()},
        frozenset(seen),
        each,
        community,
    )


def all_in_odds(hand: StudHand, seed: int = 0) -> AllInOdds | None:
    """The chances at the moment a run-out began, or ``None`` when the hand had none."""
    found = position(hand)
    return None if found is None else odds(found, seed)


def deals_left(spot: Position) -> int:
    """How many different ways the cards still to come can fall."""
    pool = len(spot.unseen)
    ways = comb(pool, 1) if spot.community else 1
    pool -= spot.community
    for _ in spot.hands:
        ways *= comb(pool, spot.cards_each)
        pool -= spot.cards_each
    return ways


def odds(
    spot: Position,
    seed: int = 0,
    *,
    exact_limit: int = EXACT_LIMIT,
    samples: int = SAMPLES,
) -> AllInOdds:
    """Each live hand's chances from ``spot``: exact when the deals left take at most
    ``exact_limit`` valuations, else over ``samples`` deals drawn with ``seed``."""
    seats = tuple(spot.hands)
    halves = 2 if spot.variant.high and spot.variant.low is not None else 1
    ways = deals_left(spot)
    exact = ways * len(seats) * halves <= exact_limit
    totals = {seat: [0.0, 0.0, 0.0, 0.0] for seat in seats}  # win, high, low, scoop
    count = 0
    deals = _every_deal(spot) if exact else _sampled_deals(spot, random.Random(seed), samples)
    value = _valuer(spot.variant)
    # A seat's value depends only on his own new cards: each is valued once per seat.
    known: list[dict[tuple[Card, ...], Values]] = [{} for _ in seats]
    for extra, shared in deals:
        count += 1
        values = {}
        for index, seat in enumerate(seats):
            cards = extra[index] + shared
            found = known[index].get(cards)
            if found is None:
                found = known[index][cards] = value((*spot.hands[seat], *cards))
            values[seat] = found
        for seat, result in _shares(values).items():
            total = totals[seat]
            for at, share in enumerate(result):
                total[at] += share
    return AllInOdds(
        spot.street,
        tuple(Chances(seat, *(total / count for total in totals[seat])) for seat in seats),
        exact,
        count,
    )


Values = tuple[int | None, int | None]  # a hand's high and low strength; None: no such half


def _valuer(variant: Variant) -> _Valuer:
    return _Valuer(variant.high, variant.low)


@dataclass(frozen=True, slots=True)
class _Valuer:
    high: bool
    low: LowRule | None

    def __call__(self, cards: Sequence[Card]) -> Values:
        high = evaluate(cards) if self.high else None
        if self.low is LowRule.ACE_TO_FIVE:
            return high, evaluate_low(cards)
        if self.low is LowRule.EIGHT_OR_BETTER:
            return high, evaluate_eight_low(cards)
        return high, None


def _shares(values: Mapping[int, Values]) -> dict[int, tuple[float, float, float, float]]:
    """Each seat's (win, high, low, scoop) in one deal."""
    highs = {seat: value[0] for seat, value in values.items() if value[0] is not None}
    lows = {seat: value[1] for seat, value in values.items() if value[1] is not None}
    high_winners = _best(highs)
    low_winners = _best(lows)
    result: dict[int, tuple[float, float, float, float]] = {}
    for seat in values:
        high = 1 / len(high_winners) if seat in high_winners else 0.0
        low = 1 / len(low_winners) if seat in low_winners else 0.0
        # One half each when both halves are played; else the one half is the whole pot.
        win = (high + low) / 2 if highs and lows else high + low
        alone = high_winners == {seat} if highs else True
        scoop = alone and (low_winners == {seat} if lows else True)
        result[seat] = (win, high, low, 1.0 if scoop and (highs or lows) else 0.0)
    return result


def _best(strengths: Mapping[int, int]) -> set[int]:
    if not strengths:
        return set()
    top = max(strengths.values())
    return {seat for seat, strength in strengths.items() if strength == top}


Deal = tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]  # each seat's cards, the shared


def _every_deal(spot: Position) -> Iterator[Deal]:
    unseen = spot.unseen
    shared_options: Sequence[tuple[Card, ...]] = (
        [(card,) for card in unseen] if spot.community else [()]
    )
    for shared in shared_options:
        pool = tuple(card for card in unseen if card not in shared)
        for extra in _split(pool, len(spot.hands), spot.cards_each):
            yield extra, shared


def _split(
    pool: tuple[Card, ...], seats: int, each: int
) -> Iterator[tuple[tuple[Card, ...], ...]]:
    """Every way to give ``seats`` hands ``each`` cards of ``pool``, in seat order."""
    if seats == 0:
        yield ()
        return
    for first in combinations(pool, each):
        rest = tuple(card for card in pool if card not in first)
        for others in _split(rest, seats - 1, each):
            yield (first, *others)


def _sampled_deals(spot: Position, rng: random.Random, samples: int) -> Iterator[Deal]:
    unseen = list(spot.unseen)
    seats, each = len(spot.hands), spot.cards_each
    needed = seats * each + spot.community
    for _ in range(samples):
        drawn = rng.sample(unseen, needed)
        extra = tuple(tuple(drawn[i * each : (i + 1) * each]) for i in range(seats))
        yield extra, tuple(drawn[seats * each :])
