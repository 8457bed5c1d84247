"""Worker heartbeats: tell a job whose worker died from a job that is still running; no Flask here.

RQ marks a job ``started`` when a worker takes it and leaves it so when the worker is killed;
its own heartbeat does not help, since an in-process worker beats only between jobs. So a
search job (up to ``SEARCH_JOB_TIMEOUT`` seconds) of a killed worker used to look alive for
its whole timeout. Every ``rulehouse worker`` therefore beats from a thread of its own, which
runs while a job computes:

- ``worker-born:<name>``: when the worker process started (Unix time; kept an hour);
- ``worker-alive:<name>``: set again every ``lease / 3`` seconds, expiring after ``lease``
  (Redis's clock decides, so the machines' clocks need not agree).

A started job whose worker's alive key exists is alive; one whose worker let it expire, or
whose worker name was born again after the job started (a restart under the same name), is
dead, and its work is queued again (``api.play.job_queues.JobQueues.job_alive``). A job of a worker that never
beats (a plain ``rq worker``: no born key) keeps the timeout rule.
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import UTC, datetime

import redis
from rq.utils import utcparse

#: The born key outlives its worker this long, so a missing one means a worker that never beat.
BORN_KEPT_SECONDS = 3600

log = logging.getLogger("rulehouse.worker")

#: RQ job states in which a job will still run without help (given that it sits in its queue or
#: registry). Both liveness checks start here: a bot, hint or analysis job's
#: (``api.play.job_queues.JobQueues.job_alive``: a lease from its start, and this heartbeat) and a
#: simulation chunk's (``api.runs.store.chunk_is_lost``: the chunk's own lease key); past it their
#: rules differ.
WAITING_JOB_STATES = frozenset({"queued", "deferred", "scheduled"})


def seconds_since(rq_time: str | bytes | None) -> float:
    """Seconds since an RQ time (a job's ``started_at`` or ``enqueued_at``: UTC, no zone); 0 for none."""
    if not rq_time:
        return 0.0
    text = rq_time.decode() if isinstance(rq_time, bytes) else rq_time
    return (datetime.now(UTC) - utcparse(text).replace(tzinfo=UTC)).total_seconds()


def born_key(worker_name: str) -> str:
    return f"worker-born:{worker_name}"


def alive_key(worker_name: str) -> str:
    return f"worker-alive:{worker_name}"


def start_beating(connection: redis.Redis, worker_name: str, lease: float) -> threading.Event:
    """Beat for ``worker_name`` from a daemon thread, three times a ``lease``, until the process
    ends (or the returned event is set)."""
    stop = threading.Event()
    birth = time.time()

    def beat() -> None:
        while not stop.is_set():
            try:
                pipe = connection.pipeline(transaction=False)
                pipe.set(born_key(worker_name), repr(birth), ex=BORN_KEPT_SECONDS)
                pipe.set(alive_key(worker_name), "1", px=max(1, int(lease * 1000)))
                pipe.execute()
            except redis.RedisError as error:  # Redis away: its jobs may be taken for dead, never lost
                log.warning("worker heartbeat failed: %s", error)
            stop.wait(lease / 3)

    threading.Thread(target=beat, name="heartbeat", daemon=True).start()
    return stop


def worker_alive(connection: redis.Redis, worker_name: str | None, started_at: float) -> bool | None:
    """Whether the worker that started a job at ``started_at`` (Unix time, by that worker's clock)
    still runs it; None when that worker does not beat."""
    if not worker_name:
        return None
    born, alive = connection.mget(born_key(worker_name), alive_key(worker_name))
    if born is None:
        return None
    return float(born) <= started_at and alive is not None
