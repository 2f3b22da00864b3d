"""What a computer player remembers of the others at its table from one hand to the next: how
often each has completed or raised on 3rd street, against how often the reasonable players its
reads come from would have in his place (``benchmarks.reads``): a player who opens twice as often
as they do opens weaker cards, and his completions say less of his holding; one who opens half
as often says more. And how often each folded to a lone bet from another and to a raise after
he bet, against the same players' rates: a player who seldom folds is seldom bluffed, and one
who gives up to a raise that often is raised as a bluff.

Everything counted is public: the actions of a finished hand, as ``strategy.sight.actions`` reads
them. The memory is the table's, kept by whoever seats the players, and given to ``Sight.of``.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence
from typing import TypeVar

from engine import events as ev
from engine.hand import StudHand
from strategy.equity import LIKELIHOOD
from strategy.sight import BET, Habits, actions

Player = TypeVar("Player")


def remember(
    memory: MutableMapping[Player, Habits], hand: StudHand, players: Sequence[Player]
) -> None:
    """Count a finished ``hand`` into ``memory``, its seats played by ``players`` in turn."""
    rate = LIKELIHOOD[hand.variant.name, len(players) == 2].completes
    for (street, seat), level in actions(hand)[0].items():
        if street == 3:
            player = players[seat]
            memory[player] = memory.get(player, Habits()).opened(level >= BET, rate)
    for raised, answered in zip((False, True), answers(hand), strict=True):
        for (street, seat), folded in answered.items():
            player = players[seat]
            habits = memory.get(player, Habits())
            memory[player] = habits.answered(raised, street == 3, folded)


def by_seat(memory: Mapping[Player, Habits], players: Sequence[Player]) -> dict[int, Habits]:
    """What ``memory`` holds of the player in each seat, as ``Sight.of`` takes it."""
    return {seat: memory[player] for seat, player in enumerate(players) if player in memory}


Answered = dict[tuple[int, int], bool]


def answers(hand: StudHand) -> tuple[Answered, Answered]:
    """By (street, seat), whether a player folded: for each street he met a lone completion or
    bet from another (his first answer to one), and for each street he completed or bet and was
    raised (his first answer to the raise)."""
    street, bets = 3, 0
    bettors: set[int] = set()
    to_bets: Answered = {}
    to_raises: Answered = {}
    for event in hand.events:
        if isinstance(event, ev.StreetStarted):
            street, bets, bettors = event.street, 0, set()
        elif isinstance(event, ev.Action) and not isinstance(event, ev.BringIn):
            seat, folded = event.seat, isinstance(event, ev.Fold)
            if seat in bettors:
                to_raises.setdefault((street, seat), folded)
            elif bets == 1:
                to_bets.setdefault((street, seat), folded)
            if isinstance(event, ev.Complete | ev.Bet | ev.Raise):
                bettors.add(seat)
                bets += 1
    return to_bets, to_raises
