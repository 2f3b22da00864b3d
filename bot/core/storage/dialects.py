"""How a migration's statement is written when the two databases need it differently."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias


@dataclass(frozen=True)
class Dialects:
    """A statement written for each database; ``None``: nothing to run on that one."""

    sqlite: str | None
    postgresql: str | None


Statement: TypeAlias = str | Dialects
