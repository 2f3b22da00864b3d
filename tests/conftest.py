"""Fixtures shared by every test folder."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests import databases
from tests.command_line import clean_shell
from tests.databases import BACKENDS, Location, create_postgresql, drop_postgresql, new_database

# The suite starts many Python processes (its test processes, the bot, a cluster's workers,
# the drawing process): where PYTHONDONTWRITEBYTECODE is set, each would compile the project and
# rewrite the tests' asserts again. Loaded before the test processes start, so they inherit it.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# How many examples each property test (@given) tries: "quick" unless HYPOTHESIS_PROFILE names
# "thorough", as CI does (.ci/run); no test sets a count of its own. Each example plays whole
# hands, so no deadline: a slow machine must not fail them.
settings.register_profile(
    "quick", max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough",
    max_examples=300,  # as many as any test asked for when the counts were its own, or more
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,  # a failure in CI says how to reproduce it
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "quick"))


def pytest_xdist_auto_num_workers() -> int:
    """``-n auto``: a test process a core and one more. The tests wait on sockets, databases and
    child processes for a part of their time (a third of it in the quick tier), which the one
    more fills with work."""
    return (os.cpu_count() or 1) + 1


def pytest_sessionfinish() -> None:
    databases.finish()  # the PostgreSQL databases made ahead and not taken


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Location]:
    """A new database at the latest schema, once for each backend (``tests/databases.py``)."""
    async with new_database(request.param, tmp_path / "stud.db", migrated=True) as location:
        yield location


@pytest.fixture(params=BACKENDS)
async def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Location]:
    """A new, empty database (no schema at all), once for each backend: for the tests of the
    migrations themselves."""
    async with new_database(request.param, tmp_path / "stud.db", migrated=False) as location:
        yield location


@pytest.fixture
def postgresql_url() -> Iterator[str]:
    """A new, empty PostgreSQL database, for tests that run their own event loop (``main()``)."""
    url = asyncio.run(create_postgresql())
    yield url
    asyncio.run(drop_postgresql(url))


@pytest.fixture
def shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """The environment ``stud-bot`` gets from an operator's shell, in an empty folder; see
    :func:`tests.command_line.stud_bot`."""
    yield from clean_shell(tmp_path, monkeypatch)
