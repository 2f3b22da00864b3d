"""PokerKit's ``FixedLimitSevenCardStud`` driven from a ``StudHand``'s inputs: the reference of
the differential test (RULES 7).

Seats and indexes: PokerKit's player ``k`` is the ``k``-th seat dealt in, in the engine's dealing
order (RULES 1.4). So PokerKit deals the engine's deck to the same players, and its tie-break of
equal boards by index becomes the engine's tie-break by dealing order (RULES 4.1). Seats sitting
out (no chips) are left out of PokerKit, which refuses empty stacks.

Where PokerKit differs from RULES on purpose (RULES 7), this driver patches or steers around it,
and the patches can be switched off so that a direct test shows each difference:

- ``burns=False`` turns card burning off on every street (RULES 1.3);
- ``reshuffle=False`` empties PokerKit's reserve of burned and mucked cards, so when the deck runs
  short on 7th street it deals the one community card instead of re-dealing mucks (RULES 2.2);
- ``finish()`` settles split pots by RULES 5.3-5.4 from PokerKit's own contributions and hands:
  PokerKit gives odd chips to its lowest index, and merges side pots after showdown mucks;
- ``view()`` drops the completion PokerKit offers a bring-in player whose stack is at most the
  bring-in: it would put in exactly the bring-in, which RULES 3.2 counts as posting it.

The open-pair big bet (RULES 4.3) can't be patched in (PokerKit only offers the small bet on 4th
street): callers steer around it by comparing and choosing only the small option.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from unittest import mock

import pokerkit.state as pokerkit_state
from pokerkit import Automation, FixedLimitSevenCardStud, StandardHighHand, State
from pokerkit import Card as PokerKitCard
from pokerkit.hands import Hand

from engine import Card, Stakes, StudHand

# Everything but pushing chips runs by itself; ``finish()`` pushes the pots one by one.
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PULLING,
)

_RANKS = "23456789TJQKA"
_SUITS = "cdhs"  # RULES 5.4: spades > hearts > diamonds > clubs


@dataclass(frozen=True, slots=True)
class View:
    """A decision point, in engine seats: who acts, what he may do, and what the table shows."""

    actor: int | None
    fold: bool
    check: bool
    call: int | None
    bring_in: int | None
    raise_to: tuple[int, ...]
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    pot: int
    up_cards: tuple[tuple[str, ...], ...]
    community: str | None


def engine_view(hand: StudHand, *, small_option_only: bool = False) -> View:
    """The engine's side of a ``View``. ``small_option_only`` keeps only the smallest raise
    option (the open-pair steering of RULES 4.3). Folded seats show no up cards: PokerKit mucks
    them, the engine keeps them for the hand history."""
    legal = hand.legal()
    return View(
        actor=hand.actor,
        fold=legal.fold,
        check=legal.check,
        call=legal.call,
        bring_in=legal.bring_in,
        raise_to=legal.raise_to[:1] if small_option_only else legal.raise_to,
        stacks=tuple(hand.stacks),
        bets=tuple(hand.bets),
        pot=hand.pot,
        up_cards=tuple(
            () if hand.folded(seat) else tuple(str(card) for card in hand.up_cards(seat))
            for seat in range(hand.seats)
        ),
        community=None if hand.community is None else str(hand.community),
    )


@dataclass(frozen=True, slots=True)
class SettledPot:
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Settlement:
    """How a PokerKit hand ended, in engine seats.

    ``pokerkit_stacks`` are PokerKit's own final stacks; ``stacks`` and ``pots`` are the RULES
    5.3-5.4 settlement of the same chips and hands. ``odd_chip_splits`` counts split pots, either
    PokerKit's or RULES', that left odd chips: the only place where the two may differ.
    """

    pokerkit_stacks: tuple[int, ...]
    stacks: tuple[int, ...]
    pots: tuple[SettledPot, ...]
    odd_chip_splits: int


def card_strength(card: PokerKitCard) -> tuple[int, int]:
    """Rank, then suit: the order in which RULES 5.4 finds the highest card."""
    text = repr(card)
    return _RANKS.index(text[0]), _SUITS.index(text[1])


def _no_reserve(_: State) -> Iterator[PokerKitCard]:
    return iter(())


class _NoReshuffleState(State):
    """PokerKit's state without a reserve of burned or mucked cards to re-deal (RULES 2.2)."""

    reserved_cards = property(_no_reserve)


class ReferenceHand:
    """One PokerKit hand. ``seats[k]`` is the engine seat of PokerKit's player ``k``; ``deck`` is
    the order PokerKit deals, top first (one card at a time from player 0 up, as the engine)."""

    def __init__(
        self,
        stacks: Sequence[int],
        stakes: Stakes,
        deck: Sequence[Card],
        seats: Sequence[int],
        *,
        burns: bool = False,
        reshuffle: bool = False,
    ) -> None:
        if any(stacks[seat] <= 0 for seat in seats):
            raise ValueError("PokerKit only takes seats with chips")
        self.seat_count = len(stacks)
        self.seats = tuple(seats)
        self.short_bring_in_completions_dropped = 0
        self._folded: set[int] = set()
        game = FixedLimitSevenCardStud(
            AUTOMATIONS,
            True,  # ante trimming: a short ante makes a side pot, as RULES 2.1 and 5.3 say
            stakes.ante,
            stakes.bring_in,
            stakes.small_bet,
            stakes.big_bet,
        )
        if not burns:
            game.streets = tuple(
                dataclasses.replace(street, card_burning_status=False) for street in game.streets
            )
        order = [next(PokerKitCard.parse(str(card))) for card in deck]
        order += [card for card in FixedLimitSevenCardStud.deck if card not in order]

        def stack_the_deck(cards: list[PokerKitCard]) -> None:
            cards.clear()
            cards.extend(order)

        # The constructor shuffles and deals 3rd street at once: the order must be set inside it.
        with mock.patch.object(pokerkit_state, "shuffle", stack_the_deck):
            self.state: State = game([stacks[seat] for seat in self.seats], len(self.seats))
        if not reshuffle:
            # Nothing is burned or mucked before 3rd street's betting, so changing the class
            # once 3rd street is dealt covers the whole hand.
            self.state.__class__ = _NoReshuffleState

    @classmethod
    def of(cls, hand: StudHand, *, burns: bool = False, reshuffle: bool = False) -> ReferenceHand:
        """The PokerKit twin of a fresh ``StudHand``: same stacks, stakes, deck, dealing order."""
        return cls(
            hand.starting_stacks,
            hand.stakes,
            hand.deck,
            hand.dealing_order,
            burns=burns,
            reshuffle=reshuffle,
        )

    # ------------------------------------------------------------------ reads

    def _by_seat(self, values: Sequence[int]) -> tuple[int, ...]:
        by_seat = [0] * self.seat_count
        for index, seat in enumerate(self.seats):
            by_seat[seat] = values[index]
        return tuple(by_seat)

    @property
    def actor(self) -> int | None:
        index = self.state.actor_index
        return None if index is None else self.seats[index]

    @property
    def stacks(self) -> tuple[int, ...]:
        return self._by_seat(self.state.stacks)

    @property
    def street(self) -> int | None:
        """3..7 like ``StudHand.street``; ``None`` once the betting is over."""
        index = self.state.street_index
        return None if index is None else index + 3

    def up_cards(self, seat: int) -> tuple[str, ...]:
        if seat not in self.seats:
            return ()
        return tuple(repr(card) for card in self.state.get_up_cards(self.seats.index(seat)))

    def cards(self, seat: int) -> tuple[str, ...]:
        """All of a seat's cards, down and up, in the order dealt."""
        return tuple(repr(card) for card in self.state.hole_cards[self.seats.index(seat)])

    @property
    def community(self) -> str | None:
        board = self.state.board_cards
        return repr(board[0][0]) if board else None

    def raise_to(self) -> tuple[int, ...]:
        """PokerKit's completion, bet or raise total (fixed limit: one at most), unsteered."""
        amount = self.state.min_completion_betting_or_raising_to_amount
        return () if amount is None else (amount,)

    def view(self) -> View:
        state = self.state
        bring_in = state.effective_bring_in_amount
        to_call = state.checking_or_calling_amount
        raise_to = self.raise_to()
        if bring_in is not None and raise_to and raise_to[0] <= bring_in:
            raise_to = ()  # the degenerate completion of a short bring-in (module docstring)
            self.short_bring_in_completions_dropped += 1
        return View(
            actor=self.actor,
            fold=state.can_fold(),
            check=to_call == 0,
            call=to_call or None,
            bring_in=bring_in,
            raise_to=raise_to,
            stacks=self.stacks,
            bets=self._by_seat(state.bets),
            pot=state.total_pot_amount,
            up_cards=tuple(self.up_cards(seat) for seat in range(self.seat_count)),
            community=self.community,
        )

    # ------------------------------------------------------------------ actions

    def apply(self, action: str, amount: int | None = None) -> None:
        """Take a decision named as in ``StudHand.apply``."""
        state = self.state
        if action == "fold":
            self._folded.add(self.seats.index(self._require_actor()))
            state.fold()
        elif action in ("check", "call"):
            state.check_or_call()
        elif action == "bring_in":
            state.post_bring_in()
        elif action == "raise_to":
            state.complete_bet_or_raise_to(amount)
        else:
            raise ValueError(f"no PokerKit action for {action!r}")

    def _require_actor(self) -> int:
        seat = self.actor
        if seat is None:
            raise ValueError("no one is to act")
        return seat

    def finish(self) -> Settlement:
        """Let PokerKit push its pots, then settle the same hand by RULES 5.3 and 5.4.

        PokerKit gives a split pot's odd chips to its lowest index (RULES 7). It also builds its
        pots after the showdown mucks, so side pots that end with the same contenders are merged
        and split as one, and odd chips arise differently. So the pots are rebuilt from what each
        player put in (RULES 5.3: each live player's total caps a pot; folded chips stay in), each
        goes to the best of PokerKit's own hands among its eligible players, and odd chips go one
        each to the tied players by highest card of their five, rank then suit (RULES 5.4). When
        two or more fives make a player's best hand, the one with his highest card counts (he
        shows the five he likes). Equal highest cards (both using the community card) keep
        PokerKit's order, its index: the first dealt. A guard checks that this moved nothing but
        odd chips.
        """
        state = self.state
        if state.actor_index is not None:
            raise ValueError("the hand isn't over")
        players = range(len(self.seats))
        put_in = [state.starting_stacks[i] - state.stacks[i] for i in players]
        left = list(state.stacks)
        hands = tuple(state.get_up_hands(0, 0))
        pokerkit_odd = 0
        while state.can_push_chips():
            shares = {amount for amount in state.push_chips().amounts if amount}
            pokerkit_odd += len(shares) > 1  # unequal shares: the odd chips went to one player
        live = [i for i in players if i not in self._folded]
        payouts = [0] * len(self.seats)
        pots: list[SettledPot] = []
        rules_odd = 0
        for amount, eligible in _rules_pots(put_in, live):
            tied = _best(eligible, hands)
            share, odd = divmod(amount, len(tied))
            rules_odd += odd > 0
            if odd:
                tied.sort(key=lambda i: self._highest_usable_card(i), reverse=True)
            for order, i in enumerate(tied):
                payouts[i] += share + (order < odd)
            pots.append(
                SettledPot(
                    amount,
                    tuple(self.seats[i] for i in eligible),
                    tuple(self.seats[i] for i in tied),
                    tuple(share + (order < odd) for order in range(len(tied))),
                )
            )
        stacks = [left[i] + payouts[i] for i in players]
        odd_chip_splits = pokerkit_odd + rules_odd
        if sum(stacks) != sum(state.stacks) or any(
            abs(ours - theirs) > odd_chip_splits
            for ours, theirs in zip(stacks, state.stacks, strict=True)
        ):
            raise AssertionError(f"settling moved more than odd chips: {stacks} {state.stacks}")
        return Settlement(self.stacks, self._by_seat(stacks), tuple(pots), odd_chip_splits)

    def _highest_usable_card(self, index: int) -> tuple[int, int]:
        """The highest card (rank, then suit) in any of the player's fives that make his best
        hand: PokerKit's own five is one of them, picked without regard to suits."""
        cards = [*self.state.hole_cards[index], *(c for cs in self.state.board_cards for c in cs)]
        best = StandardHighHand.from_game(cards)
        return max(
            max(map(card_strength, five))
            for five in combinations(cards, 5)
            if StandardHighHand(five) == best
        )


def _rules_pots(put_in: Sequence[int], live: Sequence[int]) -> list[tuple[int, list[int]]]:
    """Main pot first, then side pots (RULES 5.3), as amount and eligible players."""
    pots: list[tuple[int, list[int]]] = []
    below = 0
    for level in sorted({put_in[i] for i in live}):
        amount = sum(max(0, min(chips, level) - below) for chips in put_in)
        pots.append((amount, [i for i in live if put_in[i] >= level]))
        below = level
    # Chips of folded players above every live total can't be won back: the last pot has them.
    amount, eligible = pots[-1]
    pots[-1] = (amount + sum(put_in) - sum(amount for amount, _ in pots), eligible)
    return [pot for pot in pots if pot[0]]


def _best(eligible: list[int], hands: Sequence[Hand | None]) -> list[int]:
    """The eligible players with the best shown hand; a lone player wins without showing."""
    if len(eligible) == 1:
        return eligible
    # PokerKit mucks a hand at showdown only when a shown one beats it in every pot it is in.
    shown = [i for i in eligible if hands[i] is not None]
    best = max(hand for hand in (hands[i] for i in shown) if hand is not None)
    return [i for i in shown if hands[i] == best]
