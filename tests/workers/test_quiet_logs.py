"""What ``rulehouse serve`` and its workers write to their logs: next to nothing while all is well, and
one clear line, not a crash loop, while Redis cannot be reached."""

from __future__ import annotations

import logging
import os
import re
import signal
import subprocess
import sys
import threading
import time
from datetime import timedelta

import pytest
import redis as redis_lib
import requests
from rq import Queue, Worker

from api.apps import webhooks
from api.cli.processes import Supervisor
from api.service.embedded_redis import EmbeddedRedis
from api.service.worker import InProcessWorker
from tests.processes import ROOT, free_port, wait_for


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_the_webhook_retry_pass_of_each_sweep_logs_nothing(redis_db_url):
    connection = redis_lib.Redis.from_url(redis_db_url)
    worker = InProcessWorker([webhooks.QUEUE], connection=connection)
    queue = Queue(webhooks.QUEUE, connection=connection)
    caught = Records()
    logger = logging.getLogger("rq.scheduler")
    logger.addHandler(caught)
    try:
        for sweep in range(5):
            due = queue.enqueue_in(timedelta(seconds=0), "os.getpid", job_id=f"retry-{sweep}")
            worker.enqueue_due_retries()
            assert due.id in queue.job_ids  # each pass took the lock and queued what was due
    finally:
        logger.removeHandler(caught)
        connection.close()
    # RQ said "Acquired scheduler lock for webhooks" at INFO on each pass: 3,735 of 12,654 lines of `make run`.
    assert [record.getMessage() for record in caught.records if record.levelno >= logging.INFO] == []


class Output:
    """A child process's combined output, read as it comes (so a full pipe never blocks it)."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.process = process
        self.lines: list[str] = []
        self.thread = threading.Thread(target=lambda: self.lines.extend(process.stdout), daemon=True)
        self.thread.start()

    def saying(self, text: str) -> list[str]:
        return [line for line in list(self.lines) if text in line]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=60)
        self.thread.join(timeout=10)


def spawn(*args: str, **env_vars: str) -> Output:
    """``rulehouse ARGS`` in a process group of its own (as a terminal runs it), its output read as it comes."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("REDIS_URL", None)
    env.update(env_vars)
    return Output(subprocess.Popen([sys.executable, "-m", "api.cli", *args], cwd=ROOT, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   start_new_session=True))


def answers(url: str) -> int | None:
    try:
        return requests.get(url, timeout=5).status_code
    except requests.RequestException:
        return None


#: a line of ``rulehouse serve`` and its processes (api/observability/text_logs.py)
TEXT_LINE = re.compile(r"^\d\d:\d\d:\d\d (INFO|WARNING|ERROR|CRITICAL) [\w.]+: \S")

#: how long a service without Redis is watched for log lines (it used to write about 330 in 20 s)
WATCH_SECONDS = 6.0


def test_serve_without_redis_says_so_once_and_starts_its_workers_when_redis_answers(tmp_path):
    redis_port, port = free_port(), free_port()
    url = f"redis://127.0.0.1:{redis_port}/0"
    serve = spawn("serve", "--port", str(port), "--workers", "1", "--bot-workers", "1", "--search-workers", "0",
                  "--webhook-workers", "1", "--analysis-workers", "0", "--web-workers", "1", REDIS_URL=url,
                  RULEHOUSE_HOME=str(tmp_path / "home"))
    redis_server = None
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for(lambda: answers(f"{base}/v1/health") == 200, timeout=90, interval=0.2)
        watched_from = time.monotonic()
        while time.monotonic() - watched_from < WATCH_SECONDS:
            assert answers(f"{base}/v1/ready") == 503  # liveness yes, readiness no
            assert serve.process.poll() is None
            time.sleep(0.5)
        said = serve.saying("cannot reach Redis")
        assert len(said) == 1, serve.lines
        assert f"127.0.0.1:{redis_port} (database 0)" in said[0] and "Connection refused" in said[0]
        # Beside gunicorn's start and the request log of the test's own polling: nothing.
        told = [line for line in serve.lines if '"msg": "request"' not in line]
        assert serve.saying("exited") == [] and len(told) <= 10, told

        redis_server = EmbeddedRedis(tmp_path / "redis", port=redis_port, persist=False).start()
        client = redis_lib.Redis.from_url(url)
        wait_for(lambda: Worker.count(connection=client) == 3, timeout=90, interval=0.2)
        client.close()
        assert answers(f"{base}/v1/ready") == 200
        assert len(serve.saying("answers now")) == 1
        assert serve.saying("exited") == [], serve.lines
    finally:
        serve.stop()
        if redis_server is not None:
            redis_server.stop()
    assert serve.process.returncode == 0, serve.lines


def test_a_stop_signal_in_the_middle_of_a_sweep_stops_the_worker_after_it(redis_db_url, monkeypatch):
    from rq.exceptions import StopRequested

    from api.play import timeouts
    from api.service.worker import QUEUES

    connection = redis_lib.Redis.from_url(redis_db_url)
    worker = InProcessWorker(list(QUEUES), connection=connection)
    handlers = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}

    def signal_arrives(store) -> int:
        worker.request_stop(signal.SIGTERM, None)  # what RQ's handler does when SIGTERM comes now
        return 0

    monkeypatch.setattr(timeouts, "sweep", signal_arrives)
    try:
        with pytest.raises(StopRequested):
            worker.run_maintenance_tasks()
    finally:
        for number, handler in handlers.items():  # RQ's handling of the stop took over this process's signals
            signal.signal(number, handler)
        connection.close()


def test_a_worker_without_redis_waits_quietly_and_starts_when_redis_answers(tmp_path):
    redis_port = free_port()
    url = f"redis://:not-shown@127.0.0.1:{redis_port}/0"
    worker = spawn("worker", "--redis-url", url)
    redis_server = None
    try:
        wait_for(lambda: worker.saying("cannot reach Redis"), timeout=60)
        watched_from = time.monotonic()
        while time.monotonic() - watched_from < WATCH_SECONDS:
            assert worker.process.poll() is None  # it waits rather than exits
            time.sleep(0.5)
        assert len(worker.lines) == 1, worker.lines
        assert "not-shown" not in worker.lines[0] and f"127.0.0.1:{redis_port}" in worker.lines[0]
        redis_server = EmbeddedRedis(tmp_path / "redis", port=redis_port, persist=False).start()
        client = redis_lib.Redis.from_url(f"redis://127.0.0.1:{redis_port}/0")
        wait_for(lambda: Worker.count(connection=client) == 1, timeout=60, interval=0.2)
        client.close()
        assert len(worker.saying("answers now")) == 1
    finally:
        worker.stop()
        if redis_server is not None:
            redis_server.stop()
    assert not worker.saying("Traceback"), worker.lines


def test_a_worker_that_keeps_crashing_is_restarted_after_growing_pauses(caplog):
    caplog.set_level(logging.WARNING, logger="rulehouse.serve")  # serve's own lines: its logger, not a print
    crash = [sys.executable, "-c", "raise SystemExit(3)"]
    supervisor = Supervisor(["true"], [crash], dict(os.environ))
    supervisor._start_workers()
    pauses = []
    try:
        for _ in range(3):
            wait_for(lambda: supervisor.workers[0] is not None and supervisor.workers[0].poll() is not None)
            supervisor._tend_workers()  # notices the exit
            said = "\n".join(record.getMessage() for record in caplog.records).strip()
            caplog.clear()
            assert said.endswith(" s") and "exited (3); restarting in " in said, said
            pauses.append(int(said.rsplit(" ", 2)[1]))
            assert supervisor.workers[0] is None  # not restarted at once
            wait_for(lambda: supervisor._tend_workers() or supervisor.workers[0] is not None, timeout=30)
    finally:
        supervisor.stop()
    assert pauses == [1, 2, 4]


def test_ctrl_c_stops_serve_and_its_embedded_redis_in_order_without_errors(tmp_path):
    port = free_port()
    home = tmp_path / "home"
    serve = spawn("serve", "--port", str(port), "--workers", "1", "--bot-workers", "1", "--search-workers", "0",
                  "--webhook-workers", "1", "--analysis-workers", "0", "--web-workers", "1", RULEHOUSE_HOME=str(home))
    try:
        wait_for(lambda: answers(f"http://127.0.0.1:{port}/v1/ready") == 200, timeout=90, interval=0.2)
        client = redis_lib.Redis.from_url((home / "redis.url").read_text())
        wait_for(lambda: Worker.count(connection=client) == 3, timeout=60, interval=0.2)
        client.close()
        # Ctrl+C in a terminal: SIGINT to the whole foreground group. Redis must outlive the workers.
        os.killpg(serve.process.pid, signal.SIGINT)
        serve.process.wait(timeout=60)
    finally:
        serve.stop()
    assert serve.process.returncode == 0, serve.lines
    troubles = [line for line in serve.lines if '"level": "error"' in line or " ERROR " in line
                or "cannot reach Redis" in line or "Traceback" in line]
    assert troubles == [], troubles
    # What a person needs, in one format: the address, the workers started, one line per worker.
    assert [line for line in serve.lines if not TEXT_LINE.match(line)] == [], serve.lines
    assert len(serve.saying(f"Rulehouse on http://127.0.0.1:{port}/")) == 1, serve.lines
    assert len(serve.saying("and 3 worker(s): 1 on every queue, 1 bots, 1 webhooks")) == 1, serve.lines
    assert sorted(line.split(" ready on ")[1].strip() for line in serve.saying(" ready on ")) == [
        "bots", "bots, search, simulations, analysis", "webhooks"], serve.lines
    assert len(serve.lines) <= 8, serve.lines
