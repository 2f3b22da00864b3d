"""An import-linter contract type the built-in ones lack: of one package, a set of modules may
import only the modules named (an allow-list, where ``forbidden`` is a deny-list).

Registered in pyproject.toml (``contract_types``); tests/test_architecture.py runs it.
"""

from __future__ import annotations

from grimp import ImportGraph
from importlinter.application import output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


class AllowedImports(Contract):
    """``source_modules`` (and their submodules) import, of ``package``, only the modules in
    ``allowed_modules`` (and their submodules), directly. What those import in turn is theirs."""

    type_name = "allowed_imports"

    source_modules = fields.ListField(subfield=fields.ModuleField())
    package = fields.ModuleField()
    allowed_modules = fields.ListField(subfield=fields.ModuleField())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        package = self.package.name  # type: ignore[attr-defined]
        allowed = [module.name for module in self.allowed_modules]  # type: ignore[attr-defined]
        broken: list[tuple[str, str, list[int]]] = []
        for source in self.source_modules:  # type: ignore[attr-defined]
            for importer in sorted({source.name} | graph.find_descendants(source.name)):
                for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                    if not _within(imported, package) or any(_within(imported, a) for a in allowed):
                        continue
                    details = graph.get_import_details(importer=importer, imported=imported)
                    broken.append((importer, imported, [d["line_number"] for d in details]))
        return ContractCheck(kept=not broken, warnings=[], metadata={"broken": broken})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for importer, imported, lines in check.metadata["broken"]:
            where = ", ".join(f"l.{line}" for line in lines)
            output.print_error(f"{importer} is not allowed to import {imported} ({where})")
