"""A player who calls down unless the board beats him: he plays almost any start, bets only a
strong made hand, calls every bet while his cards may still be best, and folds only when some
opponent's up cards alone already beat everything he holds."""

from __future__ import annotations

import random
from collections import Counter

from engine import RAZZ, STUD_HIGH, Decision, StudHand, evaluate
from engine.cards import Card


def _rank_low(card: Card) -> int:
    return 1 if card.rank == 14 else card.rank


def _made(cards: list[Card]) -> tuple[int, int]:
    """(how made, its top rank): 0 nothing, 1 pair, 2 two pair, 3 trips, then the engine's
    categories for five cards or more."""
    if len(cards) >= 5:
        value = evaluate(cards)
        return int(value.category), value.ranks[0]
    counts = Counter(card.rank for card in cards)
    most = max(counts.values())
    pairs = sorted((rank for rank, n in counts.items() if n >= 2), reverse=True)
    top = max(counts, key=lambda rank: (counts[rank], rank))
    if most >= 3:
        return 3 if most == 3 else 7, top
    return (2 if len(pairs) >= 2 else 1 if pairs else 0), top


def _low_of(cards: list[Card], size: int) -> list[int]:
    """The ``size`` lowest distinct ranks, padded with fifteens for cards it lacks, high first."""
    ranks = sorted({_rank_low(card) for card in cards})[:size]
    return sorted(ranks + [15] * (size - len(ranks)), reverse=True)


def _beaten_high(mine: list[Card], board: list[Card]) -> bool:
    return _made(board) > _made(mine) and _made(board)[0] > 0


def _beaten_low(mine: list[Card], board: list[Card]) -> bool:
    return _low_of(board, len(board)) < _low_of(mine, len(board))


def _strong(variant: object, mine: list[Card]) -> bool:
    made, top = _made(mine)
    low = _low_of(mine, 5)
    if variant is RAZZ:
        return len(mine) >= 5 and low[0] <= 8
    if variant is STUD_HIGH:
        return made >= 3 or (made == 2 and top >= 11)
    return made >= 3 or (len(mine) >= 5 and low[0] <= 7)


def _plays_third(variant: object, mine: list[Card]) -> bool:
    ranks = [card.rank for card in mine]
    lows = {_rank_low(card) for card in mine if _rank_low(card) <= 8}
    paired = len(set(ranks)) < 3
    if variant is RAZZ:
        return len(lows) >= 2
    if variant is STUD_HIGH:
        return paired or max(ranks) >= 10 or len({card.suit for card in mine}) == 1
    return paired or len(lows) >= 2 or 14 in ranks


def station(hand: StudHand, seat: int, rng: random.Random) -> Decision:
    legal = hand.legal()
    if legal.bring_in is not None:
        return Decision("bring_in")
    mine = [card for card, _ in hand.cards(seat)]
    if hand.community is not None:
        mine.append(hand.community)
    variant = hand.variant
    boards = [hand.up_cards(s) for s in hand.dealing_order if s != seat and not hand.folded(s)]
    if hand.street == 3:
        go_on = _plays_third(variant, mine)
    elif variant is RAZZ:
        go_on = not any(_beaten_low(mine, board) for board in boards)
    elif variant is STUD_HIGH:
        go_on = not any(_beaten_high(mine, board) for board in boards)
    else:
        go_on = not any(_beaten_high(mine, board) and _beaten_low(mine, board) for board in boards)
    if legal.raise_to and hand.street > 3 and _strong(variant, mine):
        return Decision("raise_to", legal.raise_to[-1])  # the betting cap stops the raising
    if legal.check:
        return Decision("check")
    if go_on or not legal.fold:
        return Decision("call")
    return Decision("fold")
