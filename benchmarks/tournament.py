"""What a big tournament's bookkeeping costs beside its hands.

    python -m benchmarks.tournament [--players N] [--seats N] [--level-hands N] [--seed S]
                                    [--path DIR]

A ``--players`` (100) sit-and-go of ``--seats``-seat tables (8) is played to its winner through
the core, on SQLite in ``--path`` (a temporary directory), on a clock that moves only when told
(``tests.bot.fakes.ManualClock``): random legal decisions at every table, levels of
``--level-hands`` hands (10), the decks from ``--seed``. Every effect the tables show is taken
as the Discord edge takes it (``tests.bot.fakes.Screen``), and after each hand the director
deals with, the lobby is built and worded as the bot posts it (``bot.edge.lobby``).

Printed, in CPU milliseconds per hand dealt (``time.process_time``, every thread of the
process, SQLite's included): the tournament's bookkeeping, which is what the director does
between hands (places, balancing and breaking, its one write, reading the tables' seats back)
and the lobby (its view from the store and the director, its embed and buttons), beside the
target (< 5 ms a hand) and beside the CPU of the hands themselves (dealing, every action,
saving and settling: the rest of the run) as a ratio. This machine's speed swings by 2x from
one run to the next: the ratio, taken in one run, is the figure that compares.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from bot.core import dealer
from bot.core.storage import Store
from bot.core.tournament import TournamentDirector
from bot.core.tournament.desk import Tournaments
from bot.core.views import LobbyView
from bot.edge.lobby import lobby_buttons, lobby_embed
from tests.bot.tournament_run import COUNTDOWN, TournamentRun
from tests.texts import TEXTS

TARGET_MS = 5.0  # the budget of bookkeeping CPU per hand dealt

P = ParamSpec("P")
R = TypeVar("R")


@dataclass
class Meter:
    """CPU seconds spent in each part of the bookkeeping, and how often each ran."""

    seconds: dict[str, float] = field(default_factory=dict)
    calls: dict[str, int] = field(default_factory=dict)

    def add(self, part: str, spent: float) -> None:
        self.seconds[part] = self.seconds.get(part, 0.0) + spent
        self.calls[part] = self.calls.get(part, 0) + 1

    def timed(
        self, part: str, function: Callable[P, Coroutine[Any, Any, R]]
    ) -> Callable[P, Coroutine[Any, Any, R]]:
        """``function`` (a coroutine function), its CPU counted under ``part``."""

        async def measured(*args: P.args, **kwargs: P.kwargs) -> R:
            started = time.process_time()
            try:
                return await function(*args, **kwargs)
            finally:
                self.add(part, time.process_time() - started)

        return measured


@dataclass(frozen=True, slots=True)
class Result:
    players: int
    tables: int
    hands: int
    moves: int
    breaks: int
    total: float  # CPU seconds of the whole play, from the first deal to the payout
    parts: dict[str, float]
    calls: dict[str, int]

    @property
    def bookkeeping(self) -> float:
        return sum(self.parts.values())


async def play(players: int, seats: int, level_hands: int, seed: int, path: Path) -> Result:
    store = await Store.open(path / "tournament.db")
    run = TournamentRun(store, seed, players=players, seats=seats)
    # The decks from the run's seed, as the tests' ``seeded`` fixture does: the same hands
    # every time.
    dealer.shuffled_deck = run.deck  # type: ignore[attr-defined]
    meter = Meter()
    # Measured where the bot spends it: the director's work between hands (its lock held, one
    # table at a time) and the lobby after it, built by the desk and worded by the edge.
    TournamentDirector._rank_and_move = meter.timed(  # type: ignore[method-assign]
        "between hands", TournamentDirector._rank_and_move
    )
    Tournaments.lobby = meter.timed("lobby view", Tournaments.lobby)  # type: ignore[method-assign]

    async def show(view: LobbyView) -> int:
        started = time.process_time()
        embed = lobby_embed(view, TEXTS)
        lobby_buttons(view, TEXTS)
        assert len(embed) <= 6000 and len(embed.fields) <= 25
        meter.add("lobby embed", time.process_time() - started)
        return 1

    run.lobby.on_show = show
    try:
        director = await run.register_all(level_hands=level_hands)
        tables = len(director.tables)
        meter.seconds.clear()  # the start is paid once, not a hand at a time
        meter.calls.clear()
        started = time.process_time()
        await _play_out(run)
        total = time.process_time() - started
        return Result(
            players=players,
            tables=tables,
            hands=len(director.record.dealt),
            moves=len(director.record.moves),
            breaks=len(director.record.breaks),
            total=total,
            parts=dict(meter.seconds),
            calls=dict(meter.calls),
        )
    finally:
        await run.house.tasks.stop()
        await store.close()


async def _play_out(run: TournamentRun) -> None:
    """Random legal decisions at every table until one player has every chip (the loop of
    ``TournamentRun.play``, without its audits: they are the tests', not the bot's)."""
    director = run.director
    assert director is not None
    for _ in range(2_000_000):
        if director.finished:
            return
        acted = False
        for table in list(director.tables.values()):
            live = table.live
            actor = table.actor_id()
            if live is None or actor is None:
                continue
            spec = run.rng.choice(table.buttons())
            await run.house.dealer.act(table.channel_id, actor, spec.action, spec.amount)
            acted = True
            if table.live is not live:
                await run.clock.until_idle(lambda: run.house.tasks)
        if not acted:
            await run.clock.until_idle(lambda: run.house.tasks)
            await run.clock.advance(COUNTDOWN, run.house)
    raise RuntimeError("the tournament never ended")


def report(result: Result) -> str:
    hands = max(1, result.hands)
    per_hand = 1000 * result.bookkeeping / hands
    hand_itself = 1000 * (result.total - result.bookkeeping) / hands
    lines = [
        f"A {result.players}-player sit-and-go at {result.tables} tables, played to its winner:"
        f" {result.hands} hands dealt, {result.moves} players moved, {result.breaks} tables"
        " broken",
        "CPU per hand dealt (time.process_time, ms):",
        f"  the tournament's bookkeeping   {per_hand:7.3f}   target < {TARGET_MS:g} ms:"
        f" {'met' if per_hand < TARGET_MS else 'MISSED'}",
    ]
    for part in ("between hands", "lobby view", "lobby embed"):
        spent, calls = result.parts.get(part, 0.0), result.calls.get(part, 0)
        each = 1000 * spent / max(1, calls)
        lines.append(
            f"    {part:<26} {1000 * spent / hands:7.3f}   ({calls} times, {each:.3f} each)"
        )
    lines += [
        f"  the hand itself              {hand_itself:7.3f}   (dealing, actions, saving, settling)",
        f"  bookkeeping / hand           {per_hand / hand_itself if hand_itself else 0:7.3f}",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--level-hands", type=int, default=10)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--path", type=Path, default=None)
    args: Any = parser.parse_args(argv)
    if args.path is None:
        with tempfile.TemporaryDirectory() as folder:
            result = asyncio.run(
                play(args.players, args.seats, args.level_hands, args.seed, Path(folder))
            )
    else:
        args.path.mkdir(parents=True, exist_ok=True)
        result = asyncio.run(play(args.players, args.seats, args.level_hands, args.seed, args.path))
    print(report(result))


if __name__ == "__main__":
    main()
