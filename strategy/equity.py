"""The chance to win, estimated by dealing the unseen cards again and again.

Unseen are the cards the player can't see: the deck less his own cards, every up card (live
and folded) and the community card. Each sample gives every live opponent his down cards and
everyone the cards still to come, then values the hands with the engine's evaluators (by key:
``engine.evaluator.high_of_key``). An opponent's down cards are as likely as his actions make
them: on every street he acted, his cards of that street (his down cards and the up cards he
showed then) are classed nothing, weak or drawing, good or strong for the game (in Hi-Lo the
better of the two halves), and each class makes his action as likely as reasonable players make
it (a raise from a nothing holding is rare, a check from a strong one rarer than from a weak
one); his completions and raises on 3rd street as far as his habits over the hands before say
(``Habits.say``: a player who opens more often than they do opens weaker cards). His first two
down cards decide every read up to 6th street, so each pair he may hold is weighed once and the
samples deal pairs by their weight: every sample counts, however many actions he took. The
read of 7th street, which needs his last down card too, weights the sample. Folded up cards are
seen cards: they are out of every sample, so a draw counts only its live cards.

For a game with a low, the result has each half and the scoop as well as the share of the pot.
"""

from __future__ import annotations

import json
import random
from bisect import bisect_left
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from engine.cards import FULL_DECK, Card
from engine.evaluator import CARD_KEYS, EMPTY_KEY, eight_low_of_key, high_of_key, low_of_key
from engine.variants import VARIANTS, LowRule
from strategy.sight import BET, CALLED, CHECKED, RAISED, Opponent, Sight

HAND_SIZE = 7
NOTHING, WEAK, GOOD, STRONG = range(4)


@dataclass(frozen=True, slots=True)
class Reads:
    """How likely a reasonable player makes each action (``strategy.sight``'s levels) with a
    holding of each class, NOTHING to STRONG, each row over its largest entry: on 3rd street,
    on the later streets, and for a completion from the best door showing (often a steal);
    ``completes``, how often a 3rd street they acted on was one they completed or raised on;
    ``folds_to_bets``, how often one who met a lone completion or bet folded to it, and
    ``folds_to_raises``, how often one who bet folded to a raise, each on 3rd street and later."""

    third: dict[int, tuple[float, ...]]
    later: dict[int, tuple[float, ...]]
    steal: tuple[float, ...]
    completes: float
    folds_to_bets: tuple[float, float]
    folds_to_raises: tuple[float, float]


def _load_reads() -> dict[tuple[str, bool], Reads]:
    """The reads by game and whether the pot is heads-up, as ``python -m benchmarks.reads``
    measured them over the benchmark's reasonable players: heads-up they open and fire wider."""
    levels = {"checked": CHECKED, "called": CALLED, "bet": BET, "raised": RAISED}
    table = json.loads((Path(__file__).parent / "reads.json").read_text())
    reads = {}
    for game, formats in table.items():
        for name, read in formats.items():
            third, later = (
                {levels[level]: tuple(row) for level, row in read[street].items()}
                for street in ("third", "later")
            )
            to_bets, to_raises = (
                (read[kind]["third"], read[kind]["later"])
                for kind in ("folds_to_bets", "folds_to_raises")
            )
            reads[game, name == "heads-up"] = Reads(
                third, later, tuple(read["steal"]), read["completes"], to_bets, to_raises
            )
    return reads


LIKELIHOOD = _load_reads()
# The classes of the holdings met, by game and by the set of cards (a bit each): a hand's later
# decisions read the same earlier streets again. Cleared when it holds this many.
CLASSES_KEPT = 1 << 18
_CLASSES: dict[tuple[bool, LowRule | None], dict[int, int]] = {}


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


def _class(
    bits: int,
    cards: list[Card],
    classes: dict[int, int],
    plays_high: bool,
    low_rule: LowRule | None,
) -> int:
    """``holding_class`` of ``cards``, remembered by their set, ``bits`` (a bit a card)."""
    held_class = classes.get(bits)
    if held_class is None:
        held_class = classes[bits] = holding_class(cards, plays_high, low_rule)
    return held_class


def _reads(opponent: Opponent, read: Reads) -> list[tuple[int, tuple[float, ...]]]:
    """The streets the opponent acted on, each with how likely his action was by class: a
    completion or raise on 3rd street read as much as his habits say (``Habits.say``)."""
    reads = []
    power = opponent.habits.say()
    for street, level in opponent.actions:
        likely = (
            read.steal
            if street == 3 and level == BET and opponent.stole
            else (read.third if street == 3 else read.later)[level]
        )
        if street == 3 and level >= BET and power != 1.0:
            likely = tuple(p**power for p in likely)
        reads.append((street, likely))
    return reads


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
    classes = _CLASSES.setdefault((plays_high, low_rule), {})
    if len(classes) > CLASSES_KEPT:
        classes.clear()
    read = LIKELIHOOD[sight.variant, len(sight.opponents) == 1]
    # Every two cards an opponent may hold down, with their set (a bit a card): the same for
    # every opponent whose actions are read.
    pairs: list[tuple[tuple[Card, Card], int]] = []
    if any(opponent.actions for opponent in sight.opponents):
        pairs = [(pair, (1 << pair[0]) | (1 << pair[1])) for pair in combinations(unseen, 2)]
    others = [
        _Other.of(opponent, community_key, pairs, classes, plays_high, low_rule, read)
        for opponent in sight.opponents
    ]
    weighed = [other for other in others if other.cumulative]
    shared = 0
    needed = own_missing + sum(other.missing for other in others)
    if needed > len(unseen):
        # Too few cards for everyone's 7th street: one community card for all (RULES 2.2).
        shared = 1
        needed = own_missing - 1 + sum(other.missing - 1 for other in others) + 1
    # The first two down cards of an opponent whose actions are read come from his holdings by
    # their weight; the rest of the deal is drawn from what they leave.
    needed -= 2 * len(weighed)
    total_weight = high_sum = low_sum = scoop_sum = share_sum = 0.0
    for _ in range(samples):
        picked: dict[int, tuple[Card, ...]] = {}
        while weighed:
            taken: set[Card] = set()
            for other in weighed:
                pair = pairs[bisect_left(other.cumulative, rng.random() * other.total)][0]
                picked[other.seat] = pair
                taken.update(pair)
            if len(taken) == 2 * len(weighed):
                break  # no card held twice: a deal from the holdings' joint weights
        drawn = rng.sample(unseen, needed + 2 * len(weighed))
        if picked:
            drawn = [card for card in drawn if card not in taken][:needed]
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
        for other in others:
            held = picked.get(other.seat, ())
            count = other.missing - shared - len(held)
            take = [*held, *drawn[at : at + count]]
            at += count
            if other.late:
                down = take[: other.down_count]
                bits = other.up_bits
                for card in down:
                    bits |= 1 << card
                held_class = _class(bits, [*down, *other.up], classes, plays_high, low_rule)
                for likely in other.late:
                    weight *= likely[held_class]
            key = other.key
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


@dataclass(slots=True)
class _Other:
    """An opponent as the samples deal him: ``key``, his up cards (and the community card);
    ``missing``, his cards still to deal (down ones first); ``cumulative``, when his actions
    are read, the running sum of the weights of the pairs of first down cards he may hold (in
    the order ``estimate`` lists them) by his reads of the streets they decide (3rd to 6th);
    ``late``, the reads that need his third down card too (7th street)."""

    seat: int
    up: tuple[Card, ...]
    up_bits: int
    down_count: int
    key: int
    missing: int
    cumulative: list[float]
    total: float
    late: list[tuple[float, ...]]

    @classmethod
    def of(
        cls,
        opponent: Opponent,
        community_key: int,
        pairs: list[tuple[tuple[Card, Card], int]],
        classes: dict[int, int],
        plays_high: bool,
        low_rule: LowRule | None,
        read: Reads,
    ) -> _Other:
        key = sum(map(CARD_KEYS.__getitem__, opponent.up), EMPTY_KEY) + community_key
        dealt = len(opponent.up) + opponent.down_count + (community_key != 0)
        early: list[tuple[int, tuple[Card, ...], tuple[float, ...]]] = []
        late: list[tuple[float, ...]] = []
        for street, likely in _reads(opponent, read):
            if street <= 6 or opponent.down_count < 3:
                up = opponent.up[: street - 2]
                early.append((sum(1 << card for card in up), up, likely))
            else:
                late.append(likely)
        cumulative: list[float] = []
        total = 0.0
        if early:
            for pair, bits in pairs:
                weight = 1.0
                for up_bits, up, likely in early:
                    kind = _class(bits | up_bits, [*pair, *up], classes, plays_high, low_rule)
                    weight *= likely[kind]
                total += weight
                cumulative.append(total)
        return cls(
            opponent.seat,
            opponent.up,
            sum(1 << card for card in opponent.up),
            opponent.down_count,
            key,
            opponent.down_count + HAND_SIZE - dealt,
            cumulative,
            total,
            late,
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
