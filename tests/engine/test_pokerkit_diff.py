"""Differential tests: StudHand against PokerKit's FixedLimitSevenCardStud, FixedLimitRazz and
FixedLimitSevenCardStudHighLowSplitEightOrBetter.

For each game, 2,000 random hands in the slow tier (and so in CI), 150 others in the quick one
(2-8 players, about 30% with 8, short stacks, varied stakes,
passive to aggressive play) are dealt from the same deck order to both, and the same decisions
are fed to both. At every decision the actor, the
legal amounts, stacks, bets, pot, live players' up cards and the community card must agree; at
the end, the final stacks. PokerKit is patched or steered around only where RULES 7 says it
differs on purpose (see ``tests/engine/pokerkit_reference.py``):

- 1.3 burns and 2.2 reshuffle: switched off in PokerKit;
- 4.1 equal boards: PokerKit's player k is the engine's k-th seat dealt in, so its tie-break by
  index is the engine's tie-break by dealing order;
- 4.3 open pair: when the engine offers both the small and the big bet on 4th street, only the
  small one is compared with PokerKit and only the small one is ever chosen;
- 5.3-5.4 odd chips and merged side pots: PokerKit's final stacks are resettled by RULES 5.3-5.4
  (9.5, 10.1-10.2) from PokerKit's own contributions and hands (``ReferenceHand.finish``),
  moving nothing but odd chips (but see the Stud Hi-Lo low half below);
- the degenerate completion PokerKit offers a bring-in player with at most the bring-in
  (it equals posting the bring-in; RULES 3.2) is not compared;
- 4.5-4.6 short all-ins: RULES counts a short all-in of half a unit or more as a full bet or
  raise (it reopens the betting and uses up the cap) and one of less as neither; PokerKit
  measures it against the largest raise so far and counts every one towards the cap. They can
  disagree only in a round that had a short all-in completion, bet or raise; there, when they
  disagree on whether the actor may raise, that is not compared and he doesn't raise, so the
  hands stay in step (everything else is still compared).

Not in the RULES 7 list (reported, not patched): in Stud Hi-Lo PokerKit halves every pot once
any player has a qualifying low, even a side pot whose contenders have none, and shares that low
half among the pot's players whose hands it has not killed (those who win some pot), where RULES
10.1 gives the whole pot to its best high. ``ReferenceHand.finish`` settles every pot by RULES
from PokerKit's own hands, so the final stacks are still compared; such hands are counted.

Each of those differences has a direct test in ``test_pokerkit_differences.py``.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace

import pytest

from engine import RAZZ, STUD_HI_LO, STUD_HIGH, Card, Stakes, StudHand, Variant
from engine.cards import FULL_DECK
from engine.events import (
    AntePosted,
    Bet,
    BettingCapped,
    BringIn,
    BringInDue,
    Complete,
    FirstToAct,
    PotAwarded,
    Raise,
    StreetStarted,
)
from tests.engine.decks import stacked_deck
from tests.engine.pokerkit_reference import ReferenceHand, View, engine_view, memoised_hands

HANDS = 2000
SEED = 20250207
# The full run, and the quick tier's: fewer hands, on a seed of their own (not the first of the
# full run's), whose hands still exercise every count the test asks for (each game's has every
# one by its 110th hand).
SIZES = [
    pytest.param(150, SEED + 7919, id="150 hands"),
    pytest.param(HANDS, SEED, id=f"{HANDS} hands", marks=pytest.mark.slow),
]
# Share of raises among decisions that allow one: passive hands reach 7th street, aggressive
# ones cap streets and put short stacks all-in.
AGGRESSION = (0.05, 0.25, 0.6)
FOLD_RATE = 0.06
# Hands where two players get the same ranks in other suits, so that split pots and odd chips
# (RULES 5.4) come up; no one folds in them, which keeps the dealing positions fixed.
MIRRORED_SHARE = 0.1


def random_deal(rng: random.Random, mirrored: bool, variant: Variant = STUD_HIGH) -> StudHand:
    """2-8 players (8 in about 30% of hands), stacks often a few bets deep, varied stakes
    (B < S, which PokerKit requires), now and then a seat sitting out at a smaller table."""
    seats = 8 if rng.random() < 0.3 else rng.randint(2, 8)
    small = rng.choice([2, 4, 10])
    stakes = Stakes(
        ante=rng.choice([0, 1, small // 2]),
        bring_in=rng.randint(1, small - 1),
        small_bet=small,
        big_bet=small * rng.choice([2, 3]),
    )
    depth = [1, 2, 3, small, 2 * small, 5 * small, 10 * small, 40 * small]
    stacks = [rng.choice(depth) + rng.randint(0, 2) for _ in range(seats)]
    if 2 < seats < 8 and rng.random() < 0.1:
        stacks[rng.randrange(seats)] = 0  # sitting out (RULES 1.1)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    dealt_in = sum(1 for stack in stacks if stack)
    if mirrored:
        first, second = rng.sample(range(dealt_in), 2)
        mirror(deck, dealt_in, first, second)
    return StudHand(stacks, stakes, deck, dealer=rng.randrange(seats), variant=variant)


def mirror(deck: list[Card], players: int, first: int, second: int) -> None:
    """Give the ``second``-dealt player the ranks of the ``first``-dealt one, in other suits,
    as far as the deck allows, assuming nobody folds (one card per player per round)."""
    rounds = 7 if 7 * players <= len(deck) else 6  # 8 players share a community card
    protected = {r * players + first for r in range(rounds)}
    for r in range(rounds):
        target = r * players + second
        rank = deck[r * players + first].rank
        swap = next(
            (i for i, card in enumerate(deck) if card.rank == rank and i not in protected),
            None,
        )
        if swap is not None:
            deck[target], deck[swap] = deck[swap], deck[target]
        protected.add(target)


def decide(
    hand: StudHand, rng: random.Random, aggression: float, fold_rate: float
) -> tuple[str, int | None]:
    legal = hand.legal()
    if legal.raise_to and rng.random() < aggression:
        # The smallest total: the small bet when an open pair allows both (RULES 4.3 steering).
        return "raise_to", legal.raise_to[0]
    if legal.bring_in is not None:
        return "bring_in", None
    if legal.fold and rng.random() < fold_rate:
        return "fold", None
    return ("check", None) if legal.check else ("call", None)


@dataclass
class Coverage:
    """What the random hands exercised; each count must be above zero."""

    counts: Counter[str]

    def record_hand(self, hand: StudHand) -> None:
        counts = self.counts
        counts["hands"] += 1
        counts["eight players"] += len(hand.dealing_order) == 8
        counts["a seat sitting out (RULES 1.1)"] += len(hand.dealing_order) < hand.seats
        counts["dealt 7th street"] += hand.street == 7
        counts["bet on 7th street"] += any(
            isinstance(e, FirstToAct) and e.street == 7 for e in hand.events
        )
        counts["community card (RULES 2.2)"] += hand.community is not None
        counts["side pots"] += len(hand.pots()) > 1
        counts["all-in on the ante"] += any(
            isinstance(e, AntePosted) and e.all_in for e in hand.events
        )
        counts["bring-in passed on (RULES 3.3)"] += any(
            isinstance(e, BringInDue) and e.passed_on for e in hand.events
        )
        counts["capped rounds"] += sum(isinstance(e, BettingCapped) for e in hand.events)
        counts["equal best boards (RULES 4.1)"] += sum(
            _tied_best_board(hand, e) for e in hand.events
        )

    def record_decision(self, hand: StudHand, view: View, decision: tuple[str, int | None]) -> None:
        counts = self.counts
        counts["decisions"] += 1
        counts["decisions on 7th street"] += hand.street == 7
        counts["open pair: small bet chosen over big (RULES 4.3)"] += len(view.raise_to) < len(
            hand.legal().raise_to
        )
        seat = hand.actor
        assert seat is not None
        owed = max(hand.bets) - hand.bets[seat]
        counts["all-in calls for less"] += decision[0] == "call" and hand.stacks[seat] < owed
        counts["short all-in completions, bets and raises (RULES 4.5)"] += _short_all_in(
            hand, seat, decision
        )


def _short_all_in(hand: StudHand, seat: int, decision: tuple[str, int | None]) -> bool:
    """A completion, bet or raise all-in for less than a full one (RULES 4.5)."""
    action, total = decision
    if action != "raise_to" or total != hand.bets[seat] + hand.stacks[seat]:
        return False
    small = hand.stakes.small_bet
    level = max(hand.bets)
    if hand.street == 3 and level < small:
        return total < small  # a completion
    unit = small if hand.street in (3, 4) else hand.stakes.big_bet
    return total - level < unit


def short_all_in_this_round(hand: StudHand) -> bool:
    """This round had an all-in completion, bet or raise of less than a full unit: the only
    rounds where RULES 4.6 and PokerKit may judge reopening and the cap differently."""
    start = max(i for i, e in enumerate(hand.events) if isinstance(e, StreetStarted))
    unit = hand.stakes.small_bet if hand.street <= 4 else hand.stakes.big_bet
    level = 0
    for event in hand.events[start:]:
        if isinstance(event, BringIn):
            level = event.amount
        elif isinstance(event, (Complete, Bet, Raise)):
            if (
                event.all_in
                and event.total - level < unit
                and not (isinstance(event, Complete) and event.total == hand.stakes.small_bet)
            ):
                return True
            level = event.total
    return False


def _tied_best_board(hand: StudHand, event: object) -> bool:
    """The first to act shares his board's ranks with another live player (RULES 4.1)."""
    if not isinstance(event, FirstToAct):
        return False
    ranks = sorted(card.rank for card in event.up_cards)
    count = len(event.up_cards)
    return any(
        seat != event.seat
        and not hand.folded(seat)
        and sorted(card.rank for card in hand.up_cards(seat)[:count]) == ranks
        for seat in range(hand.seats)
    )


def diverged(hand: StudHand, what: str, ours: object, theirs: object) -> AssertionError:
    """An error that is a reproduction: the hand's inputs and decisions, and both answers."""
    return AssertionError(
        f"{what} differ\n  engine:   {ours}\n  pokerkit: {theirs}\n"
        f"  hand (StudHand.from_dict): {hand.to_dict()}"
    )


def play_both(
    hand: StudHand, rng: random.Random, coverage: Coverage, aggression: float, fold_rate: float
) -> None:
    reference = ReferenceHand.of(hand)
    while hand.actor is not None or reference.actor is not None:
        # RULES 4.3: the engine may offer (small, big) on 4th street; PokerKit only the small.
        offered = hand.legal().raise_to
        two_sizes = len(offered) > 1
        if two_sizes and hand.street != 4:
            raise diverged(hand, "raise sizes off 4th street", offered, reference.raise_to())
        ours = engine_view(hand, small_option_only=two_sizes)
        theirs = reference.view()
        half_bet_rule = (
            ours != theirs
            and replace(ours, raise_to=theirs.raise_to) == theirs
            and short_all_in_this_round(hand)
        )
        if ours != theirs and not half_bet_rule:
            raise diverged(hand, "decision points", ours, theirs)
        decision = decide(hand, rng, 0.0 if half_bet_rule else aggression, fold_rate)
        counts = coverage.counts
        counts["RULES 4.6 lets him raise where PokerKit doesn't (not compared)"] += (
            half_bet_rule and bool(ours.raise_to)
        )
        counts["PokerKit lets him raise where RULES 4.6 doesn't (not compared)"] += (
            half_bet_rule and bool(theirs.raise_to)
        )
        counts["raise compared after a short all-in in the round (RULES 4.5-4.6)"] += (
            not half_bet_rule and bool(ours.raise_to) and short_all_in_this_round(hand)
        )
        coverage.record_decision(hand, ours, decision)
        hand.apply(*decision)
        reference.apply(*decision)
    settlement = reference.finish()
    if tuple(hand.stacks) != settlement.stacks:
        raise diverged(hand, "final stacks", hand.stacks, settlement)
    counts = coverage.counts
    counts["hands with odd chips (RULES 5.4)"] += settlement.odd_chip_splits > 0
    counts["odd chips placed otherwise than PokerKit"] += (
        settlement.stacks != settlement.pokerkit_stacks
    )
    counts["split pots"] += any(len(pot.winners) > 1 for pot in settlement.pots)
    awarded = [e for e in hand.events if isinstance(e, PotAwarded)]
    if hand.variant is STUD_HI_LO:
        counts["pots split high and low (RULES 10.1)"] += any(
            e.high_winners and e.low_winners for e in awarded
        )
        counts["showdowns without a qualifying low (RULES 10.1)"] += any(
            e.high_winners and not e.low_winners for e in awarded
        )
        counts["scoops (RULES 10.4)"] += any(e.scoop for e in awarded)
        counts["PokerKit halves a pot with no low among its contenders"] += (
            settlement.low_without_contender > 0
        )
        counts["... and so pays more than odd chips otherwise"] += (
            settlement.moved_more_than_odd_chips
        )
    counts["short bring-in completion not compared (RULES 3.2)"] += (
        reference.short_bring_in_completions_dropped
    )
    coverage.record_hand(hand)


# Counts that may stay at zero: another game's feature, or a PokerKit difference only counted.
_MAY_BE_ZERO = {
    STUD_HIGH: (),
    RAZZ: ("open pair: small bet chosen over big (RULES 4.3)",),
    STUD_HI_LO: (
        "open pair: small bet chosen over big (RULES 4.3)",
        "PokerKit halves a pot with no low among its contenders",
        "... and so pays more than odd chips otherwise",
    ),
}


@pytest.mark.filterwarnings("error")  # a PokerKit warning (a card dealt off its deck) is a bug
@pytest.mark.parametrize(("hands", "seed"), SIZES)
@pytest.mark.parametrize("variant", [STUD_HIGH, RAZZ, STUD_HI_LO], ids=lambda v: v.name)
def test_engine_agrees_with_pokerkit_on_random_hands(
    variant: Variant, hands: int, seed: int
) -> None:
    """RULES 1-6 (9, 10) against PokerKit on 2,000 (or 150) random hands per game, the
    differences of RULES 7 steered around."""
    rng = random.Random(seed + len(variant.name))
    coverage = Coverage(Counter())
    with memoised_hands():
        for _ in range(hands):
            mirrored = rng.random() < MIRRORED_SHARE
            hand = random_deal(rng, mirrored, variant)
            fold_rate = 0.0 if mirrored else FOLD_RATE
            play_both(hand, rng, coverage, rng.choice(AGGRESSION), fold_rate)
    print("\n".join(f"{name}: {count}" for name, count in coverage.counts.items()))
    assert coverage.counts["hands"] == hands
    assert coverage.counts["eight players"] >= hands // 4
    missing = [
        name
        for name, count in coverage.counts.items()
        if count == 0 and name not in _MAY_BE_ZERO[variant]
    ]
    assert not missing, f"the random hands never exercised: {missing}"


def test_rules_5_4_odd_chip_between_equal_highest_cards_goes_to_first_dealt() -> None:
    """RULES 5.4 + 2.2: seats 7 and 1 tie with K-K-A-9-7, both using the community A of spades
    as their highest card, so the highest card can't choose. The book is silent; PokerKit (the
    reference, RULES 7) gives the odd chip to its first player, which under the differential
    test's mapping is the first dealt: seat 7 here (the dealer is seat 6), not the lower seat
    number. (A divergence the random hands found; kept as its reproduction.)"""
    cards = {
        7: "KcKd9h7c5d3h",
        0: "2c4d6h8sTcQd",
        1: "KhKs9c7d5c3c",
        2: "4h6s2d8cTdQh",
        3: "2h4s6c8dThQs",
        4: "2s4c6d8hTsQc",
        5: "3d5s7h9sJcJd",
        6: "3s5h7s9dJhJs",
    }
    deck = stacked_deck(cards, dealer=6, seats=8, community="As")
    stacks = [3] + [100] * 7  # seat 0 is all-in for 3: a side pot of 7 for the others
    hand = StudHand(stacks, Stakes(ante=1, bring_in=3, small_bet=10, big_bet=20), deck, dealer=6)
    reference = ReferenceHand.of(hand)
    while hand.actor is not None:
        legal = hand.legal()
        decision = "bring_in" if legal.bring_in else "check" if legal.check else "call"
        hand.apply(decision)
        reference.apply(decision)
    settlement = reference.finish()

    assert str(hand.community) == "As"
    side_pot = [e for e in hand.events if isinstance(e, PotAwarded)][1]
    assert side_pot.amount == 7
    assert dict(zip(side_pot.winners, side_pot.shares, strict=True)) == {7: 4, 1: 3}
    assert tuple(hand.stacks) == settlement.stacks
