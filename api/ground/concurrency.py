"""How this process serves connections: whether its sockets yield to a gevent loop, and how many it holds.

The game room's store, the stream hub and the served app ask; the processes (api/service/serving.py,
gunicorn_conf.py) set it up. No Flask and nothing of ``api`` above the ground floor here.
"""

from __future__ import annotations


def cooperative() -> bool:
    """Whether sockets yield to a gevent loop (the gevent worker monkey-patched this process)."""
    try:
        from gevent import monkey  # optional: only the gevent worker class brings it
    except ImportError:
        return False
    return monkey.is_module_patched("socket")


def connections_per_process(config: dict) -> int:
    """The connections one API process serves at once, as api/gunicorn_conf.py sets them
    (``WORKER_CONNECTIONS`` under gevent, else ``THREADS``). They bound the process's open streams, and
    so its stream hub's waiters."""
    return int(config["WORKER_CONNECTIONS"]) if config["WORKER_CLASS"] == "gevent" else int(config["THREADS"])
