"""The Activity's settings: off unless all three are given, each checked with one line for the
operator; a cluster refuses them (one web server, one process's tables)."""

from __future__ import annotations

import argparse

import pytest

from bot.cli import StartupFailure
from bot.cluster import cluster
from bot.core.settings import ActivitySettings, SettingsError, load_settings

BASE = {"DISCORD_TOKEN": "token"}
ON = {
    "ACTIVITY_PORT": "8080",
    "DISCORD_CLIENT_SECRET": "secret",
    "ACTIVITY_URL": "https://stud.example.org/",
}


def _load(**values: str) -> ActivitySettings | None:
    return load_settings({**BASE, **values}, dotenv_path=None).activity


def test_the_activity_is_off_unless_all_three_are_set() -> None:
    assert _load() is None
    assert _load(ACTIVITY_HOST="0.0.0.0") is None  # compose's, for a bot without the Activity
    on = _load(**ON)
    assert on == ActivitySettings(8080, "secret", "https://stud.example.org", "127.0.0.1")
    assert "secret" not in repr(on)
    assert _load(**ON, ACTIVITY_HOST="0.0.0.0") == ActivitySettings(
        8080, "secret", "https://stud.example.org", "0.0.0.0"
    )


@pytest.mark.parametrize(
    ("values", "said"),
    [
        ({"ACTIVITY_PORT": "8080"}, "DISCORD_CLIENT_SECRET, ACTIVITY_URL is not"),
        ({**ON, "ACTIVITY_URL": ""}, "ACTIVITY_URL is not"),
        ({**ON, "ACTIVITY_PORT": "http"}, "ACTIVITY_PORT must be a whole number"),
        ({**ON, "ACTIVITY_PORT": "70000"}, "ACTIVITY_PORT must be a TCP port"),
        ({**ON, "ACTIVITY_URL": "http://stud.example.org"}, "ACTIVITY_URL must be the https://"),
    ],
)
def test_a_wrong_activity_setting_is_one_line_naming_it(values: dict[str, str], said: str) -> None:
    with pytest.raises(SettingsError, match=said.replace(".", r"\.")) as raised:
        _load(**values)
    assert "\n" not in str(raised.value)


async def test_a_cluster_refuses_the_activity() -> None:
    settings = load_settings({**BASE, **ON}, dotenv_path=None)
    with pytest.raises(StartupFailure, match="single process"):
        await cluster(settings, argparse.Namespace(processes=2))
