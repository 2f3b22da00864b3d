"""What the e2e tests share: the unmodified bot started with ``bot.start()`` against the fake
Discord on 127.0.0.1 (:func:`start_bot`), the moves its players make, what they check, and
:class:`DiscordTime`, the clock the fault tests run the bot and the fake on.

Test files import this module, never one another.
"""

from __future__ import annotations

import asyncio
import gc
import heapq
import itertools
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord
import pytest
import yarl

from bot.__main__ import open_store
from bot.core.settings import ActivitySettings, GameDefaults, Settings
from bot.core.table import Table
from bot.edge.client import StudBot
from bot.edge.drawing import InProcessDrawing
from engine import events as ev
from engine.hand import StudHand
from tests.databases import migrated_sqlite
from tests.e2e.fake_discord import JSON, Callback, FakeDiscord, buttons, message_text
from words import Texts

PNG = b"\x89PNG\r\n\x1a\n"
COUNTDOWN = 0.3


async def until(condition: Callable[[], object], seconds: float, what: str = "a condition") -> None:
    """Poll ``condition`` until it holds; fail after ``seconds`` (of the wall clock)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting: {what}")
        await asyncio.sleep(0.02)


class DiscordTime:
    """A clock that runs as the wall clock does and, when told, jumps forward.

    The fault tests give it to the bot (its tables' turn clocks and countdowns, its delivery's
    pauses between retries) and to the fake Discord (its slow answers, and when it saw each
    request and interaction). A sleeper wakes when the wall clock gets it there or a jump does,
    so nothing waits longer than it would without the jumps: whatever no jump reaches still
    happens, in real time.
    """

    def __init__(self) -> None:
        self._offset = 0.0
        self._order = itertools.count()
        # (when it wakes, order, its wake-up): the earliest first; woken ones are dropped lazily
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []

    def now(self) -> float:
        return time.time() + self._offset

    async def sleep(self, seconds: float) -> None:
        seconds = max(0.0, seconds)
        loop = asyncio.get_running_loop()
        woken: asyncio.Future[None] = loop.create_future()
        heapq.heappush(self._sleepers, (self.now() + seconds, next(self._order), woken))
        # The wall clock alone gets there too: jumps only ever add to it.
        timer = loop.call_later(seconds, _wake, woken)
        try:
            await woken
        finally:
            timer.cancel()

    def next_wake(self) -> float | None:
        """When the earliest sleeper wakes (None: nobody sleeps)."""
        while self._sleepers and self._sleepers[0][2].done():
            heapq.heappop(self._sleepers)
        return self._sleepers[0][0] if self._sleepers else None

    def jump_to(self, when: float) -> None:
        """Move time to ``when`` (if it is still ahead) and wake everyone due by then."""
        self._offset += max(0.0, when - self.now())
        now = self.now()
        while self._sleepers and self._sleepers[0][0] <= now:
            _wake(heapq.heappop(self._sleepers)[2])

    async def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass at once: each sleeper due meanwhile wakes at its own time, in
        order, and runs (what it starts then, a turn's last seconds say, is due in turn)."""
        target = self.now() + seconds
        while (wake := self.next_wake()) is not None and wake <= target:
            self.jump_to(wake)
            await _let_run()
        self.jump_to(target)
        await _let_run()


class HeldTime(DiscordTime):
    """A :class:`DiscordTime` that jumps only when the test says (:meth:`advance`), never on
    its own (:func:`pass_discords_delays` sees no sleeper): for steps that must come between
    two of the bot's timers (registering before a tournament's reminder). The wall clock still
    runs."""

    def next_wake(self) -> float | None:
        return None

    async def advance(self, seconds: float) -> None:
        target = self.now() + seconds
        while (wake := super().next_wake()) is not None and wake <= target:
            self.jump_to(wake)
            await _let_run()
        self.jump_to(target)
        await _let_run()


def _wake(woken: asyncio.Future[None]) -> None:
    if not woken.done():
        woken.set_result(None)


async def _let_run() -> None:
    """Let what was just woken run until it waits again (on the clock, the database, Discord)."""
    for _ in range(5):
        await asyncio.sleep(0)
    await asyncio.sleep(0.01)


def turn_clock_running(bot: StudBot) -> bool:
    return any(t.timer is not None and not t.timer.done() for t in bot.house.open_tables)


async def pass_discords_delays(clock: DiscordTime, bot: StudBot, fake: FakeDiscord) -> None:
    """Time spent waiting on Discord passes at once: while no player's turn clock runs and no
    interaction waits for its acknowledgement, time jumps to the next wake-up on the clock (a
    slow answer's, a pause between the bot's retries, a countdown).

    Never during a turn: the players act as soon as their buttons show, so a turn lasts no
    longer than it would on the wall clock. Never while an acknowledgement is due: it is
    measured on this clock, and a bot that made a player wait on Discord's delays would show
    them in it. In either case the wall clock still gets there, as without this.
    """
    while True:
        await asyncio.sleep(0.002)
        wake = clock.next_wake()
        if wake is None or turn_clock_running(bot) or fake.acknowledgements_due():
            continue
        clock.jump_to(wake)


class Harness:
    def __init__(
        self, discord_: FakeDiscord, bot: StudBot, database: Path, clock: DiscordTime | None
    ) -> None:
        self.discord = discord_
        self.bot = bot
        self.database = database
        self.clock = clock  # None: the bot and the fake run on the wall clock alone

    def table(self, channel_id: int | None = None) -> Table:
        return self.bot.house.seating.get(channel_id or self.discord.channel_id)

    async def settled(self) -> None:
        """Let the bot finish what the last interaction started (DMs, message edits)."""
        for _ in range(6000):  # up to 30 s: Discord's faults are retried with pauses
            await asyncio.sleep(0.005)
            if self.bot.presenter.idle:
                return
        raise AssertionError("the bot never settled")

    async def current_message(self, channel_id: int | None = None) -> JSON:
        """The table message once it carries the buttons of the decision now due (a player
        clicks as soon as he sees them, whatever else the bot is still posting)."""
        table = self.table(channel_id)
        for _ in range(6000):
            live = table.live
            message = self.discord.table_message(channel_id)
            due = f":{live.hand_id}:{live.seq}:" if live is not None else None
            if due and message is not None and any(due in i for i in buttons(message).values()):
                return message
            # The clock is fair: it starts once the buttons are shown, never before.
            assert live is None or live.deadline is None, "a turn clock runs, no buttons shown"
            await asyncio.sleep(0.005)
        raise AssertionError("the buttons of the decision due were never shown")

    async def applied(self, seq: int, channel_id: int | None = None) -> None:
        """Wait for the decision acknowledged at ``seq`` to be applied (acknowledgement comes
        first, the work after)."""
        table = self.bot.house.open_tables.find(channel_id or self.discord.channel_id)
        if table is None:
            return  # the decision ended its table's last hand (a tournament's end)
        for _ in range(400):
            # Unlocked: the decision is saved and what it changed is in the outbox.
            if (table.live is None or table.live.seq != seq) and not table.lock.locked():
                return
            await asyncio.sleep(0.005)
        raise AssertionError("the click was never applied")

    async def slash(self, user: JSON, command: str, **options: Any) -> Callback:
        """A slash command's answer (commands are acknowledged first, answered after)."""
        callback = await self.discord.slash(user, command, **options)
        assert callback.kind == 5, callback  # deferred at once, before any work
        return await self.discord.answer(callback)

    async def click(self, user: JSON, message: JSON, custom_id: str, **options: Any) -> Callback:
        """A refused click's answer: a silent acknowledgement, then a private followup."""
        callback = await self.discord.click(user, message, custom_id, **options)
        return await self.discord.answer(callback)


async def start_bot(
    fake: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    game: GameDefaults | None = None,
    clock: DiscordTime | None = None,
    metrics_port: int = 0,
    activity: ActivitySettings | None = None,
) -> AsyncIterator[Harness]:
    """The bot in this process, connected to ``fake``, until the test is done; pictures drawn
    in-process. With ``clock``, the bot and the fake run on it and Discord's delays pass at
    once (:func:`pass_discords_delays`)."""
    if clock is not None:
        fake.clock = clock
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url)
    )
    database = tmp_path / "stud.db"
    settings = Settings(
        token="fake-token",
        database_path=str(database),
        dev_guild_id=fake.guild_id,
        # Long enough for every player to sit before the first deal, short for a fast test.
        game=game or GameDefaults(countdown_seconds=COUNTDOWN),
        metrics_port=metrics_port,
        activity=activity,
    )
    await migrated_sqlite(database)  # a copy of a file migrated once per session
    store = await open_store(settings)
    bot = StudBot(settings, store, Texts(), clock=clock, drawing=InProcessDrawing())
    bot._connection.guild_ready_timeout = 0.05
    runner = asyncio.create_task(bot.start(settings.token))
    driver = None
    if clock is not None:
        driver = asyncio.create_task(pass_discords_delays(clock, bot, fake))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        yield Harness(fake, bot, database, clock)
    finally:
        if driver is not None:
            driver.cancel()
        await bot.close()
        await asyncio.wait_for(runner, 10)
        await store.close()
        await fake.stop()
        gc.unfreeze()  # the bot froze what the whole test process had made so far


async def dealt(table: Table) -> None:
    for _ in range(100):
        if table.live is not None:
            return
        await asyncio.sleep(COUNTDOWN / 10)
    raise AssertionError("no hand was dealt")


def passive(labels: dict[str, str]) -> str:
    for prefix in ("Check", "Чек", "Call", "Колл", "Bring in", "Бринг-ин"):
        for label, custom_id in labels.items():
            if label.startswith(prefix):
                return custom_id
    raise AssertionError(f"no passive action in {labels}")


def aggressive(labels: dict[str, str]) -> str:
    """The click that puts in the most chips: short stacks are all in within a street or two."""
    for prefix in ("Raise", "Bet", "Complete", "Call", "Bring in", "Check"):
        for label, custom_id in labels.items():
            if label.startswith(prefix):
                return custom_id
    raise AssertionError(f"no action in {labels}")


async def play_hand(h: Harness, players: dict[int, JSON], locale: str = "en-US") -> None:
    table = h.table()
    while table.live is not None:
        message = await h.current_message()
        actor = table.actor_id()
        assert actor is not None and table.live is not None
        seq = table.live.seq
        reply = await h.discord.click(players[actor], message, passive(buttons(message)), locale)
        # The update itself (7), or a deferred update (6) when it came late: the table changes.
        assert reply.kind in (6, 7), reply
        await h.applied(seq)
    await h.settled()


def wallet_totals(database: Path) -> dict[int, int]:
    """Wallet + seat chips per user, read straight from the SQLite file."""
    with sqlite3.connect(database) as db:
        wallets = dict(db.execute("SELECT user_id, balance FROM wallets").fetchall())
        seats = db.execute("SELECT user_id, stack FROM seats").fetchall()
    for user_id, stack in seats:
        wallets[user_id] = wallets.get(user_id, 0) + stack
    return wallets


def shows(card: str, text: str) -> bool:
    """``card`` ("As" or "A♠") stands in ``text`` as a card, not inside a word or a hash."""
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(card)}(?![0-9A-Za-z])", text) is not None


def hidden_cards(hand: StudHand) -> set[str]:
    """Down cards never shown at showdown, written both ways."""
    shown = {c for e in hand.events if isinstance(e, ev.HandShown) for c in e.cards}
    down = {c for seat in range(hand.seats) for c in hand.down_cards(seat)} - shown
    return {str(c) for c in down} | {c.pretty for c in down}


def assert_private(h: Harness, down: set[str], shown: set[str]) -> None:
    """No down card in any channel text, embed or file name, except shown ones in the results."""
    for message in h.discord.channel_messages():
        text = " ".join([message_text(message), *(a["filename"] for a in message["attachments"])])
        results = "showdown.png" in str(message["attachments"])
        private = down - shown if results else down
        for card in private:
            assert not shows(card, text), (card, text)
