"""Crash safety for real.

A child process plays a seeded hand through the store, committing after every action
(``tests/bot/crash_child.py``). We SIGKILL it at many different points of that run, from setup to
settlement, at a random delay after it reports a commit (so some kills land mid-transaction),
then reopen the database and check that:

- ``audit()`` holds (no chip created or lost);
- nothing the child had reported as committed is missing;
- a live hand comes back exactly as of its last committed action, and either plays on from there
  to the same result as an uninterrupted run, or is voided with every chip returned;
- a settled hand was paid exactly once, and settling it again pays nothing.

On SQLite and on PostgreSQL, where each killed run gets a database of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.core.storage import HandNotLive, Store
from engine import StudHand
from engine.codec import decode, encode
from tests.bot.crash_child import BUY_INS, CHANNEL, GUILD, PLAYERS, new_hand, next_action, play
from tests.databases import BACKENDS, Location, new_database, query

ROOT = Path(__file__).resolve().parents[2]
SEED = 5  # a long hand: 48 actions, an all-in and a side pot
PARALLEL = 4
STARTING_BALANCE = 1000  # the store's default, which the child uses

# Child processes, killed at random moments of their run.
pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Outcome:
    """Where a killed run stopped, as found in the database after reopening it."""

    phase: str  # "setup", "live" or "settled"
    committed: int  # seats taken during setup, or saved actions for a hand
    exit_code: int | None


def reference_hand(actions: int | None = None) -> StudHand:
    hand = new_hand(SEED)
    play(hand, SEED, actions)
    return hand


def expected_lines() -> list[str]:
    """What an uninterrupted child prints, one line per committed transaction."""
    actions = len(reference_hand().to_dict()["actions"])
    return [
        "opened",
        "table",
        *(f"sit {user_id}" for user_id in PLAYERS),
        "hand 1",
        *(f"action {n}" for n in range(1, actions + 1)),
        "settled",
        "closed",
    ]


async def run_and_kill(db: Location, lines_before_kill: int, delay: float) -> tuple[list[str], int]:
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.bot.crash_child",
        str(db),
        str(SEED),
        cwd=ROOT,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdin is not None and child.stdout is not None
    reported: list[str] = []
    while len(reported) < lines_before_kill:
        line = await child.stdout.readline()
        if not line:
            break
        reported.append(line.decode().strip())
        child.stdin.write(b"go\n")  # it waits for this after each line
    await asyncio.sleep(delay)
    if child.returncode is None:
        # It may have finished on its own since the check.
        with contextlib.suppress(ProcessLookupError):
            os.kill(child.pid, signal.SIGKILL)
    code = await child.wait()
    return reported, code


async def ledger_count(db: Location, kind: str) -> int:
    (row,) = await query(db, f"SELECT count(*) AS n FROM ledger WHERE kind = '{kind}'")
    return int(row["n"])


async def recover_and_check(db: Location, reported: list[str], finish_by_voiding: bool) -> Outcome:
    reported_actions = sum(1 for line in reported if line.startswith("action "))
    reference = reference_hand()
    store = await Store.open(db)
    try:
        await store.audit()
        table = await store.seating.table(CHANNEL)
        hand = await store.hands.last_for(PLAYERS[0], guild_id=GUILD)
        if hand is None:
            assert not any(line.startswith("hand") for line in reported), "a reported hand is lost"
            seated = [] if table is None else await store.seating.seats(CHANNEL)
            reported_sits = sum(1 for line in reported if line.startswith("sit "))
            assert len(seated) >= reported_sits, "a reported buy-in is lost"
            if "table" in reported:
                assert table is not None, "a reported table is lost"
            for seat in seated:
                wallet = await store.wallets.get(GUILD, seat.user_id)
                assert wallet.balance + seat.stack == STARTING_BALANCE
            return Outcome("setup", len(seated), None)

        if hand.is_live:
            assert "settled" not in reported, "a reported settlement is lost"
            assert hand.version >= reported_actions, "a reported action is lost"
            # The hand is exactly as of its last committed action...
            expected = reference_hand(hand.version)
            assert hand.state == encode(expected)
            restored = decode(hand.state)
            assert restored.events == expected.events
            assert restored.stacks == expected.stacks
            if finish_by_voiding:
                await store.hands.void(hand.hand_id, reason="could not be restored")
                for seat, buy_in in zip(await store.seating.seats(CHANNEL), BUY_INS, strict=True):
                    assert seat.stack == buy_in, "a voided hand must return every chip"
            else:
                # ... and plays on from there to the same end as the uninterrupted hand.
                while not restored.is_over:
                    restored.apply(*next_action(restored, SEED))
                    await store.hands.save_action(hand.hand_id, encode(restored))
                    await store.audit()
                assert restored.stacks == reference.stacks
                await store.hands.settle(hand.hand_id, encode(restored), restored.stacks)
            outcome = Outcome("live", hand.version, None)
        else:
            assert hand.outcome == "settled"
            assert hand.version == len(reference.to_dict()["actions"])
            outcome = Outcome("settled", hand.version, None)

        # Whatever happened, the hand ended exactly once and pays nothing more.
        final = [seat.stack for seat in await store.seating.seats(CHANNEL)]
        if hand.is_live and finish_by_voiding:
            assert final == list(BUY_INS)
        else:
            assert final == reference.stacks
        with pytest.raises(HandNotLive):
            await store.hands.settle(hand.hand_id, encode(reference), reference.stacks)
        with pytest.raises(HandNotLive):
            await store.hands.void(hand.hand_id, reason="again")
        assert [seat.stack for seat in await store.seating.seats(CHANNEL)] == final
        ended_rows = await ledger_count(db, "hand_result") + await ledger_count(db, "hand_void")
        assert ended_rows == len(PLAYERS)
        for user_id, buy_in, stack in zip(PLAYERS, BUY_INS, final, strict=True):
            wallet = await store.wallets.get(GUILD, user_id)
            assert (wallet.balance, wallet.seated) == (STARTING_BALANCE - buy_in, stack)
        await store.audit()
        return outcome
    finally:
        await store.close()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_sigkill_at_many_points_loses_no_chip_and_pays_once(
    tmp_path: Path, backend: str
) -> None:
    """SIGKILL at >= 30 different points over a hand; audit, restore, no
    double payout."""
    lines = expected_lines()
    rng = random.Random(20240601)
    limit = asyncio.Semaphore(PARALLEL)

    async def trial(lines_before_kill: int) -> Outcome:
        # Up to 1 ms after the reported commit: the child is by then somewhere in the next
        # action, often inside a transaction (an action's commit is short with
        # synchronous=NORMAL: a longer delay lands most kills at the same few points).
        delay = rng.uniform(0, 0.001)
        async with (
            limit,
            new_database(backend, tmp_path / f"kill-{lines_before_kill}.db", migrated=False) as db,
        ):
            reported, code = await run_and_kill(db, lines_before_kill, delay)
            assert reported == lines[: len(reported)]
            if isinstance(db, Path) and not db.exists():
                return Outcome("before-open", 0, code)
            outcome = await recover_and_check(db, reported, lines_before_kill % 3 == 0)
        return Outcome(outcome.phase, outcome.committed, code)

    # One kill after every line the child prints: setup, each of the 48 actions, settlement.
    outcomes = await asyncio.gather(*(trial(n) for n in range(1, len(lines) - 1)))

    killed = [o for o in outcomes if o.exit_code == -signal.SIGKILL]
    points = {(o.phase, o.committed) for o in killed}
    assert len(points) >= 30, f"only {len(points)} different kill points: {sorted(points)}"
    assert any(o.phase == "live" for o in killed)
    assert any(o.phase == "setup" for o in killed)
