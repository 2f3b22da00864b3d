"""The core's frozen views as the page reads them: JSON, field by field (docs/activity.md).

A card is its two-letter string ("As"), an enum its value, a Discord id (a field named ``*_id``,
or the ``users`` of a hand) a string, since JavaScript's numbers lose digits of a snowflake; a
clock instant (``deadline``, ``next_hand_at``, ``next_at``) is sent as seconds from now under the
same name with ``_in``, so the page counts down from its own receipt whatever its clock says.
What the page has no use for is left out: a hand's ``picture`` (its public cards and labels
again, without the figures) and the picture's ``words`` (the page has its own, in ``welcome``).
"""

from __future__ import annotations

import dataclasses
import enum
import json
from functools import cache
from typing import Any, Final

from bot.core.views import PrivateView, ResultsView, TableView
from engine.cards import Card

INSTANTS: Final = frozenset({"deadline", "next_hand_at", "next_at"})
IDS: Final = frozenset({"users"})  # tuples of Discord ids, besides the fields named *_id
LEFT_OUT: Final = frozenset({"picture", "words"})

KINDS: Final = {TableView: "table", ResultsView: "results", PrivateView: "cards"}


@cache
def _names(kind: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(kind) if f.name not in LEFT_OUT)


def encode(value: Any, now: float) -> Any:
    """``value`` (a view, or any part of one) as JSON's types, instants counted from ``now``."""
    if value is None or isinstance(value, bool | str | float):
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, int):
        return int(value)  # a hand's value (an int subclass) as a plain number
    if isinstance(value, tuple | list):
        return [encode(item, now) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for name in _names(type(value)):
            item = getattr(value, name)
            if name in INSTANTS:
                out[f"{name}_in"] = None if item is None else round(max(0.0, item - now), 1)
            elif name.endswith("_id") or name in IDS:
                out[name] = _ids(item)
            else:
                out[name] = encode(item, now)
        return out
    raise TypeError(f"no JSON for {type(value).__name__}")


def _ids(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [str(item) for item in value]
    return None if value is None else str(value)


def frame(view: TableView | ResultsView | PrivateView, now: float) -> str:
    """The message that carries ``view`` to the page."""
    return dumps({"type": KINDS[type(view)], "view": encode(view, now)})


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)
