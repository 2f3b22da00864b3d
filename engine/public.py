"""What everyone at the table may see of a hand, and what one player may see of his own cards.

Both work for every variant without knowing which it is: high and low results are data here.

``PublicTable.from_hand`` is the only way the table and showdown pictures get at a hand. It has no
field for a down card: a live seat shows its up cards and only the *number* of its down cards.
Cards a player was dealt face down enter the view only through ``HandShown`` events, which exist
only once the hand is over, and ``PublicTable`` refuses shown hands while the hand is live.

``PrivateHand.for_seat`` is one player's own cards, for a message only he can read.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.evaluator import HandCategory, HandValue, LowValue
from engine.events import HandMucked, HandShown, PotAwarded
from engine.hand import Pot, StudHand
from engine.stakes import Stakes


@dataclass(frozen=True, slots=True)
class ShownCards:
    """A hand shown at showdown: every card he used (the community card included).

    ``best_five`` and ``description`` are the hand that plays for the main result (the low in
    Razz). The halves as data, for any game: ``high_category``/``high_ranks`` (``None``/empty
    without a high half) and ``low_category``/``low_ranks``/``low_five`` (ace as 1; ``None``/
    empty without a low, or when no eight-or-better low qualifies).
    """

    cards: tuple[Card, ...]
    best_five: tuple[Card, ...]
    description: str
    high_category: HandCategory | None = None
    high_ranks: tuple[int, ...] = ()
    low_category: HandCategory | None = None
    low_ranks: tuple[int, ...] = ()
    low_five: tuple[Card, ...] = ()

    @classmethod
    def from_event(cls, event: HandShown) -> ShownCards:
        return cls(
            event.cards,
            event.best_five,
            event.description,
            None if event.high_category is None else HandCategory(event.high_category),
            event.high_ranks,
            None if event.low_category is None else HandCategory(event.low_category),
            event.low_ranks,
            event.low_five,
        )


@dataclass(frozen=True, slots=True)
class PublicSeat:
    """One seat as the table sees it. ``bet`` is what he has put in on this street."""

    seat: int
    stack: int
    bet: int
    committed: int
    up_cards: tuple[Card, ...]
    down_count: int
    dealt_in: bool
    folded: bool
    all_in: bool
    is_actor: bool
    shown: ShownCards | None = None
    won: int = 0
    mucked: bool = False  # lost at the showdown with his cards unseen (RULES 5.6)

    @property
    def in_hand(self) -> bool:
        return self.dealt_in and not self.folded


@dataclass(frozen=True, slots=True)
class PotResult:
    """Pot ``index`` (0 is the main pot) paid ``shares[i]`` to ``winners[i]``, both halves
    together.

    At a showdown the halves are apart, whatever the game: ``high_winners``/``high_shares``
    and ``low_winners``/``low_shares`` (Razz has only a low half, Stud High only a high one,
    Stud Hi-Lo a low half only when a low qualifies for this pot). ``scoop``: one player won
    both halves. All empty when everyone else folded.
    """

    index: int
    amount: int
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    description: str | None
    high_winners: tuple[int, ...] = ()
    high_shares: tuple[int, ...] = ()
    low_winners: tuple[int, ...] = ()
    low_shares: tuple[int, ...] = ()
    scoop: bool = False

    @property
    def low_qualified(self) -> bool:
        return bool(self.low_winners)


@dataclass(frozen=True, slots=True)
class PublicTable:
    """The public state of a hand; ``pots`` are the main pot then side pots (RULES 5.3)."""

    seats: tuple[PublicSeat, ...]
    stakes: Stakes
    dealer: int
    street: int
    pot: int
    pots: tuple[Pot, ...]
    community: Card | None
    actor: int | None
    is_over: bool
    results: tuple[PotResult, ...] = ()
    # Which halves the game plays: a picture says "no low" only where a low could have won.
    high_game: bool = True
    low_game: bool = False

    def __post_init__(self) -> None:
        # Privacy by construction: a live hand's view can't carry anyone's hidden cards.
        if not self.is_over and any(seat.shown is not None for seat in self.seats):
            raise ValueError("a live hand's public view can't hold shown cards")
        if not self.is_over and self.results:
            raise ValueError("a live hand has no pot results yet")

    @property
    def is_showdown(self) -> bool:
        return any(seat.shown is not None for seat in self.seats)

    @classmethod
    def from_hand(cls, hand: StudHand) -> PublicTable:
        shown: dict[int, ShownCards] = {}
        mucked: set[int] = set()
        results: list[PotResult] = []
        awarded: list[Pot] = []
        for event in hand.events:
            if isinstance(event, HandShown):
                shown[event.seat] = ShownCards.from_event(event)
            elif isinstance(event, HandMucked):
                mucked.add(event.seat)
            elif isinstance(event, PotAwarded):
                awarded.append(Pot(event.amount, event.eligible))
                results.append(
                    PotResult(
                        event.index,
                        event.amount,
                        event.winners,
                        event.shares,
                        event.description,
                        event.high_winners,
                        event.high_shares,
                        event.low_winners,
                        event.low_shares,
                        event.scoop,
                    )
                )
        won = [0] * hand.seats
        for result in results:
            for winner, share in zip(result.winners, result.shares, strict=True):
                won[winner] += share
        dealt_in = set(hand.dealing_order)
        seats = tuple(
            PublicSeat(
                seat=seat,
                stack=hand.stacks[seat],
                bet=hand.bets[seat],
                committed=hand.committed[seat],
                up_cards=tuple(hand.up_cards(seat)),
                down_count=len(hand.down_cards(seat)),
                dealt_in=seat in dealt_in,
                folded=seat in dealt_in and hand.folded(seat),
                # Once the hand is over, stacks include winnings: all-in is judged without them.
                all_in=seat in dealt_in
                and not hand.folded(seat)
                and hand.stacks[seat] - won[seat] == 0,
                is_actor=hand.actor == seat,
                shown=shown.get(seat) if hand.is_over else None,
                won=won[seat],
                mucked=seat in mucked,
            )
            for seat in range(hand.seats)
        )
        return cls(
            seats=seats,
            stakes=hand.stakes,
            dealer=hand.dealer,
            street=hand.street,
            pot=sum(hand.committed),
            pots=tuple(awarded) if hand.is_over else pots_in_play(seats),
            community=hand.community,
            actor=hand.actor,
            is_over=hand.is_over,
            results=tuple(results) if hand.is_over else (),
            high_game=hand.variant.high,
            low_game=hand.variant.low is not None,
        )


def pots_in_play(seats: tuple[PublicSeat, ...]) -> tuple[Pot, ...]:
    """The main pot and side pots as they stand, even halfway through a betting round.

    Only an all-in caps what a player can win (RULES 5.3), so only all-in totals split pots;
    chips above the highest all-in form the last pot, open to the live players still betting.
    (``StudHand.pots()`` splits at every live player's total, which is right once a round is
    over but would show a pot for every unmatched bet while players are still acting.)
    """
    live = [seat for seat in seats if seat.in_hand]
    pots: list[Pot] = []
    lower = 0
    for level in sorted({seat.committed for seat in live if seat.all_in}):
        amount = sum(max(0, min(seat.committed, level) - lower) for seat in seats)
        eligible = tuple(seat.seat for seat in live if seat.committed >= level)
        if amount:
            pots.append(Pot(amount, eligible))
        lower = level
    rest = sum(max(0, seat.committed - lower) for seat in seats)
    betting = tuple(seat.seat for seat in live if not seat.all_in)
    if rest and (betting or not pots):
        pots.append(Pot(rest, betting))
    elif rest:
        # Folded players' chips above every live player's total: nobody can match them, so
        # they go to the last pot, as the engine pays them.
        pots[-1] = Pot(pots[-1].amount + rest, pots[-1].eligible)
    return tuple(pots)


@dataclass(frozen=True, slots=True)
class PrivateCard:
    card: Card
    face_up: bool


@dataclass(frozen=True, slots=True)
class PrivateHand:
    """One player's own cards in the order dealt, and the best hand they make so far.

    With five or more cards ``best_five`` is the hand that counts for the game's main result
    (the high hand, RULES 5.1; the low in Razz, 9.1); with three or four it is empty and
    ``description`` names the holding ("a pair of Kings", "Ace high", "Seven-Four-Ace low").
    With five or more cards, ``high``/``high_five`` and ``low``/``low_five`` are the best high
    and the best low so far in the game's terms (``None``/empty where the game has no such half,
    or no eight-or-better low yet). ``high_game``/``low_game``: which halves the game plays.
    """

    seat: int
    cards: tuple[PrivateCard, ...]
    community: Card | None
    best_five: tuple[Card, ...]
    description: str | None
    folded: bool
    high: HandValue | None = None
    high_five: tuple[Card, ...] = ()
    low: LowValue | None = None
    low_five: tuple[Card, ...] = ()
    high_game: bool = True
    low_game: bool = False

    @classmethod
    def for_seat(cls, hand: StudHand, seat: int) -> PrivateHand:
        if not 0 <= seat < hand.seats:
            raise ValueError(f"no seat {seat}: the table has seats 0 to {hand.seats - 1}")
        cards = tuple(PrivateCard(card, face_up) for card, face_up in hand.cards(seat))
        usable = [item.card for item in cards]
        if hand.community is not None and usable:
            usable.append(hand.community)
        best = hand.variant.best_so_far(usable)
        description: str | None = None
        if best is not None:
            description = best.description
        elif usable:
            description = hand.variant.board_rank(usable).holding
        return cls(
            seat=seat,
            cards=cards,
            community=hand.community,
            best_five=best.best_five if best is not None else (),
            description=description,
            folded=seat in hand.dealing_order and hand.folded(seat),
            high=best.high if best is not None else None,
            high_five=best.high_five if best is not None else (),
            low=best.low if best is not None else None,
            low_five=best.low_five if best is not None else (),
            high_game=hand.variant.high,
            low_game=hand.variant.low is not None,
        )
