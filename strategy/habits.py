"""What a computer player remembers of the others at its table from one hand to the next: how
often each has completed, bet or raised, against how often the reasonable players its reads come
from would have in his place (``benchmarks.reads``). A player who bets twice as often as they do
bets weaker cards, and his bets say less of his holding; one who bets half as often says more.

Everything counted is public: the actions of a finished hand, as ``strategy.sight.actions`` reads
them. The memory is the table's, kept by whoever seats the players, and given to ``Sight.of``.
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from typing import TypeVar

from engine.hand import StudHand
from strategy.equity import LIKELIHOOD
from strategy.sight import BET, Habits, actions

Player = TypeVar("Player")


def remember(
    memory: MutableMapping[Player, Habits], hand: StudHand, players: Sequence[Player]
) -> None:
    """Count a finished ``hand`` into ``memory``, its seats played by ``players`` in turn."""
    bets = LIKELIHOOD[hand.variant.name, len(players) == 2].bets
    for (street, seat), level in actions(hand)[0].items():
        player = players[seat]
        habits = memory.get(player, Habits())
        memory[player] = habits.counted(street == 3, level >= BET, bets[street != 3])
