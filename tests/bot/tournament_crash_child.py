"""Child process for the tournament crash test: the core, as the bot
runs it, playing a sit-and-go of random players against a SQLite file on a clock it moves
itself, until the parent kills it with SIGKILL.

Run as ``python -m tests.bot.tournament_crash_child DATABASE SEED RUN [PAUSE]`` from the
repository root. The first run (no tournament in DATABASE yet) creates it and prints
``created``; a later run restores what the store holds, as the bot does after a crash (starting
a sit-and-go whose start the crash cut short), and prints ``restored``. While it is registering,
each run registers those not in yet (the 30th starts it). Each prints ``hand N`` when the
director has dealt with a hand's end, and ``finished`` (then exits) once the tournament has paid
out. Decisions and decks come from ``SEED`` and ``RUN``: a run is repeatable, each restart plays
on differently.

``PAUSE`` stops the run at one point of the registrations, the start or the end, for the parent
to kill it exactly there: it prints ``paused PAUSE`` and waits. ``registering:N`` is before the
N-th registration; ``thread:N`` before table N's thread is made (``thread:1``: the last
registration committed, the start not begun); ``seat:N`` inside the start's transaction, before
the N-th player is seated (N - 1 seated, nothing committed); ``finish`` inside the payout's
transaction (the last hand over, the winner known, nothing paid). A run restored after that
kill finishes the tournament as it restores (the director ranks the last player out before
anything is dealt): it has no director left to play with, and prints ``finished``.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import sys
from typing import Any

from bot.core import dealer
from bot.core.storage import Store, Tournament
from bot.core.storage import tournaments as stored
from engine.cards import FULL_DECK, Card
from tests.bot.fakes import GUILD, Lobby, ManualClock, screened

PLAYERS = tuple(range(1001, 1031))  # 30 players
SEATS = 8  # over 4 tables: 8, 8, 7, 7
BUY_IN = 100
LEVEL_HANDS = 4
COUNTDOWN = 5.0


def report(line: str) -> None:
    print(line, flush=True)


async def run(database: str, seed: int, number: int, pause_at: str | None) -> None:
    rng = random.Random(f"{seed}:{number}")

    async def pause(point: str) -> None:
        if point == pause_at:
            report(f"paused {point}")
            await asyncio.Event().wait()  # until the parent's SIGKILL

    real_seat = stored.seat
    seated = itertools.count(1)

    async def seat(*args: Any) -> None:
        await pause(f"seat:{next(seated)}")
        await real_seat(*args)

    stored.seat = seat  # type: ignore[assignment]
    real_finish = stored.finish

    async def finish(*args: Any) -> None:
        await pause("finish")
        await real_finish(*args)

    stored.finish = finish  # type: ignore[assignment]

    def deck() -> list[Card]:
        cards = list(FULL_DECK)
        rng.shuffle(cards)
        return cards

    dealer.shuffled_deck = deck  # type: ignore[attr-defined]
    store = await Store.open(database)
    clock = ManualClock()
    # Thread ids from a range of this run's own: a table is never opened again after a
    # restart, but the ids must not collide with the tables of the runs before.
    threads = itertools.count(10_000 * (number + 1))

    async def thread(tournament: Tournament, table: int) -> int:
        await pause(f"thread:{table}")
        return next(threads)

    house, _ = screened(store, clock, lobby=Lobby(on_make_thread=thread))
    active = await store.tournaments.active()
    if not active:
        tournament = await house.tournaments.create(
            GUILD,
            77,
            PLAYERS[0],
            game="stud",
            buy_in=BUY_IN,
            seats=SEATS,
            level_unit="hands",
            level_length=LEVEL_HANDS,
            start_entrants=len(PLAYERS),
            turn_seconds=60,
            countdown_seconds=COUNTDOWN,
            seed=seed,
        )
        report("created")
    else:
        (tournament,) = active
        await house.recovery.restore()
        # A start the crash cut short comes in a task of the restore's.
        await clock.until_idle(lambda: house.tasks)
        report("restored")
    tid = tournament.tournament_id
    if (await store.tournaments.get(tid)).state == "finished":
        # The restore itself ended it (the crash came between its last hand and the payout):
        # no director is left to play with.
        report("finished")
        await house.tasks.stop()
        await store.close()
        return
    if tid not in house.tournaments.directors:
        # Still registering: those not in yet register, and the last one starts it.
        entered = {e.user_id for e in await store.tournaments.entries(tid)}
        for user in PLAYERS:
            if user not in entered:
                entered.add(user)
                await pause(f"registering:{len(entered)}")
                await house.tournaments.register(GUILD, tid, user)
    director = house.tournaments.directors[tid]
    hands = 0
    while not director.finished:
        acted = False
        for table in list(director.tables.values()):
            live = table.live
            actor = table.actor_id()
            if live is None or actor is None:
                continue
            spec = rng.choice(table.buttons())
            await house.dealer.act(table.channel_id, actor, spec.action, spec.amount)
            acted = True
            if table.live is not live:
                await clock.until_idle(lambda: house.tasks)
                hands += 1
                report(f"hand {hands}")
        if not acted:
            await clock.until_idle(lambda: house.tasks)
            await clock.advance(COUNTDOWN, house)
    await clock.until_idle(lambda: house.tasks)
    report("finished")
    await house.tasks.stop()
    await store.close()


if __name__ == "__main__":
    asyncio.run(
        run(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] if sys.argv[4:] else None)
    )
