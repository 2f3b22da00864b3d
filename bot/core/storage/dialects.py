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


def sqlite_ledger_swap(rebuilt: str) -> tuple[Dialects, ...]:
    """SQLite's end of building the ledger again (its CHECKs can't be altered in place): the
    copy ``rebuilt`` takes the ledger's name, and gets back the indexes and the append-only
    triggers that went with the old table (DROP TABLE fires none). PostgreSQL alters instead."""
    # As the migrations first wrote them: SQLite keeps a trigger's text as it was given.
    trigger = (
        "\n        CREATE TRIGGER ledger_no_{0} BEFORE {1} ON ledger"
        "\n        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END\n        "
    )
    return tuple(
        Dialects(sqlite=statement, postgresql=None)
        for statement in (
            "DROP TABLE ledger",
            f"ALTER TABLE {rebuilt} RENAME TO ledger",
            "CREATE INDEX ledger_by_wallet ON ledger (guild_id, user_id)",
            "CREATE INDEX ledger_by_hand ON ledger (hand_id) WHERE hand_id IS NOT NULL",
            "CREATE INDEX ledger_by_table ON ledger (table_id, user_id) WHERE table_id IS NOT NULL",
            trigger.format("update", "UPDATE"),
            trigger.format("delete", "DELETE"),
        )
    )
