"""A thoughtful aggressive player: it opens many starts and steals whenever its door card is the
best showing, defends its bring-in against a lone steal, bets whenever it is checked to with a
hand or a draw or a board that looks stronger than the others, raises what it thinks is best,
and on later streets calls only what the pot pays for and the boards do not beat."""

from __future__ import annotations

import random
from collections import Counter

from engine import RAZZ, STUD_HIGH, Decision, StudHand, evaluate
from engine import events as ev
from engine.cards import Card

# How often it fires a bet with nothing, by street, when its board looks the strongest.
SCARE = {3: 0.0, 4: 0.6, 5: 0.5, 6: 0.3, 7: 0.25}


def _ace_low(rank: int) -> int:
    return 1 if rank == 14 else rank


def _points(variant: object, cards: list[Card]) -> float:
    """How good these cards are for the game, 0 (nothing) to about 10 (the nuts-ish)."""
    ranks = [card.rank for card in cards]
    lows = sorted({_ace_low(rank) for rank in ranks if _ace_low(rank) <= 8})
    suits = Counter(card.suit for card in cards).most_common(1)[0][1]
    distinct = sorted(set(ranks))
    run = max((len([r for r in distinct if low <= r < low + 5]) for low in range(2, 11)), default=0)
    if variant is RAZZ:
        spare = len(cards) - len(lows)  # cards that don't help the low
        if len(lows) >= 5:
            return 10 - (lows[4] - 5)  # a made low: 10 for the wheel, 7 for an eight
        worst = max(lows, default=13)
        return max(0.0, 6 - 3 * spare - max(0, worst - 5) * 0.5)
    if len(cards) >= 5:
        value = evaluate(cards)
        category, top = int(value.category), value.ranks[0]
    else:
        counts = Counter(ranks)
        shape = sorted(counts.values(), reverse=True)
        top = max(counts, key=lambda rank: (counts[rank], rank))
        category = {4: 7, 3: 3}.get(shape[0], 2 if shape[:2] == [2, 2] else int(shape[0] == 2))
    high = [0.0, 2.0 + top / 7, 5.0 + top / 14, 7.0, 7.5, 8.0, 9.0, 10.0, 10.0][category]
    if category == 0:
        high = max(ranks) / 14
    left = 7 - len(cards)
    if left and suits >= len(cards) - 1 and suits >= 3:
        high = max(high, 3.5 if suits == 4 else 2.0)
    if left and run >= min(4, len(cards)):
        high = max(high, 3.0 if run == 4 else 1.8)
    if variant is STUD_HIGH:
        return high
    low = 0.0
    if len(lows) >= 5:
        low = 9 - (sorted(lows)[4] - 5)
    elif left and len(lows) + left >= 5 and len(lows) >= len(cards) - 1:
        low = 3.0 + (8 - max(lows)) / 2 if lows else 0.0
    return max(high, low) + min(high, low) / 3


def _bets(hand: StudHand) -> int:
    bets = 0
    for event in hand.events:
        if isinstance(event, ev.StreetStarted):
            bets = 0
        elif isinstance(event, ev.Complete | ev.Bet | ev.Raise):
            bets += 1
    return bets


def _looks(variant: object, board: list[Card]) -> float:
    """What a board threatens, on the same scale: a pair showing, a low showing, suited cards."""
    return (
        _points(variant, board)
        if len(board) > 1
        else ((14 - _ace_low(board[0].rank)) / 3 if variant is RAZZ else board[0].rank / 3)
    )


def aggressor(hand: StudHand, seat: int, rng: random.Random) -> Decision:
    legal = hand.legal()
    variant = hand.variant
    mine = [card for card, _ in hand.cards(seat)]
    if hand.community is not None:
        mine.append(hand.community)
    live = [s for s in hand.dealing_order if s != seat and not hand.folded(s)]
    boards = [hand.up_cards(s) for s in live]
    bets = _bets(hand)
    points = _points(variant, mine)
    my_look = _looks(variant, hand.up_cards(seat))
    best_other = max(_looks(variant, board) for board in boards)
    to_call = legal.call or 0
    price = to_call / (hand.pot + to_call) if to_call else 0.0
    if hand.street == 3:
        # A start worth playing by the game's standard, and the steal on top.
        value = points
        best_door = my_look > best_other
        if legal.bring_in is not None:
            want = value >= 3.2 or (best_door and value >= 2)
            return (
                Decision("raise_to", legal.raise_to[-1])
                if want and legal.raise_to
                else (Decision("bring_in"))
            )
        if bets == 0 and legal.raise_to and (value >= 2.4 or best_door or len(live) <= 2):
            return Decision("raise_to", legal.raise_to[-1])
        if bets == 1 and legal.raise_to and value >= 3.7:
            return Decision("raise_to", legal.raise_to[-1])
        defend = bets == 1 and len(live) == 1 and value >= 1.6
        if legal.check:
            return Decision("check")
        if value >= 3.0 or defend or (bets == 0 and value >= 1.2) or not legal.fold:
            return Decision("call")
        return Decision("fold")
    ahead = points > best_other + 0.5
    if legal.check:
        bluff = my_look > best_other and rng.random() < SCARE[hand.street]
        if legal.raise_to and ((ahead and points >= 2.5) or points >= 3.5 or bluff):
            return Decision("raise_to", legal.raise_to[-1])
        return Decision("check")
    if legal.raise_to and bets < 3 and points >= 5.5 and ahead:
        return Decision("raise_to", legal.raise_to[-1])
    draws = hand.street < 7 and points >= 1.8 and price < 0.3
    calls = points >= 2.4 and (points >= best_other or price < 0.15)
    if draws or calls or not legal.fold:
        return Decision("call")
    return Decision("fold")
