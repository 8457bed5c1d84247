"""GET /metrics of a multi-process gunicorn adds up every worker's samples, dead ones' too."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import psutil
import requests
from prometheus_client.parser import text_string_to_metric_families

from tests.processes import ROOT, free_port, wait_for


def rulesets_count(base: str) -> float:
    for family in text_string_to_metric_families(requests.get(f"{base}/metrics", timeout=5).text):
        for sample in family.samples:
            if sample.name == "rulehouse_http_request_duration_seconds_count" and \
                    sample.labels.get("route") == "/v1/rulesets":
                return sample.value
    return 0.0


def test_metrics_survive_the_workers_that_recorded_them(redis_db_url, tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    env.update(REDIS_URL=redis_db_url, RULEHOUSE_BIND=f"127.0.0.1:{port}", RULEHOUSE_WEB_WORKERS="2",
               RULEHOUSE_THREADS="2", PYTHONPATH=str(ROOT))
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "python:api.service.gunicorn_conf",
                               "api.app:create_app()"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        def up() -> bool:
            assert server.poll() is None, server.stderr.read().decode()[-2000:]
            try:
                return requests.get(f"{base}/v1/health", timeout=2).status_code == 200
            except (requests.ConnectionError, requests.Timeout):  # still booting
                return False
        wait_for(up, timeout=60, interval=0.2)
        for _ in range(20):
            assert requests.get(f"{base}/v1/rulesets", timeout=5).status_code == 200
        assert rulesets_count(base) == 20
        # Kill every worker: gunicorn starts new ones, which have recorded nothing themselves.
        old = {child.pid for child in psutil.Process(server.pid).children()}
        assert len(old) == 2
        for pid in old:
            os.kill(pid, signal.SIGKILL)
        wait_for(lambda: len({c.pid for c in psutil.Process(server.pid).children()} - old) == 2 and up(),
                 timeout=60, interval=0.2)
        assert rulesets_count(base) == 20
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
