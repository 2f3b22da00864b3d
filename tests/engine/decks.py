"""Build decks that deal chosen cards to chosen seats, and random play policies for tests."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from engine import STUD_HIGH, Card, Stakes, StudHand, Variant, parse_cards
from engine.cards import FULL_DECK

# Cards each player gets per street, in order: 3rd street is three rounds, then one per street.
_ROUNDS_PER_STREET = (3, 1, 1, 1, 1)


def stacked_deck(
    cards: Mapping[int, str], dealer: int, seats: int, community: str | None = None
) -> list[Card]:
    """A deck that deals ``cards[seat]`` (written "AsKd..." in the order he receives them) to
    each seat. A seat listed with fewer cards is assumed to fold after his last one; cards not
    named fill the rest of the deck in a fixed order. ``community`` is the card dealt after the
    6th-street cards when the deck runs short (RULES 2.2)."""
    wanted = {seat: parse_cards(text) for seat, text in cards.items()}
    named = [card for hand in wanted.values() for card in hand]
    if community:
        named.append(Card.parse(community))
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice")
    filler = iter([card for card in FULL_DECK if card not in named])
    order = [(dealer + 1 + i) % seats for i in range(seats) if (dealer + 1 + i) % seats in wanted]
    deck: list[Card] = []
    dealt = 0
    for rounds in _ROUNDS_PER_STREET:
        for _ in range(rounds):
            for seat in order:
                if dealt < len(wanted[seat]):
                    deck.append(wanted[seat][dealt])
            dealt += 1
    if community:
        deck.append(Card.parse(community))
    deck.extend(filler)
    return deck


def stud(
    cards: Mapping[int, str],
    stacks: Sequence[int] | None = None,
    stakes: Stakes | None = None,
    dealer: int | None = None,
    variant: Variant = STUD_HIGH,
    always_show: Iterable[int] = (),
) -> StudHand:
    """A hand whose seats 0..n-1 get the given cards (see ``stacked_deck``); ``always_show``
    as ``StudHand`` takes it (RULES 5.6)."""
    seats = len(stacks) if stacks is not None else len(cards)
    dealer = seats - 1 if dealer is None else dealer
    stakes = stakes or Stakes(ante=1, bring_in=3, small_bet=10, big_bet=20)
    stacks = list(stacks) if stacks is not None else [1000] * seats
    deck = stacked_deck(cards, dealer, seats)
    return StudHand(stacks, stakes, deck, dealer, variant=variant, always_show=always_show)


def options(hand: StudHand) -> list[tuple[str, int | None]]:
    """Every legal decision for the actor, as ``hand.apply`` arguments."""
    legal = hand.legal()
    found: list[tuple[str, int | None]] = []
    if legal.fold:
        found.append(("fold", None))
    if legal.check:
        found.append(("check", None))
    if legal.call is not None:
        found.append(("call", None))
    if legal.bring_in is not None:
        found.append(("bring_in", None))
    found.extend(("raise_to", total) for total in legal.raise_to)
    return found


def choose(hand: StudHand, rng: random.Random, aggression: float = 0.3) -> tuple[str, int | None]:
    """A random legal decision: raise with probability ``aggression``, rarely fold."""
    found = options(hand)
    raises = [option for option in found if option[0] == "raise_to"]
    if raises and rng.random() < aggression:
        return rng.choice(raises)
    passive = [option for option in found if option[0] in ("check", "call", "bring_in")]
    if passive and rng.random() < 0.85:
        return passive[0]
    return rng.choice(found)


def random_hand(rng: random.Random, short_stacks: bool = True) -> StudHand:
    """A fresh hand with 2-8 players, often 8, stacks often short enough for all-ins."""
    seats = 8 if rng.random() < 0.3 else rng.randint(2, 8)
    choices = [1, 2, 4, 9, 15, 30, 55, 120, 400] if short_stacks else [1000]
    stacks = [rng.choice(choices) for _ in range(seats)]
    if rng.random() < 0.1:
        stacks[rng.randrange(seats)] = 0  # sitting out (RULES 1.1)
    if sum(1 for stack in stacks if stack) < 2:
        stacks[0] = stacks[1] = 50
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    stakes = Stakes(ante=rng.choice([0, 1, 2]), bring_in=3, small_bet=10, big_bet=20)
    return StudHand(stacks, stakes, deck, rng.randrange(seats))


def passive(hand: StudHand) -> None:
    """The actor posts the bring-in, checks or calls."""
    legal = hand.legal()
    if legal.bring_in is not None:
        hand.bring_in()
    elif legal.check:
        hand.check()
    else:
        hand.call()


def call_down(hand: StudHand) -> None:
    """Everyone plays passively until the hand ends."""
    while hand.actor is not None:
        passive(hand)


def finish_street(hand: StudHand) -> None:
    """Everyone plays passively until the street changes or the hand ends."""
    street = hand.street
    while hand.actor is not None and hand.street == street:
        passive(hand)


def play_out(hand: StudHand, rng: random.Random, aggression: float = 0.3) -> None:
    while hand.actor is not None:
        hand.apply(*choose(hand, rng, aggression))
