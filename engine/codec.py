"""A hand saved in a few bytes: its inputs and its decisions, which are all it takes to replay it.

``decode(encode(hand))`` replays to the same hand, event for event, whether the hand is over or
still being played. A finished 8-player hand takes about 120 bytes, a tenth of its
``StudHand.to_dict()`` JSON.

The first byte is the format. Format 1 is ``to_dict()`` as JSON (UTF-8), which always begins
with ``{``; hands saved in it before this encoding existed still ``decode``. Format 3, written by
``encode``, is, with every number an unsigned LEB128 varint (7 bits a byte, low bits first)::

    3                                      the format
    game                                   index in GAMES
    ante, bring-in, small bet, big bet
    n, dealer, n starting stacks           every seat's chips, as StudHand takes them
    d, the deck in ceil(6d / 8) bytes      6 bits a card (0..51), top card first, high bits first
    k, k decisions                         one byte each (index in ACTIONS); a raise_to is
                                           followed by its street total
    shows                                  the seats that always show (RULES 5.6), a bit each

Format 2 is format 3 without ``shows``: it was written before hands were mucked, when every hand
at a showdown was shown, so it decodes with every seat showing.

The counts make a cut-off or padded record an error rather than a shorter hand. ``GAMES`` and
``ACTIONS`` are part of the format: append to them, never reorder.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Final

from engine.cards import Card
from engine.hand import ACTION_NAMES, ActionName, Decision, StudHand
from engine.stakes import Stakes
from engine.variants import RAZZ, STUD_HI_LO, STUD_HIGH, Variant

FORMAT: Final = 3
_NO_MUCKING_FORMAT: Final = 2
GAMES: Final[tuple[Variant, ...]] = (STUD_HIGH, RAZZ, STUD_HI_LO)
ACTIONS: Final[tuple[ActionName, ...]] = (
    "fold",
    "check",
    "call",
    "bring_in",
    "raise_to",
    "timeout",
)
_RAISE: Final = ACTIONS.index("raise_to")
_GAME_CODES: Final = {variant.name: code for code, variant in enumerate(GAMES)}
_ACTION_CODES: Final = {name: code for code, name in enumerate(ACTIONS)}
_JSON_START: Final = ord("{")
_CARD_BITS: Final = 6

assert set(ACTIONS) == set(ACTION_NAMES), "every decision the engine takes has a code"


def encode(hand: StudHand) -> bytes:
    """The hand in format 3: what ``decode`` needs to replay it to exactly this point."""
    out = bytearray((FORMAT,))
    stakes = hand.stakes
    _put(out, _GAME_CODES[hand.variant.name])
    for number in (stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet):
        _put(out, number)
    _put(out, len(hand.starting_stacks))
    _put(out, hand.dealer)
    for stack in hand.starting_stacks:
        _put(out, stack)
    deck = hand.deck
    _put(out, len(deck))
    packed = 0
    for card in deck:
        packed = (packed << _CARD_BITS) | card
    size = (len(deck) * _CARD_BITS + 7) // 8
    out += (packed << (size * 8 - len(deck) * _CARD_BITS)).to_bytes(size, "big")
    decisions = hand.decisions
    _put(out, len(decisions))
    for decision in decisions:
        out.append(_ACTION_CODES[decision.action])
        if decision.amount is not None:
            _put(out, decision.amount)
    _put(out, sum(1 << seat for seat in hand.always_show))
    return bytes(out)


def decode(data: bytes) -> StudHand:
    """The hand ``encode`` saved (or, for format 1, ``to_dict()``'s JSON; or format 2), replayed.

    ``ValueError`` (``IllegalAction`` among them) for anything that isn't a hand one of them
    wrote: an unknown format, a record cut short or with bytes to spare, or decisions the rules
    don't allow.
    """
    if not data:
        raise ValueError("an empty saved hand")
    if data[0] == _JSON_START:
        # json.loads raises ValueError; what begins with "{" can only be an object.
        return StudHand.from_dict(json.loads(data))
    if data[0] not in (FORMAT, _NO_MUCKING_FORMAT):
        raise ValueError(f"unknown saved hand format {data[0]}")
    reader = _Reader(data, 1)
    game = reader.number()
    if game >= len(GAMES):
        raise ValueError(f"unknown game {game}")
    stakes = Stakes(reader.number(), reader.number(), reader.number(), reader.number())
    seats = reader.number()
    dealer = reader.number()
    stacks = [reader.number() for _ in range(seats)]
    cards = reader.number()
    size = (cards * _CARD_BITS + 7) // 8
    packed = int.from_bytes(reader.take(size), "big") >> (size * 8 - cards * _CARD_BITS)
    mask = (1 << _CARD_BITS) - 1
    deck = [
        Card.from_index((packed >> (_CARD_BITS * (cards - 1 - i))) & mask) for i in range(cards)
    ]
    decisions: list[Decision] = []
    for _ in range(reader.number()):
        code = reader.byte()
        if code >= len(ACTIONS):
            raise ValueError(f"unknown decision {code}")
        if code == _RAISE:
            decisions.append(Decision("raise_to", reader.number()))
        else:
            decisions.append(Decision(ACTIONS[code]))
    shows: Iterable[int]
    if data[0] == _NO_MUCKING_FORMAT:
        shows = range(seats)
    else:
        mask = reader.number()
        if mask >> seats:
            raise ValueError(f"seats that always show beyond the table's {seats}")
        shows = [seat for seat in range(seats) if mask >> seat & 1]
    hand = StudHand(stacks, stakes, deck, dealer, variant=GAMES[game], always_show=shows)
    for decision in decisions:
        hand.decide(decision)
    if reader.at != len(data):
        raise ValueError(f"a saved hand with {len(data) - reader.at} bytes to spare")
    return hand


def _put(out: bytearray, number: int) -> None:
    if number < 0:
        raise ValueError(f"a saved number is never negative, not {number}")
    while number > 0x7F:
        out.append(0x80 | (number & 0x7F))
        number >>= 7
    out.append(number)


class _Reader:
    def __init__(self, data: bytes, at: int) -> None:
        self.data = data
        self.at = at

    def byte(self) -> int:
        if self.at >= len(self.data):
            raise ValueError("a saved hand cut short")
        value = self.data[self.at]
        self.at += 1
        return value

    def take(self, count: int) -> bytes:
        if self.at + count > len(self.data):
            raise ValueError("a saved hand cut short")
        chunk = self.data[self.at : self.at + count]
        self.at += count
        return chunk

    def number(self) -> int:
        value = shift = 0
        while True:
            byte = self.byte()
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                return value
            shift += 7
