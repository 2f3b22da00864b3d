"""What one player can see of a hand at his decision, as plain data: his own cards, every up
card, the up cards of folded hands (dead), the pot, the bets and what he may do.

``Sight.of`` (with ``actions``, what each player's actions say) is where the computer player
reads a ``StudHand`` (``strategy.habits`` counts a finished one's actions), and it reads of the
others exactly what the table shows: up cards, how many cards are down, chips and actions, and
how each has played the hands before. A ``Sight`` is small and picklable, so the thinking can run
in another thread or process.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from engine import events as ev
from engine.cards import Card
from engine.hand import LegalActions, StudHand
from engine.stakes import Stakes

CHECKED, CALLED, BET, RAISED = range(4)
# How many 3rd streets a player is taken to have played like everyone else before any is seen of
# his own; and how many bets and raises of each kind he is taken to have answered like them.
PRIOR_OPENS = 10
PRIOR_FOLDS = 5
# The least and most his completions may be taken to say, against everyone else's.
SAYS = (0.3, 2.0)


@dataclass(frozen=True, slots=True)
class Answers:
    """How many times a player met a bet of one kind, on 3rd street and on the later streets
    (``met``), and how many of those times he folded (``folded``)."""

    met: tuple[int, int] = (0, 0)
    folded: tuple[int, int] = (0, 0)

    def add(self, third: bool, folded: bool) -> Answers:
        """With one more such bet met, and whether he folded to it."""
        at = 0 if third else 1
        met, gave_up = list(self.met), list(self.folded)
        met[at] += 1
        gave_up[at] += folded
        return Answers((met[0], met[1]), (gave_up[0], gave_up[1]))

    def rate(self, third: bool, usual: float) -> float:
        """How often he folds to such a bet: his rate, drawn toward ``usual`` (the reasonable
        players') by ``PRIOR_FOLDS``."""
        at = 0 if third else 1
        return (self.folded[at] + PRIOR_FOLDS * usual) / (self.met[at] + PRIOR_FOLDS)


@dataclass(frozen=True, slots=True)
class Habits:
    """How a player has played over the hands seen of him (``strategy.habits.remember``): how
    many times he completed or raised on 3rd street (``completed``) and how many times the
    reasonable players the reads come from would have, on the same 3rd streets (``expected``);
    how he answered a lone completion or bet from another (``to_bets``) and a raise after he
    bet (``to_raises``)."""

    completed: int = 0
    expected: float = 0.0
    to_bets: Answers = Answers()
    to_raises: Answers = Answers()

    def opened(self, completed: bool, rate: float) -> Habits:
        """With one more 3rd street he acted on, where they complete or raise at ``rate``."""
        return replace(self, completed=self.completed + completed, expected=self.expected + rate)

    def answered(self, raised: bool, third: bool, folded: bool) -> Habits:
        """With one more lone bet met (a raise after his bet, when ``raised``), on 3rd street or
        later, and whether he folded to it."""
        if raised:
            return replace(self, to_raises=self.to_raises.add(third, folded))
        return replace(self, to_bets=self.to_bets.add(third, folded))

    def say(self) -> float:
        """How much his completions and raises on 3rd street say of his cards against theirs, as
        the power their reads of one are raised to: theirs over his, both drawn toward 1 by
        ``PRIOR_OPENS``. Below 1 (flatter) for a player who opens more often than they do, above
        1 for one who opens less. (Later streets are not weighed so: how often a player bets
        there depends more on what he met than on who he is.)"""
        ratio = (self.expected + PRIOR_OPENS) / (self.completed + PRIOR_OPENS)
        return min(SAYS[1], max(SAYS[0], ratio))


@dataclass(frozen=True, slots=True)
class Opponent:
    """A live opponent as the table sees him."""

    seat: int
    up: tuple[Card, ...]
    down_count: int
    stack: int
    # His strongest voluntary action on each street he acted, as (street, CHECKED..RAISED): what
    # his play says of his cards. A bring-in is forced and says nothing.
    actions: tuple[tuple[int, int], ...]
    all_in: bool
    # He completed on 3rd street with the best door card of those still in: maybe a steal.
    stole: bool = False
    habits: Habits = Habits()  # how he has played the hands seen before this one


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
    last_to_act: bool = False  # nobody acts after him on this street's first round (the board)

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
    def of(cls, hand: StudHand, seat: int, memory: Mapping[int, Habits] | None = None) -> Sight:
        """What ``seat`` sees now; he must be the actor. ``memory``: how the players in each
        other seat have played the hands seen before (``strategy.habits.by_seat``)."""
        assert hand.actor == seat, "a player decides on his own turn"
        strongest, stole, street_bets = actions(hand)
        first = next(
            (e.seat for e in reversed(hand.events) if isinstance(e, ev.FirstToAct)),
            hand.dealing_order[0],
        )
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
                    tuple((s, level) for (s, who), level in strongest.items() if who == other),
                    hand.stacks[other] == 0,
                    other in stole,
                    (memory or {}).get(other, Habits()),
                )
            )
        order = list(hand.dealing_order)
        at = order.index(first)
        acting = [
            other
            for other in order[at:] + order[:at]
            if not hand.folded(other) and (hand.stacks[other] > 0 or other == seat)
        ]
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
            last_to_act=bool(acting) and acting[-1] == seat,
        )


def actions(hand: StudHand) -> tuple[dict[tuple[int, int], int], set[int], int]:
    """Each player's strongest voluntary action on each street he acted, by (street, seat), as
    CHECKED..RAISED (a bring-in is forced and says nothing); the seats that completed on 3rd
    street with the best door of those still in (maybe a steal); the completions, bets and
    raises on the street being played."""
    strongest: dict[tuple[int, int], int] = {}
    stole: set[int] = set()
    folded: set[int] = set()
    street_bets = 0
    street = 3
    for event in hand.events:
        if isinstance(event, ev.StreetStarted):
            street_bets = 0
            street = event.street
        elif isinstance(event, ev.Fold):
            folded.add(event.seat)
        level = _LEVELS.get(type(event))
        if level is None or not isinstance(event, ev.Action):
            continue
        seat = event.seat
        if level >= BET:
            street_bets += 1
            level = RAISED if street_bets > 1 else BET
        if street == 3 and level == BET and best_door(hand, seat, folded):
            stole.add(seat)
        strongest[street, seat] = max(level, strongest.get((street, seat), CHECKED))
    return strongest, stole, street_bets


_LEVELS: dict[type, int] = {
    ev.Check: CHECKED,
    ev.Call: CALLED,
    ev.Complete: BET,
    ev.Bet: BET,
    ev.Raise: BET,
}


def best_door(hand: StudHand, seat: int, folded: set[int]) -> bool:
    """Whether ``seat``'s door card beats every other door of those not yet folded, by the rule
    that picks who acts first: the seat a completion may be a steal from (high cards in Stud and
    Hi-Lo, low ones in Razz)."""
    board = hand.variant.board_rank
    door = board(hand.up_cards(seat)[:1]).key
    others = [o for o in hand.dealing_order if o != seat and o not in folded]
    return all(door > board(hand.up_cards(o)[:1]).key for o in others)
