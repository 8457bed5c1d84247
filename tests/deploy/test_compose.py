"""docker-compose.yml without a Docker daemon: it parses, its services run entry points these
tests run too, and its health checks pass when run directly against live processes."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import requests
import yaml

from api.apps import webhooks
from api.cli import build_parser
from api.ground.config import WEBHOOK_QUEUE
from api.service.embedded_redis import redis_server_binary
from tests.processes import ROOT, free_port, wait_for

COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
IMAGE_SERVICES = {name for name, service in SERVICES.items() if service.get("image") == "rulehouse:latest"}


def test_the_layout_one_image_built_once_replicas_pools_aof_and_health_checks():
    assert sorted(IMAGE_SERVICES) == ["api", "worker-analysis", "worker-bots", "worker-search", "worker-sims",
                                      "worker-webhooks"]
    assert [name for name, service in SERVICES.items() if "build" in service] == ["api"]
    assert SERVICES["api"]["deploy"]["replicas"] >= 2
    assert all(SERVICES[name]["deploy"]["replicas"] >= 1 for name in ("worker-bots", "worker-search", "worker-analysis",
                                                                    "worker-sims"))
    # One app holds at most WEBHOOK_DELIVERIES_PER_APP (1) delivery workers: there are more.
    assert SERVICES["worker-webhooks"]["deploy"]["replicas"] >= 2
    assert "--appendonly" in SERVICES["redis"]["command"] and "yes" in SERVICES["redis"]["command"]
    assert all("healthcheck" in service for service in SERVICES.values())
    assert all(SERVICES[name]["environment"]["RULEHOUSE_REQUIRE_API_KEYS"] == "1" for name in IMAGE_SERVICES)
    assert "api:8000" in (ROOT / "deploy" / "nginx.conf").read_text()
    assert "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in SERVICES["lb"]["volumes"]
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", "tests"} <= set(ignored)


def test_worker_pools_split_the_queues():
    bots = build_parser().parse_args(SERVICES["worker-bots"]["command"][1:])
    sims = build_parser().parse_args(SERVICES["worker-sims"]["command"][1:])
    search = build_parser().parse_args(SERVICES["worker-search"]["command"][1:])
    hooks = build_parser().parse_args(SERVICES["worker-webhooks"]["command"][1:])
    analysis = build_parser().parse_args(SERVICES["worker-analysis"]["command"][1:])
    assert bots.queues == "bots" and sims.queues == "simulations" and search.queues == "search"
    assert analysis.queues == "analysis"
    assert bots.metrics_port == sims.metrics_port == search.metrics_port == hooks.metrics_port == 9100
    assert analysis.metrics_port == 9100
    # Deliveries (which wait on apps' receivers) are taken by their own workers only, and a plain
    # `rulehouse worker` does not take them either.
    takers = [name for name, service in SERVICES.items() if name in IMAGE_SERVICES and name != "api"
              and "webhooks" in build_parser().parse_args(service["command"][1:]).queues.split(",")]
    assert takers == ["worker-webhooks"] and hooks.queues == "webhooks"
    assert "webhooks" not in build_parser().parse_args(["worker"]).queues.split(",")
    assert webhooks.QUEUE == WEBHOOK_QUEUE == "webhooks"


def _rulehouse_argv(argv: list[str]) -> list[str]:
    """The image's `rulehouse` console script, run from this checkout's interpreter."""
    assert argv[0] == "rulehouse"
    return [sys.executable, "-m", "api.cli", *argv[1:]]


@pytest.mark.timeout(120)
def test_every_service_command_and_health_check_works_when_run_directly(redis_db_url, redis_url):
    """The api command (gunicorn) and a worker command start here on free ports; each health check,
    pointed at them, passes; then fails once they are gone."""
    api_port, metrics_port = free_port(), free_port()
    env = {**os.environ, "REDIS_URL": redis_db_url, "PYTHONPATH": str(ROOT)}
    env.update({key: value for key, value in SERVICES["api"]["environment"].items() if key.startswith("RULEHOUSE_")
                and value and "$" not in str(value)})
    env["RULEHOUSE_BIND"] = f"127.0.0.1:{api_port}"
    worker_argv = [str(part) for part in SERVICES["worker-bots"]["command"]]
    worker_argv[worker_argv.index("--metrics-port") + 1] = str(metrics_port)
    worker_argv[worker_argv.index("--metrics-host") + 1] = "127.0.0.1"
    api_argv = [sys.executable, "-m", *SERVICES["api"]["command"]]
    started = [subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for argv in (api_argv, _rulehouse_argv(worker_argv))]

    def check(service: str, port: int) -> int:
        argv = [str(part) for part in SERVICES[service]["healthcheck"]["test"][1:]]
        argv = [part.replace(":8000/", f":{port}/").replace(":9100/", f":{port}/") for part in argv]
        return subprocess.run(_rulehouse_argv(argv), cwd=ROOT, env=env, capture_output=True, timeout=30).returncode

    try:
        wait_for(lambda: check("api", api_port) == 0, timeout=60, interval=0.3)
        wait_for(lambda: check("worker-bots", metrics_port) == 0, timeout=60, interval=0.3)
        assert check("worker-sims", metrics_port) == 0
        # The image requires app keys: the API refuses a request without one.
        assert requests.get(f"http://127.0.0.1:{api_port}/v1/rulesets", timeout=5).status_code == 401
    finally:
        for process in started:
            process.send_signal(signal.SIGTERM)
        for process in started:
            process.wait(timeout=30)
    assert check("api", api_port) != 0 and check("worker-bots", metrics_port) != 0

    # Redis's own check, with the redis-cli beside the redis-server this suite runs.
    redis_cli = Path(redis_server_binary()).with_name("redis-cli")
    port = redis_url.rsplit(":", 1)[1].split("/")[0]
    argv = [str(redis_cli), "-p", port, *SERVICES["redis"]["healthcheck"]["test"][2:]]
    assert subprocess.run(argv, capture_output=True, text=True, timeout=10).stdout.strip() == "PONG"
    assert shlex.join(SERVICES["redis"]["healthcheck"]["test"][1:]) == "redis-cli ping"
