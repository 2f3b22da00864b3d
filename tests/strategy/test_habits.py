"""What a computer player remembers of an opponent from one hand to the next: how often he bets,
against how often the reasonable players its reads come from do, and how often he folds when
raised after a bet; how that changes what his bets say of his cards, and when he is raised."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import STUD_HIGH, Decision, StudHand
from engine import events as ev
from engine.cards import FULL_DECK
from strategy import STYLES, Sight, decide, estimate
from strategy.equity import LIKELIHOOD
from strategy.habits import answers_to_raises, remember
from strategy.sight import CALLED, CHECKED, PRIOR_BETS, PRIOR_FOLDS, SAYS, Habits
from tests.engine.decks import stacked_deck
from tests.strategy.test_reading import STAKES, _sixth_street


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


def _streets(hands: list[StudHand], seat: int) -> tuple[list[int], list[int]]:
    """By the events themselves: the streets ``seat`` acted on of his own will, and those he
    completed, bet or raised on."""
    acted: list[int] = []
    bet: list[int] = []
    for hand in hands:
        street = 3
        mine: dict[int, bool] = {}
        for event in hand.events:
            if isinstance(event, ev.StreetStarted):
                street = event.street
            elif (
                isinstance(event, ev.Action)
                and event.seat == seat
                and not isinstance(event, ev.BringIn)
            ):
                raised = isinstance(event, ev.Complete | ev.Bet | ev.Raise)
                mine[street] = mine.get(street, False) or raised
        acted += mine
        bet += [s for s, raised in mine.items() if raised]
    return acted, bet


def test_a_finished_hand_counts_each_players_bets_against_the_reads_rates() -> None:
    memory: dict[str, Habits] = {}
    hands = [_hand(seed, raiser=1) for seed in range(3)]
    for hand in hands:
        remember(memory, hand, ["ann", "bob", "cat"])
    rates = LIKELIHOOD[STUD_HIGH.name, False].bets
    for seat, name in enumerate(["ann", "bob", "cat"]):
        acted, bet = _streets(hands, seat)
        assert acted, "every player acts in these hands"
        habits = memory[name]
        assert habits.bets == (bet.count(3), len(bet) - bet.count(3))
        third = acted.count(3)
        expected = (third * rates[0], (len(acted) - third) * rates[1])
        assert habits.expected == pytest.approx(expected)
    assert memory["bob"].bets[1] > 0 and memory["ann"].bets == (0, 0)
    # A player who bets whenever he may says less with a bet than the reads' players; one
    # who never does, more.
    assert memory["bob"].say(third=False) < 1 < memory["ann"].say(third=False)


def test_what_a_bet_says_starts_at_the_reads_and_stays_within_bounds() -> None:
    assert Habits().say(third=True) == Habits().say(third=False) == 1.0
    maniac = Habits(bets=(0, 10_000), expected=(0.0, 100.0))
    rock = Habits(bets=(0, 0), expected=(0.0, 10_000.0))
    assert maniac.say(third=False) == SAYS[0] and rock.say(third=False) == SAYS[1]
    assert maniac.say(third=True) == 1.0  # 3rd street is read apart
    # One street where he bet and they would have half the time moves little.
    once = Habits().counted(third=False, bet=True, rate=0.5)
    assert once.say(third=False) == (0.5 + PRIOR_BETS) / (1 + PRIOR_BETS)


def test_a_raise_from_a_player_who_raises_all_the_time_means_less() -> None:
    """The same raise on 5th street, from an opponent who bets as often as the reads' players,
    from one who bets three times as often and from one who never does."""
    sight = _sixth_street("raises")
    seen = {"usual": sight.opponents[0]}
    seen["maniac"] = replace(seen["usual"], habits=Habits(bets=(0, 60), expected=(0.0, 20.0)))
    seen["rock"] = replace(seen["usual"], habits=Habits(bets=(0, 1), expected=(0.0, 40.0)))
    share = {
        name: estimate(replace(sight, opponents=(opponent,)), 3000, random.Random(5)).share
        for name, opponent in seen.items()
    }
    assert share["rock"] < share["usual"] - 0.2 and share["maniac"] > share["usual"] + 0.1


def test_a_check_from_a_player_who_bets_all_the_time_is_weaker() -> None:
    """An opponent who checked 4th, 5th and 6th street to the bot: weaker still when he bets
    whenever he has something, so the bot's share is larger."""
    sight = _sixth_street("calls")
    checks = ((3, CALLED), (4, CHECKED), (5, CHECKED), (6, CHECKED))
    usual = replace(sight.opponents[0], actions=checks)
    maniac = replace(usual, habits=Habits(bets=(0, 60), expected=(0.0, 20.0)))
    share = [
        estimate(replace(sight, opponents=(opponent,)), 3000, random.Random(5)).share
        for opponent in (usual, maniac)
    ]
    assert share[1] > share[0] + 0.03


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


def test_a_raise_after_a_bet_is_answered_by_folding_or_not() -> None:
    assert answers_to_raises(_completed("fold")) == {(3, 1): True}
    assert answers_to_raises(_completed("call")) == {(3, 1): False, (4, 1): False}
    memory: dict[str, Habits] = {}
    for answer in ("fold", "fold", "call"):
        remember(memory, _completed(answer), ["bob", "ann"])
    assert memory["ann"].raised == (3, 1) and memory["ann"].gave_up == (2, 0)
    assert memory["bob"].raised == (0, 0)  # nobody raised his bring-in or his re-raise
    usual = 0.2
    assert memory["ann"].fold_rate(third=True, usual=usual) == (2 + PRIOR_FOLDS * usual) / (
        3 + PRIOR_FOLDS
    )
    assert Habits().fold_rate(third=False, usual=usual) == usual


def test_a_lone_completion_from_a_player_who_folds_to_raises_is_raised_with_any_cards() -> None:
    """Every style folds 8-4 with a deuce showing to an ace's completion, or calls it; against a
    player who folds nine times in ten when re-raised there, it re-raises instead, and not
    against one who never does."""
    deck = stacked_deck({0: "8c4d2h", 1: "9h5dAs"}, dealer=1, seats=2)
    hand = StudHand([500, 500], STAKES, deck, 1)
    hand.decide(Decision("bring_in"))
    hand.decide(Decision("raise_to", 10))
    folds = Habits(raised=(40, 0), gave_up=(36, 0))
    stays = Habits(raised=(40, 0), gave_up=(0, 0))
    for style in STYLES.values():
        for seed in range(5):
            usual = decide(Sight.of(hand, 0), style, seed).decision
            assert usual.action in ("fold", "call")
            assert decide(Sight.of(hand, 0, {1: stays}), style, seed).decision == usual
            raised = decide(Sight.of(hand, 0, {1: folds}), style, seed).decision
            assert raised == Decision("raise_to", 20)
