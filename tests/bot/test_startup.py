"""Every way starting can fail is one line on stderr and its own exit code.

``main()`` runs in-process with the environment and argv it would get from a shell; Discord is
the fake on 127.0.0.1 (in a thread of its own, since ``main()`` runs its own event loop) or a
closed port. ``LOG_LEVEL=WARNING`` keeps the bot's INFO lines out, so stderr must be exactly
the one line: any warning, log record or traceback on the way would show up there too.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web

from bot import cli
from bot.cli import EXIT_DATABASE, EXIT_NETWORK, EXIT_SETTINGS, EXIT_TOKEN, parse
from bot.core.storage import Store
from tests.command_line import ThreadedDiscord, closed_port, one_line, point_at, stud_bot
from tests.e2e.fake_discord import FakeDiscord, error
from tests.e2e.faults import Fault

# A thread's traceback (aiosqlite's worker, say) would reach the operator's stderr too.
pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")


class RejectsTokens(FakeDiscord):
    """Discord's answer to a revoked or mistyped token: 401 on the login request."""

    def _answer(self, method: str, path: str, *args: Any) -> web.Response:
        if method == "GET" and path == "/users/@me":
            return error(401, 0, "401: Unauthorized")
        return super()._answer(method, path, *args)


def test_no_token_is_exit_code_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], shell: dict[str, str]
) -> None:
    shell["DISCORD_TOKEN"] = ""
    code, _, err = stud_bot(monkeypatch, capsys, shell)
    assert code == EXIT_SETTINGS == 2
    assert "DISCORD_TOKEN is not set" in one_line(err)


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("TURN_SECONDS", "ten", "TURN_SECONDS must be a whole number, not 'ten'"),
        ("DEV_GUILD_ID", "my-server", "DEV_GUILD_ID must be a server id"),
        ("LOG_LEVEL", "LOUD", "LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL"),
    ],
)
def test_a_bad_setting_is_exit_code_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    shell: dict[str, str],
    name: str,
    value: str,
    says: str,
) -> None:
    shell[name] = value
    code, _, err = stud_bot(monkeypatch, capsys, shell)
    assert code == EXIT_SETTINGS
    assert says in one_line(err)


def test_a_rejected_token_is_exit_code_3(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], shell: dict[str, str]
) -> None:
    with ThreadedDiscord(RejectsTokens()) as fake:
        point_at(monkeypatch, fake)
        code, _, err = stud_bot(monkeypatch, capsys, shell)
        logins = fake.requests_to("GET /users/@me")
    assert code == EXIT_TOKEN == 3
    assert "Discord rejected DISCORD_TOKEN" in one_line(err)
    assert [request.status for request in logins] == [401]
    assert "fake-token" not in err


def test_the_token_check_applies_to_sync_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], shell: dict[str, str]
) -> None:
    with ThreadedDiscord(RejectsTokens()) as fake:
        point_at(monkeypatch, fake)
        code, out, err = stud_bot(monkeypatch, capsys, shell, "sync")
        syncs = fake.command_requests
    assert (code, out, syncs) == (EXIT_TOKEN, "", [])
    assert "Discord rejected DISCORD_TOKEN" in one_line(err)


@pytest.mark.parametrize(
    "argv", [(), ("sync", "--guild", "{guild}"), ("sync", "--clear-guild", "{guild}")]
)
def test_a_server_that_refuses_the_commands_is_exit_code_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    shell: dict[str, str],
    argv: tuple[str, ...],
) -> None:
    """DEV_GUILD_ID (or --guild) names a server the bot is not in: Discord answers 403."""
    fake = FakeDiscord()
    fake.faults.add(
        Fault("PUT /applications/{app}/guilds/{guild}/commands", 403, times=None, code=50001)
    )
    with ThreadedDiscord(fake):
        point_at(monkeypatch, fake)
        if not argv:
            shell["DEV_GUILD_ID"] = str(fake.guild_id)
        code, _, err = stud_bot(
            monkeypatch, capsys, shell, *(a.format(guild=fake.guild_id) for a in argv)
        )
        steps = fake.gateway_steps
    assert code == EXIT_SETTINGS
    assert one_line(err) == (
        f"stud-bot: Discord refused the commands for server {fake.guild_id}: the bot is not in "
        "it, or was invited without the applications.commands scope (DEV_GUILD_ID or --guild "
        "names it)"
    )
    assert steps == []  # stopped before the gateway


def test_no_connection_to_discord_is_exit_code_5(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], shell: dict[str, str]
) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{closed_port()}/api/v10")
    code, _, err = stud_bot(monkeypatch, capsys, shell)
    assert code == EXIT_NETWORK == 5
    line = one_line(err)
    assert line.startswith("stud-bot: cannot reach Discord: Cannot connect to host 127.0.0.1")


def test_discord_not_answering_is_exit_code_5(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], shell: dict[str, str]
) -> None:
    """As behind a firewall that drops packets: nothing comes back before aiohttp gives up
    (after 5 minutes by default; half a second here)."""
    monkeypatch.setattr(aiohttp.client, "DEFAULT_TIMEOUT", aiohttp.ClientTimeout(total=0.5))
    fake = FakeDiscord()
    fake.faults.add(Fault("GET /users/@me", "slow", times=None, delay=(2.0, 2.0)))
    with ThreadedDiscord(fake):
        point_at(monkeypatch, fake)
        code, _, err = stud_bot(monkeypatch, capsys, shell)
    assert code == EXIT_NETWORK
    assert one_line(err) == "stud-bot: cannot reach Discord: no answer in time"


def test_an_unusable_database_path_is_exit_code_4(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    shell: dict[str, str],
    tmp_path: Path,
) -> None:
    # Under a regular file: no folder can be made there, whoever runs the test (root included).
    (tmp_path / "not-a-folder").write_text("")
    shell["DATABASE_PATH"] = str(tmp_path / "not-a-folder" / "stud.db")
    # Never reached: a bad database stops the start before Discord is asked anything.
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{closed_port()}/api/v10")
    for argv in ((), ("sync",), ("backup", str(tmp_path / "copy.db"))):
        code, _, err = stud_bot(monkeypatch, capsys, shell, *argv)
        assert code == EXIT_DATABASE == 4, argv
        line = one_line(err)
        assert line == (
            f"stud-bot: cannot use DATABASE_PATH={shell['DATABASE_PATH']}: "
            "unable to open database file"
        )


def test_a_database_from_a_newer_bot_is_exit_code_4(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    shell: dict[str, str],
) -> None:
    with sqlite3.connect(shell["DATABASE_PATH"]) as db:
        db.execute("PRAGMA user_version = 999")
    code, _, err = stud_bot(monkeypatch, capsys, shell)
    assert code == EXIT_DATABASE
    assert "the database is at schema 999" in one_line(err)


def test_a_backup_that_cannot_be_written_is_exit_code_4(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    shell: dict[str, str],
    tmp_path: Path,
) -> None:
    target = tmp_path / "no-such-folder" / "copy.db"
    code, out, err = stud_bot(monkeypatch, capsys, shell, "backup", str(target))
    assert (code, out) == (EXIT_DATABASE, "")
    assert one_line(err) == (
        f"stud-bot: cannot write the backup {target}: unable to open database file"
    )


def test_bad_usage_is_exit_code_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], shell: dict[str, str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        stud_bot(monkeypatch, capsys, shell, "sync", "--guild", "1", "--clear-guild", "1")
    assert exited.value.code == 2
    assert "--guild and --clear-guild name the same server: 1" in capsys.readouterr().err


ROOT = Path(__file__).resolve().parents[2]


# The documents that may show stud-bot commands, each with the fewest it must show: the
# operator's guides show sync, backup, migrate-db and cluster; the READMEs (the two set-up
# commands, the first hand, links) show none, but any they come to show must parse too.
DOCUMENTS_WITH_COMMANDS = {
    "README.md": 0,
    "README.ru.md": 0,
    "docs/operating.md": 2,
    "docs/operating.ru.md": 2,
}


@pytest.mark.parametrize(("document", "at_least"), DOCUMENTS_WITH_COMMANDS.items())
def test_every_stud_bot_command_the_docs_show_is_one_the_bot_takes(
    document: str, at_least: int
) -> None:
    text = (ROOT / document).read_text(encoding="utf-8")
    shown = re.findall(r"\.venv/bin/stud-bot( [^`\n#]*)?", text)
    assert len(shown) >= at_least, f"{document} shows fewer than {at_least} stud-bot commands"
    for line in shown:
        line = re.sub(r"\$\([^)]*\)", "date", line)  # a shell substitution is one word
        words = ["1" if w == "ID" or w.isdigit() else w for w in line.split()]
        args = parse(words)
        commands = (None, "run", "cluster", "sync", "backup", "migrate-db", "crash-loop")
        assert args.command in commands, line


def _crash_loop(database: str, starts: int) -> None:
    """``starts`` earlier starts of the whole bot that opened a session, a minute apart."""

    async def record() -> None:
        store = await Store.open(database)
        try:
            for minutes in range(starts, 0, -1):
                await store.coordination.record_process_start("all", time.time() - 60 * minutes)
        finally:
            await store.close()

    asyncio.run(record())


def _stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGTERM already given: a start that would wait out a pause stops instead (exit 0)."""

    def stop_signal() -> asyncio.Event:
        stop = asyncio.Event()
        stop.set()
        return stop

    monkeypatch.setattr(cli, "stop_signal", stop_signal)


def test_a_rejected_token_never_waits_out_a_crash_loop(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], shell: dict[str, str]
) -> None:
    _crash_loop(shell["DATABASE_PATH"], 6)  # the next start would wait 40 s
    _stopped(monkeypatch)
    with ThreadedDiscord(RejectsTokens()) as fake:
        point_at(monkeypatch, fake)
        code, _, err = stud_bot(monkeypatch, capsys, shell)
        logins = fake.requests_to("GET /users/@me")
    assert code == EXIT_TOKEN  # not 0: it was told before it could wait
    assert [request.status for request in logins] == [401]
    assert "Waiting 40 s" in err and "Discord rejected DISCORD_TOKEN" in err.splitlines()[-1]


def test_no_network_never_waits_out_a_crash_loop(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], shell: dict[str, str]
) -> None:
    _crash_loop(shell["DATABASE_PATH"], 6)
    _stopped(monkeypatch)
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{closed_port()}/api/v10")
    code, _, err = stud_bot(monkeypatch, capsys, shell)
    assert code == EXIT_NETWORK
    assert err.splitlines()[-1].startswith("stud-bot: cannot reach Discord")


def test_a_crash_loop_waits_with_the_token_checked_and_a_signal_ends_the_wait(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], shell: dict[str, str]
) -> None:
    _crash_loop(shell["DATABASE_PATH"], 3)
    _stopped(monkeypatch)
    with ThreadedDiscord(FakeDiscord()) as fake:
        point_at(monkeypatch, fake)
        code, _, err = stud_bot(monkeypatch, capsys, shell)
        logins = fake.requests_to("GET /users/@me")
        steps = fake.gateway_steps
    assert code == 0 and [request.status for request in logins] == [200] and steps == []
    (line,) = err.splitlines()
    assert "shards all keep restarting: 3 starts in the last 6 hours" in line
    assert "Waiting 5 s before connecting" in line


def test_stud_bot_shows_and_resets_the_crash_loop_count(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], shell: dict[str, str]
) -> None:
    code, out, _ = stud_bot(monkeypatch, capsys, shell, "crash-loop")
    assert (code, out) == (
        0,
        "no start in the last 6 hours counts: the next one connects at once\n",
    )
    _crash_loop(shell["DATABASE_PATH"], 4)
    code, out, _ = stud_bot(monkeypatch, capsys, shell, "crash-loop")
    assert (code, out) == (
        0,
        "shards all: 4 starts in the last 6 hours opened a Discord session; the next start "
        "waits 10 s (one that stays up 10 minutes starts the count over)\n",
    )
    code, out, _ = stud_bot(monkeypatch, capsys, shell, "crash-loop", "--reset")
    assert (code, out) == (0, "the crash-loop count starts over (4 starts forgotten)\n")
    assert stud_bot(monkeypatch, capsys, shell, "crash-loop")[1].startswith("no start")
