"""Fixtures shared by every test folder."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.databases import BACKENDS, Location, create_postgresql, drop_postgresql, new_database


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Location]:
    """A new, empty database, once for each backend (``tests/databases.py``)."""
    async with new_database(request.param, tmp_path / "stud.db") as location:
        yield location


@pytest.fixture
def postgresql_url() -> Iterator[str]:
    """A new, empty PostgreSQL database, for tests that run their own event loop (``main()``)."""
    url = asyncio.run(create_postgresql())
    yield url
    asyncio.run(drop_postgresql(url))
