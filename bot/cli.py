"""``stud-bot``'s command line: run the bot (the default) or a cluster of its processes, sync
its commands by hand, back up, move the database, show or reset the crash-loop count.

Every way starting can fail that an operator can fix is a :class:`StartupFailure`: one line on
stderr and an exit code of its own (the table in docs/operating.md), never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sqlite3
import time
import urllib.parse
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

import aiohttp
import asyncpg
import discord

from bot.core.settings import Settings
from bot.core.storage import AuditFailed, AuditTotals, DatabaseNotEmpty, SchemaTooNew, Store
from bot.core.storage.backend import is_postgresql
from bot.edge.client import GuildRefused, StudBot
from bot.edge.gateway import HEALTHY_SECONDS, LOOP_WINDOW, pause_after
from words import Texts

# Exit codes (docs/operating.md, "Exit codes"); 1 is left to Python for a crash with a traceback.
EXIT_SETTINGS = 2  # a setting or argument is missing, malformed or names a server we can't use
EXIT_TOKEN = 3  # Discord rejected DISCORD_TOKEN
EXIT_DATABASE = 4  # the database (or a backup's PATH, migrate-db's FROM or TO) cannot be
# opened or written, is too new, or (migrate-db's TO) already has data
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


async def check_token(token: str) -> None:
    """Ask Discord whether it takes ``token`` (``GET /users/@me``, as logging in does) without
    starting the bot: a refusal or no network fails as a start would (exit 3 or 5)."""
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    try:
        await http.static_login(token)
    finally:
        await http.close()


def shown(location: str) -> str:
    """A database location fit for a message: a URL's password replaced by ``***``."""
    if not is_postgresql(location):
        return location
    url = urllib.parse.urlsplit(location)
    if url.password is None:
        return location
    host = url.netloc.rpartition("@")[2]
    return url._replace(netloc=f"{url.username}:***@{host}").geturl()


async def open_database(location: str, name: str, settings: Settings) -> Store:
    """The store at ``location`` (a SQLite file or a PostgreSQL URL), or a
    :class:`StartupFailure` naming it as ``name`` (DATABASE_PATH, DATABASE_URL, FROM, TO)."""
    try:
        if not is_postgresql(location):
            # Tried first without aiosqlite: after a failed connect its worker thread reports
            # to an event loop that asyncio.run may have closed, and prints a traceback (0.22).
            sqlite3.connect(location).close()
        return await Store.open(
            location,
            starting_balance=settings.starting_chips,
            daily_amount=settings.daily_chips,
            daily_cooldown=timedelta(hours=settings.daily_cooldown_hours),
        )
    # OSError: no such folder, or no server there (refused, no such host, no answer in time);
    # asyncpg's errors: the server refused the user, the password or the database name.
    except (
        sqlite3.Error,
        OSError,
        asyncpg.PostgresError,
        asyncpg.InterfaceError,
        SchemaTooNew,
    ) as error:
        raise StartupFailure(
            EXIT_DATABASE, f"cannot use {name}={shown(location)}: {error}"
        ) from None


async def open_store(settings: Settings) -> Store:
    """The store, or a :class:`StartupFailure` naming DATABASE_URL or DATABASE_PATH."""
    name = "DATABASE_URL" if settings.database_url else "DATABASE_PATH"
    return await open_database(settings.database, name, settings)


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def stop_signal() -> asyncio.Event:
    """An event set by SIGTERM (systemd, Docker) or SIGINT (Ctrl+C): what stops the bot and
    the cluster cleanly."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    return stop


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="stud-bot",
        description="The Stud Discord bot. Without a command it runs the bot until stopped.",
    )
    # Read by every command; only run and cluster offer them (sharded settings, docs/operating.md).
    top.set_defaults(shards=None, shard_count=None, identify_lock=None)
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    run = commands.add_parser(
        "run",
        help="run the bot until stopped (the default)",
        description="Run the bot until SIGTERM or Ctrl+C. With --shards, only those shards "
        "(and the tables of their servers): the other shards run in other processes.",
    )
    run.add_argument(
        "--shards", metavar="IDS",
        help="the shards this process runs, like 0-3 or 0,2,4-5 (default: SHARD_IDS, or all)",
    )  # fmt: skip
    run.add_argument(
        "--shard-count", type=positive, metavar="N",
        help="how many shards the bot has (default: SHARD_COUNT, or Discord's recommendation)",
    )  # fmt: skip
    run.add_argument(
        "--identify-lock", type=Path, metavar="FILE",
        help="a file the processes of a cluster share to take turns connecting (stud-bot "
        "cluster passes it to its workers)",
    )  # fmt: skip
    cluster = commands.add_parser(
        "cluster",
        help="run the bot in N processes, each with its range of shards, until stopped",
        description="Start N worker processes (stud-bot run --shards ...), each with its range "
        "of the shards; restart a worker that dies; stop them all on SIGTERM or Ctrl+C. The "
        "workers share the database: use PostgreSQL (DATABASE_URL).",
    )
    cluster.add_argument(
        "--processes", type=positive, required=True, metavar="N", help="how many workers"
    )
    cluster.add_argument(
        "--shard-count", type=positive, metavar="N",
        help="how many shards in all (default: SHARD_COUNT, or Discord's recommendation, "
        "at least one per process)",
    )  # fmt: skip
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
    migrate_db = commands.add_parser(
        "migrate-db",
        help="copy every table of one database into an empty one, and exit",
        description="Copy every row of FROM into TO, which must have none, in one transaction, "
        "and audit the copy. Each is a SQLite file or a postgresql:// URL; stop the bot first.",
    )
    migrate_db.add_argument("source", metavar="FROM", help="the database to copy")
    migrate_db.add_argument("target", metavar="TO", help="an empty database to copy into")
    crash_loop = commands.add_parser(
        "crash-loop",
        help="show the crash-loop count and the pause the next start takes, or reset it",
        description="A start that opened a Discord session and ended soon after counts toward "
        "a crash loop; from the fourth within 6 hours the next start waits, longer each time. "
        "Show each process's count (by its shards), or start every count over.",
    )
    crash_loop.add_argument("--reset", action="store_true", help="start every count over")
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
        async with CommandsOnly(settings, store, Texts()) as bot:
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
    if settings.database_url:
        raise StartupFailure(
            EXIT_SETTINGS,
            "stud-bot backup copies the SQLite file DATABASE_PATH, but DATABASE_URL is set: "
            "back PostgreSQL up with pg_dump (pg_dump --format=custom --file=stud.dump URL)",
        )
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
    print(f"backed up {settings.database_path} to {target}; {audited(totals)}")


def audited(totals: AuditTotals) -> str:
    return (
        f"its audit passed: {totals.granted} chips, {totals.wallets} in wallets, "
        f"{totals.seats} at tables, {totals.live_hands} in hands, "
        f"{totals.prize_pools} in prize pools"
    )


def same_database(first: str, second: str) -> bool:
    if is_postgresql(first) or is_postgresql(second):
        return first == second
    return Path(first).resolve() == Path(second).resolve()


async def migrate_db(settings: Settings, args: argparse.Namespace) -> None:
    source: str = args.source
    target: str = args.target
    if same_database(source, target):
        raise StartupFailure(EXIT_SETTINGS, "FROM and TO are the same database: name another TO")
    if not is_postgresql(source) and not Path(source).is_file():
        raise StartupFailure(EXIT_SETTINGS, f"FROM={source} is not a file")
    origin = await open_database(source, "FROM", settings)
    try:
        copy = await open_database(target, "TO", settings)
        try:
            copied = await copy.copy_from(origin)
            totals = await copy.audit()
        except DatabaseNotEmpty as error:
            raise StartupFailure(
                EXIT_DATABASE, f"cannot copy into TO={shown(target)}: {error}"
            ) from None
        except AuditFailed as error:
            raise StartupFailure(
                EXIT_DATABASE,
                f"nothing was copied: the copy of FROM={shown(source)} does not add up ({error})",
            ) from None
        finally:
            await copy.close()
    finally:
        await origin.close()
    rows = ", ".join(f"{count} {table}" for table, count in copied.items())
    print(f"copied {shown(source)} to {shown(target)} ({rows}); {audited(totals)}")


async def crash_loop(settings: Settings, args: argparse.Namespace) -> None:
    store = await open_store(settings)
    try:
        if args.reset:
            forgotten = await store.coordination.clear_process_starts()
            print(f"the crash-loop count starts over ({forgotten} starts forgotten)")
            return
        counts = await store.coordination.process_starts(since=time.time() - LOOP_WINDOW)
    finally:
        await store.close()
    hours, minutes = LOOP_WINDOW / 3600, HEALTHY_SECONDS / 60
    if not counts:
        print(f"no start in the last {hours:.0f} hours counts: the next one connects at once")
    for shards, starts in counts.items():
        print(
            f"shards {shards}: {starts} starts in the last {hours:.0f} hours opened a Discord "
            f"session; the next start waits {pause_after(starts + 1):.0f} s (one that stays "
            f"up {minutes:.0f} minutes starts the count over)"
        )
