"""A real gunicorn (the deployed settings of api/service/gunicorn_conf.py) on a free loopback port."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from tests.processes import ROOT


class Service:
    def __init__(self, process: subprocess.Popen, base: str, log: Path) -> None:
        self.process = process
        self.base = base
        self.host, port = base.removeprefix("http://").split(":")
        self.port = int(port)
        self.log = log

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


@contextlib.contextmanager
def gunicorn(redis_url: str, log: Path, **settings: str):
    """gunicorn with ``api.service.gunicorn_conf`` bound to port 0; ``settings`` are RULEHOUSE_* variables."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REDIS_URL": redis_url, "RULEHOUSE_BIND": "127.0.0.1:0",
           "RULEHOUSE_BOT_QUEUE": "", **{f"RULEHOUSE_{name}": value for name, value in settings.items()}}
    with log.open("w") as sink:
        process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "python:api.service.gunicorn_conf",
                                    "api.app:create_app()"], cwd=ROOT, env=env, stdout=sink, stderr=sink)
    try:
        deadline = time.monotonic() + 60
        while not (found := re.search(r"Listening at: (http://127\.0\.0\.1:\d+)", log.read_text())):
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        base = found.group(1)
        while True:  # every worker booted and answering
            try:
                if requests.get(f"{base}/v1/ready", timeout=5).status_code == 200:
                    break
            except requests.RequestException:
                pass
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        yield Service(process, base, log)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def serve(redis_db_url, tmp_path):
    """``serve(**settings)``: a context manager running gunicorn on the test database."""
    return lambda **settings: gunicorn(redis_db_url, tmp_path / "gunicorn.log", **settings)
