"""Fixed-limit stakes (RULES 1.2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Stakes:
    """Ante, bring-in, small bet and big bet in chips: ``0 <= A``, ``0 < B <= S < L``."""

    ante: int
    bring_in: int
    small_bet: int
    big_bet: int

    def __post_init__(self) -> None:
        for name in ("ante", "bring_in", "small_bet", "big_bet"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"{name} must be a whole number of chips, not {value!r}")
        if self.ante < 0:
            raise ValueError("the ante can't be negative")
        if not 0 < self.bring_in <= self.small_bet:
            raise ValueError("the bring-in must be more than 0 and at most the small bet")
        if not self.small_bet < self.big_bet:
            raise ValueError("the big bet must be larger than the small bet")

    def __str__(self) -> str:
        return f"{self.small_bet}/{self.big_bet} (ante {self.ante}, bring-in {self.bring_in})"

    def to_dict(self) -> dict[str, int]:
        return {
            "ante": self.ante,
            "bring_in": self.bring_in,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Stakes:
        return cls(data["ante"], data["bring_in"], data["small_bet"], data["big_bet"])


DEFAULT_STAKES = Stakes(ante=1, bring_in=3, small_bet=10, big_bet=20)
