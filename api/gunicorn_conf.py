"""Gunicorn settings for the API, shared by ``rulehouse serve``, the Docker image and bench/api.py.

    gunicorn -c python:api.gunicorn_conf "api.app:create_app()"

``RULEHOUSE_WEB_WORKERS`` (default 2) and ``RULEHOUSE_THREADS`` (default 8) size it;
``RULEHOUSE_BIND`` (default ``127.0.0.1:8000``) is where it listens.
"""

import os
import tempfile

# Multi-process metrics (api/observability/metrics.py): the workers write their samples under one
# directory, so that a scrape answered by any worker adds up all of them. Set here, in the master,
# before any worker imports prometheus_client. An operator's own directory must start empty.
_own_metrics_dir = None
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    _own_metrics_dir = os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="rulehouse-metrics-")

bind = os.environ.get("RULEHOUSE_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("RULEHOUSE_WEB_WORKERS", "2"))
threads = int(os.environ.get("RULEHOUSE_THREADS", "8"))
# gthread keeps the live event streams from holding a whole worker each.
worker_class = "gthread" if threads > 1 else "sync"
# A gthread worker accepts connections however busy its threads are, so with keep-alive one
# worker could hold most clients while the other idled: bench/api.py measured p99 57-97 ms.
# Capped at its thread count, a busy worker stops accepting and the idle one takes the client
# (p99 44-49 ms, and more actions per second). The cost is no keep-alive, cheap on a LAN.
worker_connections = threads
graceful_timeout = 10
# The default control socket is one path per user: two servers on a machine would fight over it.
control_socket_disable = True


def child_exit(server, worker) -> None:
    """A dead worker's live gauges (open streams) must not be added up any more."""
    from api.observability.metrics import process_exited

    process_exited(worker.pid)


def on_exit(server) -> None:
    if _own_metrics_dir is not None:
        import shutil

        shutil.rmtree(_own_metrics_dir, ignore_errors=True)
