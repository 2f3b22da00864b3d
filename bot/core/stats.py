"""Players' stats: what a settled hand adds to them, read off the engine's hand.

The store keeps the figures (``Store.settle_hand`` counts each hand in the transaction that
settles it; ``Store.player_stats`` and ``Store.winnings`` read them); this finds, for each seat
of a finished hand, what a tracker counts: whether he was dealt in, put chips in voluntarily on
the first street (VPIP), reached the showdown and what he collected.
"""

from __future__ import annotations

from bot.core.games import game_of
from bot.core.storage import HandFacts, SeatFacts
from engine import events as ev
from engine.hand import StudHand

# A choice to put chips in. The bring-in is forced and the antes are too: neither counts.
_VOLUNTARY = (ev.Call, ev.Complete, ev.Bet, ev.Raise)


def hand_facts(hand: StudHand) -> HandFacts:
    """What each seat of a finished ``hand`` did, for the stats (engine seat order)."""
    if not hand.is_over:
        raise ValueError("a hand counts in the stats once it is over")
    first_street = hand.variant.streets[0].number
    street = 0
    voluntary: set[int] = set()
    showdown: set[int] = set()
    for event in hand.events:
        if isinstance(event, ev.StreetStarted):
            street = event.street
        elif isinstance(event, _VOLUNTARY) and street == first_street:
            voluntary.add(event.seat)
        elif isinstance(event, ev.ShowdownStarted):
            showdown.update(event.order)
    dealt = set(hand.dealing_order)
    return HandFacts(
        game=game_of(hand.variant),
        seats=tuple(
            SeatFacts(
                dealt=seat in dealt,
                vpip=seat in voluntary,
                showdown=seat in showdown,
                collected=hand.payouts[seat],
            )
            for seat in range(hand.seats)
        ),
    )
