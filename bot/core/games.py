"""Which game a table deals: one of the stud family, or a rotation of all three.

A mixed table changes game every ``every`` hands, or, by default, after one orbit: as many hands
as players were dealt into the first hand of that game (what mixed games on PokerStars do).
The rotation's place is part of the table's saved settings, written with each hand it deals, so
a restart carries on where it was.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final

from engine import RAZZ, STUD_HI_LO, STUD_HIGH, Variant
from words import Texts

STUD: Final = "stud"
RAZZ_GAME: Final = "razz"
HI_LO: Final = "hilo"
MIXED: Final = "mixed"

VARIANTS: Final[dict[str, Variant]] = {STUD: STUD_HIGH, RAZZ_GAME: RAZZ, HI_LO: STUD_HI_LO}
# The order of the mixed rotation: the family's best-known game first.
ROTATION: Final = (STUD, RAZZ_GAME, HI_LO)
CHOICES: Final = (*ROTATION, MIXED)
MAX_EVERY: Final = 50
_KEYS: Final = {variant.name: key for key, variant in VARIANTS.items()}


def game_of(variant: Variant) -> str:
    """The game key (``"razz"``) of a hand's variant."""
    return _KEYS[variant.name]


def game_name(texts: Texts, game: str, lang: str) -> str:
    """A game's name ("stud", "razz", "hilo", "mixed") in ``lang``."""
    return texts.t(lang, f"game_{game}")


@dataclass(frozen=True, slots=True)
class Rotation:
    """The games a table deals in turn, and where it stands.

    ``index`` is the game dealt next; ``left`` is how many more hands of it to deal before the
    next game (``None`` until its first hand is dealt, when the orbit's length is known).
    """

    games: tuple[str, ...]
    every: int | None = None  # hands per game; None: one orbit
    index: int = 0
    left: int | None = None

    @classmethod
    def for_game(cls, game: str, every: int | None = None) -> Rotation:
        if game == MIXED:
            return cls(ROTATION, every)
        if game not in VARIANTS:
            raise ValueError(f"unknown game {game!r}")
        return cls((game,))

    @property
    def mixed(self) -> bool:
        return len(self.games) > 1

    @property
    def game(self) -> str:
        """The game of the next hand."""
        return self.games[self.index]

    @property
    def variant(self) -> Variant:
        return VARIANTS[self.game]

    @property
    def after(self) -> str:
        """The game that follows this one."""
        return self.games[(self.index + 1) % len(self.games)]

    @property
    def starts_game(self) -> bool:
        """The next hand is the first of its game (the channel is told it changes)."""
        return self.mixed and self.left is None

    def hands_left(self, players: int) -> int:
        """Hands of the current game still to come, the next one included."""
        if not self.mixed:
            raise ValueError("a table of one game never changes game")
        return self.left if self.left is not None else self.every or players

    def dealt(self, players: int) -> Rotation:
        """The rotation after one hand of :attr:`game` was dealt to ``players`` players."""
        if not self.mixed:
            return self
        left = self.hands_left(players) - 1
        if left > 0:
            return replace(self, left=left)
        return replace(self, index=(self.index + 1) % len(self.games), left=None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": list(self.games),
            "every": self.every,
            "index": self.index,
            "left": self.left,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rotation:
        games = tuple(data["games"])
        if not games or any(game not in VARIANTS for game in games):
            raise ValueError(f"unknown games in a rotation: {games!r}")
        index, left, every = data["index"], data["left"], data["every"]
        if not 0 <= index < len(games) or (left is not None and left < 1):
            raise ValueError(f"a rotation can't stand at game {index} with {left} hands left")
        return cls(games, every, index, left)
