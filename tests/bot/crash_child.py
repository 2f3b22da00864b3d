"""Child process for the crash test: plays one seeded hand through the store, committing after
every action, and prints one line per committed transaction so the parent knows where it is;
then waits for a line on its input before it goes on, so a busy parent that reads late still
kills it within the step it chose (the child would otherwise be several commits further).

Run as ``python -m tests.bot.crash_child DATABASE SEED`` from the repository root (DATABASE: a
SQLite file or a PostgreSQL URL). The parent kills it with SIGKILL somewhere in that run, reopens
the database and checks what survived.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.core.storage import Store
from engine import Card, Stakes, StudHand
from engine.cards import FULL_DECK
from engine.codec import encode

CHANNEL = 500
GUILD = 50
PLAYERS = (101, 102, 103, 104)
BUY_INS = (400, 300, 500, 250)
STAKES = Stakes(ante=1, bring_in=3, small_bet=10, big_bet=20)
COMMITMENT = "0" * 64  # the deck's hash is the bot's business; any fixed value will do here
SALT = "crash-test"


def new_hand(seed: int) -> StudHand:
    """The seeded hand every run of a given seed deals."""
    deck: list[Card] = list(FULL_DECK)
    random.Random(seed).shuffle(deck)
    return StudHand(stacks=list(BUY_INS), stakes=STAKES, deck=deck, dealer=len(BUY_INS) - 1)


def next_action(hand: StudHand, seed: int) -> tuple[str, int | None]:
    """A decision that depends only on the seed and how many actions were taken, so a hand
    restored from any saved point goes on exactly as the uninterrupted one would."""
    rng = random.Random(f"{seed}:{len(hand.to_dict()['actions'])}")
    legal = hand.legal()
    if legal.bring_in is not None:
        if legal.raise_to and rng.random() < 0.3:
            return "raise_to", legal.raise_to[0]
        return "bring_in", None
    if legal.raise_to and rng.random() < 0.35:
        return "raise_to", rng.choice(legal.raise_to)
    if legal.fold and rng.random() < 0.05:
        return "fold", None
    return ("check", None) if legal.check else ("call", None)


def play(hand: StudHand, seed: int, actions: int | None = None) -> None:
    """Apply the policy's actions (all of them, or the first ``actions``)."""
    while not hand.is_over and (actions is None or len(hand.to_dict()["actions"]) < actions):
        hand.apply(*next_action(hand, seed))


def report(line: str) -> None:
    print(line, flush=True)
    sys.stdin.readline()  # the parent's go-ahead (end of input: go on to the end)


async def run(database: str, seed: int) -> None:
    store = await Store.open(database)
    report("opened")
    await store.seating.open(
        CHANNEL, GUILD, PLAYERS[0], max_seats=8, min_buy_in=100, max_buy_in=1000
    )
    report("table")
    for user_id, buy_in in zip(PLAYERS, BUY_INS, strict=True):
        await store.seating.sit(CHANNEL, user_id, buy_in)
        report(f"sit {user_id}")
    hand = new_hand(seed)
    hand_id = await store.hands.start(
        CHANNEL,
        list(zip(PLAYERS, BUY_INS, strict=True)),
        encode(hand),
        commitment=COMMITMENT,
        salt=SALT,
    )
    report(f"hand {hand_id}")
    while not hand.is_over:
        hand.apply(*next_action(hand, seed))
        version = await store.hands.save_action(hand_id, encode(hand))
        report(f"action {version}")
    await store.hands.settle(hand_id, encode(hand), hand.stacks)
    report("settled")
    await store.close()
    report("closed")


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1], int(sys.argv[2])))
