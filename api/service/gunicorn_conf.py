"""Gunicorn settings for the API, shared by ``rulehouse serve``, the Docker image and the benches.

    gunicorn -c python:api.service.gunicorn_conf "api.app:create_app()"

Environment: ``RULEHOUSE_BIND`` (default ``127.0.0.1:8000``), ``RULEHOUSE_WEB_WORKERS``
(processes, default 2), ``RULEHOUSE_WORKER_CLASS`` (``gevent``, the default, or ``gthread``),
``RULEHOUSE_WORKER_CONNECTIONS`` (connections per gevent process, default 5000),
``RULEHOUSE_THREADS`` (threads per gthread process, default 8), ``RULEHOUSE_HEADER_TIMEOUT``
(seconds for a request's headers, and for an idle keep-alive connection, default 5), and
the slow-client limits of api/service/serving.py. See docs/operations.md ("Serving").
"""

import os
import shutil
import tempfile

from api.ground.config import METRICS_DIR_ENV, metrics_dir, settings

# Multi-process metrics (api/ground/metrics.py): the workers write their samples under one
# directory, so that a scrape answered by any worker adds up all of them. Set here, in the master,
# before any worker imports prometheus_client (api.ground.config does not): the environment handed to the
# worker processes, and to prometheus_client itself. An operator's own directory must start empty.
_own_metrics_dir = None
if not metrics_dir():
    _own_metrics_dir = os.environ[METRICS_DIR_ENV] = tempfile.mkdtemp(prefix="rulehouse-metrics-")

from api.observability.text_logs import gunicorn_logconfig  # noqa: E402
from api.service.serving import body_answered, prepare_request, raise_fd_limit  # noqa: E402 (after the metrics directory is set)

#: The master's settings, read once; the workers it forks build their own in the app factory.
_settings = settings()
bind = _settings["BIND"]
workers = int(_settings["WEB_WORKERS"])
_kind = _settings["WORKER_CLASS"]
threads = int(_settings["THREADS"])
if _kind == "gevent":
    # One event loop per process: an open stream or a slow client costs a greenlet, not a thread.
    worker_class = "api.service.serving.TimedGeventWorker"
    worker_connections = int(_settings["WORKER_CONNECTIONS"])
else:
    # gthread: each stream or slow client holds one of the threads.
    worker_class = "gthread" if threads > 1 else "sync"
    # Capped at its thread count, a busy gthread worker stops accepting and the idle one takes the client.
    worker_connections = threads
# A request's line and headers must arrive within this (gunicorn times the parser with it under
# gevent). Connections close after each answer (api/service/serving.py, prepare_request).
keepalive = int(_settings["HEADER_TIMEOUT"])
graceful_timeout = 10
# The default control socket is one path per user: two servers on a machine would fight over it.
control_socket_disable = True
pre_request = prepare_request
post_request = body_answered
if _settings["SERVE_QUIET"] and _settings["LOG_FORMAT"] != "json":
    # Under `rulehouse serve`: its one text line format, warnings and errors only (serve prints the address).
    logconfig_dict = gunicorn_logconfig("WARNING")


def on_starting(server) -> None:
    """Every connection is a file descriptor: lift the soft limit to what the workers may hold."""
    wanted = workers * (worker_connections + 256) + 256
    soft, hard = raise_fd_limit(wanted)
    if soft < wanted:
        server.log.warning("open files limited to %d (hard limit %s), below the %d that %d workers x %d "
                           "connections need: raise it (ulimit -Hn, systemd LimitNOFILE, docker --ulimit nofile)",
                           soft, hard, wanted, workers, worker_connections)


def post_worker_init(worker) -> None:
    """gunicorn's own error answers (414, 400 for a bad header...) become problem+json like the app's."""
    from api.http.server_errors import install  # in the worker only: the master never loads the app's modules

    install(worker)


def child_exit(server, worker) -> None:
    """A dead worker's live gauges (open streams) must not be added up any more."""
    # Not at the top: this module sets PROMETHEUS_MULTIPROC_DIR before prometheus_client is first imported.
    from api.ground.metrics import process_exited

    process_exited(worker.pid)


def on_exit(server) -> None:
    if _own_metrics_dir is not None:
        shutil.rmtree(_own_metrics_dir, ignore_errors=True)
