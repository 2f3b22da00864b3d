"""Engine speed next to the reference libraries, on the same random inputs.

    python -m benchmarks.engine [--evaluations N] [--hands N] [--seed S]

1. Seven-card evaluations per second: ``engine.evaluate`` (through its public, validating entry
   point) and treys' ``Evaluator().evaluate``, whose cards are converted to treys' encoding before
   the clock starts. ``evaluate`` memoises values on first sight, so its first pass over the hands
   (memo empty) and a second pass (memo warm, as in a long-running bot) are both shown.
2. Complete random hands per second: ``StudHand`` and PokerKit's ``FixedLimitSevenCardStud``,
   from the same deck order and the same seeded decisions (fold / check-call / bring-in /
   smallest complete-bet-raise). Seat i of ``StudHand`` is PokerKit's player i: the dealer is the
   last seat, so both deal from seat 0 up. PokerKit burns a card before streets 4-7; it burns an
   unknown card ('??') so that both engines deal the same cards to the same players. The hands
   that end differently are 8-handed ones that run out of cards on 7th street: StudHand deals
   the community card of RULES 2.2, PokerKit re-deals mucked cards (and warns; silenced here).
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

from pokerkit import Automation, FixedLimitSevenCardStud, State
from pokerkit import Card as PokerKitCard
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from engine import DEFAULT_STAKES, Card, StudHand, evaluate
from engine.cards import FULL_DECK

EVALUATION_TARGET = 4.0
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


def choose(rng: random.Random, *, bring_in: bool, can_fold: bool, can_raise: bool) -> str:
    """The shared decision policy: one random number per decision."""
    roll = rng.random()
    if bring_in:
        return "raise" if can_raise and roll < 0.3 else "bring_in"
    if can_fold and roll < 0.15:
        return "fold"
    if can_raise and roll >= 0.75:
        return "raise"
    return "check_call"


def play_stud_hand(deal: Deal) -> tuple[int, ...]:
    rng = random.Random(deal.decision_seed)
    hand = StudHand(list(deal.stacks), DEFAULT_STAKES, deal.deck, dealer=len(deal.stacks) - 1)
    while not hand.is_over:
        legal = hand.legal()
        decision = choose(
            rng,
            bring_in=legal.bring_in is not None,
            can_fold=legal.fold,
            can_raise=bool(legal.raise_to),
        )
        if decision == "bring_in":
            hand.bring_in()
        elif decision == "raise":
            hand.raise_to(legal.raise_to[0])
        elif decision == "fold":
            hand.fold()
        elif legal.check:
            hand.check()
        else:
            hand.call()
    return tuple(hand.stacks)


def play_pokerkit_hand(deal: Deal, deck: Sequence[PokerKitCard]) -> tuple[int, ...]:
    rng = random.Random(deal.decision_seed)
    stakes = DEFAULT_STAKES
    state: State = FixedLimitSevenCardStud.create_state(
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
            decision = choose(
                rng,
                bring_in=state.can_post_bring_in(),
                can_fold=state.can_fold(),
                can_raise=state.can_complete_bet_or_raise_to(),
            )
            if decision == "bring_in":
                state.post_bring_in()
            elif decision == "raise":
                state.complete_bet_or_raise_to()
            elif decision == "fold":
                state.fold()
            else:
                state.check_or_call()
    return tuple(state.stacks)


def hand_rates(count: int, rng: random.Random) -> tuple[float, float, int]:
    """Hands per second for StudHand and PokerKit, and how many ended with the same stacks."""
    deals = random_deals(count, rng)
    pokerkit_card = [next(PokerKitCard.parse(str(card))) for card in FULL_DECK]
    pokerkit_decks = [[pokerkit_card[card] for card in deal.deck] for deal in deals]
    ours: list[tuple[int, ...]] = []
    theirs: list[tuple[int, ...]] = []

    def run_ours() -> None:
        ours.extend(play_stud_hand(deal) for deal in deals)

    def run_theirs() -> None:
        theirs.extend(
            play_pokerkit_hand(deal, deck) for deal, deck in zip(deals, pokerkit_decks, strict=True)
        )

    ours_rate = per_second(count, run_ours)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs_rate = per_second(count, run_theirs)
    same = sum(a == b for a, b in zip(ours, theirs, strict=True))
    return ours_rate, theirs_rate, same


# ---------------------------------------------------------------------- report


def row(label: str, value: str, note: str = "") -> str:
    return f"  {label:<44}{value:>14}  {note}".rstrip()


def heading(title: str) -> str:
    return f"{title:<46}{'per second':>14}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--evaluations", type=int, default=200_000)
    parser.add_argument("--hands", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=20_240_501)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    print(
        f"Engine benchmark, seed {args.seed}, {platform.python_implementation()} "
        f"{platform.python_version()}"
    )
    print()
    cold, warm, treys = evaluation_rates(args.evaluations, rng)
    print(heading(f"7-card evaluations ({args.evaluations:,} random hands)"))
    print(row("engine evaluate, first pass (memo cold)", f"{cold:,.0f}"))
    print(row("engine evaluate, second pass (memo warm)", f"{warm:,.0f}"))
    print(row("treys Evaluator().evaluate", f"{treys:,.0f}"))
    print(row("ratio, cold / treys", f"{cold / treys:.1f}x"))
    print(row("ratio, warm / treys", f"{warm / treys:.1f}x", f"(target >= {EVALUATION_TARGET:g}x)"))
    print()
    ours, theirs, same = hand_rates(args.hands, rng)
    print(heading(f"Complete random hands ({args.hands:,} deals, 2-8 players)"))
    print(row("engine StudHand", f"{ours:,.0f}"))
    print(row("pokerkit FixedLimitSevenCardStud", f"{theirs:,.0f}"))
    print(
        row("ratio, StudHand / pokerkit", f"{ours / theirs:.1f}x", f"(target >= {HAND_TARGET:g}x)")
    )
    print(row("hands ending with the same stacks in both", f"{same:,} / {args.hands:,}"))
    print("  (differences: 8-handed hands out of cards on 7th street, see the module docstring)")


if __name__ == "__main__":
    main()
