"""A computer player's decision: its chance to win (against what the opponents' play says they
hold) against the pot odds, with a style's aggression, steals and bluffs on top: a completion
with the best door card on 3rd street, a re-raise against a lone completion from the best door,
a lighter bet when checked to in the last seat; bluffs only from the board that looks best, as
often as the opponents have folded to bets in the hands before; heads-up, a smaller margin over
the fair share for a bet, and a raise of a lone bet from a player who has folded to raises often
enough that it pays as a bluff. Always one of the legal actions; the same seed, the same choice.

Sampling is adaptive: a first small batch; more only when the estimate is too close to the line
between two actions to tell them apart, up to a budget.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from engine.hand import Decision
from engine.variants import VARIANTS
from strategy.equity import LIKELIHOOD, Equity, estimate
from strategy.sight import Sight
from strategy.styles import Style

FIRST_BATCH = 48
MAX_SAMPLES = 400
# How many standard errors from a line an estimate must be before more samples stop mattering.
CLOSE = 1.5
# A bet or raise of each earlier one this street asks for this much more equity to raise again.
RERAISE_MARGIN = 0.15
# A style's margin over the fair share guards against being called only by better hands: the
# best of several opponents' holdings. Heads-up the one caller is no such best of a field, so
# the margin is this part of it.
HEADS_UP_MARGIN = 0.25
# A lone completion that may be a steal is re-raised on this much of the usual line: when it
# was a steal the re-raise takes the pot at once.
RESTEAL = 0.8
# A hand behind doesn't see every card for free, as the samples assume: the bets to come take
# this much of its share per street left.
UNREALISED_PER_STREET = 0.05
# A very strong hand: past this share of the pot, a slowplay may just call.
MONSTER = 0.85
BLUFF_OPPONENTS = 2
# A bluff is made this many times as often at most against players who fold more than most.
FOLDING_MOST = 2.0
# Checked to the last seat, a bet needs this much of the usual edge.
BEHIND = 0.9
# A steal needs some cards too: this share of a fair one at least; and few players to pass.
STEAL_FLOOR = 0.6
STEAL_OPPONENTS = 3


@dataclass(frozen=True, slots=True)
class Thought:
    """The decision and the estimate behind it (``None`` when there was nothing to weigh)."""

    decision: Decision
    equity: Equity | None


def decide(
    sight: Sight, style: Style, seed: int | str | bytes, *, budget: int = MAX_SAMPLES
) -> Thought:
    """Choose the actor's decision from what he can see. ``budget`` caps the samples dealt."""
    legal = sight.legal
    rng = random.Random(seed)
    if legal.bring_in is not None and not legal.raise_to:
        return Thought(Decision("bring_in"), None)  # nothing to choose: too short to complete
    if not legal.raise_to and legal.call is not None and not legal.fold:
        return Thought(Decision("call"), None)
    opponents = max(1, len(sight.opponents))
    fair = 1.0 / (opponents + 1)
    raise_line = _raise_line(sight, style, opponents)
    to_call = sight.to_call
    if legal.call is not None:
        call_line = to_call / (sight.pot + to_call) * (1 - style.looseness)
    else:
        call_line = 0.0
    lines = [raise_line] + ([call_line] if legal.call is not None else [])

    equity = _sample(sight, rng, lines, min(budget, MAX_SAMPLES))
    share = equity.share
    if share < fair:
        share *= 1 - UNREALISED_PER_STREET * max(0, 7 - sight.street)
    wants_raise = bool(legal.raise_to) and share > raise_line
    if not wants_raise and legal.raise_to and _steal_spot(sight, opponents):
        # Only the bring-in in and the best door showing: the antes are worth taking.
        wants_raise = equity.share > fair * STEAL_FLOOR and rng.random() < style.steal
    if wants_raise and share > MONSTER and sight.street < 7 and rng.random() < style.slowplay:
        wants_raise = False
    if not wants_raise and _folds_to_a_raise(sight, style, share):
        return Thought(Decision("raise_to", legal.raise_to[-1]), equity)
    if not wants_raise and legal.raise_to and opponents <= BLUFF_OPPONENTS and _looks_best(sight):
        # A bluff where the betting allows it; a semi-bluff only with a hand worth a call. From
        # a board that can't be the best it is called, and as often as the opponents fold.
        opening = legal.check or legal.bring_in is not None
        chance = (style.bluff if opening else style.bluff / 2) * _folding(sight, opening)
        if (legal.call is None or share >= call_line) and rng.random() < chance:
            return Thought(Decision("raise_to", legal.raise_to[0]), equity)
    if wants_raise:
        return Thought(Decision("raise_to", legal.raise_to[-1]), equity)
    if legal.bring_in is not None:
        return Thought(Decision("bring_in"), equity)
    if legal.check:
        return Thought(Decision("check"), equity)
    if legal.call is not None and (share >= call_line or not legal.fold):
        return Thought(Decision("call"), equity)
    return Thought(Decision("fold"), equity)


def _raise_line(sight: Sight, style: Style, opponents: int) -> float:
    """The equity a bet or raise needs: the fair share and the style's margin over it, more for
    each bet already made this street."""
    fair = 1.0 / (opponents + 1)
    margin = (style.aggression - 1) * (HEADS_UP_MARGIN if opponents == 1 else 1.0)
    line = min(0.95, fair * (1 + margin) * (1 + RERAISE_MARGIN * sight.bets_this_street))
    if sight.last_to_act and sight.legal.check:
        line *= BEHIND  # checked to the last seat: a bet risks no raise behind it
    if (
        sight.street == 3
        and sight.bets_this_street == 1
        and opponents == 1
        and sight.opponents[0].stole
    ):
        line *= RESTEAL
    return line


def _folds_to_a_raise(sight: Sight, style: Style, share: float) -> bool:
    """Heads-up, facing a lone bet from a player who folds to a raise often enough that the
    raise is worth more as a bluff (the pot when he folds, the raise lost when he doesn't, as if
    the cards never won) than a call is, by the style's margin."""
    legal = sight.legal
    lone_bet = len(sight.opponents) == 1 and sight.bets_this_street == 1
    if not lone_bet or legal.call is None or not legal.raise_to:
        return False
    third = sight.street == 3
    usual = LIKELIHOOD[sight.variant, True].folds_to_raises[0 if third else 1]
    folds = sight.opponents[0].habits.to_raises.rate(third, usual)
    cost = sight.to_call + sight.unit
    calling = max(0.0, share * (sight.pot + sight.to_call) - sight.to_call)
    bluff = folds * sight.pot - (1 - folds) * cost
    return bluff > calling + (style.aggression - 1) * cost


def _folding(sight: Sight, opening: bool) -> float:
    """How much likelier than the reasonable players of the reads the opponents are to fold to
    a bet (``opening``) or to a raise of their bet, all of them: each one's rate over theirs,
    multiplied, at most ``FOLDING_MOST``."""
    third = sight.street == 3
    read = LIKELIHOOD[sight.variant, len(sight.opponents) == 1]
    usual = (read.folds_to_bets if opening else read.folds_to_raises)[0 if third else 1]
    folding = 1.0
    for opponent in sight.opponents:
        answers = opponent.habits.to_bets if opening else opponent.habits.to_raises
        folding *= answers.rate(third, usual) / usual if usual else 1.0
    return min(FOLDING_MOST, folding)


def _looks_best(sight: Sight) -> bool:
    """Whether the player's up cards beat every opponent's, as the board that acts first does
    (on 3rd street, his door card every other door)."""
    board = VARIANTS[sight.variant].board_rank
    mine = board(sight.own_up).key
    return all(mine > board(o.up).key for o in sight.opponents)


def _steal_spot(sight: Sight, opponents: int) -> bool:
    """3rd street, nobody has completed, few players left, and no door beats the player's."""
    if sight.street != 3 or sight.bets_this_street or opponents > STEAL_OPPONENTS:
        return False
    return _looks_best(sight)


def _sample(sight: Sight, rng: random.Random, lines: list[float], budget: int) -> Equity:
    """Sample in growing batches until the estimate is clear of every line, or the budget."""
    batch = min(FIRST_BATCH, budget)
    equity = estimate(sight, batch, rng)
    while equity.samples < budget:
        error = math.sqrt(max(equity.share * (1 - equity.share), 0.01) / equity.samples)
        if all(abs(equity.share - line) > CLOSE * error for line in lines):
            break
        more = estimate(sight, min(equity.samples * 2, budget - equity.samples), rng)
        equity = _pooled(equity, more)
    return equity


def _pooled(a: Equity, b: Equity) -> Equity:
    n = a.samples + b.samples

    def mix(x: float, y: float) -> float:
        return (x * a.samples + y * b.samples) / n

    return Equity(
        mix(a.share, b.share), mix(a.high, b.high), mix(a.low, b.low), mix(a.scoop, b.scoop), n
    )
