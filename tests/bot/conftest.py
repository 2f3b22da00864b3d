"""Fixtures of the core's tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.core.storage import Store
from tests.databases import Location


@pytest.fixture
async def store(database: Location) -> AsyncIterator[Store]:
    """A store on a new database, once for each backend."""
    opened = await Store.open(database)
    yield opened
    await opened.close()
