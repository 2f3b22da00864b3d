"""``python -m benchmarks.activity [--tables N] [--seconds S]``: the Activity's server under load.

``--tables`` tables (default 100), each watched by three sockets (its two players and a
spectator), all through the server's real HTTP and WebSocket path (sessions made with the fake
Discord's OAuth2 and instance endpoints, as in the tests). The core runs in this process on a
SQLite file, its tables shown on a screen that takes what they put out and draws nothing, as a
stand-in for the Discord face; the players' pages run here too.

First every player acts as soon as his turn reaches his socket, for ``--seconds``: the action
rate that fills this process (one event loop: one core, or its share of a busy machine's), and
the CPU an action costs, all of it here: core, server, pages.
Then the players act after a random think time so the actions come at half that rate, for
``--seconds`` again. For each action: the time from its sending to the moment the last of its
table's three sockets has the table it left; its p50 and p95 against the target (p95 < 50 ms);
the frames and bytes a socket got an action; and the pictures drawn (none: the page draws).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from PIL import Image

from benchmarks.bot import machine_speed
from bot.activity.page_socket import Rate
from bot.core.outbox import Outbox
from tests.activity.pages import ORIGIN, Rig, activity_rig
from tests.bot.fakes import Screen

TARGET_P95_MS = 50.0
# Players here act as fast as the table lets them, beyond a person's pace the server limits to.
UNLIMITED = Rate(burst=1000, per_second=1000.0)
PASSIVE = ("check", "call", "bring_in")


class Delivered(Screen):
    """The Discord face's stand-in: takes each effect and reports it delivered, keeping none
    (a run's thousands of views kept would make the collector's passes the figure)."""

    def deliver(self, outbox: Outbox) -> None:
        while (effect := outbox.take()) is not None:
            outbox.delivered(effect)


@dataclass
class Socket:
    """One page's socket: what it got, and (for a player) his turns."""

    ws: aiohttp.ClientWebSocketResponse
    user_id: str
    table: Table
    frames: int = 0
    bytes: int = 0

    async def read(self) -> None:
        async for message in self.ws:
            if message.type is not aiohttp.WSMsgType.TEXT:
                continue
            self.frames += 1
            self.bytes += len(message.data.encode())
            frame = json.loads(message.data)
            if frame["type"] in ("done", "refused"):
                self.table.run.answered(frame["id"])
            if frame["type"] == "table" and (hand := frame["view"]["hand"]) is not None:
                self.table.seen(self, hand)


@dataclass
class Table:
    """A table's three sockets and the actions sent there not yet seen by all of them."""

    run: Run
    sockets: list[Socket] = field(default_factory=list)
    pending: dict[tuple[str, int], tuple[float, set[int]]] = field(default_factory=dict)
    acting: bool = False
    acted: tuple[str, int] | None = None  # the last decision acted on (a view may come twice)
    turn: tuple[Socket, dict[str, Any]] | None = None  # the latest turn shown to its player

    def seen(self, socket: Socket, hand: dict[str, Any]) -> None:
        now = time.perf_counter()
        key = (hand["hand_id"], hand["seq"])
        for (hand_id, seq), (sent, waiting) in list(self.pending.items()):
            # The table the action left, or any later state of it, or a later hand.
            if hand_id == key[0] and seq > key[1]:
                continue
            waiting.discard(id(socket))
            if not waiting:
                del self.pending[(hand_id, seq)]
                self.run.reached(now - sent)
        actor = hand["public"]["actor"]
        if actor is not None and hand["buttons"] and hand["users"][actor] == socket.user_id:
            self.turn = (socket, hand)
            self.play()

    def play(self) -> None:
        """The player whose turn it is acts (once a turn), once the run plays."""
        if self.turn is None or not self.run.playing or self.acting:
            return
        socket, hand = self.turn
        key = (hand["hand_id"], hand["seq"])
        if self.acted != key:
            self.acting, self.acted = True, key
            asyncio.get_running_loop().create_task(self._act(socket, hand))

    async def _act(self, socket: Socket, hand: dict[str, Any]) -> None:
        try:
            await asyncio.sleep(self.run.think())
            spec = next(s for s in hand["buttons"] if s["action"] in PASSIVE)
            self.pending[(hand["hand_id"], hand["seq"] + 1)] = (
                time.perf_counter(),
                {id(s) for s in self.sockets},
            )
            self.run.actions += 1
            self.run.sent[self.run.actions] = time.perf_counter()
            await socket.ws.send_str(
                json.dumps(
                    {
                        "type": "act",
                        "id": self.run.actions,
                        "action": spec["action"],
                        "amount": spec["amount"],
                        "hand_id": hand["hand_id"],
                        "seq": hand["seq"],
                    }
                )
            )
        except aiohttp.ClientConnectionResetError:
            pass  # the run is over: its sockets are closing
        finally:
            self.acting = False


@dataclass
class Run:
    mean_think: float = 0.0
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    counting: bool = False
    playing: bool = False  # while the sockets are opened, nobody acts
    sent: dict[int, float] = field(default_factory=dict)  # action id -> when
    answers: list[float] = field(default_factory=list)  # action to its answer, seconds

    def answered(self, number: int) -> None:
        sent = self.sent.pop(number, None)
        if sent is not None and self.counting:
            self.answers.append(time.perf_counter() - sent)

    def think(self) -> float:
        return random.expovariate(1 / self.mean_think) if self.mean_think > 0 else 0.0

    def reached(self, seconds: float) -> None:
        if self.counting:
            self.latencies.append(seconds)


async def _sockets(rig: Rig, tables: int, run: Run) -> list[Table]:
    made = []
    for _ in range(tables):
        channel = rig.fake.add_channel()
        table = Table(run)
        await rig.open_table(channel=channel)
        for name, seat in (("a", True), ("b", True), ("watcher", False)):
            user = rig.user(name)
            session, instance = await rig.session(user, channel=channel)
            ws = await rig.http.ws_connect(f"{rig.base}/ws", origin=ORIGIN, max_msg_size=0)
            hello = {"type": "hello", "session": session, "instance_id": instance}
            await ws.send_str(json.dumps({**hello, "channel_id": str(channel)}))
            socket = Socket(ws, str(user), table)
            table.sockets.append(socket)
            rig.tasks.append(asyncio.create_task(socket.read()))
            if seat:
                await rig.house.seating.sit(channel, user, name, 1000)
        made.append(table)
    return made


def _quantile(values: Sequence[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1] if len(values) > 1 else values[0]


async def measure(tables: int, seconds: float) -> None:
    pictures = 0
    save = Image.Image.save

    def counted(self: Image.Image, *args: Any, **kwargs: Any) -> None:
        nonlocal pictures
        pictures += 1
        save(self, *args, **kwargs)

    Image.Image.save = counted  # type: ignore[method-assign]
    print(f"this machine: 1,000,000 additions in pure Python take {machine_speed():.0f} ms")
    run = Run()
    with tempfile.TemporaryDirectory() as folder:
        async with activity_rig(Path(folder), Delivered(), rate=UNLIMITED) as rig:
            made = await _sockets(rig, tables, run)
            await asyncio.sleep(2.0)  # every first hand dealt and shown
            gc.freeze()  # as the bot does once started: what start-up made is not scanned again
            run.playing = True
            for table in made:
                table.play()
            # Full speed: the rate that fills this process.
            start_cpu, start, actions = time.process_time(), time.perf_counter(), run.actions
            await asyncio.sleep(seconds)
            cpu = time.process_time() - start_cpu
            wall = time.perf_counter() - start
            done = run.actions - actions
            # What this process reached: its core (one event loop), or its share of a busy
            # machine's, is full.
            fills = done / wall
            print(
                f"{tables} tables, {3 * tables} sockets; full speed: {fills:.0f} actions/s, "
                f"{1000 * cpu / done:.2f} CPU ms an action ({done / cpu:.0f} actions/s would"
                " fill a core of its own)",
                flush=True,
            )
            # Half that rate: each table's decision waits a think time.
            run.mean_think = tables / (fills / 2)
            await asyncio.sleep(2.0)
            frames = sum(s.frames for t in made for s in t.sockets)
            sent = sum(s.bytes for t in made for s in t.sockets)
            actions = run.actions
            run.counting = True
            await asyncio.sleep(seconds)
            run.counting = False
            done = run.actions - actions
            frames = sum(s.frames for t in made for s in t.sockets) - frames
            sent = sum(s.bytes for t in made for s in t.sockets) - sent
            latencies = sorted(1000 * s for s in run.latencies)
            answers = sorted(1000 * s for s in run.answers)
            p50, p95 = _quantile(latencies, 50), _quantile(latencies, 95)
            verdict = "met" if p95 < TARGET_P95_MS else "MISSED"
            print(
                f"at half that rate: {done / seconds:.0f} actions/s; action to the last of its"
                f" table's sockets: p50 {p50:.1f} ms, p95 {p95:.1f} ms (target < 50 ms: {verdict})"
                f", max {latencies[-1]:.1f} ms over {len(latencies)} actions"
            )
            print(
                f"action to its answer (the core's entry, its save): p50"
                f" {_quantile(answers, 50):.1f} ms, p95 {_quantile(answers, 95):.1f} ms"
            )
            print(
                f"a socket gets {frames / done / 3:.2f} frames and {sent / done / 3:.0f} bytes an"
                f" action ({sent / frames:.0f} bytes a frame); pictures drawn: {pictures}"
            )
    Image.Image.save = save  # type: ignore[method-assign]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=15.0)
    args = parser.parse_args(argv)
    asyncio.run(measure(args.tables, args.seconds))


if __name__ == "__main__":
    main()
