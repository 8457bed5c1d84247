"""The ``rulehouse worker`` process: an RQ worker on the queues ``bots``, ``search`` and ``simulations``
(or ``--queues webhooks``: the webhook deliveries, which bot workers never take).

Beside RQ's own work it sweeps the active simulations every few seconds (``reap_all``),
so a chunk whose worker was killed is queued again even when nobody polls its status,
and plays the defaults of overdue decisions (``api.play.timeouts.sweep``).
"""

from __future__ import annotations

import logging
import os
import sys
import time
from datetime import timedelta

from redis import Redis
from rq import SimpleWorker, Worker
from rq.job import Job, JobStatus
from rq.queue import Queue
from rq.scheduler import RQScheduler
from rq.timeouts import JobTimeoutException
from rq.utils import now, utcformat

from api.apps import deadline_warnings, webhooks
from api.competition import sweep as competition_sweep
from api.experiments import lifecycle as experiments
from api.ground import config, faults, heartbeats, metrics
from api.ground.config import ALL_QUEUES, WORKER_QUEUES
from api.observability.requests import configure_json_logging
from api.observability.text_logs import configure_text_logging
from api.play import timeouts
from api.play.bot_queueing import PLAY_BOT_TURN
from api.service.jobs import bots as bot_jobs
from api.service.jobs.bots import job_store
from api.service.redis_wait import RedisWait
from api.simulations import lifecycle as simulations
from engine.core.registry import all_rulesets

QUEUES = WORKER_QUEUES
#: Seconds between two sweeps of the active simulations, and the longest blocking wait for a job.
SWEEP_SECONDS = 3
#: The least time between two of RQ's own worker heartbeats (and suspension checks); see ``FewerBeatsMixin``.
RQ_BEAT_SECONDS = 5.0

log = logging.getLogger("rulehouse.worker")


class FewerBeatsMixin:
    """RQ's worker beats (HSET and two EXPIREs) four times around every job, checks ``rq suspend``
    (the same and an EXISTS) before each, and writes its state twice: 20 of a bot job's 60 Redis
    commands (bench/bot_cost.py), while its key lives ``worker_ttl`` + 60 s (8 minutes). Here a beat
    within ``RQ_BEAT_SECONDS`` of the last is skipped unless it asks for a longer life than the last
    gave (a long job's ``prepare_job_execution``), the suspension is looked at once in that time, and
    an unchanged state is not written again. Our own liveness (``api.heartbeats``) is apart from this."""

    _beat_at: float | None = None
    _beat_ttl = 0
    _suspension_checked_at: float | None = None

    def heartbeat(self, timeout: int | None = None, pipeline=None) -> None:
        wanted = timeout or self.worker_ttl + 60
        recent = self._beat_at is not None and time.monotonic() - self._beat_at < RQ_BEAT_SECONDS
        if recent and wanted <= self._beat_ttl:
            return
        super().heartbeat(timeout, pipeline)
        self._beat_at, self._beat_ttl = time.monotonic(), wanted

    def check_for_suspension(self, burst: bool) -> None:
        checked = self._suspension_checked_at
        if checked is not None and time.monotonic() - checked < RQ_BEAT_SECONDS:
            return
        self._suspension_checked_at = time.monotonic()
        super().check_for_suspension(burst)

    def set_state(self, state: str, pipeline=None) -> None:
        if pipeline is None and state == self._state:
            return
        super().set_state(state, pipeline)


class SweepingMixin(FewerBeatsMixin):
    """Wakes from the blocking dequeue every few seconds to sweep the simulations."""

    last_swept_at = None
    _retry_scheduler: RQScheduler | None = None
    _webhooks: webhooks.Webhooks | None = None
    _sweeping = False
    _stop_after_sweep: tuple | None = None

    @property
    def dequeue_timeout(self) -> int:
        return SWEEP_SECONDS

    @property
    def should_run_maintenance_tasks(self) -> bool:
        due = self.last_swept_at is None or now() - self.last_swept_at > timedelta(seconds=SWEEP_SECONDS)
        return due or super().should_run_maintenance_tasks

    def request_stop(self, signum, frame) -> None:
        """SIGTERM/SIGINT. RQ stops an idle worker by raising ``StopRequested`` from the signal
        handler; raised inside a sweep it was caught by the sweep's ``except Exception`` and the
        stop lost (the worker ran on until killed: a test's 60 s wait under load). So a signal
        that comes during a sweep stops the worker right after it."""
        if self._sweeping:
            self._stop_after_sweep = (signum, frame)
            return
        super().request_stop(signum, frame)

    def run_maintenance_tasks(self) -> None:
        self._sweeping = True
        try:
            self._sweep()
        finally:
            self._sweeping = False
        if self._stop_after_sweep is not None:
            signum, frame = self._stop_after_sweep
            self._stop_after_sweep = None
            super().request_stop(signum, frame)

    def _sweep(self) -> None:
        if self.last_cleaned_at is None or now() - self.last_cleaned_at > timedelta(seconds=self.maintenance_interval):
            super().run_maintenance_tasks()
        self.last_swept_at = now()
        metrics.report_caches()
        timeouts.sweep_logged(job_store())
        bot_jobs.sweep_logged(job_store())
        competition_sweep.sweep_logged(job_store())
        try:
            deadline_warnings.deadlines_near(job_store())
            self.enqueue_due_retries()
        except Exception:  # a sweep must never stop the worker
            log.exception("webhook sweep failed")
        try:
            self.recover_jobs_taken_but_never_started()
        except Exception:  # a sweep must never stop the worker
            log.exception("intermediate-queue sweep failed")
        try:
            requeued = simulations.reap_all(self.connection, min_interval=SWEEP_SECONDS - 0.5)
            requeued += experiments.reap_all(self.connection, min_interval=SWEEP_SECONDS - 0.5)
        except Exception:  # a sweep must never stop the worker
            log.exception("simulation sweep failed")
            return
        if requeued:
            log.warning("re-queued %d simulation chunk(s) left by dead workers", requeued)


    def recover_jobs_taken_but_never_started(self) -> None:
        """A worker on one queue takes a job by moving it to RQ's intermediate list; if it dies
        (or Redis goes away) before starting it, the job waits there, still marked queued. RQ
        fails it (and so retries a bot move) in its registry maintenance, every 10 minutes; doing
        it in every sweep brings that to about a minute (RQ waits a minute after first seeing the
        job there). Found by bench/faults.py.

        The work itself does not wait for this: such a job is in no queue, and so is one that a
        worker on several queues (the default) took with LPOP, with no intermediate list, which
        nothing here sees. The bot sweep and a hint's next ask queue such a bot move or hint
        again under a new id (``GameStore.job_alive``), the simulation and experiment reapers
        such a chunk (``api.runs.store.taken_but_never_started``)."""
        for queue in self.queues:
            if queue.acquire_maintenance_lock():
                try:
                    queue.intermediate_queue.cleanup(self, queue)
                finally:
                    queue.release_maintenance_lock()

    def enqueue_due_retries(self) -> None:
        """Queue the webhook deliveries whose retry time has come (RQ keeps delayed retries in its
        scheduled registry). RQ's own scheduler would do this from a forked process that outlives
        a killed worker; one pass here, under RQ's scheduler lock, does the same from the sweep.

        One scheduler per worker, logging warnings only: RQ logs taking its lock at INFO, which
        every sweep does (it lets go after each pass), and that was a quarter of ``make run``'s log."""
        if self._retry_scheduler is None:
            self._retry_scheduler = RQScheduler([webhooks.QUEUE], connection=self.connection,
                                                logging_level=logging.WARNING)
        scheduler = self._retry_scheduler
        if scheduler.acquire_locks():
            try:
                scheduler.enqueue_scheduled_jobs()
            finally:
                scheduler.release_locks()
        # Apps' lines of deliveries whose slots a killed worker left (their leases ran out).
        if self._webhooks is None:
            self._webhooks = webhooks.Webhooks.on_connection(self.connection)
        self._webhooks.pump_all()


    def execute_job(self, job, queue) -> None:
        # Test-only (api/ground/faults.py): a fault test kills the worker here, holding a job it took
        # from its queue that RQ has not marked started yet.
        faults.pause_point("job-taken")
        super().execute_job(job, queue)


class ForkingWorker(SweepingMixin, Worker):
    """Runs each job in a forked child (RQ's default): a crashing job cannot take the worker down."""


#: The jobs ``LeanBotJobsMixin`` runs without RQ's execution records: quick bot seats' runs, under the
#: name jobs are queued with (``api.play.bot_queueing.PLAY_BOT_TURN``) and the one queued before issue 27's
#: layout (api/service/jobs/renamed.py), which still runs for one release.
LEAN_JOBS = {PLAY_BOT_TURN, "api.bot_seats.play_bot_turn"}


class LeanBotJobsMixin:
    """A quick bot job (on any queue but ``SEARCH_QUEUE``'s, whose long searches RQ's registries still show)
    run with four of RQ's commands instead of forty.

    RQ records each execution (an execution hash, the started registry, the worker's set of
    executions, its counters), then the result (a stream, the finished registry) and the
    dependents: about 40 commands a job, which a run of a few bot moves beside a person does not
    amortize (bench/bot_cost.py). Nothing reads those for a bot job: the game's version check says
    what was played, and a job that dies is found by the bot sweep from the job hash alone
    (``JobQueues.job_alive``: status, started_at, worker_name, origin). So such a job is marked
    started and then finished on its hash only (kept ``result_ttl`` seconds, for its unique id),
    under RQ's own timeout. A job that raises goes through RQ's failure handling as any job (its
    retries, the failed registry). What one gives up: ``rq info`` and the dashboard do not list a
    running bot job, and keep no result of it (nothing ever read one)."""

    def execute_job(self, job: Job, queue: Queue) -> None:
        if job.func_name not in LEAN_JOBS or queue.name == config.current().get("SEARCH_QUEUE"):
            super().execute_job(job, queue)
            return
        job.started_at, job.worker_name, job._status = now(), self.name, JobStatus.STARTED
        pipe = self.connection.pipeline(transaction=False)
        pipe.hset(job.key, mapping={"status": JobStatus.STARTED.value, "started_at": utcformat(job.started_at),
                                    "worker_name": self.name})
        if len(self.queues) == 1:
            pipe.lrem(queue.intermediate_queue_key, 1, job.id)  # a one-queue worker took it with LMOVE
        pipe.execute()
        try:
            with self.death_penalty_class(job.timeout or queue.DEFAULT_TIMEOUT, JobTimeoutException, job_id=job.id):
                job.perform()
        except Exception:
            self._finalize_failure(job, queue, None, sys.exc_info())
            return
        job.ended_at, job._status = now(), JobStatus.FINISHED
        pipe = self.connection.pipeline(transaction=False)
        pipe.hset(job.key, mapping={"status": JobStatus.FINISHED.value, "ended_at": utcformat(job.ended_at)})
        kept = job.get_result_ttl(self.default_result_ttl)
        if kept is None or kept < 0:
            pipe.persist(job.key)
        else:
            pipe.expire(job.key, max(1, kept))
        pipe.execute()


class InProcessWorker(SweepingMixin, LeanBotJobsMixin, SimpleWorker):
    """Runs jobs in the worker process itself: no fork per job, so bot replies come faster."""


def run_worker(
    redis_url: str,
    queues: tuple[str, ...] = QUEUES,
    *,
    fork: bool = False,
    burst: bool = False,
    name: str | None = None,
    logging_level: str = "INFO",
    metrics_port: int | None = None,
    metrics_host: str = "127.0.0.1",
    quiet: bool = False,
) -> bool:
    """Work until SIGINT/SIGTERM (the job in hand is finished first; a second signal stops at once).

    ``metrics_port`` serves this worker's Prometheus metrics (and the queue depths) at
    ``http://metrics_host:metrics_port/metrics``. ``quiet`` (``rulehouse serve``'s workers): one line once
    the worker listens, then RQ's warnings only, in the one text format of ``serve`` unless logs are JSON.
    """
    # This process's one settings object, read once here: jobs (bot seats, simulations, webhooks)
    # find it as api.ground.config.current(), with this worker's Redis whichever way it was named.
    values = {**config.settings(), "REDIS_URL": redis_url}
    config.use(values)
    if values.get("LOG_FORMAT") == "json":
        configure_json_logging(logging_level)
    elif quiet:
        configure_text_logging(logging_level)
    # Parse every ruleset's data now, once, rather than in each job (or each forked child).
    all_rulesets()
    # Without Redis, RQ would stop at once (and a supervisor restart it, again and again). A burst (a
    # one-off run over what is queued) does not wait: it fails at once, in one line (api/cli/processes.py).
    if not burst:
        try:
            RedisWait(redis_url, log.warning, what="; this worker starts once it answers").wait()
        except KeyboardInterrupt:  # Ctrl+C while waiting: nothing was started, nothing to finish
            return False
    connection = Redis.from_url(redis_url)
    if metrics_port is not None:
        # every queue's depth, those this worker does not take too
        metrics.serve_metrics(metrics_port, metrics_host, connection, ALL_QUEUES, values)
    worker_class = ForkingWorker if fork else InProcessWorker
    worker = worker_class(list(queues), connection=connection, name=name)
    # A job of this worker is taken for dead once the beats stop (a kill), not at its timeout.
    heartbeats.start_beating(connection, worker.name, float(values["BOT_JOB_LEASE"]))
    if quiet:
        log.info("worker %d ready on %s", os.getpid(), ", ".join(queues))
    return worker.work(burst=burst, logging_level="WARNING" if quiet else logging_level)
