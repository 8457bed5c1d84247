"""``rulehouse serve`` (what ``make run`` starts) on a machine with no Redis configured."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import redis as redis_lib
import requests
from rq import Worker

from tests.processes import ROOT, wait_for


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def mcp_answer(endpoint: str) -> dict | None:
    """The MCP server's answer to an initialize request, or None while it does not listen yet."""
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}}
    try:
        answer = requests.post(endpoint, json=hello, timeout=2,
                               headers={"Accept": "application/json, text/event-stream"})
    except requests.ConnectionError:
        return None
    text = answer.text
    body = text.split("data:", 1)[1].strip().splitlines()[0] if "data:" in text else text
    return json.loads(body)


def test_make_run_starts_embedded_redis_api_workers_and_the_mcp_server_and_stops_cleanly(tmp_path):
    port, mcp_port = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(PYTHONPATH=str(ROOT), RULEHOUSE_HOME=str(tmp_path / "home"))
    # `make run` with this interpreter's environment taken as installed (-o: not rebuilt).
    serve = subprocess.Popen(
        ["make", "--no-print-directory", "-o", ".venv/.installed", "run", f"BIN={Path(sys.executable).parent}",
         f"PORT={port}", f"MCP_PORT={mcp_port}",
         "SERVE_ARGS=--workers 1 --bot-workers 1 --webhook-workers 1 --web-workers 1"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert serve.poll() is None, serve.stdout.read()
            try:
                ready = requests.get(f"{base}/v1/ready", timeout=2)
                break
            except (requests.ConnectionError, requests.Timeout):  # still booting (slowly, on a busy machine)
                assert time.monotonic() < deadline, "serve did not answer"
                time.sleep(0.2)
        assert ready.status_code == 200
        assert ready.json() == {"status": "ok", "redis": "ok"}
        url_file = tmp_path / "home" / "redis.url"
        redis_url = url_file.read_text()
        assert redis_url.startswith("redis://127.0.0.1:")
        assert (tmp_path / "home" / "redis").is_dir()

        # Beside it, the MCP server for agents (a process of its own, a client of this service).
        mcp = wait_for(lambda: mcp_answer(f"http://127.0.0.1:{mcp_port}/mcp"), timeout=30)
        assert mcp["result"]["serverInfo"]["name"] == "rulehouse"

        client = redis_lib.Redis.from_url(redis_url)
        queues = wait_for(lambda: len(found := Worker.all(connection=client)) == 5 and found, timeout=30)
        # Webhook deliveries on a worker of their own: no bot worker waits on an app's receiver.
        assert sorted(tuple(worker.queue_names()) for worker in queues) == [
            ("analysis",), ("bots",), ("bots", "search", "simulations", "analysis"), ("search",), ("webhooks",)]
        client.close()

        # The workers it started play a simulation.
        created = requests.post(f"{base}/v1/simulations", json={"ruleset": "monopoly-cars2", "games": 60, "seed": 1})
        assert created.status_code == 202
        location = base + created.headers["Location"]
        deadline = time.monotonic() + 60
        while (state := requests.get(location).json())["status"] != "finished":
            assert time.monotonic() < deadline, state
            time.sleep(0.2)
        assert state["progress"]["games_done"] == 60
    finally:
        # SIGTERM to `rulehouse serve` itself (make's child), as a process manager would.
        for child in psutil.Process(serve.pid).children():
            child.send_signal(signal.SIGTERM)
        output, _ = serve.communicate(timeout=60)
    assert serve.returncode == 0, output
    assert not url_file.exists()
    # Everything it started has stopped: nothing listens on its ports any more.
    redis_port = int(redis_url.rsplit(":", 1)[1].split("/")[0])
    for stopped in (port, redis_port, mcp_port):
        with socket.socket() as sock:
            assert sock.connect_ex(("127.0.0.1", stopped)) != 0
