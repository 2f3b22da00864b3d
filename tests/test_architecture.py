"""The layers hold: the contracts in pyproject.toml ([tool.importlinter]) are checked here, so
CI fails when, say, the core imports discord or a cog reaches into the engine. And no class of
the bot has more than 20 public methods: a front door that wide is several. A file is as long
as its one concern needs: its lines are not counted."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]
MAX_PUBLIC_METHODS = 20
# Where the classes are checked: the bot and its cogs.
SIZED = (ROOT / "bot", ROOT / "cogs")


def test_the_import_contracts_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def lint_throwaway(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], contract: str
) -> int:
    """lint_imports on a throwaway package ``shop`` (``files``: path -> text) with one
    contract (TOML lines after the contract's header)."""
    for name, text in files.items():
        path = tmp_path / "shop" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    config = tmp_path / "contracts.toml"
    config.write_text(
        "[tool.importlinter]\n"
        'root_packages = ["shop"]\n'
        "include_external_packages = true\n"
        'contract_types = ["allowed_imports: tests.contracts.AllowedImports"]\n'
        "[[tool.importlinter.contracts]]\n" + contract
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [str(tmp_path), str(ROOT), *sys.path])
    return int(lint_imports(config_filename=str(config), no_cache=True))


def test_a_core_module_importing_discord_would_break_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same kind of contract, on a throwaway package whose core imports discord."""
    files = {"__init__.py": "", "core/__init__.py": "import discord\n"}
    contract = (
        'name = "no discord in the core"\n'
        'type = "forbidden"\n'
        'source_modules = ["shop.core"]\n'
        'forbidden_modules = ["discord"]\n'
    )
    assert lint_throwaway(tmp_path, monkeypatch, files, contract) == 1


def test_an_edge_importing_a_core_module_not_on_its_list_would_break_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The allow-list contract (tests/contracts.py) that keeps the edge on the core's views."""
    files = {
        "__init__.py": "",
        "core/__init__.py": "",
        "core/views.py": "",
        "core/state.py": "",
        "edge/__init__.py": "from shop.core import views\n",
    }
    contract = (
        'name = "the edge sees views"\n'
        'type = "allowed_imports"\n'
        'source_modules = ["shop.edge"]\n'
        'package = "shop.core"\n'
        'allowed_modules = ["shop.core.views"]\n'
    )
    assert lint_throwaway(tmp_path, monkeypatch, files, contract) == 0
    files = {"edge/click.py": "from shop.core.state import x\n"}
    assert lint_throwaway(tmp_path, monkeypatch, files, contract) == 1


def oversized(path: Path) -> list[str]:
    """The classes in ``path`` with more public methods than the limit."""
    source = path.read_text(encoding="utf-8")
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            public = [
                item.name
                for item in node.body
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                and not item.name.startswith("_")
            ]
            if len(public) > MAX_PUBLIC_METHODS:
                found.append(
                    f"{path}: class {node.name} has {len(public)} public methods"
                    f" (at most {MAX_PUBLIC_METHODS})"
                )
    return found


def test_no_class_outgrows_a_reader() -> None:
    paths = sorted(path for folder in SIZED for path in folder.rglob("*.py"))
    assert paths
    assert [problem for path in paths for problem in oversized(path)] == []


def test_a_wide_class_would_be_caught(tmp_path: Path) -> None:
    wide = tmp_path / "wide.py"
    methods = "".join(f"    def m{n}(self) -> None: ...\n" for n in range(MAX_PUBLIC_METHODS + 1))
    wide.write_text(f"class Wide:\n    def _private(self) -> None: ...\n{methods}")
    fits = tmp_path / "fits.py"
    fits.write_text("class Fits:\n" + methods.replace("def m0(", "def _m0("))
    assert oversized(wide) == [
        f"{wide}: class Wide has {MAX_PUBLIC_METHODS + 1} public methods"
        f" (at most {MAX_PUBLIC_METHODS})"
    ]
    assert oversized(fits) == []


def class_names(path: Path) -> list[str]:
    return [
        node.name
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.ClassDef)
    ]


def test_no_class_name_means_two_things() -> None:
    """A class name says one thing across the bot and its cogs: the store's records, the
    core's objects and the cogs' commands are named apart."""
    where: dict[str, list[str]] = {}
    for folder in SIZED:
        for path in sorted(folder.rglob("*.py")):
            for name in class_names(path):
                where.setdefault(name, []).append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}
