"""Real worker and CLI processes for the tests, on the test's Redis database.

Each runs through ``tests.workers.toy_race.cli_main`` so the test-only toy ruleset is
registered beside the real ones.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import redis as redis_lib
import requests

ROOT = Path(__file__).resolve().parents[1]
#: Short leases so a killed worker's chunk is taken over within seconds.
LEASE_SECONDS = 2


class Workers:
    """Starts ``rulehouse worker`` processes (with the toy ruleset registered) and stops them."""

    def __init__(self, redis_url: str) -> None:
        self.redis_url = redis_url
        self.processes: list[subprocess.Popen] = []

    def start(self, count: int = 1, *extra: str, wait: bool = True) -> list[subprocess.Popen]:
        """``count`` more workers; with ``wait``, once they have registered with Redis."""
        from rq import Worker

        client = redis_lib.Redis.from_url(self.redis_url)
        # Killed workers stay registered until their key expires, so count the new ones.
        expected = Worker.count(connection=client) + count
        env = {**os.environ, "PYTHONPATH": str(ROOT), "RULEHOUSE_SIMULATION_LEASE": str(LEASE_SECONDS)}
        code = "from tests.workers.toy_race import cli_main; cli_main()"
        started = [
            subprocess.Popen(
                [sys.executable, "-c", code, "worker", "--redis-url", self.redis_url, *extra],
                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            )
            for _ in range(count)
        ]
        self.processes += started
        if not wait:
            client.close()
            return started
        deadline = time.monotonic() + 20
        while Worker.count(connection=client) < expected:
            assert time.monotonic() < deadline, "workers did not register"
            for process in started:
                assert process.poll() is None, process.stderr.read().decode()
            time.sleep(0.05)
        client.close()
        return started

    def stop(self) -> None:
        """Stop them all: a worker still busy after a moment (a long search) is told again, which
        RQ takes as stop now (it ignores a second signal within a second); the test is over."""
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        _wait_all(self.processes, 2)
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        _wait_all(self.processes, 15)
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait()


def _wait_all(processes: list[subprocess.Popen], seconds: float) -> None:
    """Wait until every process has exited or ``seconds`` have passed."""
    deadline = time.monotonic() + seconds
    for process in processes:
        try:
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            return


def free_port() -> int:
    """A free loopback port (for a server a test starts)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(predicate, timeout: float = 60.0, interval: float = 0.05):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, "timed out"
        time.sleep(interval)


def together(count: int, send) -> list:
    """``send(n)`` from ``count`` threads released at once by a barrier; what each returned, by ``n``."""
    start = threading.Barrier(count)
    replies: list = [None] * count

    def run(slot: int) -> None:
        start.wait()
        replies[slot] = send(slot)

    threads = [threading.Thread(target=run, args=(slot,)) for slot in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return replies


def run_cli(*args: str, redis_url: str, timeout: float = 60, **env_vars: str) -> subprocess.CompletedProcess:
    """``rulehouse ARGS`` in a subprocess that knows the toy ruleset."""
    code = "from tests.workers.toy_race import cli_main; cli_main()"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REDIS_URL": redis_url, **env_vars}
    return subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )


class ApiServer:
    """The API under real gunicorn with the deployed settings (api/service/gunicorn_conf.py), on a free port.

    gunicorn binds port 0 and logs the port it got, so no port is guessed.
    """

    def __init__(self, redis_url: str, **settings: str) -> None:
        self.redis_url = redis_url
        self.settings = settings
        self.process: subprocess.Popen | None = None
        self.url = ""

    def start(self, web_workers: int = 1, threads: int = 4) -> str:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "REDIS_URL": self.redis_url,
               "RULEHOUSE_BIND": "127.0.0.1:0", "RULEHOUSE_WEB_WORKERS": str(web_workers),
               "RULEHOUSE_THREADS": str(threads), **self.settings}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:api.service.gunicorn_conf", "--log-level", "info",
             "api.app:create_app()"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        deadline = time.monotonic() + 90
        for line in self.process.stderr:
            if "Listening at: " in line:
                self.url = line.split("Listening at: ", 1)[1].split()[0]
            if "Booting worker" in line and self.url:
                break
            assert time.monotonic() < deadline, "gunicorn did not start"
        assert self.url, "gunicorn exited before listening"
        # Keep reading its log so a full pipe never blocks it.
        self.log: list[str] = []
        threading.Thread(target=lambda: self.log.extend(self.process.stderr), daemon=True).start()
        wait_for(lambda: _answers(self.url + "/v1/health"), timeout=90, interval=0.2)
        return self.url

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _answers(url: str) -> bool:
    try:
        return requests.get(url, timeout=10).status_code < 500
    except requests.RequestException:  # not listening yet, or its worker still booting on a busy machine
        return False
