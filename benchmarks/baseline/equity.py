"""The chance to win, estimated by dealing the unseen cards again and again.

Unseen are the cards the player can't see: the deck less his own cards, every up card (live
and folded) and the community card. Each sample gives every live opponent his down cards and
everyone the cards still to come, then values the hands with the engine's evaluators (by key:
``engine.evaluator.high_of_key``). An opponent who completed, bet or raised is given plausible
holdings: a sample where his first three cards are poor for the game counts less.

For a game with a low, the result has each half and the scoop as well as the share of the pot.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from benchmarks.baseline.sight import Sight
from engine.cards import FULL_DECK, Card
from engine.evaluator import CARD_KEYS, EMPTY_KEY, eight_low_of_key, high_of_key, low_of_key
from engine.variants import VARIANTS, LowRule

HAND_SIZE = 7
# What a bet says about a hand: a sample where the bettor's first three cards are poor counts
# this much (per bet, down to the floor).
POOR_START_WEIGHT = 0.45
POOR_START_FLOOR = 0.1


@dataclass(frozen=True, slots=True)
class Equity:
    """``share``: the expected part of the pot (ties and halves counted). ``high``/``low``: the
    chance to win (a share of) that half; ``scoop``: the chance to take the whole pot. A game
    without a low has ``low == 0``; Razz has ``high == 0``. ``samples``: how many were dealt."""

    share: float
    high: float
    low: float
    scoop: float
    samples: int


def poor_start(cards: tuple[Card, ...], high: bool, low: LowRule | None) -> bool:
    """Three cards nobody who knows the game completes or raises with."""
    ranks = sorted(card.rank for card in cards)
    paired = len(set(ranks)) < len(ranks)
    if not high:  # Razz: three cards of eight or lower, unpaired, is a start
        return paired or sum(1 for r in ranks if r <= 8 or r == 14) < 3
    suited = len({card.suit for card in cards}) == 1
    connected = ranks[-1] - ranks[0] <= 4 and not paired
    if low is not None:  # Hi-Lo: trips, a high pair, or three low cards
        lows = sum(1 for r in ranks if r <= 8 or r == 14)
        return not (lows == 3 or (paired and ranks[1] >= 10) or suited)
    return not (paired or suited or connected or (ranks[-1] >= 13 and ranks[-2] >= 10))


def estimate(sight: Sight, samples: int, rng: random.Random) -> Equity:
    """Deal ``samples`` completions of the hand and count what the player wins."""
    variant = VARIANTS[sight.variant]
    plays_high, low_rule = variant.high, variant.low
    seen = set(sight.own) | set(sight.dead)
    for opponent in sight.opponents:
        seen.update(opponent.up)
    if sight.community is not None:
        seen.add(sight.community)
    unseen = [card for card in FULL_DECK if card not in seen]
    community_key = 0 if sight.community is None else CARD_KEYS[sight.community]
    own_cards = len(sight.own) + (sight.community is not None)
    own_missing = HAND_SIZE - own_cards
    own_key = sum(map(CARD_KEYS.__getitem__, sight.own), EMPTY_KEY) + community_key
    # Each opponent: the key of his up cards, how many cards he is missing (down ones first).
    others = []
    for opponent in sight.opponents:
        key = sum(map(CARD_KEYS.__getitem__, opponent.up), EMPTY_KEY) + community_key
        held = len(opponent.up) + opponent.down_count + (sight.community is not None)
        others.append((opponent, key, opponent.down_count + HAND_SIZE - held))
    shared = 0
    needed = own_missing + sum(missing for _, _, missing in others)
    if needed > len(unseen):
        # Too few cards for everyone's 7th street: one community card for all (RULES 2.2).
        shared = 1
        needed = own_missing - 1 + sum(missing - 1 for _, _, missing in others) + 1
    total_weight = high_sum = low_sum = scoop_sum = share_sum = 0.0
    for _ in range(samples):
        drawn = rng.sample(unseen, needed)
        at = 0
        common = 0
        if shared:
            common = CARD_KEYS[drawn[0]]
            at = 1
        mine = own_key + common
        for card in drawn[at : at + own_missing - shared]:
            mine += CARD_KEYS[card]
        at += own_missing - shared
        weight = 1.0
        keys = []
        for opponent, key, missing in others:
            take = drawn[at : at + missing - shared]
            at += missing - shared
            if opponent.aggression:
                start = (*take[: 2 if opponent.down_count >= 2 else 0], *opponent.up[:1])
                if len(start) == 3 and poor_start(start, plays_high, low_rule):
                    weight *= max(POOR_START_FLOOR, POOR_START_WEIGHT**opponent.aggression)
            for card in take:
                key += CARD_KEYS[card]
            keys.append(key + common)
        high_part, low_part, scooped = _result(mine, keys, plays_high, low_rule)
        if low_rule is None or not plays_high:
            share = high_part if plays_high else low_part
        elif low_part < 0:  # no low qualifies: the high takes it all
            share, low_part = high_part, 0.0
        else:
            share = (high_part + low_part) / 2
        total_weight += weight
        high_sum += weight * high_part
        low_sum += weight * low_part
        scoop_sum += weight * scooped
        share_sum += weight * share
    return Equity(
        share_sum / total_weight,
        high_sum / total_weight,
        low_sum / total_weight,
        scoop_sum / total_weight,
        samples,
    )


def _result(
    mine: int, keys: list[int], plays_high: bool, low_rule: LowRule | None
) -> tuple[float, float, bool]:
    """My part of the high half, of the low half (-1: nobody has a low), and whether I won the
    whole pot alone."""
    high_part = 0.0
    alone_high = False
    if plays_high:
        best = high_of_key(mine)
        ties = 1
        for key in keys:
            value = high_of_key(key)
            if value > best:
                ties = 0
                break
            if value == best:
                ties += 1
        if ties:
            high_part = 1.0 / ties
            alone_high = ties == 1
    if low_rule is None:
        return high_part, 0.0, alone_high
    if low_rule is LowRule.ACE_TO_FIVE:
        low = low_of_key(mine)
        ties = 1
        for key in keys:
            other = low_of_key(key)
            if other > low:
                return high_part, 0.0, False
            if other == low:
                ties += 1
        return high_part, 1.0 / ties, ties == 1
    mine_low = eight_low_of_key(mine)
    others_low = [low for low in map(eight_low_of_key, keys) if low is not None]
    if mine_low is None:
        # Without a low of my own I scoop only if nobody has one.
        return high_part, -1.0 if not others_low else 0.0, alone_high and not others_low
    ties = 1
    for low in others_low:
        if low > mine_low:
            return high_part, 0.0, False
        if low == mine_low:
            ties += 1
    return high_part, 1.0 / ties, alone_high and ties == 1
