"""What a computer player remembers of an opponent from one hand to the next: how often he bets,
against how often the reasonable players its reads come from do; and how that changes what his
bets say of his cards."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import STUD_HIGH, Decision, StudHand
from engine import events as ev
from engine.cards import FULL_DECK
from strategy import Sight, estimate
from strategy.equity import LIKELIHOOD
from strategy.habits import remember
from strategy.sight import CALLED, CHECKED, PRIOR_BETS, SAYS, Habits
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
