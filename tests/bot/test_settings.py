"""Settings: .env parsing, the missing-token exit, and the token never reaching a log line."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import PAYLOAD_LOGGERS, configure_logging
from bot.core.settings import (
    Environment,
    Settings,
    SettingsError,
    load_settings,
    read_environment,
)

ROOT = Path(__file__).resolve().parents[2]


def test_dotenv_file_takes_inline_comments_quotes_blank_values_and_export(
    tmp_path: Path,
) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        """
        # a comment
        export DISCORD_TOKEN="abc def"
        DATABASE_PATH='data/stud #1.db'
        TURN_SECONDS=60 # a minute
        LOG_LEVEL=debug  # trailing comment
        DEV_GUILD_ID=
        METRICS_PORT="9100" # quoted, then a comment
        SHARD_IDS
        POSTGRES_PASSWORD=the compose file's, not ours
        """
    )
    read = read_environment({}, dotenv)
    assert read["DISCORD_TOKEN"] == "abc def"
    assert read["DATABASE_PATH"] == "data/stud #1.db"  # quoted: the # is the value's
    assert (read["TURN_SECONDS"], read["LOG_LEVEL"]) == ("60", "debug")
    assert (read["DEV_GUILD_ID"], read["SHARD_IDS"], read["METRICS_PORT"]) == ("", "", "9100")
    assert "POSTGRES_PASSWORD" not in read
    settings = load_settings({}, dotenv)
    assert (settings.game.turn_seconds, settings.log_level) == (60, "DEBUG")
    assert (settings.dev_guild_id, settings.metrics_port) == (None, 9100)


def test_a_dotenv_line_that_is_no_setting_is_one_readable_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("DISCORD_TOKEN=t\nnot a pair\n")
    with pytest.raises(SettingsError, match=r"^\.env line 2: expected KEY=value$"):
        load_settings({}, dotenv)
    assert capsys.readouterr().err == ""  # python-dotenv's own warning is not printed too


def test_a_dotenv_file_that_cannot_be_read_is_one_readable_line(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_bytes("DISCORD_TOKEN=t\nDATABASE_PATH=café.db\n".encode("latin-1"))
    with pytest.raises(SettingsError, match=rf"^cannot read {dotenv}: 'utf-8' codec"):
        load_settings({}, dotenv)


def test_environment_wins_over_the_dotenv_file(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("DISCORD_TOKEN=file-token\nDEV_GUILD_ID=42\nTURN_SECONDS=30\n")
    settings = load_settings({"DISCORD_TOKEN": "env-token"}, dotenv)
    assert settings.token == "env-token"
    assert settings.dev_guild_id == 42
    assert settings.game.turn_seconds == 30
    assert settings.database_path == "stud.db"
    assert "env-token" not in repr(settings)


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID"),
        ({"DISCORD_TOKEN": "t", "TURN_SECONDS": "5"}, "TURN_SECONDS must be at least 20"),
        ({"DISCORD_TOKEN": "t", "DEFAULT_BRING_IN": "50"}, "default stakes"),
        ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "LOUD"}, "WARNING, ERROR or CRITICAL, not 'LOUD'"),
        ({"DISCORD_TOKEN": "t", "DATABASE_URL": "mysql://db/stud"}, "DATABASE_URL must be a"),
        ({"DISCORD_TOKEN": "t", "BOT_DELAY_MIN_MS": "4000"}, "BOT_DELAY_MIN_MS must not exceed"),
        ({"DISCORD_TOKEN": "t", "BOT_DELAY_MAX_MS": "-1"}, "BOT_DELAY_MAX_MS must be at least 0"),
    ],
)
def test_bad_settings_are_one_readable_line(environ: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        load_settings(environ, None)


def test_computer_players_pause_one_to_three_seconds_unless_configured() -> None:
    assert load_settings({"DISCORD_TOKEN": "t"}, None).bot_delay == (1.0, 3.0)
    configured = {"DISCORD_TOKEN": "t", "BOT_DELAY_MIN_MS": "0", "BOT_DELAY_MAX_MS": "500"}
    assert load_settings(configured, None).bot_delay == (0.0, 0.5)


def test_database_url_chooses_postgresql_over_the_sqlite_file() -> None:
    sqlite = load_settings({"DISCORD_TOKEN": "t", "DATABASE_PATH": "data/stud.db"}, None)
    assert (sqlite.database, sqlite.database_url) == ("data/stud.db", "")
    url = "postgresql://stud:pw@db.example:5432/stud"
    postgresql = load_settings({"DISCORD_TOKEN": "t", "DATABASE_URL": f" {url} "}, None)
    assert postgresql.database == url
    assert "pw" not in repr(postgresql)  # the URL may hold a password


@pytest.mark.slow  # `python -m bot` as a process (test_startup.py runs main() in this one)
def test_missing_token_exits_2_with_one_line_and_no_traceback(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "DISCORD_TOKEN is not set" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_token_never_appears_in_a_log_line(capsys: pytest.CaptureFixture[str]) -> None:
    token = "MTIzNDU2Nzg5.secret.token-value"
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    payload_levels = {name: logging.getLogger(name).level for name in PAYLOAD_LOGGERS}
    try:
        configure_logging(Settings(token=token, log_level="DEBUG"))
        log = logging.getLogger("discord.http")
        log.info("login with %s", token)
        logging.getLogger("bot.edge.client").debug(f"header Authorization: Bot {token}")
        try:
            raise RuntimeError(f"bad token {token}")
        except RuntimeError:
            log.exception("login failed")
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
        for name, payload_level in payload_levels.items():
            logging.getLogger(name).setLevel(payload_level)
    output = capsys.readouterr().err
    assert "login with [token]" in output and "Bot [token]" in output
    assert "login failed" in output
    assert token not in output


def test_env_example_lists_every_setting_the_bot_reads() -> None:
    example = (ROOT / ".env.example").read_text()
    listed = {line.partition("=")[0] for line in example.splitlines() if line[:1].isupper()}
    assert set(Environment.model_fields) == listed
    assert load_settings({"DISCORD_TOKEN": "t"}, ROOT / ".env.example").game.turn_seconds == 60
