"""The RQ queues a game's jobs go on, in one place: bot moves, searches (searching bots and hints) and
analyses, with the time each kind of job may take.

A process builds them once (``JobQueues.from_settings``) and hands them to its game store, whose
writers and small stores queue through ``store.queues``; this module is the only one of the game
room that reaches into RQ's own workings (``RegisteredQueue``).
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass

import redis
from rq import Queue, Retry
from rq.exceptions import DuplicateJobError
from rq.job import Job
from rq.utils import utcparse

from api.ground import heartbeats

#: the settings that name the three queues (api/ground/config.py); unset: no jobs are queued
QUEUE_SETTINGS = ("BOT_QUEUE", "SEARCH_QUEUE", "ANALYSIS_QUEUE")


class RegisteredQueue(Queue):
    """An RQ queue that adds itself to RQ's set of queues (``rq:queues``: what ``rq info`` lists) once per
    process: RQ does it in a transaction of its own on every enqueue, three of a bot job's dozen commands
    (bench/bot_cost.py)."""

    _registered = False

    def enqueue_job(self, job, pipeline=None, at_front: bool = False, unique: bool = False):
        if self._registered and pipeline is None and not job._dependency_ids and not job.has_rate_limit:
            job.origin = self.name
            return self._enqueue_job(job, at_front=at_front, unique=unique)  # RQ's enqueue_job less the SADD
        job = super().enqueue_job(job, pipeline=pipeline, at_front=at_front, unique=unique)
        self._registered = pipeline is None
        return job


@dataclass
class JobQueues:
    """``bot`` takes the quick bots' moves; ``search`` (default: ``bot``) the jobs of searching bots and
    hints, each allowed ``search_timeout`` seconds; ``analysis`` (default: ``search``) the game analyses,
    each allowed ``analysis_timeout`` seconds. A bot or hint job started ``bot_job_lease`` seconds ago (a
    search: plus its timeout) whose game still waits is taken for dead (api/service/jobs/bots.py). Without
    a bot queue nothing is queued."""

    bot: Queue | None = None
    search: Queue | None = None
    analysis: Queue | None = None
    search_timeout: int = 60
    analysis_timeout: int = 14_400
    bot_job_lease: float = 5.0

    def __post_init__(self) -> None:
        self.search = self.search or self.bot
        self.analysis = self.analysis or self.search

    @classmethod
    def from_settings(cls, settings: dict, *, connection: redis.Redis | None = None) -> JobQueues:
        """The queues the settings name, on ``connection`` or ``REDIS_URL``."""
        queues = {}
        if any(settings.get(name) for name in QUEUE_SETTINGS):
            # RQ stores pickled bytes, so it gets a connection of its own that does not decode.
            connection = connection or redis.Redis.from_url(settings["REDIS_URL"])
            queues = {name: RegisteredQueue(settings[name], connection=connection)
                      for name in QUEUE_SETTINGS if settings.get(name)}
        return cls(
            bot=queues.get("BOT_QUEUE"),
            search=queues.get("SEARCH_QUEUE"),
            analysis=queues.get("ANALYSIS_QUEUE"),
            search_timeout=int(settings.get("SEARCH_JOB_TIMEOUT") or 60),
            analysis_timeout=int(settings.get("ANALYSIS_JOB_TIMEOUT") or 14_400),
            bot_job_lease=float(settings.get("BOT_JOB_LEASE") or 5.0),
        )

    def searching(self, origin: str | None) -> bool:
        """Whether a job queued on ``origin`` (a queue's name) runs up to its own timeout: a search or an analysis."""
        return origin in {queue.name for queue in (self.search, self.analysis) if queue is not None}

    def enqueue_once(self, queue: Queue, function: str, *args, job_id: str, job_timeout: int | None,
                     result_ttl: int, failure_ttl: int, retries: int) -> None:
        """Queue the job ``function`` (its dotted name: RQ stores it) under ``job_id``, unless a job of that id
        exists already; RQ tries it ``retries`` more times when it fails."""
        with contextlib.suppress(DuplicateJobError):
            queue.enqueue(function, *args, job_id=job_id, unique=True, result_ttl=result_ttl, failure_ttl=failure_ttl,
                          retry=Retry(max=retries), job_timeout=job_timeout)

    def job_alive(self, control: redis.Redis, job_id: str, grace: float = 0.0) -> bool:
        """Whether a bot, hint or analysis job will still run (or is running) without help, read from RQ's keys
        on ``control`` (a decoding client of the Redis beside the queues).

        A job started less than ``BOT_JOB_LEASE`` seconds ago is alive; a search job (it has a timeout
        of its own) while it is within that timeout too, since its worker gives up on it there, but
        only while that worker still beats (``api.ground.heartbeats``): a killed search worker's job is dead
        about ``BOT_JOB_LEASE`` seconds after the kill, not at the end of its timeout. A job queued
        less than ``grace`` seconds ago is alive even when a worker has just taken it off its queue
        and not yet started it.
        """
        status, started_at, enqueued_at, origin, timeout, worker = control.hmget(
            Job.key_for(job_id), ["status", "started_at", "enqueued_at", "origin", "timeout", "worker_name"])
        if status in heartbeats.WAITING_JOB_STATES:
            # "queued" but no longer in the queue: a worker took it and died before starting it.
            queue_key = Queue.redis_queue_namespace_prefix + origin if origin is not None else None
            queued = queue_key is not None and control.lpos(queue_key, job_id) is not None
            return status != "queued" or queued or heartbeats.seconds_since(enqueued_at) < grace
        if status == "started":
            # Searches and analyses run up to their own timeout: within it, only a silent worker is dead.
            lease = self.bot_job_lease + (float(timeout or self.search_timeout) if self.searching(origin) else 0.0)
            if heartbeats.seconds_since(started_at) >= lease:
                return False
            started = utcparse(started_at).timestamp() if started_at else time.time()
            return heartbeats.worker_alive(control, worker, started) is not False
        return False  # finished, failed or gone while its game still waits: nothing will move

    def connection(self) -> redis.Redis | None:
        """The queues' Redis connection (what ``/metrics`` reads their lengths on), or None without queues."""
        queue = self.bot or self.search
        return queue.connection if queue is not None else None
