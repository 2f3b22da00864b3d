"""The chance to win, estimated by dealing the unseen cards again and again.

Unseen are the cards the player can't see: the deck less his own cards, every up card (live
and folded) and the community card. Each sample gives every live opponent his down cards and
everyone the cards still to come, then values the hands with the engine's evaluators (by key:
``engine.evaluator.high_of_key``). Each sample counts as much as the opponents' actions make it
likely: on every street he acted, his cards of that street (his down cards and the up cards he
showed then) are classed nothing, weak or drawing, good or strong for the game (in Hi-Lo the
better of the two halves), and a raise from a nothing holding counts little, a check from a
strong one less than from a weak one. Folded up cards are seen cards: they are out of every
sample, so a draw counts only its live cards.

For a game with a low, the result has each half and the scoop as well as the share of the pot.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.cards import FULL_DECK, Card
from engine.evaluator import CARD_KEYS, EMPTY_KEY, eight_low_of_key, high_of_key, low_of_key
from engine.variants import VARIANTS, LowRule
from strategy.sight import BET, CALLED, CHECKED, RAISED, Opponent, Sight

HAND_SIZE = 7
NOTHING, WEAK, GOOD, STRONG = range(4)
# How likely a reasonable player makes each action with a holding of each class, NOTHING to
# STRONG: bluffs and slowplays keep every entry above zero.
LIKELIHOOD: dict[int, tuple[float, ...]] = {
    CHECKED: (1.0, 1.0, 0.6, 0.35),
    CALLED: (0.45, 1.0, 1.0, 0.8),
    BET: (0.25, 0.5, 0.9, 1.0),
    RAISED: (0.08, 0.2, 0.55, 1.0),
}
# A 3rd-street completion from the best door showing is often a steal.
STEAL = (0.5, 0.7, 0.9, 1.0)


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


def holding_class(cards: list[Card], high: bool, low: LowRule | None) -> int:
    """NOTHING, WEAK (a small pair, a draw, one bad low card), GOOD (a big pair, a smooth low
    start) or STRONG (two pair or better, a made or perfect low) for the game: 3 to 7 cards."""
    count = len(cards)
    ranks = [(card >> 2) + 2 for card in cards]
    best = NOTHING
    if high:
        if count >= 5:
            value = high_of_key(sum(map(CARD_KEYS.__getitem__, cards), EMPTY_KEY))
            category = value >> 20
            if category >= 2:
                return STRONG
            if category == 1:
                best = GOOD if (value >> 16) & 0xF >= 10 else WEAK
        else:
            distinct = set(ranks)
            paired = count - len(distinct)
            if paired >= 2:
                return STRONG
            if paired == 1:
                pair = max(rank for rank in distinct if ranks.count(rank) > 1)
                best = GOOD if pair >= 10 else WEAK
        if best == NOTHING and count < HAND_SIZE:
            suits = [card & 3 for card in cards]
            flushy = max(map(suits.count, set(suits))) >= min(4, count)
            spread = sorted(set(ranks))
            straighty = len(spread) >= min(4, count) and any(
                spread[i + min(4, count) - 1] - spread[i] <= 4
                for i in range(len(spread) - min(4, count) + 1)
            )
            best = WEAK if flushy or straighty else NOTHING
    if low is None and high:
        return best
    lows = {1 if rank == 14 else rank for rank in ranks if rank <= 8 or rank == 14}
    if len(lows) >= 5:
        return max(best, STRONG if sorted(lows)[4] <= 7 else GOOD)
    bad = count - len(lows)
    if count >= 5:
        return max(best, WEAK if count < HAND_SIZE and bad <= 2 else NOTHING)
    if bad == 0:
        return max(best, STRONG if max(lows) <= (6 if count == 4 else 7) else GOOD)
    return max(best, WEAK if bad == 1 else NOTHING)


def _reads(opponent: Opponent) -> list[tuple[int, tuple[float, ...]]]:
    """The streets the opponent acted on, each with how likely his action was by class."""
    return [
        (street, STEAL if street == 3 and level == BET and opponent.stole else LIKELIHOOD[level])
        for street, level in opponent.actions
    ]


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
        others.append((opponent, key, opponent.down_count + HAND_SIZE - held, _reads(opponent)))
    shared = 0
    needed = own_missing + sum(missing for _, _, missing, _ in others)
    if needed > len(unseen):
        # Too few cards for everyone's 7th street: one community card for all (RULES 2.2).
        shared = 1
        needed = own_missing - 1 + sum(missing - 1 for _, _, missing, _ in others) + 1
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
        for opponent, key, missing, reads in others:
            take = drawn[at : at + missing - shared]
            at += missing - shared
            down = take[: opponent.down_count]
            for street, likely in reads:
                then = down[:2] + list(opponent.up[: street - 2]) + down[2 : street - 4]
                if len(then) >= 3:
                    weight *= likely[holding_class(then, plays_high, low_rule)]
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
