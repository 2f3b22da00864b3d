"""What an operator watches (issue 24 point 3): Prometheus metrics and a health check, served on
``METRICS_PORT`` (off by default).

``GET /metrics`` is Prometheus's text format; ``GET /healthz`` answers 200 once every shard of
this process is connected and ready, 503 before (and while one is away), for a load balancer or
an orchestrator's readiness probe. Each bot has a registry of its own, so tests (and several bots
in one process) never mix their counts.

Everything is measured where it already passes, without touching the core: interactions and
their acknowledgements as discord.py dispatches and answers them, Discord's answers through the
HTTP trace (:func:`bot.edge.budget.trace`), its errors' JSON codes where discord.py raises them,
pictures through the drawing, the store's transactions through its backend, and the live counts
(tables, players, the outboxes' depth, the invalid-request budget) read at each scrape.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable
from typing import Any, Final, Protocol

import discord
from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

from bot.edge.budget import InvalidRequests
from bot.edge.buttons import ACTION_ID, CARDS_ID
from bot.edge.drawing import Drawing

log = logging.getLogger(__name__)

# Seconds: Discord's 3-second window for an acknowledgement sits between the last two.
ACK_BUCKETS: Final = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
UPDATE_BUCKETS: Final = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
STORE_BUCKETS: Final = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 2.5)
_CALLBACK: Final = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
PENDING_KEPT: Final = 10_000  # interactions awaiting their acknowledgement, at most


class Live(Protocol):
    """What the scrape reads of the process (``bot.edge.client.StudBot``)."""

    def live_counts(self) -> tuple[int, int, int]:
        """(tables open, players seated, effects waiting in the outboxes)."""
        ...

    def shards_ready(self) -> bool: ...


class Metrics:
    def __init__(self, budget: InvalidRequests) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.interactions = Counter(
            "stud_interactions", "Interactions received, by kind", ["kind"], registry=r
        )
        self.ack_seconds = Histogram(
            "stud_ack_seconds",
            "From an interaction's arrival to Discord taking its acknowledgement",
            buckets=ACK_BUCKETS,
            registry=r,
        )
        self.update_seconds = Histogram(
            "stud_table_update_seconds",
            "Showing one table update: drawing its picture and editing or posting its message",
            buckets=UPDATE_BUCKETS,
            registry=r,
        )
        self.pictures = Counter("stud_pictures_drawn", "Pictures drawn", ["picture"], registry=r)
        self.responses = Counter(
            "stud_discord_responses", "Discord's answers, by HTTP status", ["status"], registry=r
        )
        self.errors = Counter(
            "stud_discord_errors",
            "Discord's refusals that reached the bot, by status and Discord's JSON error code",
            ["status", "code"],
            registry=r,
        )
        self.store_seconds = Histogram(
            "stud_store_transaction_seconds",
            "Store transactions, by kind (write, read, single, report)",
            ["kind"],
            buckets=STORE_BUCKETS,
            registry=r,
        )
        self.budget = budget
        self._live_tables = Gauge("stud_tables_live", "Tables open in this process", registry=r)
        self._live_players = Gauge("stud_players_live", "Players seated at them", registry=r)
        self._outbox = Gauge(
            "stud_outbox_depth", "Effects waiting to be shown, every table together", registry=r
        )
        Gauge(
            "stud_invalid_requests",
            "Requests Discord refused (401, 403, 429) in the last 10 minutes, the cluster's "
            "count where it is shared",
            registry=r,
        ).set_function(lambda: budget.used)
        Gauge(
            "stud_invalid_requests_limit", "What gets the IP banned in 10 minutes", registry=r
        ).set(budget.limit)
        self._arrived: dict[int, float] = {}  # interaction id -> when it arrived (monotonic)

    def watch(self, live: Live) -> None:
        def counts() -> tuple[int, int, int]:
            return live.live_counts()

        self._live_tables.set_function(lambda: counts()[0])
        self._live_players.set_function(lambda: counts()[1])
        self._outbox.set_function(lambda: counts()[2])

    # ------------------------------------------------------------------ interactions

    def arrived(self, interaction: discord.Interaction) -> None:
        """An interaction came: count it by kind and start its acknowledgement's clock."""
        self.interactions.labels(kind_of(interaction)).inc()
        self._arrived[interaction.id] = time.monotonic()
        if len(self._arrived) > PENDING_KEPT:  # never answered (Discord gave up on it)
            del self._arrived[next(iter(self._arrived))]

    def answered(self, status: int, url: str) -> None:
        """An HTTP answer (from the trace): an interaction's first callback stops its clock."""
        self.responses.labels(str(status)).inc()
        match = _CALLBACK.search(url)
        if match is not None:
            started = self._arrived.pop(int(match.group(1)), None)
            if started is not None:
                self.ack_seconds.observe(time.monotonic() - started)

    def transaction(self, kind: str, seconds: float) -> None:
        self.store_seconds.labels(kind).observe(seconds)

    def refused(self, error: discord.HTTPException) -> None:
        self.errors.labels(str(error.status), str(error.code)).inc()

    def count_errors(self, http: discord.http.HTTPClient) -> None:
        """Count the errors discord.py raises from its requests, with Discord's JSON code."""
        request = http.request

        async def counted(*args: Any, **kwargs: Any) -> Any:
            try:
                return await request(*args, **kwargs)
            except discord.HTTPException as error:
                self.refused(error)
                raise

        http.request = counted  # type: ignore[method-assign]

    # ------------------------------------------------------------------ the server

    async def serve(self, port: int, live: Live, host: str = "0.0.0.0") -> web.AppRunner:
        """Serve ``/metrics`` and ``/healthz`` on ``port`` until the runner is cleaned up."""

        async def metrics(request: web.Request) -> web.Response:
            body = await asyncio.to_thread(generate_latest, self.registry)
            return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

        async def healthz(request: web.Request) -> web.Response:
            ready = live.shards_ready()
            return web.Response(
                status=200 if ready else 503, text="ready\n" if ready else "not ready\n"
            )

        app = web.Application()
        app.router.add_get("/metrics", metrics)
        app.router.add_get("/healthz", healthz)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, host, port).start()
        log.info("metrics on port %d (/metrics, /healthz)", port)
        return runner


def kind_of(interaction: discord.Interaction) -> str:
    """Its kind: "command:sit", "click:call", "cards", or its type for anything else."""
    data: dict[str, Any] = dict(interaction.data or {})
    if interaction.type is discord.InteractionType.application_command:
        return f"command:{data.get('name', '?')}"
    if interaction.type is discord.InteractionType.component:
        custom_id = str(data.get("custom_id", ""))
        if action := ACTION_ID.fullmatch(custom_id):
            return f"click:{action['action']}"
        return "cards" if CARDS_ID.fullmatch(custom_id) else "component"
    return interaction.type.name


class CountedDrawing:
    """The bot's drawing, counting each picture by the function that drew it."""

    def __init__(self, drawing: Drawing, pictures: Counter) -> None:
        self.inner = drawing
        self._pictures = pictures

    async def draw(
        self, draw: Callable[..., bytes], *args: object, behind: bool = False, **kwargs: object
    ) -> bytes:
        png = await self.inner.draw(draw, *args, behind=behind, **kwargs)
        self._pictures.labels(getattr(draw, "__name__", "picture")).inc()
        return png

    async def close(self) -> None:
        await self.inner.close()
