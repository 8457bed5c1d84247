"""The service's Prometheus metrics, one definition each, recorded by API and worker processes alike.

With ``PROMETHEUS_MULTIPROC_DIR`` set before ``prometheus_client`` is first imported (the
gunicorn config and ``rulehouse serve`` set it), every process writes its samples to files
there and a scrape of any one process adds them all up (prometheus_client's multiprocess
mode). Without it (tests, a single process) the samples live in the process.
"""

from __future__ import annotations

import hmac
import threading
import time
from collections.abc import Callable, Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import REGISTRY

from api.ground.config import current, metrics_dir
from engine.core.registry import all_rulesets

CONTENT_TYPE = CONTENT_TYPE_LATEST
#: Seconds: from a few ms (a read) to the stream and simulation waits.
LATENCY_BUCKETS = (0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

REQUEST_SECONDS = Histogram(
    "rulehouse_http_request_duration_seconds", "HTTP requests until their headers are sent, by route and status.",
    ["method", "route", "status"], buckets=LATENCY_BUCKETS)
ACTIONS = Counter(
    "rulehouse_actions_total", "Actions submitted (by people, bots and deadlines): accepted, or rejected and why.",
    ["outcome", "reason"])
BOT_REPLY_SECONDS = Histogram(
    "rulehouse_bot_reply_seconds", "From the commit that left a bot seat pending to the bot's own commit.",
    buckets=LATENCY_BUCKETS)
BOT_MOVES_REFUSED = Counter(
    "rulehouse_bot_moves_refused_total", "Bot moves the rules refused (a bot's bug); the seat played its "
    "decision's default instead.", ["ruleset", "bot", "reason"])
DEADLINE_DEFAULTS = Counter(
    "rulehouse_deadline_defaults_total", "Decisions the service played by default because their deadline passed.")
SIMULATION_GAMES = Counter(
    "rulehouse_simulation_games_total", "Simulated games finished by the workers (rate() is games per second).")
SIMULATION_CHUNK_SECONDS = Histogram(
    "rulehouse_simulation_chunk_seconds", "Time a worker took to play one simulation chunk.",
    buckets=(0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0))
STREAM_CONNECTIONS = Gauge(
    "rulehouse_stream_connections", "Live event streams open now.", multiprocess_mode="livesum")
CACHE_ENTRIES = Gauge(
    "rulehouse_cache_entries", "Entries each in-process cache holds now, by process (pid) under multi-process "
    "metrics.", ["cache"], multiprocess_mode="liveall")
CACHE_BOUND = Gauge(
    "rulehouse_cache_bound", "The most entries each in-process cache keeps (beyond it the oldest go).", ["cache"],
    multiprocess_mode="liveall")

#: cache name -> what it holds now and its bound; see ``track_cache``
_caches: dict[str, Callable[[], tuple[int, int]]] = {}
_reported: dict[str, tuple[int, int]] = {}


def track_cache(name: str, sizes: Callable[[], tuple[int, int]]) -> None:
    """Report an in-process cache as ``rulehouse_cache_entries`` / ``_bound``; ``sizes``: (entries, bound)."""
    _caches[name] = sizes


def report_caches() -> None:
    """Write the tracked caches' sizes, and those the rulesets keep (``Ruleset.caches``, as ``<id>.<name>``),
    where they changed: after each API request, in each worker sweep. (Under multi-process metrics each
    process writes its own samples: a scrape cannot ask the others.)"""
    rulesets = {f"{ruleset.id}.{name}": sizes
                for ruleset in all_rulesets().values() for name, sizes in ruleset.caches().items()}
    for name, sizes in [*_caches.items(), *rulesets.items()]:
        figures = sizes()
        if _reported.get(name) != figures:
            _reported[name] = figures
            CACHE_ENTRIES.labels(name).set(figures[0])
            CACHE_BOUND.labels(name).set(figures[1])


#: the shortest scrape token taken (a guessable one would protect nothing)
MIN_SCRAPE_TOKEN_LENGTH = 16
#: what a refused scrape is told, beside 401
SCRAPE_CHALLENGE = 'Bearer realm="metrics"'


def check_scrape_settings(config: dict) -> None:
    """At start: a scrape token, when set, is long enough."""
    token = config.get("METRICS_TOKEN")
    if token and len(token) < MIN_SCRAPE_TOKEN_LENGTH:
        raise ValueError(f"RULEHOUSE_METRICS_TOKEN must be at least {MIN_SCRAPE_TOKEN_LENGTH} characters")


def scrape_refusal(authorization: str | None, config: dict) -> str | None:
    """Why a scrape with this ``Authorization`` header is refused (None: it is let in). With
    ``METRICS_TOKEN`` set it must send ``Bearer <token>``; without one, /metrics is open only where
    app keys are not required (development): a deployment's metrics are for its operators."""
    token = config.get("METRICS_TOKEN")
    if not token:
        if config.get("REQUIRE_API_KEYS"):
            return "app keys are required here, so /metrics is too: set RULEHOUSE_METRICS_TOKEN and scrape with it"
        return None
    scheme, _, sent = (authorization or "").partition(" ")
    if scheme.lower() == "bearer" and hmac.compare_digest(sent.strip().encode(), token.encode()):
        return None
    return "send the scrape token: Authorization: Bearer <RULEHOUSE_METRICS_TOKEN>"


def bot_replied(pending_since: float) -> None:
    BOT_REPLY_SECONDS.observe(max(0.0, time.time() - pending_since))


class QueueDepths:
    """Collects the RQ queues' lengths at scrape time (read from Redis, so never stale)."""

    def __init__(self, connection, queues: Iterable[str]) -> None:
        self.connection = connection
        self.queues = tuple(queues)

    def collect(self):
        # Only a scrape that shows queue depths loads Redis's client and RQ: gunicorn's master, which loads
        # this module before it forks, does not.
        from redis import RedisError
        from rq import Queue

        family = GaugeMetricFamily("rulehouse_queue_depth", "Jobs waiting in each RQ queue.", labels=["queue"])
        up = GaugeMetricFamily("rulehouse_queue_redis_up", "1 when the queue Redis answered this scrape.")
        try:
            for name in self.queues:
                family.add_metric([name], Queue(name, connection=self.connection).count)
        except RedisError:
            up.add_metric([], 0)  # the scrape still answers: a Redis outage is what it should show
            yield up
            return
        up.add_metric([], 1)
        yield up
        yield family


def exposition(queue_connection=None, queues: Iterable[str] = ()) -> bytes:
    """The text a scrape gets: this process's (or, multi-process, every process's) metrics and the queue depths."""
    if metrics_dir():
        # Only a multi-process server has the directory this reads (PROMETHEUS_MULTIPROC_DIR).
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        text = generate_latest(registry)
    else:
        text = generate_latest(REGISTRY)
    if queue_connection is not None and queues:
        extra = CollectorRegistry()
        extra.register(QueueDepths(queue_connection, queues))
        text += generate_latest(extra)
    return text


def process_exited(pid: int) -> None:
    """Gunicorn's ``child_exit``: drop a dead worker's live gauges (its counters stay counted)."""
    if metrics_dir():
        from prometheus_client import multiprocess  # only a multi-process server has its directory

        multiprocess.mark_process_dead(pid)


def serve_metrics(port: int, addr: str = "127.0.0.1", queue_connection=None, queues: Iterable[str] = (),
                  config: dict | None = None) -> None:
    """A worker's own ``/metrics`` on ``addr:port`` in a daemon thread, behind the scrape token as the
    API's (``config``: the service settings); ``/health`` answers ``ok`` to anyone (health checks)."""
    config = current() if config is None else config
    check_scrape_settings(config)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = self.path.split("?")[0]
            if path == "/health":
                self._answer(200, b"ok\n", "text/plain")
                return
            if path not in ("/metrics", "/"):
                self.send_error(404)
                return
            refusal = scrape_refusal(self.headers.get("Authorization"), config)
            if refusal is not None:
                self._answer(401, refusal.encode() + b"\n", "text/plain", {"WWW-Authenticate": SCRAPE_CHALLENGE})
                return
            self._answer(200, exposition(queue_connection, queues), CONTENT_TYPE)

        def _answer(self, status: int, body: bytes, content_type: str, headers: dict | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:  # scrapes are not worth a log line each
            pass

    server = ThreadingHTTPServer((addr, port), Handler)
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
