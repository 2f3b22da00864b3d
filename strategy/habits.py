"""What a computer player remembers of the others at its table from one hand to the next: how
often each has completed or raised on 3rd street, against how often the reasonable players its
reads come from would have in his place (``benchmarks.reads``): a player who opens twice as often
as they do opens weaker cards, and his completions say less of his holding; one who opens half
as often says more. And how often each folded when raised after he bet: a player who gives up
that often is raised as a bluff.

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
    for (street, seat), folded in answers_to_raises(hand).items():
        player = players[seat]
        memory[player] = memory.get(player, Habits()).answered(street == 3, folded)


def by_seat(memory: Mapping[Player, Habits], players: Sequence[Player]) -> dict[int, Habits]:
    """What ``memory`` holds of the player in each seat, as ``Sight.of`` takes it."""
    return {seat: memory[player] for seat, player in enumerate(players) if player in memory}


def answers_to_raises(hand: StudHand) -> dict[tuple[int, int], bool]:
    """For each street a player completed or bet and was raised, by (street, seat), whether
    his answer to the raise was to fold."""
    street = 3
    bettors: set[int] = set()
    answers: dict[tuple[int, int], bool] = {}
    for event in hand.events:
        if isinstance(event, ev.StreetStarted):
            street, bettors = event.street, set()
        elif isinstance(event, ev.Action) and not isinstance(event, ev.BringIn):
            seat = event.seat
            if seat in bettors and (street, seat) not in answers:
                answers[street, seat] = isinstance(event, ev.Fold)
            if isinstance(event, ev.Complete | ev.Bet | ev.Raise):
                bettors.add(seat)
    return answers
