"""``python -m bot`` / ``stud-bot``: read settings, set up logging, run the bot until stopped
(or a cluster of its processes, :mod:`bot.cluster`, or one of the maintenance commands of
:mod:`bot.cli`)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

import discord

from bot import cli, cluster
from bot.activity.server import ActivityServer
from bot.cli import EXIT_SETTINGS
from bot.cli import open_store as open_store  # tests and benchmarks open the store as we do
from bot.core.settings import Settings, SettingsError, load_settings, with_shards
from bot.core.shards import shard_ranges
from bot.edge.client import StudBot
from bot.edge.gateway import CrashLoop
from bot.edge.identify import IdentifyTurns
from words import Texts

log = logging.getLogger("bot")


class RedactToken(logging.Filter):
    """Replace the bot token wherever it would appear in a log line, arguments included."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self._token = token

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self._token in message:
            record.msg = message.replace(self._token, "[token]")
            record.args = None
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            if self._token in str(error):
                record.exc_info = None
                record.exc_text = None
                record.msg = (
                    f"{record.msg} ({type(error).__name__}, details hidden: they held the token)"
                )
        return True


# At DEBUG these libraries log whole payloads: discord.py the bodies Discord sends back (a DM's
# text holds the player's down cards), aiosqlite every query result (a hand's state holds the
# deck). They stay at INFO whatever LOG_LEVEL says.
PAYLOAD_LOGGERS = ("discord", "aiosqlite")


def keep_payloads_out_of_logs(level: int | str) -> None:
    floor = max(logging.INFO, logging.getLevelName(level) if isinstance(level, str) else level)
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(floor)


def configure_logging(settings: Settings) -> None:
    handler = logging.StreamHandler()
    # A cluster's workers log to the same journal: each line says whose it is.
    shards = "" if settings.shard_ids is None else f"[shards {shard_ranges(settings.shard_ids)}] "
    handler.setFormatter(
        logging.Formatter(
            f"%(asctime)s %(levelname)-8s {shards}%(name)s: %(message)s", "%Y-%m-%d %H:%M:%S"
        )
    )
    handler.addFilter(RedactToken(settings.token))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.log_level)
    keep_payloads_out_of_logs(settings.log_level)


async def run(settings: Settings, identify_lock: Path | None = None) -> None:
    """Run until Discord closes the connection for good, or SIGTERM/SIGINT asks us to stop.

    systemd and Docker stop a service with SIGTERM: the bot then stops taking interactions,
    lets the writes in flight finish and the pending posts go out (a few seconds at most), and
    closes the database, so the process exits 0 well inside their usual 10-second grace.
    """
    store = await open_store(settings)
    turns = None if identify_lock is None else IdentifyTurns(identify_lock)
    stop = cli.stop_signal()
    counting: asyncio.Task[None] | None = None
    try:
        shards = "all" if settings.shard_ids is None else shard_ranges(settings.shard_ids)
        crash_loop = CrashLoop(store.coordination, shards)
        pause = await crash_loop.pause()
        if pause:  # a crash loop: SIGTERM still stops it at once
            # A refused token or no network ends the start now, not after the pause.
            await cli.check_token(settings.token)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), pause)
        if stop.is_set():
            log.info("stopping: signal received before connecting")
            return
        texts = Texts()
        async with (
            StudBot(settings, store, texts, identify_turns=turns) as bot,
            activity(settings, bot, texts),
        ):

            async def opened(shard_id: int) -> None:
                # Only a start that opened a session spent one of Discord's: it alone counts.
                nonlocal counting
                if counting is None:
                    counting = asyncio.create_task(crash_loop.opened(), name="crash-loop")

            bot.add_listener(opened, "on_shard_ready")
            runner = asyncio.create_task(bot.start(settings.token))
            stopping = asyncio.create_task(stop.wait())
            await asyncio.wait({runner, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if stop.is_set():
                log.info("stopping: signal received")
                await bot.close()
                # Closed, the bot has nothing left to do; but discord.py's connect loop may be
                # sleeping out a reconnect's backoff (minutes, in a long outage of Discord),
                # which its close does not wake.
                runner.cancel()
            stopping.cancel()
            await asyncio.wait({runner})
            if not runner.cancelled():
                runner.result()  # raises what it ended with, if anything
    finally:
        if counting is not None:
            counting.cancel()
            await asyncio.gather(counting, return_exceptions=True)
        await store.close()
    log.info("stopped")


def activity(
    settings: Settings, bot: StudBot, texts: Texts
) -> contextlib.AbstractAsyncContextManager[object]:
    """The Activity's web server while the bot runs, when the Activity is on (ACTIVITY_*); it
    reaches Discord's API where the bot does."""
    if settings.activity is None:
        return contextlib.nullcontext()
    return ActivityServer(
        settings.activity,
        bot.house,
        texts,
        settings.game,
        application_id=lambda: bot.application_id,
        api_base=discord.http.Route.BASE,
        bot_token=settings.token,
    )


COMMANDS: dict[str, Callable[[Settings, argparse.Namespace], Coroutine[Any, Any, None]]] = {
    "run": lambda settings, args: run(settings, args.identify_lock),
    "cluster": cluster.cluster,
    "sync": cli.sync,
    "backup": cli.backup,
    "migrate-db": cli.migrate_db,
    "crash-loop": cli.crash_loop,
}


def fail(code: int, message: str) -> int:
    print(f"stud-bot: {message}", file=sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    args = cli.parse(argv)
    try:
        settings = with_shards(load_settings(), args.shard_count, args.shards)
    except SettingsError as error:
        return fail(EXIT_SETTINGS, str(error))
    configure_logging(settings)
    # The bot has no voice: discord.py's warning that voice libraries are missing is noise.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    try:
        # Ctrl+C is how an operator stops the bot: no traceback for it.
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(COMMANDS[args.command or "run"](settings, args))
    except Exception as error:
        failure = cli.explain(error)
        if failure is None:
            raise
        return fail(failure.code, str(failure))
    return 0


if __name__ == "__main__":
    sys.exit(main())
