"""Deck commitments: checkable by anyone, revealing no card that stayed hidden."""

from __future__ import annotations

import random

from engine import Card, StudHand
from engine.events import CardDealt, HandShown
from engine.fairness import DeckCommitment, new_secret, revealed_cards, verify, visible_cards
from tests.engine.decks import choose, random_hand


def finished(rng: random.Random) -> StudHand:
    hand = random_hand(rng)
    while hand.actor is not None:
        hand.apply(*choose(hand, rng, 0.3))
    return hand


def hidden_down_cards(hand: StudHand, viewer: int | None) -> set[Card]:
    shown = {card for e in hand.events if isinstance(e, HandShown) for card in e.cards}
    return {
        e.card
        for e in hand.events
        if isinstance(e, CardDealt) and not e.face_up and e.seat != viewer
    } - shown


def test_public_and_private_reveals_verify_and_hide_what_stayed_hidden() -> None:
    rng = random.Random(5)
    folded_cards_kept_hidden = 0
    for _ in range(200):
        hand = finished(rng)
        commitment = DeckCommitment(hand.deck, new_secret())
        for viewer in [None, *hand.dealing_order]:
            reveal = commitment.reveal(visible_cards(hand, viewer))
            assert verify(commitment.digest, reveal)
            shown = set(revealed_cards(reveal))
            assert not shown & hidden_down_cards(hand, viewer)
            if viewer is not None:
                assert set(hand.down_cards(viewer)) <= shown
            folded_cards_kept_hidden += bool(hidden_down_cards(hand, viewer))
            # Every revealed card sits at its deck position.
            positions = {card: i for i, card in enumerate(hand.deck)}
            tokens = reveal.split()
            assert all(tokens[positions[card]].startswith(f"{card}:") for card in shown)
    assert folded_cards_kept_hidden


def test_tampered_reveals_fail() -> None:
    hand = finished(random.Random(9))
    commitment = DeckCommitment(hand.deck, new_secret())
    tokens = commitment.reveal(visible_cards(hand)).split()
    revealed = [i for i, token in enumerate(tokens) if ":" in token]
    first, second = revealed[0], revealed[1]
    swapped = list(tokens)
    swapped[first], swapped[second] = tokens[second], tokens[first]
    assert not verify(commitment.digest, " ".join(swapped))
    card, salt = tokens[first].split(":")
    other = next(c for c in hand.deck if str(c) != card)
    forged = [*tokens[:first], f"{other}:{salt}", *tokens[first + 1 :]]
    assert not verify(commitment.digest, " ".join(forged))
    assert not verify(commitment.digest, " ".join(tokens[:-1]))
    assert not verify(commitment.digest, "Zz:00 " + " ".join(tokens[1:]))
    assert verify(commitment.digest, " ".join(tokens))


def test_the_digest_binds_the_deck_and_differs_per_secret() -> None:
    hand = finished(random.Random(3))
    one = DeckCommitment(hand.deck, new_secret())
    assert one.digest == DeckCommitment(hand.deck, one.secret).digest
    assert one.digest != DeckCommitment(hand.deck, new_secret()).digest
    reordered = (hand.deck[1], hand.deck[0], *hand.deck[2:])
    assert one.digest != DeckCommitment(reordered, one.secret).digest
