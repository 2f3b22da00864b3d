"""A tight, aggressive player by the book: it enters on 3rd street only with the holdings a
starting-hand chart lists (by its cards, the door cards out and how live its cards are), raises
its best starts and steals with the highest door card, then bets and raises made hands that the
boards in front of it don't beat, draws while the draw is live and the price is right, and lets
go of the rest.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from engine import RAZZ, STUD_HIGH, Decision, LegalActions, StudHand, evaluate
from engine import events as ev
from engine.cards import Card
from engine.evaluator import HandCategory

FOLD, CALL, BET, RAISE = range(4)
CAP = 4  # bets a street: the bet and three raises


def _low(card: Card) -> int:
    return 1 if card.rank == 14 else card.rank


def _bets_this_street(hand: StudHand) -> int:
    bets = 0
    for event in hand.events:
        if isinstance(event, ev.StreetStarted):
            bets = 0
        elif isinstance(event, ev.Complete | ev.Bet | ev.Raise):
            bets += 1
    return bets


def _high_strength(cards: Sequence[Card]) -> tuple[int, int]:
    """Category and top rank of the best high hand in these cards (pairs and up only below
    five cards)."""
    if len(cards) >= 5:
        value = evaluate(cards)
        return int(value.category), value.ranks[0]
    counts = Counter(card.rank for card in cards)
    shape = sorted(counts.values(), reverse=True)
    top = max(counts, key=lambda rank: (counts[rank], rank))
    if shape[0] == 4:
        return int(HandCategory.FOUR_OF_A_KIND), top
    if shape[0] == 3:
        return int(HandCategory.THREE_OF_A_KIND), top
    if shape[:2] == [2, 2]:
        return int(HandCategory.TWO_PAIR), top
    if shape[0] == 2:
        return int(HandCategory.PAIR), top
    return int(HandCategory.HIGH_CARD), top


def _low_strength(cards: Sequence[Card], size: int) -> tuple[int, ...]:
    """The best ``size`` unpaired low ranks, highest first (smaller is better); a missing card
    counts as a fourteen."""
    distinct = sorted({_low(card) for card in cards})[:size]
    return tuple(sorted(distinct + [14] * (size - len(distinct)), reverse=True))


def _flush_draw(cards: Sequence[Card], seen: Sequence[Card]) -> bool:
    suits = Counter(card.suit for card in cards)
    suit, count = suits.most_common(1)[0]
    gone = sum(1 for card in seen if card.suit == suit)
    return count >= max(3, min(4, len(cards) - 1)) and gone <= 2


def _straight_draw(cards: Sequence[Card]) -> bool:
    ranks = {card.rank for card in cards} | ({1} if any(c.rank == 14 for c in cards) else set())
    need = min(4, len(cards))
    return any(len(ranks & set(range(low, low + 5))) >= need for low in range(1, 11))


def _third_street(
    variant: object, mine: list[Card], doors: list[Card], seen: list[Card], completed: bool
) -> int:
    door = mine[2]
    if variant is RAZZ:
        lows = sorted({_low(card) for card in mine})
        if len(lows) == 3 and lows[-1] <= 6:
            return RAISE
        if len(lows) == 3 and lows[-1] <= 8:
            return CALL if completed else BET
        steal = all(_low(door) < _low(other) for other in doors) and _low(door) <= 6
        return BET if steal and not completed and len(lows) >= 2 else FOLD
    ranks = Counter(card.rank for card in mine)
    pair = max((rank for rank, n in ranks.items() if n >= 2), default=0)
    if max(ranks.values()) == 3:
        return RAISE
    highest_door = max((card.rank for card in doors), default=0)
    live = sum(1 for card in seen if card.rank == pair) == 0
    if variant is STUD_HIGH:
        if pair >= 10 or (pair and pair > highest_door and live):
            return RAISE
        if pair and live and max(ranks) >= 12:
            return CALL
        if _flush_draw(mine, seen) or (_straight_draw(mine) and min(ranks) >= 6):
            return CALL
        if pair and not completed:
            return CALL
        steal = door.rank > highest_door and door.rank >= 11
        return BET if steal and not completed else FOLD
    # Stud Hi-Lo: three low cards, a big pair, or a low pair with an ace
    lows = sorted({_low(card) for card in mine if _low(card) <= 8})
    if len(lows) == 3:
        return RAISE if lows[0] == 1 or lows[-1] <= 5 else CALL
    if (pair >= 11 and live) or pair == 14:
        return RAISE
    if pair and 14 in ranks and pair <= 8:
        return CALL
    return FOLD


def _later_street(
    variant: object,
    mine: list[Card],
    boards: list[list[Card]],
    seen: list[Card],
    street: int,
    price: float,
) -> int:
    """``price``: the call over the pot it would win."""
    if variant is RAZZ:
        size = min(5, len(mine))
        me = _low_strength(mine, size)
        best_board = min(_low_strength(board, len(board)) for board in boards)
        me_vs_board = _low_strength(mine, len(boards[0]))
        ahead = me_vs_board < best_board
        if me[0] <= 8 and size == 5 and ahead:
            return RAISE if me[0] <= 7 else BET
        if ahead and me[0] <= 9:
            return BET
        drawing = _low_strength(mine, min(5, len(mine) + 7 - street))[0] <= 9
        if street < 7 and drawing and price < 0.3:
            return CALL
        return CALL if ahead else FOLD
    category, top = _high_strength(mine)
    board_best = max(
        _high_strength(board) if len(board) > 1 else (0, board[0].rank) for board in boards
    )
    beaten = board_best[0] > category or (board_best[0] == category > 0 and board_best[1] > top)
    high_level = FOLD
    if category >= int(HandCategory.TWO_PAIR) and not beaten:
        high_level = RAISE
    elif category == int(HandCategory.PAIR) and not beaten:
        over = all(top >= max(card.rank for card in board) for board in boards)
        high_level = BET if over else CALL
    elif street < 7 and (_flush_draw(mine, seen) or _straight_draw(mine)):
        high_level = CALL if price < 0.35 else FOLD
    elif street == 7 and category == int(HandCategory.PAIR) and price < 0.15:
        high_level = CALL
    if variant is STUD_HIGH:
        return high_level
    lows = sorted({_low(card) for card in mine if _low(card) <= 8})
    if len(lows) >= 5:
        low_level = RAISE if sorted(lows)[4] <= 6 else BET
    elif street < 7 and len(lows) >= len(mine) - 2 and len(lows) + 7 - street >= 5:
        low_level = CALL if price < 0.4 else FOLD
    else:
        low_level = FOLD
    return max(high_level, low_level)


def _act(legal: LegalActions, level: int, bets: int) -> Decision:
    can_raise = bool(legal.raise_to) and bets < CAP
    if legal.bring_in is not None:
        return (
            Decision("raise_to", legal.raise_to[-1])
            if level >= BET and can_raise
            else (Decision("bring_in"))
        )
    if can_raise and (level >= RAISE or (level >= BET and bets == 0)):
        return Decision("raise_to", legal.raise_to[-1])
    if legal.check:
        return Decision("check")
    if level >= CALL or not legal.fold:
        return Decision("call")
    return Decision("fold")


def chart(hand: StudHand, seat: int, rng: random.Random) -> Decision:
    legal = hand.legal()
    mine = [card for card, _ in hand.cards(seat)]
    if hand.community is not None:
        mine.append(hand.community)
    live = [s for s in hand.dealing_order if s != seat and not hand.folded(s)]
    boards = [hand.up_cards(s) for s in live]
    seen = [card for s in hand.dealing_order if s != seat for card in hand.up_cards(s)]
    bets = _bets_this_street(hand)
    if hand.street == 3:
        level = _third_street(hand.variant, mine, [b[0] for b in boards], seen, bets > 0)
        if level == BET and bets > 0:
            level = FOLD  # a steal needs an unopened pot
    else:
        to_call = legal.call or 0
        price = to_call / (hand.pot + to_call) if to_call else 0.0
        level = _later_street(hand.variant, mine, boards, seen, hand.street, price)
    return _act(legal, level, bets)
