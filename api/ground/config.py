"""Service settings: defaults, overridden by the environment, overridden by ``create_app(config)``.

The one module that reads configuration from the environment (tests/test_settings_rule.py holds
every other module of ``api/`` to it): the app factory, each process entry point (``rulehouse
worker``, gunicorn's config, the CLI) builds one settings dict here and passes it down. Writing
the environment of a child process stays with whoever starts it.
"""

from __future__ import annotations

import json
import os

#: The RQ queues a ``rulehouse worker`` serves by default, in priority order. Not ``webhooks``:
#: deliveries wait on other apps' receivers, so they have workers of their own (``--queues webhooks``).
WORKER_QUEUES = ("bots", "search", "simulations", "analysis")
#: The queue of webhook deliveries (api/apps/webhooks.py), for its own workers only.
WEBHOOK_QUEUE = "webhooks"
#: Every queue, for the metrics of queue depths.
ALL_QUEUES = (*WORKER_QUEUES, WEBHOOK_QUEUE)

DEFAULTS: dict = {
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    #: an unfinished game expires this long after its last move
    "GAME_TTL_SECONDS": 7 * 24 * 3600,
    #: a finished game (and its event log) is kept this long after its last move
    "FINISHED_GAME_TTL_SECONDS": 24 * 3600,
    "IDEMPOTENCY_TTL_SECONDS": 24 * 3600,
    #: largest request body accepted (Flask answers 413 above it)
    "MAX_CONTENT_LENGTH": 64 * 1024,
    #: the live stream writes a keep-alive line after this much silence
    "STREAM_KEEPALIVE_SECONDS": 15.0,
    #: the live stream closes after this long; clients resume from their last cursor
    "STREAM_MAX_SECONDS": 600.0,
    #: open live streams one client address may hold at once (one more is 429)
    "STREAMS_PER_CLIENT": 100,
    #: connections each API process keeps to Redis at most (requests wait for a free one)
    "REDIS_MAX_CONNECTIONS": 64,
    #: RQ queue that plays bot seats; None disables bot jobs (bot seats then wait forever)
    "BOT_QUEUE": "bots",
    #: RQ queue of the searches (bot seats whose bot searches, and hints), so quick bots never wait
    #: behind one; None: searching bot seats go on BOT_QUEUE, and hints too
    "SEARCH_QUEUE": "search",
    #: the most one search job (a search bot's move, a hint) may take; a bot seat's search cut off
    #: there plays a random legal option instead, so its game goes on
    "SEARCH_JOB_TIMEOUT": 60,
    #: RQ queue of the game analyses (GET /v1/games/{id}/analysis), apart from the searches so an analysis
    #: never delays a search bot's move; None: they go on SEARCH_QUEUE
    "ANALYSIS_QUEUE": "analysis",
    #: the most one analysis job may take: the longest games there may be take 15 minutes to over an
    #: hour on a loaded 2-core machine (formats 2 and 3; docs/http-api.md, "Game analysis": "How long")
    "ANALYSIS_JOB_TIMEOUT": 14_400,
    #: expose GET /v1/_bench/ping (one Redis read) for bench/api.py
    "BENCH_ENDPOINTS": False,
    #: every /v1 request but the health checks needs an app key (X-Api-Key); off: requests
    #: without one belong to the "local" development app
    "REQUIRE_API_KEYS": False,
    #: requests per app and class (moves, writes, reads, streams); an app may override them
    "RATE_LIMITS": {"moves": "1200/minute", "writes": "300/minute", "reads": "3000/minute", "streams": "120/minute"},
    #: the same for publishable (browser) keys
    "PUBLISHABLE_RATE_LIMITS": {"moves": "120/minute", "writes": "30/minute", "reads": "600/minute",
                                "streams": "30/minute"},
    #: the same for the "local" app of development mode: none by default
    "LOCAL_RATE_LIMITS": {},
    #: a spectator's asks of a live game's win chances, per asker (its app's secret keys together, each client
    #: address of a publishable key or of the local app), whoever owns the game (docs/apps.md)
    "SPECTATOR_ASKS_LIMIT": "30/minute",
    #: what an app may hold at once; an app may override them
    "QUOTAS": {"live_games": 1000, "simulation_work_per_day": 20_000_000, "queued_chunks": 20_000,
               "search_work_per_day": 10_000_000_000, "search_work_per_seat_per_day": 2_000_000,
               "rated_players": 100_000},
    "PUBLISHABLE_QUOTAS": {"live_games": 0, "simulation_work_per_day": 0, "queued_chunks": 0,
                           "search_work_per_day": 0, "search_work_per_seat_per_day": 0, "rated_players": 0},
    #: webhooks may call loopback, private and link-local addresses (development and tests only)
    "WEBHOOK_ALLOW_PRIVATE": False,
    #: seconds before each retry of a failed delivery (its length is the number of retries)
    "WEBHOOK_RETRY_INTERVALS": "5,30,120,600,1800",
    #: the most one delivery attempt may take in all: connecting, sending and reading the answer
    "WEBHOOK_TIMEOUT_SECONDS": 5,
    #: an app's deliveries that may be queued or attempted at once; the rest wait in its own line
    #: (run more delivery workers than this, so one app's receivers never hold them all)
    "WEBHOOK_DELIVERIES_PER_APP": 1,
    #: proxies (addresses or networks, comma-separated, e.g. ``10.0.0.0/8``) whose ``X-Forwarded-For``
    #: names the client (api/http/client_address.py); none by default: the header is ignored
    "TRUSTED_PROXIES": "",
    #: browser origins (comma-separated, e.g. ``https://app.example``; ``*`` for any) allowed to call the API
    #: from their pages (CORS); none by default
    "CORS_ALLOWED_ORIGINS": "",
    #: an app key the web table's pages send as ``X-Api-Key`` (a browser-safe, publishable key:
    #: it is written into every page); empty: the pages send none, as a local client
    "WEB_API_KEY": "",
    #: the games' Redis (api/play/game_keys.py game keys only); None: REDIS_URL. May be a Redis Cluster.
    "GAME_REDIS_URL": None,
    #: is GAME_REDIS_URL a Redis Cluster: "auto" (ask the server: INFO cluster), "yes" or "no"
    "GAME_REDIS_CLUSTER": "auto",
    #: "json": every log line a JSON object (the image, compose); "text": Python's default
    "LOG_FORMAT": "text",
    "LOG_LEVEL": "INFO",
    #: set by ``rulehouse serve`` for its children: with text logs, its one line format and warnings only
    #: after each process's start line (api/observability/text_logs.py)
    "SERVE_QUIET": False,
    #: mounts the RQ dashboard at /admin/rq behind this token (>= 16 characters); None: no dashboard
    "ADMIN_TOKEN": None,
    #: the bearer token a scrape of /metrics (API and workers) must send (>= 16 characters); None: no
    #: token, and then /metrics is closed where REQUIRE_API_KEYS is on, open otherwise
    "METRICS_TOKEN": None,
    #: games whose live state each API and worker process keeps between moves (api/play/moves.py, the
    #: least recently stored goes first)
    "STATE_CACHE_SIZE": 2048,
    #: games whose past positions each API process keeps for stepping through them (api/views/timeline.py)
    "TIMELINE_GAMES": 32,
    #: a bot or hint job started longer ago than this (seconds; a search job: plus its timeout) whose
    #: game still waits for it is taken for dead; also how long a worker's heartbeat lasts
    "BOT_JOB_LEASE": 5.0,
    #: how long a simulation or experiment (spec, progress, result) stays after its last change
    "SIMULATION_TTL": 7 * 24 * 3600,
    #: a chunk whose worker stopped refreshing its lease this long ago is given to another worker
    "SIMULATION_LEASE": 10,
    #: RQ's hard limit on one chunk job
    "SIMULATION_JOB_TIMEOUT": 3600,
    #: the most one simulated game may take; a game still playing after it fails its simulation
    "SIMULATION_GAME_SECONDS": 60,
    # -- the API server's processes (api/service/gunicorn_conf.py, api/service/serving.py; docs/operations.md "Serving")
    "BIND": "127.0.0.1:8000",
    "WEB_WORKERS": 2,
    #: "gevent" or "gthread"
    "WORKER_CLASS": "gevent",
    "THREADS": 8,
    "WORKER_CONNECTIONS": 5000,
    #: seconds for a request's line and headers (and for an idle keep-alive connection)
    "HEADER_TIMEOUT": 5,
    #: seconds for a request's whole body to arrive
    "BODY_TIMEOUT": 10.0,
    #: seconds one read or write on a client's socket may block
    "SOCKET_TIMEOUT": 30.0,
    # -- the command line
    #: where a local ``rulehouse serve`` keeps its embedded Redis, and its URL for the other commands
    "HOME": ".rulehouse",
    #: the app key ``rulehouse competition`` (a client of the API) sends
    "API_KEY": None,
    #: test-only pause point ``<point>:<marker file>`` (api/ground/faults.py); never set in a deployment
    "TEST_PAUSE": None,
}

_INT_KEYS = {"GAME_TTL_SECONDS", "FINISHED_GAME_TTL_SECONDS", "IDEMPOTENCY_TTL_SECONDS", "MAX_CONTENT_LENGTH",
             "WEBHOOK_TIMEOUT_SECONDS", "WEBHOOK_DELIVERIES_PER_APP", "STREAMS_PER_CLIENT", "REDIS_MAX_CONNECTIONS",
             "SEARCH_JOB_TIMEOUT", "ANALYSIS_JOB_TIMEOUT", "STATE_CACHE_SIZE", "TIMELINE_GAMES", "SIMULATION_TTL",
             "SIMULATION_LEASE", "SIMULATION_JOB_TIMEOUT", "SIMULATION_GAME_SECONDS", "WEB_WORKERS", "THREADS",
             "WORKER_CONNECTIONS", "HEADER_TIMEOUT"}
_FLOAT_KEYS = {"STREAM_KEEPALIVE_SECONDS", "STREAM_MAX_SECONDS", "BOT_JOB_LEASE", "BODY_TIMEOUT", "SOCKET_TIMEOUT"}
#: where an empty variable means "the default" (the simulations' settings always took it so; for
#: the processes' own an empty value has no meaning of its own)
_EMPTY_IS_UNSET = {"SIMULATION_TTL", "SIMULATION_LEASE", "SIMULATION_JOB_TIMEOUT", "SIMULATION_GAME_SECONDS",
                   "BOT_JOB_LEASE", "BIND", "WEB_WORKERS", "WORKER_CLASS", "THREADS", "WORKER_CONNECTIONS",
                   "HEADER_TIMEOUT", "BODY_TIMEOUT", "SOCKET_TIMEOUT", "HOME"}
#: prometheus_client's own variable: the directory of the multi-process metrics (api/gunicorn_conf.py)
METRICS_DIR_ENV = "PROMETHEUS_MULTIPROC_DIR"
_BOOL_KEYS = {"BENCH_ENDPOINTS", "REQUIRE_API_KEYS", "WEBHOOK_ALLOW_PRIVATE", "SERVE_QUIET"}
#: settings given as a JSON object in the environment, merged over the defaults
_JSON_KEYS = {"RATE_LIMITS", "PUBLISHABLE_RATE_LIMITS", "LOCAL_RATE_LIMITS", "QUOTAS", "PUBLISHABLE_QUOTAS"}


def _parsed(key: str, text: str):
    if key in _INT_KEYS:
        return int(text)
    if key in _FLOAT_KEYS:
        return float(text)
    if key in _BOOL_KEYS:
        return text.lower() in ("1", "true", "yes", "on")
    if key in _JSON_KEYS:
        return {**DEFAULTS[key], **json.loads(text)}
    return text or None


def _unset(key: str, text: str | None) -> bool:
    return text is None or (not text and key in _EMPTY_IS_UNSET)


def from_environment(environ: dict | None = None) -> dict:
    """The settings given as ``RULEHOUSE_<NAME>`` (and plain ``REDIS_URL``) environment variables."""
    environ = os.environ if environ is None else environ
    found: dict = {}
    if environ.get("REDIS_URL"):
        found["REDIS_URL"] = environ["REDIS_URL"]
    for key in DEFAULTS:
        text = environ.get(f"RULEHOUSE_{key}")
        if not _unset(key, text):
            found[key] = _parsed(key, text)
    return found


def settings(overrides: dict | None = None) -> dict:
    return {**DEFAULTS, **from_environment(), **(overrides or {})}


def names_redis() -> bool:
    """Whether this process's settings name their Redis: a worker's (``use``), or ``REDIS_URL`` in the
    environment. Else the CLI falls back to its embedded Redis, and a job to its worker's connection."""
    return _current is not None or bool(os.environ.get("REDIS_URL"))


def metrics_dir() -> str | None:
    """The multi-process metrics directory, read at each call: api/gunicorn_conf.py sets it in the
    master after this process may have read its settings, before the workers start."""
    return os.environ.get(METRICS_DIR_ENV) or None


# The settings of a process that is not a Flask app (a ``rulehouse worker``): RQ calls a job by its
# dotted name with only the arguments it was queued with, so a job finds its process's settings
# here. Not the job's kwargs: those are written into Redis with the job (tokens included) by the
# API process that queued it, whose settings need not be the worker's.
_current: dict | None = None


def use(values: dict) -> None:
    """Make ``values`` this process's settings (``current()``); the worker's entry point calls it once."""
    global _current
    _current = values


def setting(key: str):
    """One setting of this process, as ``current()[key]`` has it, for a hot path (``settings()`` reads
    every variable, 50 of them, which a move must not pay for)."""
    if _current is not None:
        return _current[key]
    text = os.environ.get(f"RULEHOUSE_{key}")
    return DEFAULTS[key] if _unset(key, text) else _parsed(key, text)


def current() -> dict:
    """This process's settings: those ``use`` set, else read from the environment now (not kept, so a
    process that never called ``use``, such as a test, sees the environment as it is at the call)."""
    return _current if _current is not None else settings()
