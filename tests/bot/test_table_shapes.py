"""RULES 2.3, 2.4 and 5.5 through the table manager: every shape of hand the engine can deal,
including hands over before anyone decides (all in on the antes), settles, is shown, and the
next hand follows, with the chips conserved."""

from __future__ import annotations

import asyncio
import itertools
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core import dealer
from bot.core.games import CHOICES
from bot.core.storage import HandNotFound, HandRecord, Store
from engine.hand import StudHand
from engine.odds import AllInOdds, odds, position
from tests.bot.fakes import CHANNEL, GUILD, ManualClock, screened, seat_directly
from tests.databases import migrated_sqlite

# Hands dealt at most in each example: twelve in the slow tier (and CI), six in the quick one
# (the hands after the sixth took about a quarter of the examples' time).
MAX_HANDS = [pytest.param(12, id="12 hands", marks=pytest.mark.slow), pytest.param(6, id="6 hands")]
STARTING = 1000  # a new wallet's chips (Store.open's default)


def quick_all_in_odds(hand: StudHand, seed: int = 0) -> AllInOdds | None:
    """An all-in's odds counted as the dealer counts them, on a budget small enough that a
    run-out's count no longer takes most of each example: short stacks go all in often, and
    the results still show odds (exact or sampled). tests/engine/test_odds.py checks them at
    the dealer's own budget."""
    found = position(hand)
    return None if found is None else odds(found, seed, exact_limit=2_000, samples=200)


@pytest.fixture(autouse=True)
def quick_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dealer, "all_in_odds", quick_all_in_odds)


async def play(
    path: Path, stacks: list[int], ante: int, seed: int, game: str, max_hands: int
) -> None:
    rng = random.Random(seed)
    await migrated_sqlite(path)
    store = await Store.open(path)
    clock = ManualClock()
    try:
        await seat_directly(store, stacks, ante, game)
        manager, screen = screened(store, clock)
        await manager.recovery.restore()
        await clock.advance(0, manager)
        table = manager.seating.get(CHANNEL)
        while table.live is not None and table.live.hand_id <= max_hands:
            hand_id = table.live.hand_id
            while table.live is not None and table.live.hand_id == hand_id:
                actor = table.actor_id()
                assert actor is not None, "a live hand that is not over has an actor"
                specs = table.buttons()
                spec = rng.choice(specs)
                await manager.dealer.act(CHANNEL, actor, spec.action, spec.amount)
            await clock.advance(0, manager)
        await manager.recovery.shutdown()
        results = [r.hand_id for r in screen.results]
        # Every hand that was dealt and ended was settled once and shown once.
        dealt = await hands_dealt(store)
        ended = [record.hand_id for record in dealt if record.outcome is not None]
        assert results == ended and len(ended) >= len(dealt) - 1
        assert all(record.outcome == "settled" for record in dealt if record.outcome)
        if table.live is None:
            # No hand in play: fewer than two players with chips are left.
            assert len(table.eligible()) < 2
        await store.audit()
        # RULES 5.5: whatever happened, every player's chips (wallet, seat, hand) add up to
        # what the wallets held before anyone sat.
        wallets = [await store.wallets.get(GUILD, user) for user in range(1, len(stacks) + 1)]
        assert sum(wallet.total for wallet in wallets) == STARTING * len(stacks)
    finally:
        await store.close()


async def hands_dealt(store: Store) -> list[HandRecord]:
    found = []
    for hand_id in itertools.count(1):
        try:
            found.append(await store.hands.get(hand_id))
        except HandNotFound:
            return found
    raise AssertionError("unreachable")


# tmp_path_factory gives each example a folder of its own, which the health check can't know.
@pytest.mark.parametrize("max_hands", MAX_HANDS)
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    stacks=st.lists(st.integers(1, 120), min_size=2, max_size=8),
    ante=st.integers(1, 5),
    seed=st.integers(0, 2**32 - 1),
    game=st.sampled_from(CHOICES),
)
def test_every_hand_shape_settles_is_shown_and_the_next_follows(
    tmp_path_factory: pytest.TempPathFactory,
    max_hands: int,
    stacks: list[int],
    ante: int,
    seed: int,
    game: str,
) -> None:
    """Every game of the family, and the mixed rotation, on random short stacks."""
    path = tmp_path_factory.mktemp("shapes") / "stud.db"
    asyncio.run(play(path, stacks, ante, seed, game, max_hands))
