"""Child process for the freeze test: plays one seeded hand through the store (as the crash
test's child does) and, inside the settlement's transaction, prints ``inside`` and pauses a
moment, long enough for the parent to SIGSTOP it there. When it wakes, its transaction is gone
(the server cut it off); it says how it failed and settles again, as the bot would from what
the database holds.

Run as ``python -m tests.bot.freeze_child URL SEED`` from the repository root.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from bot.core.storage import Store
from bot.core.storage import wallets as wallet_sql
from engine.codec import encode
from tests.bot.crash_child import BUY_INS, CHANNEL, COMMITMENT, GUILD, PLAYERS, SALT, new_hand, play

add_results = wallet_sql.add_results


async def run(url: str, seed: int) -> None:
    store = await Store.open(url)
    await store.seating.open(
        CHANNEL, GUILD, PLAYERS[0], max_seats=8, min_buy_in=100, max_buy_in=1000
    )
    for user_id, buy_in in zip(PLAYERS, BUY_INS, strict=True):
        await store.seating.sit(CHANNEL, user_id, buy_in)
    hand = new_hand(seed)
    hand_id = await store.hands.start(
        CHANNEL,
        list(zip(PLAYERS, BUY_INS, strict=True)),
        encode(hand),
        commitment=COMMITMENT,
        salt=SALT,
    )
    play(hand, seed)
    frozen = False

    async def freezing(*args: Any) -> None:
        nonlocal frozen
        if not frozen:
            frozen = True
            print("inside", flush=True)
            await asyncio.sleep(0.5)  # the parent stops us here
        await add_results(*args)

    wallet_sql.add_results = freezing  # type: ignore[assignment]
    try:
        await store.hands.settle(hand_id, encode(hand), hand.stacks)
    except Exception as error:
        print(f"failed {type(error).__name__}", flush=True)
        await store.hands.settle(hand_id, encode(hand), hand.stacks)
    print("settled", flush=True)
    await store.close()


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1], int(sys.argv[2])))
