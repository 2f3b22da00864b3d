"""Discord's invalid-request budget as the bot counts it, and who takes no DMs (issue 24 point
1), on a clock the tests move."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

import aiohttp
import discord
import pytest
from aiohttp import web

from bot.core.storage import Store
from bot.edge.budget import WINDOW, InvalidRequests, trace
from bot.edge.dms import BACK_OFF, REOPEN_GAP, ClosedDms
from bot.edge.drawing import InProcessDrawing
from bot.edge.presenter import DiscordPresenter
from tests.bot.fakes import ManualClock
from tests.texts import TEXTS


class Wall:
    def __init__(self) -> None:
        self.at = 1_800_000_000.0

    def __call__(self) -> float:
        return self.at


class Shared:
    """The store's counts of every process, in memory."""

    def __init__(self) -> None:
        self.minutes: dict[int, int] = {}

    async def add_invalid(self, counts: list[tuple[int, int]]) -> None:
        for minute, count in counts:
            self.minutes[minute] = self.minutes.get(minute, 0) + count

    async def invalid_since(self, minute: int) -> int:
        return sum(c for m, c in self.minutes.items() if m >= minute)


def test_refusals_count_over_a_sliding_ten_minutes_and_nothing_else_does() -> None:
    wall = Wall()
    budget = InvalidRequests(clock=wall)
    for status in (200, 204, 400, 404, 500, 401, 403, 429):
        budget.record(status)
    budget.record(429, "shared")  # Discord does not count a shared limit's 429
    assert budget.count() == 3
    wall.at += WINDOW - 1
    budget.record(403)
    assert budget.count() == 4
    wall.at += 2  # the first three are older than the window now
    assert budget.count() == 1


def test_half_the_budget_strains_it_once_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    wall = Wall()
    budget = InvalidRequests(limit=10, clock=wall)
    for _ in range(4):
        budget.record(403)
    assert not budget.strained
    with caplog.at_level(logging.WARNING):
        budget.record(403)
        budget.record(429)
    assert budget.strained
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 1
    wall.at += WINDOW + 60  # whole minutes of refusals are kept for the cluster: one more
    budget.record(200)  # an answer that counts nothing does not re-check
    budget.record(403)
    assert budget.count() == 1 and not budget.strained


async def test_the_cluster_count_strains_a_process_that_refused_little_itself() -> None:
    wall = Wall()
    shared = Shared()
    mine, other = InvalidRequests(limit=10, clock=wall), InvalidRequests(limit=10, clock=wall)
    for _ in range(4):
        other.record(403)
    mine.record(403)
    await other.share(shared)
    assert not mine.strained and mine.used == 1
    await mine.share(shared)
    assert mine.used == 5 and mine.strained
    assert mine.count() == 1  # its own, which it shared once only
    await mine.share(shared)
    assert shared.minutes == {int(wall.at) // 60: 5}
    wall.at += WINDOW + 60
    await mine.share(shared)
    assert mine.used == 0 and not mine.strained


async def test_a_count_the_store_refused_is_shared_next_time() -> None:
    class Failing(Shared):
        async def add_invalid(self, counts: list[tuple[int, int]]) -> None:
            raise OSError("the database is away")

    budget = InvalidRequests(clock=Wall())
    budget.record(403)
    with pytest.raises(OSError):
        await budget.share(Failing())
    shared = Shared()
    await budget.share(shared)
    assert sum(shared.minutes.values()) == 1


async def test_the_trace_counts_refusals_but_a_shared_limits_and_tells_each_answer() -> None:
    async def answer(request: web.Request) -> web.Response:
        status = int(request.query["status"])
        return web.Response(status=status, headers={"X-RateLimit-Scope": request.query["scope"]})

    app = web.Application()
    app.router.add_get("/x", answer)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    seen: list[tuple[int, str]] = []
    budget = InvalidRequests()
    try:
        async with aiohttp.ClientSession(
            trace_configs=[trace(budget, lambda *answer: seen.append(answer))]
        ) as session:
            for status, scope in ((200, "user"), (403, "user"), (429, "shared"), (429, "global")):
                async with session.get(
                    f"http://127.0.0.1:{port}/x", params={"status": status, "scope": scope}
                ):
                    pass
    finally:
        await runner.cleanup()
    assert seen == [(200, "/x"), (403, "/x"), (429, "/x"), (429, "/x")]
    assert budget.count() == 2


async def test_a_refused_player_waits_out_the_back_off_or_asks_for_his_cards(
    store: Store,
) -> None:
    wall = Wall()
    dms = ClosedDms(store.coordination, clock=wall)
    await dms.refused(1)
    await dms.refused(2)
    assert not dms.may_try(1) and dms.may_try(3)
    await dms.asked(1)  # My cards at once: still not before the least gap
    wall.at += REOPEN_GAP
    assert dms.may_try(1) and not dms.may_try(2)
    assert not dms.may_try(1, strained=True)  # a strained budget tries no closed DM
    # A restart (or another worker) reads the same from the store.
    again = ClosedDms(store.coordination, clock=wall)
    await again.load()
    assert again.may_try(1) and not again.may_try(2)
    await again.delivered(1)
    wall.at += BACK_OFF
    assert again.may_try(2)
    fresh = ClosedDms(store.coordination, clock=wall)
    await fresh.load()
    assert fresh._closed == {}  # 1 took a DM; 2's back-off is over


async def test_a_players_dms_take_turns_so_one_refusal_stops_the_next(store: Store) -> None:
    dms = ClosedDms(store.coordination, clock=Wall())
    tried: list[str] = []

    async def dm(name: str) -> None:
        async with dms.turn(7):
            if not dms.may_try(7):
                return
            tried.append(name)
            await asyncio.sleep(0)  # Discord answers a moment later: refused
            await dms.refused(7)

    await asyncio.gather(dm("third street"), dm("seventh street"))
    assert tried == ["third street"]
    assert dms._turns == {} and dms._waiting == {}


async def test_a_strained_budget_leaves_old_buttons_rather_than_retry(store: Store) -> None:
    """Taking the buttons off an old message is cosmetic: while the budget is strained, Discord
    failing it is not worth a retry; otherwise the failure is retried as any other."""

    class Down:
        status, reason = 503, "Service Unavailable"

    edits: list[object] = []

    async def edit(**changes: object) -> None:
        edits.append(changes)
        raise discord.DiscordServerError(Down(), "down")

    message = SimpleNamespace(edit=edit)
    channel = SimpleNamespace(get_partial_message=lambda message_id: message)

    async def get_message(channel_id: int, message_id: int) -> dict[str, object]:
        return {"id": message_id, "flags": 0}  # a message from before Components V2

    bot = SimpleNamespace(
        get_partial_messageable=lambda *args, **kwargs: channel,
        http=SimpleNamespace(get_message=get_message),
    )
    budget = InvalidRequests(limit=2, clock=Wall())
    presenter = DiscordPresenter(
        bot,  # type: ignore[arg-type]
        ManualClock(),
        TEXTS,
        InProcessDrawing(),
        budget=budget,
        dms=ClosedDms(store.coordination),
    )
    outbox = SimpleNamespace(channel_id=1, guild_id=2)
    with pytest.raises(discord.DiscordServerError):
        await presenter._clear_buttons(outbox, 10)  # type: ignore[arg-type]
    budget.record(403)
    budget.record(429)
    assert budget.strained
    await presenter._clear_buttons(outbox, 10)  # type: ignore[arg-type]
    assert edits == [{"view": None}, {"view": None}]  # tried once each time, never again


async def test_two_processes_share_their_counts_through_the_store(store: Store) -> None:
    wall = Wall()
    mine, other = InvalidRequests(limit=10, clock=wall), InvalidRequests(limit=10, clock=wall)
    for _ in range(4):
        other.record(429)
    mine.record(403)
    await other.share(store.coordination)
    await mine.share(store.coordination)
    assert mine.used == 5 and mine.strained
    await other.share(store.coordination)
    assert other.used == 5 and other.strained
