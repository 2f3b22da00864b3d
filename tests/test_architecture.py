"""The layers hold: the contracts in pyproject.toml ([tool.importlinter]) are checked here, so
CI fails when, say, the core imports discord or a cog reaches into the engine."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def test_a_core_module_importing_discord_would_break_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same kind of contract, on a throwaway package whose core imports discord."""
    package = tmp_path / "shop"
    (package / "core").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "core" / "__init__.py").write_text("import discord\n")
    config = tmp_path / "contracts.toml"
    config.write_text(
        "[tool.importlinter]\n"
        'root_packages = ["shop"]\n'
        "include_external_packages = true\n"
        "[[tool.importlinter.contracts]]\n"
        'name = "no discord in the core"\n'
        'type = "forbidden"\n'
        'source_modules = ["shop.core"]\n'
        'forbidden_modules = ["discord"]\n'
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    assert lint_imports(config_filename=str(config), no_cache=True) == 1
