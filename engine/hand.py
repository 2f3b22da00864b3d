"""One hand of fixed-limit stud, as a deterministic state machine (RULES 1-6, 9, 10).

Every decision is a ``Decision`` and goes through ``StudHand.decide``: it is checked against
``legal()``, the same answer the players are shown, so what is offered and what is accepted can't
drift apart; an illegal decision raises ``IllegalAction`` before anything changes. What differs
between Stud High, Razz and Stud Hi-Lo is the hand's ``Variant`` (``engine.variants``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine.cards import Card
from engine.errors import IllegalAction
from engine.evaluator import HandCategory
from engine.events import (
    AntePosted,
    Bet,
    BettingCapped,
    BringIn,
    BringInDue,
    Call,
    CardDealt,
    Check,
    CommunityCardDealt,
    Complete,
    Event,
    FirstToAct,
    Fold,
    HandEnded,
    HandMucked,
    HandShown,
    HandStarted,
    OpenPair,
    PotAwarded,
    Raise,
    ShowdownStarted,
    StreetStarted,
    TimedOut,
    UncalledBetReturned,
)
from engine.stakes import Stakes
from engine.variants import STUD_HIGH, VARIANTS, ShownHand, Variant

MAX_SEATS = 8
# One bet and three raises per betting round (RULES 3.5).
CAP = 4
STATE_VERSION = 1

RaiseKind = Literal["complete", "bet", "raise"]
ActionName = Literal["fold", "check", "call", "bring_in", "raise_to", "timeout"]
ACTION_NAMES: tuple[ActionName, ...] = ("fold", "check", "call", "bring_in", "raise_to", "timeout")


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the actor: ``amount`` is the street total of a ``"raise_to"`` and
    ``None`` for every other action. ``"timeout"`` is the clock deciding (RULES 6.1)."""

    action: ActionName
    amount: int | None = None

    @classmethod
    def of(cls, action: str, amount: object = None) -> Decision:
        """A decision from untrusted input (a saved hand, a command); ``IllegalAction`` if it
        is not one."""
        for name in ACTION_NAMES:
            if action == name:
                break
        else:
            raise IllegalAction(f"unknown action {action!r}")
        if name == "raise_to":
            if amount is None:
                raise IllegalAction("raise_to needs an amount")
            if isinstance(amount, bool) or not isinstance(amount, int):
                raise IllegalAction(f"you can't make it {amount!r}: a total is a whole number")
            return cls(name, amount)
        return cls(name)


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the actor may do now. ``raise_to`` lists street totals he may complete, bet or raise
    to (with his all-in total when he is short); ``raise_kind`` names that action."""

    fold: bool
    check: bool
    call: int | None
    bring_in: int | None
    raise_to: tuple[int, ...]
    raise_kind: RaiseKind | None

    @property
    def any(self) -> bool:
        return (
            self.fold
            or self.check
            or self.call is not None
            or self.bring_in is not None
            or (bool(self.raise_to))
        )


NO_ACTIONS = LegalActions(False, False, None, None, (), None)


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]


class StudHand:
    """A hand from the antes to the last pot awarded.

    ``stacks`` are every seat's chips; a seat with no chips is not dealt in (RULES 1.1). ``deck``
    is the order cards leave the deck, top first. ``dealer`` fixes the dealing order (RULES 1.4).
    ``variant`` is the game: ``STUD_HIGH`` (the default), ``RAZZ`` or ``STUD_HI_LO``.
    ``always_show``: the seats whose players chose to show their hand at a showdown even when it
    can no longer win (RULES 5.6); every other losing hand is mucked unseen.
    """

    def __init__(
        self,
        stacks: Sequence[int],
        stakes: Stakes,
        deck: Sequence[Card],
        dealer: int,
        variant: Variant = STUD_HIGH,
        always_show: Iterable[int] = (),
    ) -> None:
        if not 2 <= len(stacks) <= MAX_SEATS:
            raise ValueError(f"a table has 2 to {MAX_SEATS} seats, not {len(stacks)}")
        if not set(map(type, stacks)) <= {int} or min(stacks) < 0:
            raise ValueError("stacks must be whole numbers of chips, not negative")
        if not _is_chips(dealer) or not 0 <= dealer < len(stacks):
            raise ValueError(f"the dealer must be a seat from 0 to {len(stacks) - 1}")
        cards = list(deck)
        if not set(map(type, cards)) <= {Card}:
            raise ValueError("the deck must hold Card objects")
        if len(set(cards)) != len(cards):
            raise ValueError("the deck has the same card twice")
        seat_count = len(stacks)
        showing = frozenset(always_show)
        if not all(_is_chips(seat) and 0 <= seat < seat_count for seat in showing):
            raise ValueError(f"always_show holds seats from 0 to {seat_count - 1}")
        in_order = [(dealer + 1 + i) % seat_count for i in range(seat_count)]
        dealt_in = tuple(seat for seat in in_order if stacks[seat] > 0)
        if len(dealt_in) < 2:
            raise ValueError("at least two players with chips are needed to deal a hand")
        # Every street but the last must reach every player; the last may use one community card.
        needed = len(dealt_in) * (sum(len(s.face_up_rounds) for s in variant.streets) - 1) + 1
        if len(cards) < needed:
            raise ValueError(f"the deck has {len(cards)} cards; {needed} are needed")

        self.stakes = stakes
        self.variant = variant
        self.dealer = dealer
        self.always_show: frozenset[int] = showing
        self.starting_stacks: tuple[int, ...] = tuple(stacks)
        self.deck: tuple[Card, ...] = tuple(cards)
        self.dealing_order: tuple[int, ...] = dealt_in
        self.stacks: list[int] = list(stacks)
        self.bets: list[int] = [0] * seat_count
        self.committed: list[int] = [0] * seat_count
        self.payouts: list[int] = [0] * seat_count
        self.events: list[Event] = []
        self.community: Card | None = None
        self.street = variant.streets[0].number
        self.timed_out: list[int] = []
        # The first street dealt with no betting because at most one player could still bet
        # (RULES 2.4): the hand was run out from there; None while it was bet street by street.
        self.run_out_from: int | None = None
        self._cards: list[list[tuple[Card, bool]]] = [[] for _ in range(seat_count)]
        self._up: list[list[Card]] = [[] for _ in range(seat_count)]  # kept for first-to-act
        self._folded = [seat not in dealt_in for seat in range(seat_count)]
        self._next_card = 0
        self._street_index = 0
        self._actor: int | None = None
        self._pending: set[int] = set()
        # Betting-round memory for the half-bet rule (RULES 4.6): who has acted since the last
        # bet or raise that reopened the betting, and the bet each seat faced when he last acted.
        self._acted: set[int] = set()
        self._faced = [0] * seat_count
        self._level = 0
        self._bet_count = 0  # completions, bets and raises this round, short all-ins included
        self._cap_count = 0  # those that count towards the cap (RULES 3.5, 4.6)
        self._bring_in_due = False
        self._big_street = False
        self._open_pair = False
        self._big_bets_only = False
        self._last_aggressor: int | None = None
        self._history: list[Decision] = []
        self._legal: LegalActions | None = None
        self._over = False
        self._start()

    # ----------------------------------------------------------------- public reads

    @property
    def actor(self) -> int | None:
        """The seat whose decision is pending, or ``None`` when the hand is over."""
        return self._actor

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def pot(self) -> int:
        """Every chip committed this hand and not yet paid out (this street's bets included)."""
        return 0 if self._over else sum(self.committed)

    @property
    def seats(self) -> int:
        return len(self.stacks)

    def folded(self, seat: int) -> bool:
        """True for a seat that folded or was never dealt in."""
        return self._folded[seat]

    def is_all_in(self, seat: int) -> bool:
        return not self._folded[seat] and self.stacks[seat] == 0 and not self._over

    def up_cards(self, seat: int) -> list[Card]:
        return list(self._up[seat])

    def down_cards(self, seat: int) -> list[Card]:
        return [card for card, face_up in self._cards[seat] if not face_up]

    def cards(self, seat: int) -> list[tuple[Card, bool]]:
        """A seat's cards in the order dealt, each with whether it is face up."""
        return list(self._cards[seat])

    @property
    def decisions(self) -> tuple[Decision, ...]:
        """Every decision taken so far, in order, as taken (a timeout as a timeout): with the
        hand's inputs, all it takes to replay it."""
        return tuple(self._history)

    def pots(self) -> list[Pot]:
        """Main pot first, then side pots, from what each seat has committed (RULES 5.3)."""
        return _pots(self.committed, self._folded)

    # ----------------------------------------------------------------- legal actions

    def legal(self) -> LegalActions:
        """What the actor may do now: the one answer every action is checked against."""
        # Only a decision changes the state, and decide() forgets this answer after one.
        if self._legal is None:
            self._legal = self._legal_now()
        return self._legal

    def _legal_now(self) -> LegalActions:
        seat = self._actor
        if seat is None:
            return NO_ACTIONS
        stack = self.stacks[seat]
        if self._bring_in_due:
            posted = min(self.stakes.bring_in, stack)
            completion = min(self.stakes.small_bet, stack)
            return LegalActions(
                fold=False,
                check=False,
                call=None,
                bring_in=posted,
                raise_to=(completion,) if completion > posted else (),
                raise_kind="complete" if completion > posted else None,
            )
        owed = self._level - self.bets[seat]
        raise_to = () if self._why_no_raise(seat) else self._raise_targets(seat)
        key = (owed, min(owed, stack), raise_to, self._raise_kind() if raise_to else None)
        # The same few answers come up again and again: being immutable, each is made once.
        legal = _LEGAL_ANSWERS.get(key)
        if legal is None:
            legal = LegalActions(
                owed > 0, owed == 0, key[1] if owed > 0 else None, None, raise_to, key[3]
            )
            if len(_LEGAL_ANSWERS) < _LEGAL_ANSWERS_KEPT:  # chip amounts are unbounded
                _LEGAL_ANSWERS[key] = legal
        return legal

    def _raise_kind(self) -> RaiseKind:
        if self._bet_count == 0:
            return "complete" if self._street_index == 0 else "bet"
        return "raise"

    def _raise_targets(self, seat: int) -> tuple[int, ...]:
        all_in = self.bets[seat] + self.stacks[seat]
        if self._street_index == 0 and self._bet_count == 0:
            return (min(self.stakes.small_bet, all_in),)  # completion (RULES 3.4)
        # RULES 4.5: a full unit over the current bet, even over a short all-in.
        units = self._units()
        if len(units) == 1:
            return (min(self._level + units[0], all_in),)
        return tuple(sorted({min(self._level + unit, all_in) for unit in units}))

    def _units(self) -> tuple[int, ...]:
        if self._big_street or self._big_bets_only:
            return (self.stakes.big_bet,)
        if self._open_pair:
            return (self.stakes.small_bet, self.stakes.big_bet)  # RULES 4.3
        return (self.stakes.small_bet,)

    def _measure_unit(self) -> int:
        """The unit a short all-in is measured against (RULES 4.6): the street's unit, and on 4th
        street with an open pair the small bet unless the street has gone to the big bet."""
        if self._big_street or self._big_bets_only:
            return self.stakes.big_bet
        return self.stakes.small_bet

    def _why_no_raise(self, seat: int) -> str:
        """Why the actor may not complete, bet or raise now; empty when he may."""
        if self._cap_count >= CAP:
            return "betting is capped: you can only call or fold"
        owed = self._level - self.bets[seat]
        if self.stacks[seat] <= owed:
            return "you don't have enough chips to raise"
        stacks, bets, folded, level = self.stacks, self.bets, self._folded, self._level
        for other in self.dealing_order:
            if other != seat and not folded[other] and stacks[other] + bets[other] > level:
                break
        else:
            return "everyone else is all-in: there's no one to raise"
        # RULES 4.6: after he acted, only a full bet or raise (a half-bet short all-in counts as
        # one) reopens the betting for him, or short all-ins adding up to half a unit over what
        # he last faced.
        if seat in self._acted and 2 * (self._level - self._faced[seat]) < self._measure_unit():
            return "you can't raise: a short all-in didn't reopen the betting; call or fold"
        return ""

    def _refusal(self, legal: LegalActions, decision: Decision) -> str:
        """Why ``decision`` is not among ``legal``; empty when it is."""
        action = decision.action
        bring_in_due = legal.bring_in is not None
        if action == "fold" and not legal.fold:
            if bring_in_due:
                return "you can't fold: you must bring in or complete"
            return "you can't fold when there's nothing to call: check instead"
        if action == "check" and not legal.check:
            if bring_in_due:
                return "you can't check: you must bring in or complete"
            return f"you can't check: {legal.call} to call"
        if action == "call" and legal.call is None:
            if bring_in_due:
                return "you can't call: you must bring in or complete"
            return "there's nothing to call: check or bet"
        if action == "bring_in" and not bring_in_due:
            return "there's no bring-in to post now"
        if action == "raise_to":
            if not legal.raise_to:
                if bring_in_due:
                    return "you don't have enough chips to complete: bring in"
                assert self._actor is not None
                return self._why_no_raise(self._actor)
            if decision.amount not in legal.raise_to:
                options = " or ".join(str(option) for option in legal.raise_to)
                verb = {"complete": "complete to", "bet": "bet", "raise": "raise to"}[
                    legal.raise_kind or "raise"
                ]
                return f"you can't make it {decision.amount}: you can {verb} {options}"
        return ""

    # ----------------------------------------------------------------- actions

    def fold(self) -> None:
        self.decide(Decision("fold"))

    def check(self) -> None:
        self.decide(Decision("check"))

    def call(self) -> None:
        self.decide(Decision("call"))

    def bring_in(self) -> None:
        self.decide(Decision("bring_in"))

    def raise_to(self, total: int) -> None:
        """Complete, bet or raise so that the actor has ``total`` in front of him this street."""
        self.decide(Decision.of("raise_to", total))

    def timeout(self) -> None:
        """The actor's clock ran out: bring in, else check, else fold (RULES 6.1)."""
        self.decide(Decision("timeout"))

    def apply(self, action: str, amount: int | None = None) -> None:
        """Take a decision by name: ``"fold"``, ``"check"``, ``"call"``, ``"bring_in"``,
        ``"raise_to"`` (with ``amount``) or ``"timeout"``."""
        self.decide(Decision.of(action, amount))

    def decide(self, decision: Decision) -> None:
        """Take one decision for the actor. It is checked against ``legal()`` first: an illegal
        one raises ``IllegalAction`` and changes nothing. The replay log records it as taken (a
        timeout as a timeout, not as the check or fold the clock made)."""
        seat = self._require_actor()
        legal = self.legal()
        if decision.action == "timeout":
            taken = _on_timeout(legal)
            self._history.append(decision)
            self.events.append(TimedOut(seat))
            if seat not in self.timed_out:
                self.timed_out.append(seat)
        else:
            refusal = self._refusal(legal, decision)
            if refusal:
                raise IllegalAction(refusal)
            taken = decision
            self._history.append(decision)
        action = taken.action
        if action == "call":
            assert legal.call is not None
            self._put_in(seat, legal.call)
            self.events.append(Call(seat, legal.call, self.stacks[seat] == 0))
        elif action == "check":
            self.events.append(_CHECKS[seat])
        elif action == "fold":
            self._folded[seat] = True
            self.events.append(_FOLDS[seat])
        elif action == "raise_to":
            assert taken.amount is not None and legal.raise_kind is not None
            self._raise(seat, taken.amount, legal.raise_kind)
        else:
            assert legal.bring_in is not None
            self._post_bring_in(seat, legal.bring_in)
        self._legal = None
        self._after_action(seat)

    def _post_bring_in(self, seat: int, amount: int) -> None:
        self._put_in(seat, amount)
        self._bring_in_due = False
        self._level = amount
        if amount >= self.stakes.small_bet:
            # A bring-in as large as the small bet is already the round's bet (RULES 1.2 allows
            # B == S): it counts towards the cap and makes him the one who bet.
            self._bet_count = self._cap_count = 1
            self._last_aggressor = seat
        self.events.append(BringIn(seat, amount, self.stacks[seat] == 0))

    def _raise(self, seat: int, total: int, kind: RaiseKind) -> None:
        previous_level = self._level
        increment = total - previous_level
        unit = self._measure_unit()
        # RULES 4.6: a bet or raise of at least half a unit (a full one, or a short all-in of
        # half a unit or more), or a completion to the small bet, counts towards the cap and
        # reopens the betting for everyone; a smaller short all-in does neither.
        full = 2 * increment >= unit or (kind == "complete" and total >= self.stakes.small_bet)
        if full:
            self._cap_count += 1
            self._acted = {seat}
        amount = total - self.bets[seat]
        self._bring_in_due = False
        self._put_in(seat, amount)
        all_in = self.stacks[seat] == 0
        self._level = total
        self._bet_count += 1
        self._last_aggressor = seat
        if self._street_index == 1 and increment >= self.stakes.big_bet:
            self._big_bets_only = True  # RULES 4.3: once someone bets L, it stays L
        if kind == "complete":
            self.events.append(Complete(seat, amount, total, all_in, full))
        elif kind == "bet":
            self.events.append(Bet(seat, amount, total, all_in, full))
        else:
            self.events.append(Raise(seat, amount, increment, total, all_in, full))
        self._pending = {s for s in self._can_act() if s != seat}
        if self._cap_count >= CAP and full:
            self.events.append(BettingCapped(self.street))

    def _require_actor(self) -> int:
        if self._actor is None:
            raise IllegalAction("the hand is over")
        return self._actor

    def _put_in(self, seat: int, amount: int) -> None:
        self.stacks[seat] -= amount
        self.bets[seat] += amount
        self.committed[seat] += amount

    # ----------------------------------------------------------------- flow

    def _can_act(self) -> list[int]:
        """Live seats with chips, in dealing order."""
        return [s for s in self.dealing_order if not self._folded[s] and self.stacks[s] > 0]

    def _live(self) -> list[int]:
        return [s for s in self.dealing_order if not self._folded[s]]

    def _start(self) -> None:
        self.events.append(
            HandStarted(
                self.dealer,
                self.dealing_order,
                self.starting_stacks,
                self.stakes,
                self.variant.name,
            )
        )
        if self.stakes.ante:
            for seat in self.dealing_order:
                amount = min(self.stakes.ante, self.stacks[seat])
                self.stacks[seat] -= amount
                self.committed[seat] += amount
                self.events.append(AntePosted(seat, amount, self.stacks[seat] == 0))
        self._begin_street()

    def _deal_street(self) -> None:
        spec = self.variant.streets[self._street_index]
        self.events.append(StreetStarted(spec.number))
        live = self._live()
        is_last = self._street_index == len(self.variant.streets) - 1
        if is_last and len(self.deck) - self._next_card < len(live) * len(spec.face_up_rounds):
            # RULES 2.2: not enough cards for everyone, so one shared card instead.
            self.community = self.deck[self._next_card]
            self._next_card += 1
            self.events.append(CommunityCardDealt(self.community))
            return
        deck, held, up, events, number = self.deck, self._cards, self._up, self.events, spec.number
        top = self._next_card
        for face_up in spec.face_up_rounds:
            for seat in live:
                card = deck[top]
                top += 1
                held[seat].append((card, face_up))
                if face_up:
                    up[seat].append(card)
                events.append(_card_dealt(seat, number, card, face_up))
        self._next_card = top

    def _begin_street(self) -> None:
        """Deal the current street, then start its betting, or run the board out (RULES 2.4)."""
        spec = self.variant.streets[self._street_index]
        self.street = spec.number
        self._big_street = spec.big_bet
        self._deal_street()
        self.bets = [0] * self.seats
        self._level = 0
        self._bet_count = 0
        self._cap_count = 0
        self._faced = [0] * self.seats
        self._open_pair = False
        self._big_bets_only = False
        can_act = self._can_act()
        if len(can_act) < 2:
            if self.run_out_from is None:
                self.run_out_from = spec.number
            self._next_street_or_showdown()
            return
        self._last_aggressor = None
        self._pending = set(can_act)
        self._acted = set()
        if self._street_index == 0:
            self._actor = self._bring_in_player()
            self._bring_in_due = True
        else:
            self._actor = self._first_to_act()

    def _bring_in_player(self) -> int:
        live = self._live()
        door = {seat: self._up[seat][0] for seat in live}
        due = self.variant.bring_in_seat(door)
        seat = due
        # RULES 3.3: all-in on the ante passes the bring-in clockwise to the next one with chips.
        while self.stacks[seat] == 0 or self._folded[seat]:
            seat = (seat + 1) % self.seats
        # A game without a high hand (Razz) brings in with its worst card, the highest.
        self.events.append(
            BringInDue(seat, door[seat], passed_on=seat != due, highest=not self.variant.high)
        )
        return seat

    def _first_to_act(self) -> int:
        live = self._live()
        board_rule, up = self.variant.board_rule, self._up
        ranks = [board_rule(up[seat]) for seat in live]
        # RULES 4.1, 9.3: best board; on equal boards the first in live, which is dealing order.
        at = 0
        for index in range(1, len(live)):
            if ranks[index].key > ranks[at].key:
                at = index
        best, board = live[at], ranks[at]
        if self._street_index == 1 and self.variant.open_pair:
            # RULES 4.3: fixed now for the whole round, even if the pair folds.
            for seat, rank in zip(live, ranks, strict=True):
                if rank.category >= HandCategory.PAIR:
                    self._open_pair = True
                    self.events.append(OpenPair(seat, rank.ranks[0]))
        self.events.append(
            FirstToAct(
                self.street,
                best,
                board.holding,
                tuple(up[best]),
                int(board.category),
                board.ranks,
                board.low,
            )
        )
        seat = best
        while seat not in self._pending:
            seat = (seat + 1) % self.seats
        return seat

    def _after_action(self, seat: int) -> None:
        # Only the actor's own state changed: he is no longer pending, whatever he did.
        self._pending.discard(seat)
        self._acted.add(seat)
        self._faced[seat] = self._level
        if self._folded[seat]:
            live = self._live()
            if len(live) == 1:
                self._return_uncalled()
                self._award_uncontested(live[0])
                return
        pending = self._pending
        if pending:
            seats = len(self.stacks)
            nxt = (seat + 1) % seats
            while nxt not in pending:
                nxt = (nxt + 1) % seats
            self._actor = nxt
            return
        self._actor = None
        self._return_uncalled()
        self._next_street_or_showdown()

    def _return_uncalled(self) -> None:
        bets = self.bets
        top = bets.index(max(bets))
        second = max(bets[:top] + bets[top + 1 :])
        excess = bets[top] - second
        if excess > 0:
            self.bets[top] -= excess
            self.committed[top] -= excess
            self.stacks[top] += excess
            self.events.append(UncalledBetReturned(top, excess))

    def _next_street_or_showdown(self) -> None:
        if self._street_index == len(self.variant.streets) - 1:
            self._showdown()
            return
        self._street_index += 1
        self._begin_street()

    def _award_uncontested(self, winner: int) -> None:
        """RULES 2.3: the last player wins every pot and shows nothing."""
        self._actor = None
        for index, pot in enumerate(self.pots()):
            self.payouts[winner] += pot.amount
            self.events.append(
                PotAwarded(index, pot.amount, pot.eligible, (winner,), (pot.amount,), None)
            )
        self._finish()

    def _showdown_order(self) -> list[int]:
        live = self._live()
        first = self._last_aggressor if self._last_aggressor in live else live[0]
        start = live.index(first)
        # Clockwise from the first to show; dealing order already starts left of the dealer.
        return live[start:] + live[:start]

    def _showdown(self) -> None:
        self._actor = None
        order = self._showdown_order()
        self.events.append(ShowdownStarted(tuple(order)))
        pots = self.pots()
        hands: dict[int, ShownHand] = {}
        for seat in order:
            cards = [card for card, _ in self._cards[seat]]
            if self.community is not None:
                cards.append(self.community)
            hands[seat] = self.variant.show(seat, cards)
        # RULES 5.6: in turn, a hand that the hands already shown beat in every pot and half it
        # is in goes into the muck unseen; after a run-out (2.4) every hand is turned over.
        shown: dict[int, ShownHand] = {}
        for seat in order:
            hand = hands[seat]
            mucks = (
                self.run_out_from is None
                and seat not in self.always_show
                and shown
                and not any(
                    self.variant.can_win(hand, [shown[s] for s in pot.eligible if s in shown])
                    for pot in pots
                    if seat in pot.eligible
                )
            )
            if mucks:
                self.events.append(HandMucked(seat))
            else:
                shown[seat] = hand
                self.events.append(_shown_event(hand))
        for index, pot in enumerate(pots):
            # Dealing order, so that a tie the odd-chip rule can't break (both players' highest
            # card is the community card) goes to the first dealt, as PokerKit does.
            contenders = [hands[seat] for seat in self.dealing_order if seat in pot.eligible]
            split = self.variant.split(pot.amount, contenders)
            shares = split.total
            winners = tuple(seat for seat in order if seat in shares)
            # A hand that wins any part of a pot can't have been beaten by those shown before.
            assert all(seat in shown for seat in winners), "a mucked hand never wins"
            for seat in winners:
                self.payouts[seat] += shares[seat]
            high = tuple(seat for seat in order if seat in split.high)
            low = tuple(seat for seat in order if seat in split.low)
            self.events.append(
                PotAwarded(
                    index,
                    pot.amount,
                    pot.eligible,
                    winners,
                    tuple(shares[seat] for seat in winners),
                    shown[winners[0]].description,
                    high,
                    tuple(split.high[seat] for seat in high),
                    low,
                    tuple(split.low[seat] for seat in low),
                    split.scoop,
                )
            )
        self._finish()

    def _finish(self) -> None:
        for seat, amount in enumerate(self.payouts):
            self.stacks[seat] += amount
        self.bets = [0] * self.seats
        self._pending.clear()
        self._over = True
        self.events.append(HandEnded(tuple(self.stacks), tuple(self.payouts)))

    # ----------------------------------------------------------------- persistence

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot: the hand's inputs and every decision, in order.

        ``from_dict`` replays the decisions, so a restored hand continues exactly as this one
        would. The deck order is in here: it is secret until the hand is over.
        """
        return {
            "version": STATE_VERSION,
            "variant": self.variant.name,
            "stakes": self.stakes.to_dict(),
            "stacks": list(self.starting_stacks),
            "dealer": self.dealer,
            "deck": [str(card) for card in self.deck],
            "actions": [[decision.action, decision.amount] for decision in self._history],
            "always_show": sorted(self.always_show),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StudHand:
        if data.get("version") != STATE_VERSION:
            raise ValueError(f"unknown hand state version {data.get('version')!r}")
        # Hands saved before there were other variants may have no name: they are Stud High.
        variant = VARIANTS.get(data.get("variant", STUD_HIGH.name))
        if variant is None:
            raise ValueError(f"unknown variant {data.get('variant')!r}")
        stacks = data["stacks"]
        hand = cls(
            stacks=stacks,
            stakes=Stakes.from_dict(data["stakes"]),
            deck=[Card.parse(text) for text in data["deck"]],
            dealer=data["dealer"],
            variant=variant,
            # Saved before hands were mucked (RULES 5.6): every hand was shown.
            always_show=data.get("always_show", range(len(stacks))),
        )
        for decision in data["actions"]:
            if not isinstance(decision, list) or len(decision) != 2:
                raise ValueError(f"a decision is [action, amount or null], not {decision!r}")
            hand.apply(*decision)
        return hand


_LEGAL_ANSWERS: dict[tuple[int, int, tuple[int, ...], RaiseKind | None], LegalActions] = {}
_LEGAL_ANSWERS_KEPT = 50_000
_CARDS_DEALT: dict[tuple[int, int, Card, bool], CardDealt] = {}
_CHECKS = tuple(Check(seat) for seat in range(MAX_SEATS))
_FOLDS = tuple(Fold(seat) for seat in range(MAX_SEATS))


def _card_dealt(seat: int, street: int, card: Card, face_up: bool) -> CardDealt:
    """Events are immutable values, and a deal repeats them (8 seats, 5 streets, 52 cards):
    each is made once."""
    key = (seat, street, card, face_up)
    event = _CARDS_DEALT.get(key)
    if event is None:
        event = _CARDS_DEALT[key] = CardDealt(seat, street, card, face_up)
    return event


def _on_timeout(legal: LegalActions) -> Decision:
    """What the clock decides (RULES 6.1): the bring-in, else a check, else a fold."""
    if legal.bring_in is not None:
        return Decision("bring_in")
    return Decision("check") if legal.check else Decision("fold")


def _shown_event(hand: ShownHand) -> HandShown:
    high, low = hand.high, hand.low
    return HandShown(
        hand.seat,
        hand.cards,
        hand.best_five,
        hand.description,
        None if high is None else int(high.category),
        () if high is None else high.ranks,
        None if low is None else int(low.category),
        () if low is None else low.ranks,
        hand.low_five,
    )


def _is_chips(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _pots(committed: Sequence[int], folded: Sequence[bool]) -> list[Pot]:
    """Split committed chips into a main pot and side pots (RULES 5.3).

    Each live player's total is a level; a pot holds what everyone put in between two levels,
    and only live players who reached the upper level may win it. Folded chips stay in the pots.
    """
    live_levels = sorted({committed[s] for s in range(len(committed)) if not folded[s]})
    pots: list[Pot] = []
    lower = 0
    for level in live_levels:
        amount = sum(max(0, min(c, level) - lower) for c in committed)
        eligible = tuple(
            s for s in range(len(committed)) if not folded[s] and committed[s] >= level
        )
        if amount:
            if pots and pots[-1].eligible == eligible:
                pots[-1] = Pot(pots[-1].amount + amount, eligible)
            else:
                pots.append(Pot(amount, eligible))
        lower = level
    # Chips above the highest live level can only come from folded players' excess; they go to
    # the last pot, as those players can't win them back.
    leftover = sum(committed) - sum(pot.amount for pot in pots)
    if leftover and pots:
        pots[-1] = Pot(pots[-1].amount + leftover, pots[-1].eligible)
    return pots
