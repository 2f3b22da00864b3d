"""The built page shipped in the package (bot/activity/static) is exactly what its source
(bot/activity/page) builds to with the pinned packages: nobody runs npm to install the bot, so
a change to the source that was not built again would ship the old page unnoticed."""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[3]
PAGE = ROOT / "bot" / "activity" / "page"
STATIC = ROOT / "bot" / "activity" / "static"
BUDGET = 300_000  # bytes, gzipped: what a phone downloads before it can show the table


def _files(directory: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(directory)): path.read_bytes()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def _npm() -> str:
    npm = shutil.which("npm")
    if npm is None:
        reason = "npm is not installed: the page's build can't be checked (apt-get install npm)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason} (CI=true: the build must be checked)")
        pytest.skip(reason)
    return npm


@pytest.mark.slow
def test_the_shipped_page_is_what_its_source_builds_to(tmp_path: Path) -> None:
    npm = _npm()
    source = tmp_path / "page"
    shutil.copytree(PAGE, source, ignore=shutil.ignore_patterns("node_modules"))
    built = tmp_path / "static"
    env = {**os.environ, "STATIC_OUT": str(built)}
    for command in (
        [npm, "ci", "--prefer-offline", "--no-audit", "--no-fund"],
        [npm, "run", "build"],
    ):
        run = subprocess.run(
            command, cwd=source, env=env, capture_output=True, text=True, timeout=600
        )
        assert run.returncode == 0, f"{' '.join(command[1:])} failed:\n{run.stdout}\n{run.stderr}"
    shipped, fresh = _files(STATIC), _files(built)
    assert sorted(shipped) == sorted(fresh)
    stale = [name for name in fresh if shipped[name] != fresh[name]]
    assert not stale, f"bot/activity/static is not the page's build; run npm run build: {stale}"


def test_the_page_is_within_its_download_budget() -> None:
    """A count, not a time: the shipped files as a browser downloads them, compressed."""
    compressed = {name: len(gzip.compress(data, 9)) for name, data in _files(STATIC).items()}
    assert "index.html" in compressed and "assets/app.js" in compressed
    assert sum(compressed.values()) < BUDGET, compressed
