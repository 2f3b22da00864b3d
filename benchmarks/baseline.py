"""The computer players as they were before they read their opponents, for the benchmark to play
against: ``strategy/`` at ``BEFORE``, taken from the repository's history when first imported
(``git archive``) into a folder of its own under another package name, never copied into the
tree. Needs a clone with that commit (not a shallow one)."""

from __future__ import annotations

import atexit
import importlib
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Final

BEFORE: Final = "55a43d1"
PACKAGE: Final = "stud_strategy_before"
ROOT = Path(__file__).resolve().parent.parent


def load() -> ModuleType:
    """``strategy`` at ``BEFORE``, importable as ``PACKAGE`` (loaded once a process)."""
    if PACKAGE in sys.modules:
        return sys.modules[PACKAGE]
    folder = Path(tempfile.mkdtemp(prefix="stud-strategy-before-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", BEFORE, "strategy"], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    package = folder / PACKAGE
    (folder / "strategy").rename(package)
    for module in package.glob("*.py"):
        # Its own imports point at itself, not at today's strategy.
        text = re.sub(r"\bfrom strategy\b", f"from {PACKAGE}", module.read_text())
        module.write_text(text)
    sys.path.insert(0, str(folder))
    return importlib.import_module(PACKAGE)
