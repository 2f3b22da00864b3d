"""``python -m benchmarks.bot``: many tables playing at once through a simulated Discord.

The unmodified bot runs in this process and connects to the fake Discord of the end-to-end
tests (REST and gateway on 127.0.0.1), which runs with its players in a child process so the two
don't share an event loop. Each table has two players (``--seats``) who click the table buttons
once the bot shows them, after a random think time (``--think``: mean seconds). For every click
two times are measured from its arrival (the INTERACTION_CREATE sent): to the bot's
acknowledgement (its first callback request: the table's update itself when that answers the
click), and to the bot's update of that channel's table message. Printed for the whole run and
for its steady part (after the first 10 s), with the CPU a click costs in each process, the click
rate that would fill the machine's cores at that cost, and the Discord requests the bot made, by
kind, beside the least the run's mix of clicks, DMs and hands needs.

Then, in turn: the floor client (``benchmarks.floor``) against the same players, making the
bot's requests with no game, store or drawing; the code from before a hand was one live message
(``git archive`` of 1d409fc, its own benchmark with the same arguments); and the bot again at
half the click rate that filled the cores, then the floor client at that rate (what the same
players get from a client doing no work); and a table of the figures beside their targets.
``--alone`` runs the bot only. A line first times a fixed piece of pure Python: this machine's
speed swings by a factor of two or more between runs, so only ratios of one run compare.

The tables open together by default, so their deals and showdowns come in step; ``--stagger S``
opens them at random over the first S seconds instead, as a bot's tables are in practice.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import multiprocessing
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from pathlib import Path

import discord
import yarl

from benchmarks import capacity
from benchmarks.floor import FloorClient, Shape, floor_png
from bot.__main__ import open_store
from bot.core.settings import GameDefaults, Settings
from bot.edge.client import StudBot
from bot.edge.drawing import DrawingProcess
from tests.e2e.discord_rules import IS_COMPONENTS_V2
from tests.e2e.fake_discord import JSON, FakeDiscord, buttons, message_text
from words import Texts

ACTOR = re.compile(r"▶ \*\*(.+?)\*\*")
ROOT = Path(__file__).resolve().parent.parent
STEADY_AFTER = 10.0  # seconds: tables opening and first deals are behind by then
SIT_DOWN_SECONDS = 2.0  # with more than two seats: the countdown the others sit down in


def passive(labels: dict[str, str]) -> str:
    for prefix in ("Check", "Call", "Bring in"):
        for label, custom_id in labels.items():
            if label.startswith(prefix):
                return custom_id
    raise RuntimeError(f"no passive action in {labels}")


# ---------------------------------------------------------------------- child: Discord + players


async def next_turn(
    fake: FakeDiscord, channel_id: int, seen: set[str], changed: asyncio.Event
) -> tuple[JSON, str]:
    """The table message once it shows buttons not clicked yet, and whose turn it is."""
    while True:
        changed.clear()
        message = fake.table_message(channel_id)
        if message is not None:
            ids = set(buttons(message).values())
            actor = ACTOR.search(message_text(message))
            if ids and not ids & seen and actor is not None:
                return message, actor.group(1)
        await changed.wait()


async def drive_table(
    fake: FakeDiscord,
    channel_id: int,
    clicks: int,
    think: float,
    pending: dict[int, asyncio.Future[float]],
    changed: asyncio.Event,
    samples: list[Sample],
    stagger: float,
    seats: int,
) -> None:
    rng = random.Random(channel_id)
    await asyncio.sleep(rng.uniform(0, stagger))
    users = [fake.add_user(f"c{channel_id % 100000}p{i}") for i in range(seats)]
    by_name = {str(user["global_name"]): user for user in users}
    # Commands are acknowledged at once and answered when done: wait for each answer.
    await fake.answer(await fake.slash(users[0], "table open", channel_id=channel_id))
    for user in users:
        await fake.answer(await fake.slash(user, "sit", channel_id=channel_id, buy_in=1000))
    seen: set[str] = set()
    for _ in range(clicks):
        message, actor = await next_turn(fake, channel_id, seen, changed)
        # A player reads the table before he clicks: mean ``think`` seconds.
        await asyncio.sleep(rng.uniform(0, 2 * think))
        message, actor = await next_turn(fake, channel_id, seen, changed)
        labels = buttons(message)
        seen |= set(labels.values())
        done: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        pending[channel_id] = done
        uploaded = len(fake.uploads)
        reply = await fake.click(by_name[actor], message, passive(labels))
        if reply.kind not in (6, 7):
            raise RuntimeError(f"the bot refused a click: {reply.content}")
        updated = await asyncio.wait_for(done, 60)
        record = fake.interactions[reply.interaction_id]
        assert record.first_callback is not None
        # Whether the click's update carried a new picture (it dealt a street or ended the hand).
        picture = any(u.message_id == int(message["id"]) for u in fake.uploads[uploaded:])
        samples.append(
            Sample(
                record.created,
                record.first_callback - record.created,
                updated - record.created,
                picture,
            )
        )


async def discord_side(
    tables: int, clicks: int, think: float, stagger: float, seats: int, conn: Connection
) -> None:
    fake = FakeDiscord()
    channels = [fake.channel_id] + [fake.add_channel() for _ in range(tables - 1)]
    pending: dict[int, asyncio.Future[float]] = {}
    changed = {channel_id: asyncio.Event() for channel_id in channels}

    def updated(channel_id: int) -> None:
        changed[channel_id].set()
        future = pending.pop(channel_id, None)
        if future is not None and not future.done():
            # The fake's records use the monotonic clock.
            future.set_result(time.monotonic())

    fake.on_update = updated
    await fake.start()
    conn.send((fake.port, fake.guild_id))
    await asyncio.wait_for(fake.identified.wait(), 60)
    await asyncio.sleep(0.2)  # the bot syncs its commands and restores tables after READY
    samples: list[Sample] = []
    conn.send("playing")
    began = time.monotonic()
    await asyncio.gather(
        *(
            drive_table(fake, c, clicks, think, pending, changed[c], samples, stagger, seats)
            for c in channels
        )
    )
    elapsed = time.monotonic() - began
    timed = [replace(s, at=s.at - began) for s in samples]
    conn.send((timed, elapsed, counts(fake, channels)))
    await asyncio.to_thread(conn.recv)  # wait for the bot to disconnect first
    await fake.stop()


STREET = re.compile(r"hand #\d+, (\d)(?:st|nd|rd|th) street")


@dataclass(frozen=True, slots=True)
class Counts:
    """What the bot asked of Discord while its tables played."""

    requests: int  # REST requests, less those answering slash commands (the tables' set-up)
    hands: int  # hand messages (Components V2) posted
    streets: int  # streets dealt, over those hands
    table_pictures: int  # pictures uploaded to the hands' messages
    worst: int  # the most a hand uploaded past its streets dealt plus two
    dms: int  # DMs with a picture
    updates: int  # clicks answered by their table update (UPDATE_MESSAGE)
    deferred: int  # clicks acknowledged on their own (a deferred update)
    routes: dict[str, int]  # the requests counted in ``requests``, by kind


def counts(fake: FakeDiscord, channels: list[int]) -> Counts:
    commands = {str(i) for i, record in fake.interactions.items() if record.kind == 2}
    routes: dict[str, int] = {}
    for r in fake.requests:
        if not ({part.removeprefix("token-") for part in r.path.split("/")} & commands):
            route = route_kind(fake, r.method, r.path)
            routes[route] = routes.get(route, 0) + 1
    requests = sum(routes.values())
    wanted = set(channels)
    hands = [
        m
        for m in fake.messages.values()
        if int(m["channel_id"]) in wanted and m["flags"] & IS_COMPONENTS_V2
    ]
    streets, pictures, worst = 0, 0, -99
    for message in hands:
        text = message_text(message)
        dealt = 5 if "showdown" in text else int(m[1]) - 2 if (m := STREET.search(text)) else 1
        taken = sum(1 for u in fake.uploads if u.message_id == int(message["id"]))
        streets, pictures, worst = streets + dealt, pictures + taken, max(worst, taken - dealt - 2)
    dms = sum(1 for u in fake.uploads if u.channel_id not in wanted and u.channel_id)
    kinds = fake.callback_kinds
    return Counts(
        requests,
        len(hands),
        streets,
        pictures,
        worst,
        dms,
        kinds.get(7, 0),
        kinds.get(6, 0),
        dict(sorted(routes.items(), key=lambda item: -item[1])),
    )


def route_kind(fake: FakeDiscord, method: str, path: str) -> str:
    """A request's kind, for the breakdown: its method and path with ids as {id}, DMs apart."""
    parts = path.strip("/").split("/")
    if parts[0] == "channels" and int(parts[1]) in fake.dm_channels:
        parts[1] = "{dm}"
    shape = "/".join(
        "{id}" if part.isdigit() or part.startswith("token-") else part for part in parts
    )
    return f"{method} /{shape}"


def run_discord(
    tables: int, clicks: int, think: float, stagger: float, seats: int, conn: Connection
) -> None:
    asyncio.run(discord_side(tables, clicks, think, stagger, seats, conn))


# ---------------------------------------------------------------------- parent: the bot


def drawing_pid(drawing: DrawingProcess) -> int:
    """The process the pictures are drawn in (started before the players start)."""
    pid = drawing.pid
    assert pid is not None
    return pid


def peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True, slots=True)
class Usage:
    """CPU seconds each process used while the players played, and the drawing's memory."""

    bot: float
    drawing: float
    discord: float
    drawing_peak_mb: float


Played = tuple[list["Sample"], float, Counts]


async def bot_side(
    conn: Connection, discord_pid: int, floor: Shape | None, seats: int = 2
) -> tuple[Played, Usage]:
    """The bot (or, with ``floor``, the floor client) against the fake Discord of the child."""
    port, guild_id = await asyncio.to_thread(conn.recv)
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
    if floor is not None:
        client = FloorClient(floor, floor_png())
        runner = asyncio.create_task(client.start("benchmark-token"))
        played, usage = await _measured(conn, discord_pid, None)
        await client.close()
        await runner
        conn.send("closed")
        return played, usage
    with tempfile.TemporaryDirectory() as directory:
        settings = Settings(
            token="benchmark-token",
            database_path=str(Path(directory) / "stud.db"),
            dev_guild_id=guild_id,
            # Two players: the hand starts as the second sits. More: a countdown while the
            # rest sit (it starts with the second), so every hand is dealt to them all.
            game=GameDefaults(countdown_seconds=0 if seats == 2 else SIT_DOWN_SECONDS),
        )
        store = await open_store(settings)
        drawing = DrawingProcess()
        bot = StudBot(settings, store, Texts(), drawing=drawing)
        bot._connection.guild_ready_timeout = 0.05
        runner = asyncio.create_task(bot.start(settings.token))
        await drawing.start()
        played, usage = await _measured(conn, discord_pid, drawing)
        await bot.close()
        await runner
        await store.close()
    conn.send("closed")
    return played, usage


async def _measured(
    conn: Connection, discord_pid: int, drawing: DrawingProcess | None
) -> tuple[Played, Usage]:
    """The CPU each process spends from the players' start to their end, and what they saw."""
    before = await asyncio.to_thread(conn.recv)  # the players start
    assert before == "playing"
    start = (cpu_seconds(os.getpid()), cpu_seconds(discord_pid))
    start_drawing = 0.0 if drawing is None else cpu_seconds(drawing_pid(drawing))
    played: Played = await asyncio.to_thread(conn.recv)
    usage = Usage(
        cpu_seconds(os.getpid()) - start[0],
        0.0 if drawing is None else cpu_seconds(drawing_pid(drawing)) - start_drawing,
        cpu_seconds(discord_pid) - start[1],
        0.0 if drawing is None else peak_mb(drawing_pid(drawing)),
    )
    return played, usage


@dataclass(frozen=True, slots=True)
class Sample:
    at: float  # when the click arrived
    ack: float  # seconds from arrival to acknowledgement
    update: float  # seconds from arrival to the table update
    picture: bool  # the update carried a new picture


def percentile(values: list[float], share: float) -> float:
    ms = sorted(value * 1000 for value in values)
    return ms[max(0, round(share * len(ms)) - 1)] if ms else float("nan")


def figures(values: list[float]) -> str:
    ms = sorted(value * 1000 for value in values)
    if not ms:
        return "no clicks"
    p95 = percentile(values, 0.95)
    return f"p50 {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms"


def machine_speed() -> float:
    """Milliseconds one core here takes for a fixed piece of pure Python, best of five."""
    best = float("inf")
    for _ in range(5):
        began = time.perf_counter()
        total = 0
        for number in range(1_000_000):
            total += number
        best = min(best, time.perf_counter() - began)
    return best * 1000


@dataclass(frozen=True, slots=True)
class Run:
    """One run's figures."""

    samples: list[Sample]  # each click's, its arrival counted from the players' start
    elapsed: float
    counts: Counts
    usage: Usage
    seats: int

    @property
    def clicks(self) -> int:
        return len(self.samples)

    @property
    def rate(self) -> float:
        return self.clicks / self.elapsed

    def per_click_ms(self, seconds: float) -> float:
        return seconds * 1000 / self.clicks

    @property
    def full_at(self) -> float:
        """The click rate at which this run's CPU a click fills the machine's cores."""
        spent = self.usage.bot + self.usage.drawing + self.usage.discord
        return self.rate / (spent / (self.elapsed * (os.cpu_count() or 1)))

    def shape(self) -> Shape:
        """What the bot did per click, for the floor to do the same."""
        c = self.counts
        return Shape(
            pictures=max(0, c.table_pictures - c.hands) / self.clicks,
            dms=c.dms / self.clicks,
            clicks_per_hand=self.clicks / max(1, c.hands),
            seats=self.seats,
        )

    @property
    def least_requests(self) -> float:
        """The requests a click this run's mix can't do with less: one answer a click, its DMs,
        one new message a hand (set-up, DM channels and all else counted out)."""
        c = self.counts
        return (self.clicks + c.dms + c.hands) / self.clicks


def run(
    tables: int,
    clicks: int,
    think: float,
    stagger: float,
    floor: Shape | None = None,
    seats: int = 2,
) -> Run:
    parent, child = multiprocessing.Pipe()
    discord_process = multiprocessing.get_context("spawn").Process(
        target=run_discord, args=(tables, clicks, think, stagger, seats, child), daemon=True
    )
    discord_process.start()
    (samples, elapsed, counted), usage = asyncio.run(
        bot_side(parent, discord_process.pid or 0, floor, seats)
    )
    discord_process.join(30)
    return Run(samples, elapsed, counted, usage, seats)


def report(name: str, result: Run, think: float) -> None:
    steady = [s for s in result.samples if s.at >= STEADY_AFTER]
    print(
        f"{name}, mean think time {think:g} s: {result.clicks} clicks in {result.elapsed:.1f} s "
        f"({result.rate:.0f}/s; steady part {len(steady)} clicks)"
    )
    for part_name, part in (("whole run", result.samples), (f"after {STEADY_AFTER:g} s", steady)):
        print(f"  {part_name:>11}: acknowledgement {figures([s.ack for s in part])}")
        print(f"  {'':>11}  table update    {figures([s.update for s in part])}")
    u = result.usage
    print(
        "  CPU per click: bot {:.2f} ms, drawing {:.2f} ms, fake Discord {:.2f} ms: the cores "
        "are full at {:.0f} clicks/s".format(
            *(result.per_click_ms(x) for x in (u.bot, u.drawing, u.discord)), result.full_at
        )
    )
    c = result.counts
    print(
        f"  Discord requests {c.requests} ({c.requests / result.clicks:.2f} a click); "
        f"{c.hands} hands, {c.streets} streets dealt, {c.table_pictures} table pictures, "
        f"{c.dms} DMs with a picture; clicks answered by their update {c.updates}, "
        f"acknowledged on their own {c.deferred}"
    )
    print("  requests by kind: " + ", ".join(f"{route} {n}" for route, n in c.routes.items()))
    print(
        f"  the least this mix needs: an answer a click, its DMs and a message a hand, "
        f"({result.clicks} + {c.dms} + {c.hands}) / {result.clicks} = "
        f"{result.least_requests:.2f} a click"
    )


BEFORE = "1d409fc"  # the code from before a hand was one live message
PER_CLICK = re.compile(r"CPU per click: bot ([\d.]+) ms, drawing ([\d.]+) ms")


def run_before(tables: int, clicks: int, think: float) -> tuple[float, float]:
    """The bot and drawing CPU a click of ``BEFORE``'s code (``git archive`` of it, run
    with its own benchmark and the same arguments), in ms."""
    with tempfile.TemporaryDirectory() as directory:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", BEFORE], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", directory], input=archive, check=True)
        args = ["--tables", str(tables), "--clicks", str(clicks), "--think", str(think)]
        output = subprocess.run(
            [sys.executable, "-m", "benchmarks.bot", *args],
            cwd=directory,
            env={**os.environ, "PYTHONPATH": directory},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    found = PER_CLICK.search(output)
    if found is None:
        raise RuntimeError(f"no CPU per click in the old benchmark's output:\n{output}")
    return float(found[1]), float(found[2])


def verdict(value: float, target: float) -> str:
    if math.isnan(value):
        return "not measured"
    return "met" if value <= target else "MISSED"


def compare(tables: int, clicks: int, think: float, stagger: float, seats: int) -> None:
    """The bot, its floor, ``BEFORE``'s code and a run at half the rate
    that fills the cores, in turn, each figure beside its target."""
    bot = run(tables, clicks, think, stagger, seats=seats)
    report(f"the bot: {tables} tables of {seats}", bot, think)
    floor = run(tables, clicks, think, stagger, floor=bot.shape(), seats=seats)
    report(f"the floor client: {tables} tables of {seats}", floor, think)
    before_drawing = math.nan
    if seats == 2:
        before_bot, before_drawing = run_before(tables, clicks, think)
        print(
            f"the older code ({BEFORE}), same arguments: CPU per click bot "
            f"{before_bot:.1f} ms, drawing {before_drawing:.1f} ms"
        )
    else:
        print(f"the older code ({BEFORE}): not run (its benchmark seats two only)")
    half = bot.full_at / 2
    half_think = 1.0
    half_tables = max(2, min(400, round(half * half_think)))
    loaded = run(half_tables, max(6, clicks // 2), half_think, stagger, seats=seats)
    report(f"the bot at half the rate that fills the cores: {half_tables} tables", loaded, 1.0)
    # (d)'s reference: what the same players, rate and requests get from a client doing no work.
    loaded_floor = run(
        half_tables, max(6, clicks // 2), half_think, stagger, floor=loaded.shape(), seats=seats
    )
    report(f"the floor client at the same rate: {half_tables} tables", loaded_floor, 1.0)

    c = bot.counts
    requests = c.requests / bot.clicks
    uploads = c.table_pictures / max(1, c.hands)
    allowed = (c.streets + 2 * c.hands) / max(1, c.hands)
    cpu = bot.per_click_ms(bot.usage.bot) / floor.per_click_ms(floor.usage.bot)
    drawing = bot.per_click_ms(bot.usage.drawing) / before_drawing
    ack = percentile([s.ack for s in loaded.samples], 0.95)
    update = percentile([s.update for s in loaded.samples], 0.95)
    dealing = percentile([s.ack for s in loaded.samples if s.picture], 0.95)
    others = percentile([s.ack for s in loaded.samples if not s.picture], 0.95)
    floor_ack = percentile([s.ack for s in loaded_floor.samples], 0.95)
    floor_update = percentile([s.update for s in loaded_floor.samples], 0.95)
    print("\nthe targets of one live message a hand (measured in this run, in turn):")
    rows = [
        ("(a) Discord requests a click", f"{requests:.2f}", "<= 1.5", verdict(requests, 1.5)),
        (
            "(a) the least this mix needs (see above)",
            f"{bot.least_requests:.2f}",
            "",
            "reachable" if bot.least_requests <= 1.5 else "out of reach",
        ),
        (
            "(a) uploads a hand (its streets dealt + 2)",
            f"{uploads:.2f} ({allowed:.2f}); worst hand {c.worst:+d}",
            "<= streets + 2",
            verdict(c.worst, 0),
        ),
        ("(b) bot CPU a click / floor client's", f"{cpu:.2f}", "<= 2", verdict(cpu, 2)),
        (
            f"(c) drawing CPU a click / {BEFORE}'s",
            f"{drawing:.3f}",
            "<= 0.25",
            verdict(drawing, 0.25),
        ),
        (
            f"(d) ack p95 at {loaded.rate:.0f} clicks/s (half of {bot.full_at:.0f})",
            f"{ack:.1f} ms",
            "< 10 ms",
            verdict(ack, 10),
        ),
        (
            "(d) ack p95 of clicks with a new picture, others",
            f"{dealing:.1f} ms, {others:.1f} ms",
            "",
            "breakdown",
        ),
        ("(d) table update p95, same run", f"{update:.1f} ms", "< 50 ms", verdict(update, 50)),
        (
            "(d) the floor client at that rate: ack, update",
            f"{floor_ack:.1f} ms, {floor_update:.1f} ms",
            "",
            "reference",
        ),
    ]
    for row in rows:
        print("  {:<48} {:<34} {:<15} {}".format(*row))


def main() -> None:
    parser = argparse.ArgumentParser(description="Stud bot: many tables at once")
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--clicks", type=int, default=20, help="clicks per table")
    parser.add_argument(
        "--seats", type=int, default=2, choices=range(2, 9), help="players at each table"
    )
    parser.add_argument(
        "--think", type=float, default=0.5, help="mean seconds a player takes to act (0: none)"
    )
    parser.add_argument(
        "--stagger", type=float, default=0.0,
        help="open the tables at random over this many seconds (0: all at once)",
    )  # fmt: skip
    parser.add_argument(
        "--alone",
        action="store_true",
        help="only the bot's own run (no floor, no older code, no run at half load)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        nargs="+",
        help="instead: the clicks/s that 1, 2... bot processes sustain with the update p95 "
        "under 50 ms (benchmarks/capacity.py)",
    )
    parser.add_argument(
        "--database", nargs="+", choices=("sqlite", "postgresql"), default=["sqlite"],
        help="with --processes: the databases to run on",
    )  # fmt: skip
    args = parser.parse_args()
    if args.processes:
        capacity.main(args.processes, args.database, args.tables)
        return
    print(f"this machine: 1,000,000 additions in pure Python take {machine_speed():.0f} ms")
    if args.alone:
        report(
            f"{args.tables} tables of {args.seats}",
            run(args.tables, args.clicks, args.think, args.stagger, seats=args.seats),
            args.think,
        )
    else:
        compare(args.tables, args.clicks, args.think, args.stagger, args.seats)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"bot process peak RSS: {peak_mb:.0f} MB (target < 200 MB)")


if __name__ == "__main__":
    main()
