"""PokerKit's ``FixedLimitSevenCardStud``, ``FixedLimitRazz`` and
``FixedLimitSevenCardStudHighLowSplitEightOrBetter`` driven from a ``StudHand``'s inputs: the
reference of the differential tests (RULES 7).

Seats and indexes: PokerKit's player ``k`` is the ``k``-th seat dealt in, in the engine's dealing
order (RULES 1.4). So PokerKit deals the engine's deck to the same players, and its tie-break of
equal boards by index becomes the engine's tie-break by dealing order (RULES 4.1). Seats sitting
out (no chips) are left out of PokerKit, which refuses empty stacks.

Where PokerKit differs from RULES on purpose (RULES 7), this driver patches or steers around it,
and the patches can be switched off so that a direct test shows each difference:

- ``burns=False`` turns card burning off on every street (RULES 1.3);
- ``reshuffle=False`` empties PokerKit's reserve of burned and mucked cards, so when the deck runs
  short on 7th street it deals the one community card instead of re-dealing mucks (RULES 2.2);
- ``finish()`` settles split pots by RULES 5.3-5.4 (9.5, 10.1-10.2) from PokerKit's own
  contributions and hands: PokerKit gives odd chips to its lowest index, and merges side pots
  after showdown mucks;
- ``view()`` drops the completion PokerKit offers a bring-in player whose stack is at most the
  bring-in: it would put in exactly the bring-in, which RULES 3.2 counts as posting it.

The open-pair big bet (RULES 4.3) can't be patched in (PokerKit only offers the small bet on 4th
street): callers steer around it by comparing and choosing only the small option.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from itertools import combinations
from unittest import mock

import pokerkit.state as pokerkit_state
from pokerkit import (
    Automation,
    EightOrBetterLowHand,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    RegularLowHand,
    StandardHighHand,
    State,
)
from pokerkit import Card as PokerKitCard
from pokerkit.hands import Hand

from engine import RAZZ, STUD_HI_LO, STUD_HIGH, Card, Stakes, StudHand, Variant

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
_LOW_RANKS = "A23456789TJQK"  # a low's top card counts the ace as one (RULES 9.5, 10.2)
_SUITS = "cdhs"  # RULES 5.4: spades > hearts > diamonds > clubs

GAMES: dict[
    Variant,
    type[FixedLimitSevenCardStud]
    | type[FixedLimitRazz]
    | type[FixedLimitSevenCardStudHighLowSplitEightOrBetter],
] = {
    STUD_HIGH: FixedLimitSevenCardStud,
    RAZZ: FixedLimitRazz,
    STUD_HI_LO: FixedLimitSevenCardStudHighLowSplitEightOrBetter,
}


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
    low_without_contender: int = 0
    moved_more_than_odd_chips: bool = False  # only with low_without_contender


@contextmanager
def memoised_hands() -> Iterator[None]:
    """PokerKit evaluates the same cards over and over (every board at every decision, every
    hand at showdown), and that is most of its time. ``from_game`` is a pure function of the
    cards it is given, so remembering its answer per cards (in order) changes no result and
    makes the reference several times faster."""
    with ExitStack() as patches:
        for hand_type in (StandardHighHand, RegularLowHand, EightOrBetterLowHand):
            patches.enter_context(
                mock.patch.object(hand_type, "from_game", classmethod(_memoised(hand_type)))
            )
        yield


def _memoised(hand_type: type[Hand]) -> Callable[..., Hand]:
    original = hand_type.from_game  # bound to hand_type
    answers: dict[tuple[tuple[PokerKitCard, ...], tuple[PokerKitCard, ...]], object] = {}

    def from_game(
        cls: type[Hand],
        hole_cards: Iterable[PokerKitCard],
        board_cards: Iterable[PokerKitCard] = (),
    ) -> Hand:
        key = (tuple(PokerKitCard.clean(hole_cards)), tuple(PokerKitCard.clean(board_cards)))
        answer = answers.get(key)
        if answer is None:
            try:
                answer = original(*key)
            except ValueError as error:  # no hand of this kind (no qualifying low)
                answer = error
            answers[key] = answer
        if isinstance(answer, ValueError):
            raise answer
        assert isinstance(answer, Hand)
        return answer

    return from_game


def card_strength(card: PokerKitCard, low: bool = False) -> tuple[int, int]:
    """Rank, then suit: the order in which RULES 5.4 finds the highest card (with the ace low
    for the top card of a low, RULES 9.5 and 10.2)."""
    text = repr(card)
    return (_LOW_RANKS if low else _RANKS).index(text[0]), _SUITS.index(text[1])


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
        variant: Variant = STUD_HIGH,
        burns: bool = False,
        reshuffle: bool = False,
    ) -> None:
        if any(stacks[seat] <= 0 for seat in seats):
            raise ValueError("PokerKit only takes seats with chips")
        self.seat_count = len(stacks)
        self.seats = tuple(seats)
        self.variant = variant
        self.short_bring_in_completions_dropped = 0
        self._folded: set[int] = set()
        game = GAMES[variant](
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
        """The PokerKit twin of a fresh ``StudHand``: same game, stacks, stakes, deck, dealing
        order."""
        return cls(
            hand.starting_stacks,
            hand.stakes,
            hand.deck,
            hand.dealing_order,
            variant=hand.variant,
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
        """Let PokerKit push its pots, then settle the same hand by RULES 5.3-5.4, 9.5 and
        10.1-10.2.

        PokerKit gives a split pot's odd chips to its lowest index (RULES 7). It also builds its
        pots after the showdown mucks, so side pots that end with the same contenders are merged
        and split as one, and odd chips arise differently. So the pots are rebuilt from what each
        player put in (RULES 5.3: each live player's total caps a pot; folded chips stay in), each
        goes to the best of PokerKit's own hands among its eligible players (in Stud Hi-Lo, half
        to the best high and half to the best qualifying low among them, the odd chip to the
        high; all to the high without one), and odd chips go one each to the tied players by
        highest card of their five, rank then suit (RULES 5.4; a low's top card counts the ace
        low). When two or more fives make a player's best hand, the one with his highest card
        counts (he shows the five he likes). Equal highest cards (both using the community card)
        keep PokerKit's order, its index: the first dealt.

        A guard checks that this moved nothing but odd chips, unless PokerKit halved a pot for
        a low none of its contenders has (``low_without_contender``): it halves every pot once
        any player has a qualifying low, and shares such a low half among that pot's players
        still holding cards, where RULES 10.1 gives the whole pot to its best high.
        """
        state = self.state
        if state.actor_index is not None:
            raise ValueError("the hand isn't over")
        players = range(len(self.seats))
        put_in = [state.starting_stacks[i] - state.stacks[i] for i in players]
        left = list(state.stacks)
        hands = [tuple(state.get_up_hands(0, k)) for k in range(len(state.hand_types))]
        pokerkit_odd = 0
        halves_pushed: dict[int, set[int]] = {}
        while state.can_push_chips():
            pushed = state.push_chips()
            shares = {amount for amount in pushed.amounts if amount}
            pokerkit_odd += len(shares) > 1  # unequal shares: the odd chips went to one player
            halves_pushed.setdefault(pushed.pot_index, set()).add(sum(pushed.amounts))
        # Unequal high and low halves of one pot: its odd chip went to the high half.
        pokerkit_odd += sum(len(amounts) > 1 for amounts in halves_pushed.values())
        live = [i for i in players if i not in self._folded]
        payouts = [0] * len(self.seats)
        pots: list[SettledPot] = []
        rules_odd = 0
        low_without_contender = 0
        any_low = len(hands) > 1 and any(hand is not None for hand in hands[1])
        for amount, eligible in _rules_pots(put_in, live):
            halves = [(amount, 0)]
            if len(hands) > 1 and len(eligible) > 1:
                if any(hands[1][i] is not None for i in eligible):
                    halves = [(amount - amount // 2, 0), (amount // 2, 1)]
                    rules_odd += amount % 2
                elif any_low:
                    low_without_contender += 1
            won: dict[int, int] = {}
            for half, kind in halves:
                tied = _best(eligible, hands[kind])
                share, odd = divmod(half, len(tied))
                rules_odd += odd > 0
                if odd:
                    tied.sort(key=lambda i: self._highest_usable_card(i, kind), reverse=True)
                for order, i in enumerate(tied):
                    won[i] = won.get(i, 0) + share + (order < odd)
            for i, chips in won.items():
                payouts[i] += chips
            pots.append(
                SettledPot(
                    amount,
                    tuple(self.seats[i] for i in eligible),
                    tuple(self.seats[i] for i in won),
                    tuple(won.values()),
                )
            )
        stacks = [left[i] + payouts[i] for i in players]
        odd_chip_splits = pokerkit_odd + rules_odd
        moved_more = any(
            abs(ours - theirs) > odd_chip_splits
            for ours, theirs in zip(stacks, state.stacks, strict=True)
        )
        if sum(stacks) != sum(state.stacks) or (moved_more and not low_without_contender):
            raise AssertionError(f"settling moved more than odd chips: {stacks} {state.stacks}")
        return Settlement(
            self.stacks,
            self._by_seat(stacks),
            tuple(pots),
            odd_chip_splits,
            low_without_contender,
            moved_more,
        )

    def _highest_usable_card(self, index: int, kind: int) -> tuple[int, int]:
        """The highest card (rank, then suit; the ace low in a low) in any of the player's fives
        that make his best hand of this kind: PokerKit's own five is one of them, picked without
        regard to suits."""
        hand_type = self.state.hand_types[kind]
        cards = [*self.state.hole_cards[index], *(c for cs in self.state.board_cards for c in cs)]
        best = hand_type.from_game(cards)
        low = hand_type is not StandardHighHand
        return max(
            max(card_strength(card, low) for card in five)
            for five in combinations(cards, 5)
            if hand_type.from_game_or_none(five) == best
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
    """The eligible players with the best shown hand of one kind; a lone player wins without
    showing."""
    if len(eligible) == 1:
        return eligible
    # PokerKit mucks a hand at showdown only when a shown one beats it in every pot it is in.
    shown = [i for i in eligible if hands[i] is not None]
    best = max(hand for hand in (hands[i] for i in shown) if hand is not None)
    return [i for i in shown if hands[i] == best]
