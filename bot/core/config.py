"""What a table was opened with: stakes, seats, buy-ins, clock, language, deck and game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.core.errors import TableError
from bot.core.games import CHOICES, MIXED, STUD, Rotation
from bot.core.settings import DEFAULT_TIME_BANK, GameDefaults
from engine.stakes import Stakes
from words import EN


@dataclass(frozen=True, slots=True)
class TableConfig:
    stakes: Stakes
    seats: int
    min_buy_in: int
    max_buy_in: int
    turn_seconds: float
    countdown_seconds: float
    lang: str = EN  # the channel's lines and the table's pictures
    four_colour: bool = False  # the deck on the table's pictures
    game: str = STUD  # one game of the family, or MIXED
    hands_per_game: int | None = None  # a mixed table's hands per game; None: one orbit
    time_bank: int = DEFAULT_TIME_BANK  # seconds a player may draw on once his turn runs out

    def to_settings(self) -> dict[str, Any]:
        return {
            "stakes": self.stakes.to_dict(),
            "turn_seconds": self.turn_seconds,
            "countdown_seconds": self.countdown_seconds,
            "lang": self.lang,
            "four_colour": self.four_colour,
            "game": self.game,
            "hands_per_game": self.hands_per_game,
            "time_bank": self.time_bank,
        }

    @classmethod
    def from_options(
        cls,
        defaults: GameDefaults,
        lang: str,
        *,
        ante: int | None = None,
        bring_in: int | None = None,
        small_bet: int | None = None,
        big_bet: int | None = None,
        seats: int | None = None,
        min_buy_in: int | None = None,
        max_buy_in: int | None = None,
        turn_seconds: int | None = None,
        four_colour: bool = False,
        game: str = STUD,
        hands_per_game: int | None = None,
        time_bank: int | None = None,
    ) -> TableConfig:
        """What ``/table open`` asked for, the server's defaults filling what it left out."""
        if game not in CHOICES:
            raise TableError("illegal_action", reason=game)
        if hands_per_game is not None and game != MIXED:
            raise TableError("rotate_not_mixed")
        try:
            stakes = Stakes(
                defaults.ante if ante is None else ante,
                defaults.bring_in if bring_in is None else bring_in,
                defaults.small_bet if small_bet is None else small_bet,
                defaults.big_bet if big_bet is None else big_bet,
            )
        except ValueError as error:
            raise TableError("bad_stakes", reason=str(error)) from None
        default_min, default_max = defaults.buy_in_limits(stakes)
        return cls(
            stakes=stakes,
            seats=defaults.seats if seats is None else seats,
            min_buy_in=default_min if min_buy_in is None else min_buy_in,
            max_buy_in=default_max if max_buy_in is None else max_buy_in,
            turn_seconds=defaults.turn_seconds if turn_seconds is None else turn_seconds,
            countdown_seconds=defaults.countdown_seconds,
            lang=lang,
            four_colour=four_colour,
            game=game,
            hands_per_game=hands_per_game,
            time_bank=defaults.time_bank if time_bank is None else time_bank,
        )

    @classmethod
    def from_settings(
        cls, settings: dict[str, Any], seats: int, min_buy_in: int, max_buy_in: int
    ) -> TableConfig:
        return cls(
            stakes=Stakes.from_dict(settings["stakes"]),
            seats=seats,
            min_buy_in=min_buy_in,
            max_buy_in=max_buy_in,
            turn_seconds=settings["turn_seconds"],
            countdown_seconds=settings["countdown_seconds"],
            lang=settings.get("lang", EN),
            # Tables opened before the deck option have the two-colour deck; before the game
            # option, every table dealt Seven Card Stud.
            four_colour=settings.get("four_colour", False),
            game=settings.get("game", STUD),
            hands_per_game=settings.get("hands_per_game"),
            # Tables opened before time banks get the default one.
            time_bank=settings.get("time_bank", DEFAULT_TIME_BANK),
        )

    def rotation(self, settings: dict[str, Any] | None = None) -> Rotation:
        """Where the table's games stand: as saved in ``settings``, or at the start."""
        saved = (settings or {}).get("rotation")
        if saved is not None:
            return Rotation.from_dict(saved)
        return Rotation.for_game(self.game, self.hands_per_game)
