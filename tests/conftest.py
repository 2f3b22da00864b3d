"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.databases import BACKENDS, Location, new_database


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Location]:
    """A new, empty database, once for each backend (``tests/databases.py``)."""
    async with new_database(request.param, tmp_path / "stud.db") as location:
        yield location
