"""Deck commitments that anyone can check without seeing cards that were never shown.

Before the first card the table gets a SHA-256 ``digest`` of the shuffled deck. Hashing the deck
in one piece would force the bot to reveal all of it to prove the digest, down cards of folded
players included. So each deck position gets its own salted hash (a "leaf"), and the digest is
the SHA-256 of the leaves in deck order. After the hand:

- a card everyone saw (an up card, the community card, a card shown at showdown) is revealed
  with its salt, so anyone recomputes its leaf;
- a player's own down cards are revealed, with their salts, only in his own copy;
- every other position is given as its leaf alone, which says nothing about the card.

Anyone can then recompute the digest from a reveal (``verify``) and see that the revealed
cards sat where the committed deck put them. Per-card salts come from one secret with HMAC, so
only the secret needs storing; it is never published.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.events import CardDealt, CommunityCardDealt, HandShown
from engine.hand import StudHand

SALT_HEX = 16  # 64-bit salts: enough that a hidden card can't be found by trying all 52
LEAF_HEX = 32  # 128-bit leaves


def new_secret() -> str:
    return secrets.token_hex(32)


@dataclass(frozen=True, slots=True)
class DeckCommitment:
    deck: tuple[Card, ...]
    secret: str

    def salt(self, position: int) -> str:
        key = self.secret.encode()
        return hmac.new(key, str(position).encode(), hashlib.sha256).hexdigest()[:SALT_HEX]

    def leaves(self) -> list[str]:
        return [leaf(i, card, self.salt(i)) for i, card in enumerate(self.deck)]

    @property
    def digest(self) -> str:
        return digest_of(self.leaves())

    def reveal(self, visible: Iterable[Card]) -> str:
        """One token per deck position: ``Card:salt`` for a visible card, else its leaf."""
        shown = set(visible)
        return " ".join(
            f"{card}:{self.salt(i)}" if card in shown else leaf(i, card, self.salt(i))
            for i, card in enumerate(self.deck)
        )


def leaf(position: int, card: Card, salt: str) -> str:
    return hashlib.sha256(f"{position}:{card}:{salt}".encode()).hexdigest()[:LEAF_HEX]


def digest_of(leaves: Sequence[str]) -> str:
    return hashlib.sha256("".join(leaves).encode()).hexdigest()


def verify(digest: str, reveal: str) -> bool:
    """Whether a reveal matches the digest published before the hand."""
    leaves = []
    for position, token in enumerate(reveal.split()):
        if ":" in token:
            text, salt = token.split(":", 1)
            try:
                card = Card.parse(text)
            except ValueError:
                return False
            leaves.append(leaf(position, card, salt))
        else:
            leaves.append(token)
    return hmac.compare_digest(digest_of(leaves), digest)


def revealed_cards(reveal: str) -> list[Card]:
    """The cards a reveal shows, in deck order."""
    return [Card.parse(token.split(":", 1)[0]) for token in reveal.split() if ":" in token]


def visible_cards(hand: StudHand, viewer_seat: int | None = None) -> set[Card]:
    """Cards everyone at the table saw, plus the viewer's own down cards."""
    visible: set[Card] = set()
    for event in hand.events:
        if isinstance(event, CommunityCardDealt) or (
            isinstance(event, CardDealt) and (event.face_up or event.seat == viewer_seat)
        ):
            visible.add(event.card)
        elif isinstance(event, HandShown):
            visible.update(event.cards)
    return visible


def public_reveal(hand: StudHand, secret: str, viewer_seat: int | None = None) -> str:
    """The deck reveal: cards the table (and the viewer) saw in clear, the rest as hashes."""
    return DeckCommitment(hand.deck, secret).reveal(visible_cards(hand, viewer_seat))
