"""The RQ queues a game's jobs go on, in one place: bot moves, searches (searching bots and hints) and
analyses, with the time each kind of job may take.

A process builds them once (``JobQueues.from_settings``) and hands them to its game store, whose
writers and small stores queue through ``store.queues``; this module is the only one of the game
room that reaches into RQ's own workings (``RegisteredQueue``).
"""

from __future__ import annotations

from dataclasses import dataclass

import redis
from rq import Queue

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
    analysis_timeout: int = 600
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
            analysis_timeout=int(settings.get("ANALYSIS_JOB_TIMEOUT") or 600),
            bot_job_lease=float(settings.get("BOT_JOB_LEASE") or 5.0),
        )

    def searching(self, origin: str | None) -> bool:
        """Whether a job queued on ``origin`` (a queue's name) runs up to its own timeout: a search or an analysis."""
        return origin in {queue.name for queue in (self.search, self.analysis) if queue is not None}

    def connection(self) -> redis.Redis | None:
        """The queues' Redis connection (what ``/metrics`` reads their lengths on), or None without queues."""
        queue = self.bot or self.search
        return queue.connection if queue is not None else None
