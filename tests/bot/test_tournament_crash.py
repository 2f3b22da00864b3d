"""A tournament survives SIGKILLs of its process (RULES 11.4-11.8).

A child process runs the core against a SQLite file, registering 30 players for a sit-and-go
over 4 tables and playing it (``tests/bot/tournament_crash_child.py``). We SIGKILL it at seeded
moments and start it again, until the tournament has paid out: first at points of the
registrations and the start where the child waits to be killed (between two registrations,
after the last one and before its start, with some of the start's threads made, inside the
start's transaction), then at random moments a few milliseconds after it reports a hand dealt
with (so kills land mid-hand, mid-transaction and between a hand's end and the director's work
after it), and once inside the payout's transaction (the restart then pays out as it restores).
After every kill, from the database alone: the audit holds (the wallets' and the tournament's
own: its stacks and hands in play add up to a starting stack per entry, its pool to the
buy-ins), every place written before is still written, and a tournament still registering has
no table and each entrant's buy-in in its pool. At the end: places 1 to 30 each once (or tied as
RULES 11.4 says), the pool paid once and in full as 11.7 shares it, every wallet its buy-in down
and its prize up, every table closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sys
from pathlib import Path

import pytest

from bot.core.storage import NoTournament, Store
from bot.core.tournament.readings import finishes_of, in_dealing_order
from engine.tournament import award, prize_table
from tests.bot.tournament_crash_child import BUY_IN, PLAYERS
from tests.bot.tournament_run import places_are_each_taken_once
from tests.databases import query

ROOT = Path(__file__).resolve().parents[2]
SEED = 2112
STARTING_BALANCE = 1000  # the store's default, which the child uses

# Child processes, killed at random moments of their run.
pytestmark = pytest.mark.slow


async def run_and_kill(
    db: Path, number: int, hands: int, delay: float, pause: str | None = None
) -> tuple[list[str], int]:
    """Start the child; SIGKILL it ``delay`` seconds after it reports its ``hands``-th hand, or
    at once when it has paused at ``pause`` (a point of the registrations or the start, see the
    child), or let it end, if the tournament ends first."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.bot.tournament_crash_child",
        str(db),
        str(SEED),
        str(number),
        *([pause] if pause else []),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdout is not None
    reported: list[str] = []
    while sum(line.startswith("hand ") for line in reported) < hands:
        line = await child.stdout.readline()
        if not line:
            break
        reported.append(line.decode().strip())
        if reported[-1].startswith("paused "):
            delay = 0.0
            break
    await asyncio.sleep(delay)
    if child.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child.pid, signal.SIGKILL)
    # Whatever it printed before it died.
    reported += [line.decode().strip() for line in (await child.stdout.read()).splitlines()]
    return reported, await child.wait()


async def check_after_a_kill(db: Path, places: dict[int, int]) -> str:
    """The invariants that hold at any moment; ``places`` (user -> place) are those written
    so far, which no later run may change. Returns the tournament's state ("none" if the
    kill came before it was made)."""
    store = await Store.open(db)
    try:
        await store.audit()  # the tournament's chips and pool included
        try:
            tournament = await store.tournaments.get(1)
        except NoTournament:
            return "none"
        entries = await store.tournaments.entries(1)
        if tournament.state == "registering":
            # Each entrant's buy-in in the pool, nobody seated: a start is all or nothing.
            entered = {e.user_id for e in entries}
            assert entered <= set(PLAYERS)
            assert tournament.prize_pool == BUY_IN * len(entered)
            assert await store.tournaments.tables(1) == [] and await store.seating.tables() == []
            for user in PLAYERS:
                wallet = await store.wallets.get(1, user)
                assert wallet.balance == STARTING_BALANCE - BUY_IN * (user in entered)
            return tournament.state
        assert sorted(e.user_id for e in entries) == list(PLAYERS)
        written = {e.user_id: e.place for e in entries if e.place is not None}
        assert {user: written.get(user) for user in places} == places, "a place changed"
        places.update(written)
        if tournament.state == "running":
            assert tournament.prize_pool == BUY_IN * len(PLAYERS)
            (paid,) = await query(
                db, "SELECT count(*) AS n FROM ledger WHERE kind = 'tournament_prize'"
            )
            assert paid["n"] == 0, "no prize before the end"
        return tournament.state
    finally:
        await store.close()


async def test_a_tournament_survives_sigkills_of_its_process(tmp_path: Path) -> None:
    db = tmp_path / "tournament.db"
    rng = random.Random(SEED)
    places: dict[int, int] = {}
    kills = 0
    state = "none"
    # The first runs are killed at points of the registrations and the start: between two
    # registrations, after the last one before the start, with some threads made, and in the
    # start's transaction (the restart's own start, the crash having cut the first one short).
    pauses = [
        f"registering:{rng.randint(20, 29)}",
        "thread:1",
        f"thread:{rng.randint(2, 4)}",
        f"seat:{rng.randint(2, 30)}",
    ]
    # Once, the kill comes inside the payout's transaction: the restart then ends the
    # tournament as it restores, before anything is dealt.
    killed_paying = False
    for number in itertools_count():
        starting = number < len(pauses)
        pause = pauses[number] if starting else None if killed_paying else "finish"
        # Otherwise killed after 1 to 12 hands, up to 30 ms after the last one was dealt with.
        reported, code = await run_and_kill(
            db, number, rng.randint(1, 12), rng.uniform(0, 0.03), pause
        )
        if starting:
            assert reported[-1] == f"paused {pause}", reported
        killed_paying = killed_paying or reported[-1:] == ["paused finish"]
        # A restart's own start (or payout) pauses before the restore is over.
        first = "created" if number == 0 else "restored"
        assert reported[0] == first or reported == [f"paused {pause}"], reported
        if code == 0:
            assert reported[-1] == "finished"
        else:
            assert code == -signal.SIGKILL
            kills += 1
        state = await check_after_a_kill(db, places)
        # A start cut short left nothing: the restart starts it; a payout cut short paid nothing.
        assert not starting or state == "registering", (pause, state)
        assert reported[-1:] != ["paused finish"] or state == "running", state
        if state == "finished":
            break
        assert number < 300, "the tournament never ended"
    assert killed_paying
    assert kills >= 10, kills  # 18 or 19 with this seed (4 during the registrations and start)

    store = await Store.open(db)
    try:
        await store.audit()
        done = await store.tournaments.get(1)
        assert (done.state, done.prize_pool) == ("finished", 0)
        entries = await store.tournaments.entries(1)
        final = {e.user_id: e.place for e in entries}
        assert None not in final.values()
        places_are_each_taken_once({user: place for user, place in final.items() if place})
        # The pool paid once, in full, as 11.7's table shares it among the places (ties share).
        pool = BUY_IN * len(PLAYERS)
        # Ties in 11.4's order, as the store's hands give it: the odd chip to the first.
        finishes = await in_dealing_order(store, 1, finishes_of(entries))
        expected = award([(f.place, f.players) for f in finishes], prize_table(pool, len(PLAYERS)))
        prizes = {e.user_id: e.prize for e in entries if e.prize}
        assert prizes == expected and sum(prizes.values()) == pool
        rows = await query(
            db,
            "SELECT user_id, count(*) AS n, sum(wallet_delta) AS paid FROM ledger"
            " WHERE kind = 'tournament_prize' GROUP BY user_id",
        )
        assert {int(r["user_id"]): (int(r["n"]), int(r["paid"])) for r in rows} == {
            user: (1, prize) for user, prize in prizes.items()
        }
        for user in PLAYERS:
            wallet = await store.wallets.get(1, user)
            assert wallet.balance == STARTING_BALANCE - BUY_IN + prizes.get(user, 0)
            assert wallet.seated == 0
        assert await store.tournaments.tables(1) == []
    finally:
        await store.close()


def itertools_count() -> range:
    return range(10**6)
