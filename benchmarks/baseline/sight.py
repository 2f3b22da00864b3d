"""What one player can see of a hand at his decision, as plain data: his own cards, every up
card, the up cards of folded hands (dead), the pot, the bets and what he may do.

``Sight.of`` is the only place the computer player reads a ``StudHand``, and it reads of the
others exactly what the table shows: up cards, how many cards are down, chips and actions. A
``Sight`` is small and picklable, so the thinking can run in another thread or process.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import events as ev
from engine.cards import Card
from engine.hand import LegalActions, StudHand
from engine.stakes import Stakes


@dataclass(frozen=True, slots=True)
class Opponent:
    """A live opponent as the table sees him."""

    seat: int
    up: tuple[Card, ...]
    down_count: int
    stack: int
    aggression: int  # completions, bets and raises this hand: what his play says of his cards
    all_in: bool


@dataclass(frozen=True, slots=True)
class Sight:
    variant: str  # the game, by its engine.variants name
    street: int  # 3 to 7
    seat: int
    own_down: tuple[Card, ...]
    own_up: tuple[Card, ...]
    community: Card | None
    opponents: tuple[Opponent, ...]
    dead: tuple[Card, ...]  # up cards of folded hands
    pot: int  # every chip committed, this street's bets included
    stack: int
    legal: LegalActions
    stakes: Stakes
    bets_this_street: int  # completions, bets and raises on this street so far

    @property
    def own(self) -> tuple[Card, ...]:
        return self.own_down + self.own_up

    @property
    def to_call(self) -> int:
        legal = self.legal
        if legal.call is not None:
            return legal.call
        return legal.bring_in or 0

    @property
    def unit(self) -> int:
        """The bet of this street (the big bet from 5th; on 4th the small, open pair or not)."""
        return self.stakes.big_bet if self.street >= 5 else self.stakes.small_bet

    @classmethod
    def of(cls, hand: StudHand, seat: int) -> Sight:
        """What ``seat`` sees now; he must be the actor."""
        assert hand.actor == seat, "a player decides on his own turn"
        aggression: dict[int, int] = {}
        street_bets = 0
        for event in hand.events:
            if isinstance(event, ev.StreetStarted):
                street_bets = 0
            elif isinstance(event, ev.Complete | ev.Bet | ev.Raise):
                aggression[event.seat] = aggression.get(event.seat, 0) + 1
                street_bets += 1
        opponents: list[Opponent] = []
        dead: list[Card] = []
        for other in hand.dealing_order:
            if other == seat:
                continue
            up = hand.up_cards(other)
            if hand.folded(other):
                dead.extend(up)
                continue
            opponents.append(
                Opponent(
                    other,
                    tuple(up),
                    len(hand.cards(other)) - len(up),
                    hand.stacks[other],
                    aggression.get(other, 0),
                    hand.stacks[other] == 0,
                )
            )
        return cls(
            variant=hand.variant.name,
            street=hand.street,
            seat=seat,
            own_down=tuple(hand.down_cards(seat)),
            own_up=tuple(hand.up_cards(seat)),
            community=hand.community,
            opponents=tuple(opponents),
            dead=tuple(dead),
            pot=hand.pot,
            stack=hand.stacks[seat],
            legal=hand.legal(),
            stakes=hand.stakes,
            bets_this_street=street_bets,
        )
