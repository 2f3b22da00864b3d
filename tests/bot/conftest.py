"""Fixtures of the core's tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.core import dealer
from bot.core.storage import Store
from tests.bot.tournament_run import Seeded, TournamentRun
from tests.databases import Location


@pytest.fixture
async def store(database: Location) -> AsyncIterator[Store]:
    """A store on a new database, once for each backend."""
    opened = await Store.open(database)
    yield opened
    await opened.close()


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> Seeded:
    """A tournament run whose decks come from its seed: the same hands every time, on both
    backends."""

    def seed(run: TournamentRun) -> TournamentRun:
        monkeypatch.setattr(dealer, "shuffled_deck", run.deck)
        return run

    return seed
