"""The operator's metrics: Prometheus's endpoint scraped while the bot plays
a hand against the fake Discord, and the health check."""

from __future__ import annotations

import json
import re
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.cluster import Cluster
from bot.core.settings import SettingsError, load_settings
from bot.edge.budget import InvalidRequests
from bot.edge.metrics import Metrics
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.faults import Fault
from tests.e2e.harness import Harness, dealt, play_hand, start_bot

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(port: int) -> Samples:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/metrics") as response,
    ):
        assert response.status == 200
        text = await response.text()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels``."""
    return sum(
        value
        for (sample, sample_labels), value in samples.items()
        if sample == name and labels.items() <= dict(sample_labels).items()
    )


async def health(port: int) -> int:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/healthz") as response,
    ):
        return response.status


@pytest.fixture
def port() -> int:
    return free_port()


@pytest.fixture
async def h(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, port: int) -> AsyncIterator[Harness]:
    async for harness in start_bot(FakeDiscord(), tmp_path, monkeypatch, metrics_port=port):
        yield harness


async def test_the_counters_move_while_a_hand_is_played(h: Harness, port: int) -> None:
    assert await health(port) == 200  # every shard of the process is ready
    before = await scrape(port)
    fake = h.discord
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    players = {int(ann["id"]): ann, int(bob["id"]): bob}
    await h.slash(ann, "table open")
    for user in players.values():
        await h.slash(user, "sit", buy_in=500)
    await dealt(h.table())
    during = await scrape(port)
    assert total(during, "stud_tables_live") == 1
    assert total(during, "stud_players_live") == 2
    for user in players.values():
        await h.slash(user, "sitout")
    await play_hand(h, players)
    after = await scrape(port)

    def moved(name: str, **labels: str) -> float:
        return total(after, name, **labels) - total(before, name, **labels)

    assert moved("stud_interactions_total", kind="command:table") == 1
    assert moved("stud_interactions_total", kind="command:sit") == 2
    assert moved("stud_interactions_total") >= 2 + 2 + 2 + 1  # commands and clicks
    clicks = sum(
        value
        for (name, labels), value in after.items()
        if name == "stud_interactions_total" and dict(labels)["kind"].startswith("click:")
    )
    assert clicks >= 4  # a hand to the end takes a decision a street at least
    assert moved("stud_ack_seconds_count") == moved("stud_interactions_total")
    assert moved("stud_table_update_seconds_count") >= clicks
    assert moved("stud_pictures_drawn_total", picture="table_png") >= 5
    assert moved("stud_pictures_drawn_total", picture="showdown_png") == 1
    assert moved("stud_discord_responses_total", status="200") > 0
    assert moved("stud_store_transaction_seconds_count", kind="write") > 0
    assert total(after, "stud_invalid_requests_limit") == 10_000
    assert total(after, "stud_outbox_depth") == 0  # everything shown


async def test_refusals_are_counted_by_status_and_discords_code(h: Harness, port: int) -> None:
    fake = h.discord
    fake.faults.add(Fault("POST /channels/{dm}/messages", 403, code=50007, times=None))
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    await h.slash(ann, "table open")
    for user in (ann, bob):
        await h.slash(user, "sit", buy_in=500)
    await dealt(h.table())
    await h.settled()
    samples = await scrape(port)
    assert total(samples, "stud_discord_errors_total", status="403", code="50007") == 2
    assert total(samples, "stud_discord_responses_total", status="403") == 2
    assert total(samples, "stud_invalid_requests") == 2


async def test_healthz_answers_503_until_every_shard_is_ready() -> None:
    class Process:
        ready = False

        def shards_ready(self) -> bool:
            return self.ready

        def live_counts(self) -> tuple[int, int, int]:
            return (0, 0, 0)

    process = Process()
    port = free_port()
    runner = await Metrics(InvalidRequests()).serve(port, process, host="127.0.0.1")
    try:
        assert await health(port) == 503
        process.ready = True
        assert await health(port) == 200
    finally:
        await runner.cleanup()


def test_metrics_are_off_unless_a_port_is_set_and_each_worker_gets_its_own() -> None:
    assert load_settings({"DISCORD_TOKEN": "t"}, None).metrics_port == 0
    assert load_settings({"DISCORD_TOKEN": "t", "METRICS_PORT": "9100"}, None).metrics_port == 9100
    with pytest.raises(SettingsError, match="METRICS_PORT"):
        load_settings({"DISCORD_TOKEN": "t", "METRICS_PORT": "70000"}, None)
    cluster = Cluster(4, [(0, 1), (2, 3)], Path("identify"), metrics_port=9100)
    ports = [cluster.environment(worker) for worker in cluster.workers]
    assert [env and env["METRICS_PORT"] for env in ports] == ["9100", "9101"]
    assert Cluster(4, [(0, 1)], Path("identify")).environment(cluster.workers[0]) is None


def test_the_sample_dashboard_charts_only_what_the_bot_exports() -> None:
    dashboard = json.loads((ROOT / "deploy" / "grafana-dashboard.json").read_text())
    suffixes = ("", "_total", "_bucket", "_count", "_sum")
    exported = {
        family.name + suffix
        for family in Metrics(InvalidRequests()).registry.collect()
        for suffix in suffixes
    }
    charted = {
        name
        for panel in dashboard["panels"]
        for target in panel["targets"]
        for name in re.findall(r"\bstud_[a-z_]+", target["expr"])
    }
    assert charted and charted <= exported, charted - exported
