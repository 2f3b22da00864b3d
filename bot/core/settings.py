"""Process settings from the environment and an optional ``.env`` file.

``.env`` is read by pydantic-settings (python-dotenv's parser: ``export``, quotes, inline
``# comments``, blank values), the one reader of it: systemd and Docker hand the bot the file,
not their own reading of it. Real environment variables win over the file, so a deployment can
override a checked-out ``.env``. Every value is then checked here, each mistake one line for
the operator (:class:`SettingsError`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from bot.core.shards import Shards, parse_shard_ids
from bot.core.storage.backend import is_postgresql
from engine.stakes import Stakes


class SettingsError(Exception):
    """A setting is missing or malformed; ``str()`` is one line for the operator."""


DEFAULT_TIME_BANK = 60  # seconds; tables opened before time banks get this one


@dataclass(frozen=True)
class GameDefaults:
    """What ``/table open`` uses when the opener leaves an option out (RULES 1.2)."""

    ante: int = 1
    bring_in: int = 3
    small_bet: int = 10
    big_bet: int = 20
    seats: int = 8
    min_buy_in: int = 100
    max_buy_in: int = 1000
    turn_seconds: int = 60
    countdown_seconds: float = 10
    time_bank: int = DEFAULT_TIME_BANK

    @property
    def stakes(self) -> Stakes:
        return Stakes(self.ante, self.bring_in, self.small_bet, self.big_bet)

    def buy_in_limits(self, stakes: Stakes) -> tuple[int, int]:
        """Default buy-in limits for a table at ``stakes``: the configured limits, multiplied
        by how many times the default big bet fits in the table's (at least once)."""
        scale = max(stakes.big_bet // self.big_bet, 1) if stakes != self.stakes else 1
        return self.min_buy_in * scale, self.max_buy_in * scale


@dataclass(frozen=True, slots=True)
class ActivitySettings:
    """The table as a Discord Activity (docs/activity.md): the web server's port and address,
    the application's OAuth2 secret, and the public HTTPS address Discord's proxy reaches it
    at."""

    port: int
    client_secret: str = field(repr=False)
    url: str
    host: str = "127.0.0.1"


@dataclass(frozen=True, slots=True)
class Settings:
    token: str = field(repr=False)  # never printed, not even by repr() in a traceback
    database_path: str = "stud.db"
    database_url: str = field(default="", repr=False)  # it may hold a password
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    starting_chips: int = 1000
    daily_chips: int = 200
    daily_cooldown_hours: int = 20
    game: GameDefaults = field(default_factory=GameDefaults)
    # None: Discord's recommended count (the bot asks when it connects)
    shard_count: int | None = None
    # None: every shard, in this process; else only these (the others run elsewhere)
    shard_ids: tuple[int, ...] | None = None
    metrics_port: int = 0  # 0: no metrics; else Prometheus's /metrics and /healthz on it
    # The shortest and longest pause before a computer player acts, in seconds.
    bot_delay: tuple[float, float] = (1.0, 3.0)
    activity: ActivitySettings | None = None  # None: no Activity, no web server, no button

    @property
    def database(self) -> str:
        """Where the store lives: DATABASE_URL (PostgreSQL) if set, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def shards(self) -> Shards | None:
        """The shards this process runs, or None when it runs them all (every server)."""
        if self.shard_ids is None or self.shard_count is None:
            return None
        return Shards(frozenset(self.shard_ids), self.shard_count)


def with_shards(settings: Settings, shard_count: int | None, shard_ids: str | None) -> Settings:
    """``settings`` with the shard count and the shards to run replaced where given (SHARD_COUNT
    and SHARD_IDS, or the command line's ``--shard-count`` and ``--shards``); ``shard_ids`` is a
    text like ``0-3`` or ``0,2,4-5``. :class:`SettingsError` for shards without a count, or
    beyond it."""
    count = settings.shard_count if shard_count is None else shard_count
    ids = settings.shard_ids
    if shard_ids is not None:
        if count is None:
            raise SettingsError(
                "shards named without their count: set SHARD_COUNT (or --shard-count) too"
            )
        try:
            ids = parse_shard_ids(shard_ids, count)
        except ValueError as error:
            raise SettingsError(f"SHARD_IDS (--shards): {error}") from None
    elif ids is not None and count is not None and max(ids) >= count:
        raise SettingsError(f"SHARD_IDS names shard {max(ids)}, but there are only {count}")
    return replace(settings, shard_count=count, shard_ids=ids)


class Environment(BaseSettings):
    """Every setting as the text it was given: the environment's, else ``.env``'s, else empty.
    Names as in .env.example; anything else in the file (a compose file's own) is ignored."""

    model_config = SettingsConfigDict(env_file_encoding="utf-8", extra="ignore")

    DISCORD_TOKEN: str = ""
    DATABASE_PATH: str = ""
    DATABASE_URL: str = ""
    SHARD_COUNT: str = ""
    SHARD_IDS: str = ""
    METRICS_PORT: str = ""
    DEV_GUILD_ID: str = ""
    LOG_LEVEL: str = ""
    STARTING_CHIPS: str = ""
    DAILY_CHIPS: str = ""
    DAILY_COOLDOWN_HOURS: str = ""
    DEFAULT_ANTE: str = ""
    DEFAULT_BRING_IN: str = ""
    DEFAULT_SMALL_BET: str = ""
    DEFAULT_BIG_BET: str = ""
    DEFAULT_SEATS: str = ""
    DEFAULT_MIN_BUY_IN: str = ""
    DEFAULT_MAX_BUY_IN: str = ""
    TURN_SECONDS: str = ""
    TIME_BANK_SECONDS: str = ""
    COUNTDOWN_SECONDS: str = ""
    BOT_DELAY_MIN_MS: str = ""
    BOT_DELAY_MAX_MS: str = ""
    ACTIVITY_PORT: str = ""
    ACTIVITY_HOST: str = ""
    ACTIVITY_URL: str = ""
    DISCORD_CLIENT_SECRET: str = ""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # The environment comes in as the arguments (load_settings' ``environ``: tests pass
        # their own), over the file.
        return init_settings, dotenv_settings


class _Unreadable(logging.Filter):
    """Keeps the lines python-dotenv could not read (it only warns and skips them)."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[object] = []

    def filter(self, record: logging.LogRecord) -> bool:
        # "python-dotenv could not parse statement starting at line %s"
        if "could not parse" not in str(record.msg):
            return True
        self.lines.append(record.args[0] if isinstance(record.args, tuple) else "?")
        return False


@contextmanager
def _unreadable_lines() -> Iterator[list[object]]:
    logger = logging.getLogger("dotenv.main")
    unreadable = _Unreadable()
    logger.addFilter(unreadable)
    try:
        yield unreadable.lines
    finally:
        logger.removeFilter(unreadable)


def read_environment(
    environ: Mapping[str, str] | None = None, dotenv_path: str | Path | None = ".env"
) -> dict[str, str]:
    """Each setting's text; :class:`SettingsError` for a line of ``.env`` that is no setting."""
    given = os.environ if environ is None else environ
    names = Environment.model_fields
    arguments: dict[str, Any] = {name: value for name, value in given.items() if name in names}
    path = None if dotenv_path is None or not Path(dotenv_path).is_file() else dotenv_path
    with _unreadable_lines() as unreadable:
        try:
            # _env_file: pydantic-settings' own argument, which mypy sees no field for.
            environment = Environment(_env_file=path, **arguments)  # type: ignore[call-arg]
        except (OSError, UnicodeDecodeError) as error:
            # Not the bot's to read (a container's user), or not saved as UTF-8.
            raise SettingsError(f"cannot read {path}: {error}") from None
    values = environment.model_dump()
    if unreadable:
        raise SettingsError(f".env line {unreadable[0]}: expected KEY=value")
    return {name: value.strip() for name, value in values.items()}


def _int(env: Mapping[str, str], key: str, default: int, minimum: int = 0) -> int:
    raw = env[key]
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{key} must be a whole number, not {raw!r}") from None
    if value < minimum:
        raise SettingsError(f"{key} must be at least {minimum}")
    return value


ACTIVITY_KEYS = ("ACTIVITY_PORT", "DISCORD_CLIENT_SECRET", "ACTIVITY_URL")


def _activity(env: Mapping[str, str]) -> ActivitySettings | None:
    """The Activity's settings: all three given, or none (then it is off)."""
    given = [key for key in ACTIVITY_KEYS if env[key]]
    if not given:
        return None
    if missing := [key for key in ACTIVITY_KEYS if not env[key]]:
        raise SettingsError(
            f"{given[0]} is set but {', '.join(missing)} is not: the Activity needs all of "
            f"{', '.join(ACTIVITY_KEYS)} (or none of them)"
        )
    port = _int(env, "ACTIVITY_PORT", 0, 1)
    if port > 65535:
        raise SettingsError("ACTIVITY_PORT must be a TCP port (1-65535)")
    url = env["ACTIVITY_URL"].rstrip("/")
    if not url.startswith("https://") or len(url) <= len("https://"):
        raise SettingsError(
            f"ACTIVITY_URL must be the https:// address Discord's proxy reaches, not {url!r}"
        )
    return ActivitySettings(
        port, env["DISCORD_CLIENT_SECRET"], url, env["ACTIVITY_HOST"] or "127.0.0.1"
    )


def load_settings(
    environ: Mapping[str, str] | None = None, dotenv_path: str | Path | None = ".env"
) -> Settings:
    """Read settings; raise :class:`SettingsError` with one readable line when they are wrong."""
    merged = read_environment(environ, dotenv_path)
    token = merged["DISCORD_TOKEN"]
    if not token:
        raise SettingsError(
            "DISCORD_TOKEN is not set: put it in .env or the environment (see .env.example)"
        )
    dev_guild = merged["DEV_GUILD_ID"]
    log_level = merged["LOG_LEVEL"].upper() or "INFO"
    if log_level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
        raise SettingsError(
            f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {log_level!r}"
        )
    game = GameDefaults(
        ante=_int(merged, "DEFAULT_ANTE", GameDefaults.ante),
        bring_in=_int(merged, "DEFAULT_BRING_IN", GameDefaults.bring_in, 1),
        small_bet=_int(merged, "DEFAULT_SMALL_BET", GameDefaults.small_bet, 1),
        big_bet=_int(merged, "DEFAULT_BIG_BET", GameDefaults.big_bet, 2),
        seats=_int(merged, "DEFAULT_SEATS", GameDefaults.seats, 2),
        min_buy_in=_int(merged, "DEFAULT_MIN_BUY_IN", GameDefaults.min_buy_in, 1),
        max_buy_in=_int(merged, "DEFAULT_MAX_BUY_IN", GameDefaults.max_buy_in, 1),
        turn_seconds=_int(merged, "TURN_SECONDS", GameDefaults.turn_seconds, 20),
        countdown_seconds=_int(merged, "COUNTDOWN_SECONDS", 10, 0),
        time_bank=_int(merged, "TIME_BANK_SECONDS", DEFAULT_TIME_BANK, 0),
    )
    try:
        game.stakes  # noqa: B018 - validates the four stakes together (RULES 1.2)
    except ValueError as error:
        raise SettingsError(f"default stakes: {error}") from None
    if game.seats > 8:
        raise SettingsError("DEFAULT_SEATS must be 2 to 8")
    if game.min_buy_in > game.max_buy_in:
        raise SettingsError("DEFAULT_MIN_BUY_IN must not exceed DEFAULT_MAX_BUY_IN")
    database_url = merged["DATABASE_URL"]
    if database_url and not is_postgresql(database_url):
        raise SettingsError(
            "DATABASE_URL must be a postgresql://USER:PASSWORD@HOST:PORT/DATABASE URL, or empty"
            " for the SQLite file DATABASE_PATH"
        )
    try:
        dev_guild_id = int(dev_guild) if dev_guild else None
    except ValueError:
        raise SettingsError(
            f"DEV_GUILD_ID must be a server id (digits), not {dev_guild!r}"
        ) from None
    shard_count = merged["SHARD_COUNT"]
    shard_ids = merged["SHARD_IDS"]
    bot_delay = (
        _int(merged, "BOT_DELAY_MIN_MS", 1000) / 1000,
        _int(merged, "BOT_DELAY_MAX_MS", 3000) / 1000,
    )
    if bot_delay[0] > bot_delay[1]:
        raise SettingsError("BOT_DELAY_MIN_MS must not exceed BOT_DELAY_MAX_MS")
    settings = Settings(
        token=token,
        database_path=merged["DATABASE_PATH"] or "stud.db",
        database_url=database_url,
        dev_guild_id=dev_guild_id,
        log_level=log_level,
        starting_chips=_int(merged, "STARTING_CHIPS", 1000),
        daily_chips=_int(merged, "DAILY_CHIPS", 200, 1),
        daily_cooldown_hours=_int(merged, "DAILY_COOLDOWN_HOURS", 20, 1),
        game=game,
        metrics_port=_int(merged, "METRICS_PORT", 0, 0),
        bot_delay=bot_delay,
        activity=_activity(merged),
    )
    if settings.metrics_port > 65535:
        raise SettingsError("METRICS_PORT must be a TCP port (1-65535), or 0 for no metrics")
    return with_shards(
        settings,
        _int(merged, "SHARD_COUNT", 0, 1) if shard_count else None,
        shard_ids or None,
    )
