"""Seeded sit-and-gos through the core with their races let loose (RULES 11.4-11.7): the order
in which ready tasks run shuffled, everything due at one moment woken together, players acting
at several tables at once (``tests/bot/tournament_stress.py``). After each: every player out
ranked once, places contiguous or tied, the chips audited after every hand, the pool paid once as
11.7 shares it. Twenty tournaments in the quick tier, three hundred in the slow one, each on a
SQLite file of its own (the races are the core's; the storage's are tested on both backends
elsewhere)."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest

from bot.core.storage import Store
from tests.bot.tournament_stress import ShuffledLoop, one_tournament
from tests.databases import migrated_sqlite


def play_seeds(
    seeds: range, folder: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> int:
    """Plays each seed's tournament; returns how many times hands met (``one_tournament``)."""
    caplog.set_level(logging.ERROR)
    met = 0
    for seed in seeds:
        path = folder / f"{seed}.db"
        loop = ShuffledLoop(random.Random(seed))
        try:
            met += loop.run_until_complete(_one(path, seed, monkeypatch))
            # No task failed (a step that lost its table, say), even if the end came right.
            assert not caplog.records, [r.getMessage() for r in caplog.records]
        except BaseException as error:
            raise AssertionError(f"seed {seed}") from error
        finally:
            loop.close()
            path.unlink(missing_ok=True)
            monkeypatch.undo()
    return met


async def _one(path: Path, seed: int, monkeypatch: pytest.MonkeyPatch) -> int:
    await migrated_sqlite(path)
    store = await Store.open(path)
    try:
        return await one_tournament(store, seed, monkeypatch)
    finally:
        await store.close()


def test_seeded_tournaments_end_with_every_place_and_chip_as_rule_11_says(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    met = play_seeds(range(20), tmp_path, caplog, monkeypatch)
    assert met > 0, "no two hands' ends ever met: the races were not let loose"


@pytest.mark.slow
@pytest.mark.parametrize("first", range(1000, 1300, 50), ids=lambda first: f"seeds {first}+")
def test_three_hundred_seeded_tournaments_with_their_races_loose(
    first: int, tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fifty seeds a test, so the test processes share the three hundred."""
    met = play_seeds(range(first, first + 50), tmp_path, caplog, monkeypatch)
    assert met > 0, "no two hands' ends ever met: the races were not let loose"
