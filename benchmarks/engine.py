"""Engine speed next to the reference libraries, on the same random inputs.

    python -m benchmarks.engine [--evaluations N] [--low-evaluations N] [--hands N] [--seed S]

1. Seven-card high evaluations per second: ``engine.evaluate`` (through its public, validating
   entry point) and treys' ``Evaluator().evaluate``, whose cards are converted to treys' encoding
   before the clock starts. ``evaluate`` memoises values on first sight, so its first pass over
   the hands (memo empty) and a second pass (memo warm, as in a long-running bot) are both shown.
2. Seven-card low evaluations per second, the same way: ``evaluate_low`` (Razz, ace-to-five) and
   ``evaluate_eight_low`` (Stud Hi-Lo) next to PokerKit's ``RegularLowHand.from_game`` and
   ``EightOrBetterLowHand.from_game_or_none`` on the same hands.
3. Complete random hands per second for each game: ``StudHand`` with its variant and PokerKit's
   ``FixedLimitSevenCardStud``, ``FixedLimitRazz`` and
   ``FixedLimitSevenCardStudHighLowSplitEightOrBetter``, from the same stacks and deck order.
   Each picks uniformly at random, from a seeded generator, among all the actions it allows
   (every raise size: the engine offers two on 4th street after an open pair). Seat i of
   ``StudHand`` is PokerKit's player i: the dealer is the last seat, so both deal from seat 0
   up; PokerKit burns an unknown card ('??') before streets 4-7 so that both deal the same cards.
   (When eight players reach 7th street, StudHand deals the community card of RULES 2.2 and
   PokerKit re-deals mucked cards and warns; the warning is silenced here.)
"""

from __future__ import annotations

import argparse
import platform
import random
import time
import warnings
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pokerkit import (
    Automation,
    EightOrBetterLowHand,
    RegularLowHand,
    State,
)
from pokerkit import Card as PokerKitCard
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from engine import (
    DEFAULT_STAKES,
    RAZZ,
    STUD_HI_LO,
    STUD_HIGH,
    Card,
    Decision,
    StudHand,
    Variant,
    evaluate,
    evaluate_eight_low,
    evaluate_low,
)
from engine.cards import FULL_DECK
from tests.engine.pokerkit_reference import GAMES

EVALUATION_TARGET = 4.0
LOW_EVALUATION_TARGET = 20.0
HAND_TARGET = 10.0

POKERKIT_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def per_second(count: int, run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return count / (time.perf_counter() - start)


# ---------------------------------------------------------------------- evaluation


def evaluation_rates(count: int, rng: random.Random) -> tuple[float, float, float]:
    """Evaluations per second: evaluate cold, evaluate warm, treys."""
    hands = [tuple(rng.sample(FULL_DECK, 7)) for _ in range(count)]
    treys_card = [TreysCard.new(str(card)) for card in FULL_DECK]
    treys_hands = [
        ([treys_card[c] for c in hand[:2]], [treys_card[c] for c in hand[2:]]) for hand in hands
    ]
    treys = TreysEvaluator()  # builds its lookup tables here, outside the clock

    def run_engine() -> None:
        for hand in hands:
            evaluate(hand)

    def run_treys() -> None:
        treys_evaluate = treys.evaluate
        for hole, board in treys_hands:
            treys_evaluate(hole, board)

    cold = per_second(count, run_engine)
    warm = per_second(count, run_engine)
    return cold, warm, per_second(count, run_treys)


# ---------------------------------------------------------------------- low evaluations


def low_rates(count: int, rng: random.Random) -> list[tuple[str, float, float, float]]:
    """Per low evaluator: name, engine cold, engine warm, PokerKit, on the same hands."""
    hands = [tuple(rng.sample(FULL_DECK, 7)) for _ in range(count)]
    pokerkit_card = [next(PokerKitCard.parse(str(card))) for card in FULL_DECK]
    pokerkit_hands = [[pokerkit_card[card] for card in hand] for hand in hands]
    rates = []
    evaluators = (
        ("ace-to-five (Razz)", evaluate_low, RegularLowHand.from_game),
        ("eight-or-better (Hi-Lo)", evaluate_eight_low, EightOrBetterLowHand.from_game_or_none),
    )
    for name, ours, theirs in evaluators:

        def run_engine(evaluate_one: Callable[[Sequence[Card]], object] = ours) -> None:
            for hand in hands:
                evaluate_one(hand)

        def run_pokerkit(evaluate_one: Callable[[Sequence[PokerKitCard]], object] = theirs) -> None:
            for hand in pokerkit_hands:
                evaluate_one(hand)

        cold = per_second(count, run_engine)
        warm = per_second(count, run_engine)
        rates.append((name, cold, warm, per_second(count, run_pokerkit)))
    return rates


# ---------------------------------------------------------------------- complete hands


@dataclass(frozen=True, slots=True)
class Deal:
    stacks: tuple[int, ...]
    deck: tuple[Card, ...]
    decision_seed: int


def random_deals(count: int, rng: random.Random) -> list[Deal]:
    # Short stacks now and then, so all-ins and side pots are part of the work.
    return [
        Deal(
            tuple(rng.randint(20, 400) for _ in range(rng.randint(2, 8))),
            tuple(rng.sample(FULL_DECK, 52)),
            rng.getrandbits(32),
        )
        for _ in range(count)
    ]


def play_stud_hand(deal: Deal, variant: Variant) -> tuple[int, ...]:
    rng = random.Random(deal.decision_seed)
    hand = StudHand(
        list(deal.stacks), DEFAULT_STAKES, deal.deck, dealer=len(deal.stacks) - 1, variant=variant
    )
    while not hand.is_over:
        legal = hand.legal()
        choices = [_raise_to(total) for total in legal.raise_to]
        if legal.fold:
            choices.append(FOLD)
        if legal.check:
            choices.append(CHECK)
        if legal.call is not None:
            choices.append(CALL)
        if legal.bring_in is not None:
            choices.append(BRING_IN)
        hand.decide(rng.choice(choices))
    return tuple(hand.stacks)


FOLD, CHECK, CALL, BRING_IN = (
    Decision("fold"),
    Decision("check"),
    Decision("call"),
    Decision("bring_in"),
)
_RAISES: dict[int, Decision] = {}


def _raise_to(total: int) -> Decision:
    """Decisions are immutable values: the policy makes each raise total's once."""
    decision = _RAISES.get(total)
    if decision is None:
        decision = _RAISES[total] = Decision("raise_to", total)
    return decision


def play_pokerkit_hand(
    deal: Deal, deck: Sequence[PokerKitCard], variant: Variant
) -> tuple[int, ...]:
    rng = random.Random(deal.decision_seed)
    stakes = DEFAULT_STAKES
    state: State = GAMES[variant].create_state(
        POKERKIT_AUTOMATIONS,
        True,
        stakes.ante,
        stakes.bring_in,
        stakes.small_bet,
        stakes.big_bet,
        deal.stacks,
        len(deal.stacks),
    )
    # Dealing is left manual so the deck can be set after the state shuffled its own.
    state.deck_cards = deque(deck)
    while state.status:
        if state.can_burn_card():
            state.burn_card("??")
        elif state.can_deal_hole():
            state.deal_hole()
        elif state.can_deal_board():
            state.deal_board()
        else:
            choices: list[Callable[[], object]] = []
            if state.can_fold():
                choices.append(state.fold)
            if state.can_check_or_call():
                choices.append(state.check_or_call)
            if state.can_post_bring_in():
                choices.append(state.post_bring_in)
            if state.can_complete_bet_or_raise_to():
                choices.append(state.complete_bet_or_raise_to)
            rng.choice(choices)()
    return tuple(state.stacks)


def hand_rates(count: int, rng: random.Random, variant: Variant) -> tuple[float, float]:
    """Hands per second for StudHand and PokerKit, playing one game from the same deals."""
    deals = random_deals(count, rng)
    pokerkit_card = [next(PokerKitCard.parse(str(card))) for card in FULL_DECK]
    pokerkit_decks = [[pokerkit_card[card] for card in deal.deck] for deal in deals]

    def run_ours() -> None:
        for deal in deals:
            play_stud_hand(deal, variant)

    def run_theirs() -> None:
        for deal, deck in zip(deals, pokerkit_decks, strict=True):
            play_pokerkit_hand(deal, deck, variant)

    ours_rate = per_second(count, run_ours)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs_rate = per_second(count, run_theirs)
    return ours_rate, theirs_rate


# ---------------------------------------------------------------------- report


def row(label: str, *values: str, note: str = "") -> str:
    return f"  {label:<36}" + "".join(f"{value:>14}" for value in values) + f"  {note}".rstrip()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--evaluations", type=int, default=200_000)
    parser.add_argument("--low-evaluations", type=int, default=20_000)
    parser.add_argument("--hands", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=20_240_501)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    print(
        f"Engine benchmark, seed {args.seed}, {platform.python_implementation()} "
        f"{platform.python_version()}; figures are per second"
    )
    print()
    cold, warm, treys = evaluation_rates(args.evaluations, rng)
    print(f"7-card high evaluations ({args.evaluations:,} random hands)")
    print(row("", "engine cold", "engine warm", "treys", "warm / treys"))
    print(
        row(
            "high (7 Card Stud)",
            f"{cold:,.0f}",
            f"{warm:,.0f}",
            f"{treys:,.0f}",
            f"{warm / treys:.1f}x",
            note=f"(target >= {EVALUATION_TARGET:g}x)",
        )
    )
    print()
    print(f"7-card low evaluations ({args.low_evaluations:,} random hands)")
    print(row("", "engine cold", "engine warm", "pokerkit", "warm / pk"))
    for name, low_cold, low_warm, pokerkit in low_rates(args.low_evaluations, rng):
        print(
            row(
                name,
                f"{low_cold:,.0f}",
                f"{low_warm:,.0f}",
                f"{pokerkit:,.0f}",
                f"{low_warm / pokerkit:.0f}x",
                note=f"(target >= {LOW_EVALUATION_TARGET:g}x; high warm {warm:,.0f})",
            )
        )
    print()
    print(f"Complete random hands ({args.hands:,} deals per game, 2-8 players, random actions)")
    print(row("", "StudHand", "pokerkit", "ratio"))
    for variant in (STUD_HIGH, RAZZ, STUD_HI_LO):
        ours, theirs = hand_rates(args.hands, rng, variant)
        print(
            row(
                variant.name,
                f"{ours:,.0f}",
                f"{theirs:,.0f}",
                f"{ours / theirs:.1f}x",
                note=f"(target >= {HAND_TARGET:g}x)",
            )
        )


if __name__ == "__main__":
    main()
