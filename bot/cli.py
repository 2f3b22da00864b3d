"""``stud-bot``'s command line: run the bot (the default), sync its commands by hand, back up.

Every way starting can fail that an operator can fix is a :class:`StartupFailure`: one line on
stderr and an exit code of its own (the table in README.md), never a traceback.
"""

from __future__ import annotations

import argparse
import sqlite3
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

import aiohttp
import discord

from bot.core.settings import Settings
from bot.core.storage import SchemaTooNew, Store
from bot.edge.client import GuildRefused, StudBot

# Exit codes (README.md, "Exit codes"); 1 is left to Python for a crash with a traceback.
EXIT_SETTINGS = 2  # a setting or argument is missing, malformed or names a server we can't use
EXIT_TOKEN = 3  # Discord rejected DISCORD_TOKEN
EXIT_DATABASE = 4  # DATABASE_PATH (or a backup's PATH) cannot be opened or written, or is too new
EXIT_NETWORK = 5  # Discord cannot be reached (worth a retry: systemd restarts on it)


class StartupFailure(Exception):
    """Starting failed for a reason the operator can fix; ``str()`` is the one line to show."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


def explain(error: BaseException) -> StartupFailure | None:
    """The failure to report for an error that ended a start, or ``None`` for a bug."""
    if isinstance(error, StartupFailure):
        return error
    if isinstance(error, discord.LoginFailure):
        return StartupFailure(
            EXIT_TOKEN,
            "Discord rejected DISCORD_TOKEN: copy a fresh one from the Developer Portal "
            "(your application -> Bot -> Reset Token) into .env",
        )
    if isinstance(error, GuildRefused):
        return StartupFailure(EXIT_SETTINGS, f"{error} (DEV_GUILD_ID or --guild names it)")
    if isinstance(error, aiohttp.ClientError | TimeoutError):
        # Refused, no DNS, a firewall that drops packets (a timeout), a dropped connection.
        # str(error) names the host and the OS error, never the token (it is in a header).
        return StartupFailure(
            EXIT_NETWORK, f"cannot reach Discord: {str(error) or 'no answer in time'}"
        )
    return None


async def open_store(settings: Settings) -> Store:
    """The store, or a :class:`StartupFailure` naming DATABASE_PATH."""
    try:
        # Tried first without aiosqlite: after a failed connect its worker thread reports to
        # an event loop that asyncio.run may have closed, and prints a traceback (0.22).
        sqlite3.connect(settings.database_path).close()
        return await Store.open(
            settings.database_path,
            starting_balance=settings.starting_chips,
            daily_amount=settings.daily_chips,
            daily_cooldown=timedelta(hours=settings.daily_cooldown_hours),
        )
    except (sqlite3.Error, OSError, SchemaTooNew) as error:
        raise StartupFailure(
            EXIT_DATABASE, f"cannot use DATABASE_PATH={settings.database_path}: {error}"
        ) from None


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="stud-bot",
        description="The Stud Discord bot. Without a command it runs the bot until stopped.",
    )
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser("run", help="run the bot until stopped (the default)")
    sync = commands.add_parser(
        "sync",
        help="log in, register the slash commands now, and exit",
        description="Register the slash commands now, whatever was synced before, and exit. "
        "Without an option: the global commands.",
    )
    sync.add_argument(
        "--global", dest="everywhere", action="store_true", help="every server (the default)"
    )
    sync.add_argument(
        "--guild", type=int, action="append", default=[], metavar="ID",
        help="a copy in this server, shown at once (repeatable)",
    )  # fmt: skip
    sync.add_argument(
        "--clear-guild", type=int, action="append", default=[], metavar="ID",
        help="remove this server's copies, so nothing shows twice there (repeatable)",
    )  # fmt: skip
    backup = commands.add_parser(
        "backup",
        help="copy the database to PATH while the bot runs, and exit",
        description="Copy DATABASE_PATH to PATH with SQLite's online backup: safe while the "
        "bot runs and writes.",
    )
    backup.add_argument("path", type=Path, metavar="PATH")
    return top


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    top = parser()
    args = top.parse_args(argv)
    if args.command == "sync":
        both = set(args.guild) & set(args.clear_guild)
        if both:
            top.error(f"--guild and --clear-guild name the same server: {min(both)}")
        if not args.guild and not args.clear_guild:
            args.everywhere = True
    return args


class CommandsOnly(StudBot):
    """Logged in only to register commands: no tables restored, no gateway connection."""

    async def setup_hook(self) -> None:
        await self.load_commands()


async def sync(settings: Settings, args: argparse.Namespace) -> None:
    store = await open_store(settings)
    try:
        async with CommandsOnly(settings, store) as bot:
            await bot.login(settings.token)
            if args.everywhere:
                ids = await bot.sync_commands(None, force=True)
                print(f"global: {len(ids)} commands synced (they can take a while to show)")
            for guild_id in args.guild:
                ids = await bot.sync_commands(guild_id, force=True)
                print(f"server {guild_id}: {len(ids)} commands synced")
            for guild_id in args.clear_guild:
                await bot.clear_commands(guild_id)
                print(f"server {guild_id}: commands removed")
    finally:
        await store.close()


async def backup(settings: Settings, args: argparse.Namespace) -> None:
    target: Path = args.path
    if target.resolve() == Path(settings.database_path).resolve():
        raise StartupFailure(EXIT_SETTINGS, f"{target} is DATABASE_PATH itself: name another file")
    store = await open_store(settings)
    try:
        await store.backup(target)
    except (sqlite3.Error, OSError) as error:
        raise StartupFailure(EXIT_DATABASE, f"cannot write the backup {target}: {error}") from None
    finally:
        await store.close()
    # A backup is only as good as its copy: open that and check its chips add up.
    copy = await Store.open(target)
    try:
        totals = await copy.audit()
    finally:
        await copy.close()
    print(
        f"backed up {settings.database_path} to {target}; its audit passed: {totals.granted} "
        f"chips, {totals.wallets} in wallets, {totals.seats} at tables, "
        f"{totals.live_hands} in hands"
    )
