"""What a computer player remembers of an opponent from one hand to the next: how often he
completes on 3rd street, against how often the reasonable players its reads come from do, and
how often he folds to a lone bet and when raised after a bet; how that changes what his
completions say of his cards, when he is raised and how often he is bluffed."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import STUD_HIGH, Decision, StudHand
from engine import events as ev
from engine.cards import FULL_DECK
from strategy import STYLES, Sight, decide, estimate
from strategy.equity import LIKELIHOOD
from strategy.habits import answers, remember
from strategy.sight import PRIOR_FOLDS, PRIOR_OPENS, SAYS, Answers, Habits
from tests.engine.decks import stacked_deck
from tests.strategy.test_reading import STAKES


def _hand(seed: int, raiser: int) -> StudHand:
    """Three-handed Stud: ``raiser`` completes, bets or raises whenever he may, the others call
    or check."""
    rng = random.Random(seed)
    hand = StudHand([2000] * 3, STAKES, rng.sample(FULL_DECK, 52), 0, STUD_HIGH)
    while hand.actor is not None:
        legal = hand.legal()
        if hand.actor == raiser and legal.raise_to:
            hand.decide(Decision("raise_to", legal.raise_to[0]))
        elif legal.bring_in is not None:
            hand.decide(Decision("bring_in"))
        else:
            hand.decide(Decision("check") if legal.check else Decision("call"))
    return hand


def _third_streets(hands: list[StudHand], seat: int) -> tuple[int, int]:
    """By the events themselves: how many 3rd streets ``seat`` acted on of his own will, and on
    how many of those he completed or raised."""
    acted = opened = 0
    for hand in hands:
        street, mine = 3, []
        for event in hand.events:
            if isinstance(event, ev.StreetStarted):
                street = event.street
            elif (
                street == 3
                and isinstance(event, ev.Action)
                and event.seat == seat
                and not isinstance(event, ev.BringIn)
            ):
                mine.append(event)
        acted += bool(mine)
        opened += any(isinstance(event, ev.Complete | ev.Raise) for event in mine)
    return acted, opened


def test_a_finished_hand_counts_each_players_completions_against_the_reads_rate() -> None:
    memory: dict[str, Habits] = {}
    hands = [_hand(seed, raiser=1) for seed in range(6)]
    for hand in hands:
        remember(memory, hand, ["ann", "bob", "cat"])
    rate = LIKELIHOOD[STUD_HIGH.name, False].completes
    for seat, name in enumerate(["ann", "bob", "cat"]):
        acted, opened = _third_streets(hands, seat)
        assert acted, "every player acts on 3rd street in some of these hands"
        assert memory[name].completed == opened
        assert memory[name].expected == pytest.approx(acted * rate)
    assert memory["bob"].completed > 0 and memory["ann"].completed == 0
    # A player who completes whenever he may says less with a completion than the reads'
    # players; one who never does, more.
    assert memory["bob"].say() < 1 < memory["ann"].say()


def test_what_a_completion_says_starts_at_the_reads_and_stays_within_bounds() -> None:
    assert Habits().say() == 1.0
    assert Habits(completed=10_000, expected=100.0).say() == SAYS[0]
    assert Habits(completed=0, expected=10_000.0).say() == SAYS[1]
    # One 3rd street where he completed and they would have half the time moves little.
    once = Habits().opened(completed=True, rate=0.5)
    assert once.say() == (0.5 + PRIOR_OPENS) / (1 + PRIOR_OPENS)


def test_a_re_raise_from_a_player_who_opens_all_the_time_means_less() -> None:
    """The bot's nines complete against the bring-in, which re-raises: from an opponent who
    completes and raises on 3rd street as often as the reads' players, from one who does three
    times as often and from one who hardly ever does."""
    deck = stacked_deck({0: "9c9dKh", 1: "3s5d2h"}, dealer=0, seats=2)
    hand = StudHand([500, 500], STAKES, deck, 0)
    hand.decide(Decision("bring_in"))
    hand.decide(Decision("raise_to", 10))
    hand.decide(Decision("raise_to", 20))
    sight = Sight.of(hand, 0)
    seen = {"usual": sight.opponents[0]}
    seen["maniac"] = replace(seen["usual"], habits=Habits(completed=60, expected=20.0))
    seen["rock"] = replace(seen["usual"], habits=Habits(completed=1, expected=40.0))
    share = {
        name: estimate(replace(sight, opponents=(opponent,)), 3000, random.Random(5)).share
        for name, opponent in seen.items()
    }
    assert share["rock"] < share["usual"] - 0.05 and share["maniac"] > share["usual"] + 0.03


def test_sight_gives_each_opponent_his_habits_by_seat() -> None:
    hand = _hand(1, raiser=2)
    memory: dict[int, Habits] = {}
    remember(memory, hand, [0, 1, 2])
    fresh = StudHand([2000] * 3, STAKES, random.Random(9).sample(FULL_DECK, 52), 0, STUD_HIGH)
    actor = fresh.actor
    assert actor is not None
    sight = Sight.of(fresh, actor, {seat: memory[seat] for seat in (0, 1, 2) if seat != 2})
    by_seat = {opponent.seat: opponent.habits for opponent in sight.opponents}
    for seat in by_seat:
        assert by_seat[seat] == (memory[seat] if seat != 2 else Habits())


def _completed(answer: str) -> StudHand:
    """Heads-up Stud: seat 0 brings in, seat 1 completes, seat 0 re-raises and seat 1
    ``answer``s; on 4th street seat 1 bets, seat 0 raises and seat 1 calls."""
    deck = stacked_deck({0: "8c4d2h7s", 1: "9h5dAsKd"}, dealer=1, seats=2)
    hand = StudHand([500, 500], STAKES, deck, 1)
    hand.decide(Decision("bring_in"))
    hand.decide(Decision("raise_to", 10))
    hand.decide(Decision("raise_to", 20))
    hand.decide(Decision.of(answer))
    if answer == "call":
        assert hand.street == 4 and hand.actor == 1  # the ace-king shows the higher board
        hand.decide(Decision("raise_to", 10))
        hand.decide(Decision("raise_to", 20))
        hand.decide(Decision("call"))
    return hand


def test_a_lone_bet_and_a_raise_after_a_bet_are_answered_by_folding_or_not() -> None:
    # Bob's re-raise answers Ann's completion, and on 4th street his raise answers her bet.
    assert answers(_completed("fold")) == ({(3, 0): False}, {(3, 1): True})
    assert answers(_completed("call")) == (
        {(3, 0): False, (4, 0): False},
        {(3, 1): False, (4, 1): False},
    )
    memory: dict[str, Habits] = {}
    for answer in ("fold", "fold", "call"):
        remember(memory, _completed(answer), ["bob", "ann"])
    remember(memory, _bring_in_folds(), ["bob", "ann"])
    assert memory["ann"].to_raises == Answers(met=(3, 1), folded=(2, 0))
    assert memory["ann"].to_bets == Answers()  # every bet she met was a raise of her own
    assert memory["bob"].to_raises == Answers()  # nobody raised his bring-in or his re-raise
    assert memory["bob"].to_bets == Answers(met=(4, 1), folded=(1, 0))
    usual = 0.2
    rate = memory["ann"].to_raises.rate(third=True, usual=usual)
    assert rate == (2 + PRIOR_FOLDS * usual) / (3 + PRIOR_FOLDS)
    assert Answers().rate(third=False, usual=usual) == usual


def _bring_in_folds() -> StudHand:
    """Heads-up Stud: seat 0 brings in, seat 1 completes and seat 0 folds."""
    deck = stacked_deck({0: "8c4d2h", 1: "9h5dAs"}, dealer=1, seats=2)
    hand = StudHand([500, 500], STAKES, deck, 1)
    hand.decide(Decision("bring_in"))
    hand.decide(Decision("raise_to", 10))
    hand.decide(Decision("fold"))
    return hand


def test_a_lone_completion_from_a_player_who_folds_to_raises_is_raised_with_any_cards() -> None:
    """Every style folds 8-4 with a deuce showing to an ace's completion, or calls it; against a
    player who folds nine times in ten when re-raised there, it re-raises instead, and not
    against one who never does."""
    deck = stacked_deck({0: "8c4d2h", 1: "9h5dAs"}, dealer=1, seats=2)
    hand = StudHand([500, 500], STAKES, deck, 1)
    hand.decide(Decision("bring_in"))
    hand.decide(Decision("raise_to", 10))
    folds = Habits(to_raises=Answers(met=(40, 0), folded=(36, 0)))
    stays = Habits(to_raises=Answers(met=(40, 0), folded=(0, 0)))
    for style in STYLES.values():
        for seed in range(5):
            usual = decide(Sight.of(hand, 0), style, seed).decision
            assert usual.action in ("fold", "call")
            assert decide(Sight.of(hand, 0, {1: stays}), style, seed).decision == usual
            raised = decide(Sight.of(hand, 0, {1: folds}), style, seed).decision
            assert raised == Decision("raise_to", 20)
