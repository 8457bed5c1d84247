"""The store of chunked runs: the only code that reads and writes a run's keys (``api.runs.keys``) and
queues its chunk jobs. One RQ job a chunk of games on the queue ``simulations``, a status hash, a
tally hash written once per chunk, a lease per chunk in progress, and the reaper's answer to "which of
these chunks will nobody finish?". ``RunStore`` holds what every kind does; each kind's store
(``api.simulations.store``, ``api.experiments.store``) names its kind, its job and what it adds.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from redis import Redis, RedisError
from rq import Queue, Worker
from rq.job import Job

from api.ground.heartbeats import WAITING_JOB_STATES, seconds_since
from api.runs.keys import (
    active_key,
    job_prefix,
    jobs_key,
    lease_key,
    reap_lock_key,
    reaped_key,
    run_key,
    taken_key,
    tallies_key,
)

Index = TypeVar("Index")


#: The queue of every chunk job, a simulation's or an experiment's (the simulation workers').
QUEUE = "simulations"
#: The states of a run still to be played (the others: finished, failed, cancelled).
ACTIVE = ("queued", "running")
#: What a Redis client is to the rooms: they hold one and hand it to their store (``connect``).
Connection = Redis
#: Redis failed (not the run's games): the job fails and the reaper queues its chunk again.
StoreError = RedisError


class RunNotFound(KeyError):
    """No run of that id (or it has expired)."""


def connect(url: str) -> Connection:
    """A client for the run stores at ``url`` (one that returns bytes, as RQ needs)."""
    return Redis.from_url(url)


def text(value: bytes | str | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


# Sets fields only while the status is one of ARGV[1] (comma-separated); 1 if it did.
_SET_IF_STATUS = """
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return 0 end
for allowed in string.gmatch(ARGV[1], '[^,]+') do
  if status == allowed then
    redis.call('HSET', KEYS[1], unpack(ARGV, 2))
    return 1
  end
end
return 0
"""


# Counts a chunk only the first time its tally is recorded; returns the chunks done, or -1.
_RECORD_ONCE = """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return -1 end
redis.call('HINCRBY', KEYS[2], 'games_done', ARGV[3])
return redis.call('HINCRBY', KEYS[2], 'chunks_done', 1)
"""


#: Rebuild the queue without the ids that start with ARGV[1], in one pass and in order
#: (one LREM per chunk would cost the queue's length for each of up to 10,000 chunks).
_UNQUEUE = """
local ids = redis.call('LRANGE', KEYS[1], 0, -1)
local keep, removed = {}, 0
for _, id in ipairs(ids) do
  if string.sub(id, 1, #ARGV[1]) == ARGV[1] then removed = removed + 1 else keep[#keep + 1] = id end
end
if removed > 0 then
  redis.call('DEL', KEYS[1])
  for first = 1, #keep, 5000 do
    redis.call('RPUSH', KEYS[1], unpack(keep, first, math.min(first + 4999, #keep)))
  end
end
return removed
"""


def chunk_is_lost(job_state: bytes | None, started_at: bytes | None, leased: bool, lease_seconds: int) -> bool:
    """Whether a chunk job that is not marked ``queued`` (see ``taken_but_never_started``) was left
    by a dead worker."""
    if text(job_state) in WAITING_JOB_STATES:
        return False
    if job_state == b"started":
        if leased or not started_at:
            return False
        # Between RQ marking the job started and the chunk taking its lease.
        return seconds_since(started_at) > lease_seconds
    # Finished, failed, stopped or gone without its tally recorded: its worker died.
    return True


#: Of the job ids in ARGV, those not in the list KEYS[1] (one pass over the list).
_NOT_IN_LIST = """
local listed = {}
for _, id in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do listed[id] = true end
local absent = {}
for _, id in ipairs(ARGV) do
  if not listed[id] then absent[#absent + 1] = id end
end
return absent
"""


def taken_but_never_started(redis: Redis, queue_key: str, queued: Mapping[Index, str],
                            sighting_key: Callable[[str], str], grace_seconds: float) -> list[Index]:
    """Those of ``queued`` (a name -> the id of a job marked ``queued``) whose jobs a worker took
    from the queue ``queue_key`` and has not started for ``grace_seconds``: lost.

    A worker listening on several queues (the default) takes a job with LPOP, so a worker
    that dies (or loses Redis) between taking a job and RQ marking it started leaves it
    marked ``queued`` in no list at all: nothing in RQ ever fails or re-queues it. (A
    one-queue worker moves it to RQ's intermediate list instead, which RQ cleans up a
    minute later; absent from the queue, such a job is lost here too.) A live worker
    starts a job it took within milliseconds; the first sighting of a job out of the
    queue sets ``sighting_key(job id)`` and only a sighting ``grace_seconds`` later (Redis's
    clock: the key's remaining time) takes it for lost, so a slow start costs at most a
    second run of the job.
    """
    if not queued:
        return []
    absent = {text(job_id) for job_id in redis.eval(_NOT_IN_LIST, 1, queue_key, *queued.values())}
    grace_ms = int(grace_seconds * 1000)
    kept_ms = max(1000, 3 * grace_ms)  # a later sighting within this time sees the first one
    taken = [(name, job_id) for name, job_id in queued.items() if job_id in absent]
    with redis.pipeline(transaction=False) as pipeline:
        for _, job_id in taken:
            pipeline.set(sighting_key(job_id), 1, nx=True, px=kept_ms)
            pipeline.pttl(sighting_key(job_id))
        answers = pipeline.execute()
    return [name for position, (name, _) in enumerate(taken)
            if not answers[2 * position] and 0 <= answers[2 * position + 1] <= kept_ms - grace_ms]


class RunStore:
    """The keys of one kind of chunked run (``api.runs.keys``) over one Redis client: the status hash,
    the chunk jobs, tallies, leases and the reaper's marks. A kind's store names ``kind``, ``noun``
    (in job descriptions), ``job`` (the dotted name of its RQ function) and ``not_found``."""

    kind: str
    noun: str
    job: str
    not_found: type[RunNotFound] = RunNotFound

    def __init__(self, redis: Connection) -> None:
        self.redis = redis

    # -- the status hash -------------------------------------------------------------------------

    def key(self, run_id: str) -> str:
        return run_key(self.kind, run_id)

    def kept_keys(self, run_id: str) -> list[str]:
        """The keys that live as long as the run (refreshed to its TTL when it is made and when it ends)."""
        return [self.key(run_id), tallies_key(self.kind, run_id), jobs_key(self.kind, run_id)]

    def exists(self, run_id: str) -> bool:
        return bool(self.redis.exists(self.key(run_id)))

    def meta(self, run_id: str) -> dict[str, str]:
        """The whole status hash, as text; ``not_found`` if there is none."""
        meta = {text(k): text(v) for k, v in self.redis.hgetall(self.key(run_id)).items()}
        if not meta:
            raise self.not_found(run_id)
        return meta

    def fields(self, run_id: str, *names: str) -> list[Any]:
        """Fields of the status hash as stored (None where absent)."""
        return self.redis.hmget(self.key(run_id), list(names))

    def active_fields(self, run_id: str, *names: str) -> list[Any] | None:
        """The spec and fields ``names`` of an active run (as stored); None when it is gone or has ended."""
        raw_spec, status, *more = self.fields(run_id, "spec", "status", *names)
        if raw_spec is None or text(status) not in ACTIVE:
            return None
        return [raw_spec, *more]

    def status(self, run_id: str) -> str | None:
        return text(self.redis.hget(self.key(run_id), "status"))

    def owner(self, run_id: str) -> str | None:
        """The id of the app that asked for the run; ``not_found`` if there is none."""
        found, app = self.fields(run_id, "status", "app")
        if found is None:
            raise self.not_found(run_id)
        return text(app)

    def transition(self, run_id: str, allowed: tuple[str, ...], **fields: object) -> bool:
        """Set ``fields`` only while the status is one of ``allowed`` (atomically: a cancel and a chunk's
        failure cannot both win); whether it did."""
        args: list[object] = [",".join(allowed)]
        for name, value in fields.items():
            args += [name, value]
        return bool(self.redis.eval(_SET_IF_STATUS, 1, self.key(run_id), *args))

    def stamp_finished(self, run_id: str, now: float) -> tuple[float, float | None, float]:
        """Set ``finished_at`` unless set already; created, started (or None) and finished times."""
        key = self.key(run_id)
        self.redis.hsetnx(key, "finished_at", now)
        created_at, started_at, finished_at = self.redis.hmget(key, ["created_at", "started_at", "finished_at"])
        return float(created_at), None if started_at is None else float(started_at), float(finished_at)

    def states(self, run_ids: list[str]) -> list[list[str | None]]:
        """Status, spec and chunks done of each run (None each for a run that is gone), in one round trip."""
        with self.redis.pipeline(transaction=False) as pipeline:
            for run_id in run_ids:
                pipeline.hmget(self.key(run_id), ["status", "spec", "chunks_done"])
            return [[text(value) for value in values] for values in pipeline.execute()]

    # -- making, queueing, ending ----------------------------------------------------------------

    def create(self, run_id: str, fields: dict, indexes: list[int], job_timeout: int, ttl: int, now: float,
               **chunk_plan: Any) -> None:
        """Write a new run's status hash and queue its first chunks, all at once."""
        with self.redis.pipeline() as pipeline:
            pipeline.hset(self.key(run_id), mapping=fields)
            self.queue_chunks(pipeline, run_id, indexes, job_timeout, ttl, **chunk_plan)
            for key in self.kept_keys(run_id):
                pipeline.expire(key, ttl)
            pipeline.zadd(active_key(self.kind), {run_id: now})
            pipeline.execute()

    def queue_chunks(self, pipeline, run_id: str, indexes: list[int], job_timeout: int, ttl: int) -> None:
        """Queue a job for each chunk of ``indexes`` (in ``pipeline``), each under a new job id."""
        prefix = job_prefix(self.kind, run_id)
        prepared = []
        for index in indexes:
            job_id = f"{prefix}{index}-{secrets.token_hex(3)}"
            prepared.append((index, job_id, Queue.prepare_data(
                self.job, args=(run_id, index), job_id=job_id, timeout=job_timeout, result_ttl=0,
                failure_ttl=ttl, description=f"{self.noun} {run_id} chunk {index}")))
        pipeline.hset(jobs_key(self.kind, run_id), mapping={str(index): job_id for index, job_id, _ in prepared})
        Queue(QUEUE, connection=self.redis).enqueue_many([data for _, _, data in prepared], pipeline=pipeline)

    def requeue(self, run_id: str, indexes: list[int], job_timeout: int, ttl: int, **chunk_plan: Any) -> None:
        with self.redis.pipeline() as pipeline:
            self.queue_chunks(pipeline, run_id, indexes, job_timeout, ttl, **chunk_plan)
            pipeline.execute()

    def end(self, run_id: str, ttl: int) -> None:
        """The run ended: its keys kept ``ttl`` more seconds, and it leaves the active runs."""
        with self.redis.pipeline() as pipeline:
            for key in self.kept_keys(run_id):
                pipeline.expire(key, ttl)
            pipeline.zrem(active_key(self.kind), run_id)
            pipeline.execute()

    def unqueue(self, run_id: str, ttl: int) -> int:
        """Take all of an ended run's waiting chunk jobs out of the queue, and the run out of the active
        runs; how many were waiting."""
        removed = self.redis.eval(_UNQUEUE, 1, Queue(QUEUE, connection=self.redis).key,
                                  job_prefix(self.kind, run_id))
        with self.redis.pipeline() as pipeline:
            for job_id in self.redis.hvals(jobs_key(self.kind, run_id)):
                # Not deleted: a worker may be running it right now.
                pipeline.expire(Job.key_for(text(job_id)), ttl)
            pipeline.zrem(active_key(self.kind), run_id)
            pipeline.execute()
        return int(removed)

    def workers_listening(self) -> int:
        return Worker.count(connection=self.redis, queue=Queue(QUEUE, connection=self.redis))

    # -- chunks ----------------------------------------------------------------------------------

    def take_lease(self, run_id: str, index: int, seconds: int) -> None:
        self.redis.set(lease_key(self.kind, run_id, index), os.getpid(), ex=seconds)

    def drop_lease(self, run_id: str, index: int) -> None:
        self.redis.delete(lease_key(self.kind, run_id, index))

    def has_tally(self, run_id: str, index: int) -> bool:
        return bool(self.redis.hexists(tallies_key(self.kind, run_id), index))

    def tallied(self, run_id: str) -> set[int]:
        """The indexes of the chunks recorded."""
        return {int(index) for index in self.redis.hkeys(tallies_key(self.kind, run_id))}

    def tallies(self, run_id: str) -> dict[int, Any]:
        """Every recorded chunk's tally (JSON), by index."""
        recorded = self.redis.hgetall(tallies_key(self.kind, run_id))
        return {int(index): json.loads(raw) for index, raw in recorded.items()}

    def record(self, run_id: str, index: int, tally_json: str, games: int, ttl: int) -> int:
        """Record a chunk's tally and count its games, unless it was recorded already (a chunk run twice
        counts once): the chunks done since, or -1."""
        tallies = tallies_key(self.kind, run_id)
        done = int(self.redis.eval(_RECORD_ONCE, 2, tallies, self.key(run_id), index, tally_json, games))
        self.redis.expire(tallies, ttl)
        return done

    def lost_chunks(self, run_id: str, indexes: list[int], lease_seconds: int) -> list[int]:
        """Of ``indexes`` (chunks without a tally when the caller looked), those that no worker will
        finish without help, to be queued again under new job ids: a chunk whose job ended (or
        vanished) without its tally, one started whose lease expired (its worker was killed), and
        one marked queued that a worker took from the queue and never started
        (``taken_but_never_started``, ``lease_seconds`` apart). Sorted."""
        if not indexes:
            return []
        redis, kind = self.redis, self.kind
        job_ids = [text(job_id) or "none" for job_id in redis.hmget(jobs_key(kind, run_id), [str(i) for i in indexes])]
        with redis.pipeline(transaction=False) as pipeline:
            for index, job_id in zip(indexes, job_ids, strict=True):
                pipeline.hmget(Job.key_for(job_id), ["status", "started_at"])
                pipeline.exists(lease_key(kind, run_id, index))
                pipeline.hexists(tallies_key(kind, run_id), index)
            answers = pipeline.execute()
        lost = []
        queued = {}
        for position, (index, job_id) in enumerate(zip(indexes, job_ids, strict=True)):
            (job_state, started_at), leased, recorded_since = answers[3 * position: 3 * position + 3]
            if recorded_since:
                continue
            if job_state == b"queued":
                queued[index] = job_id
            elif chunk_is_lost(job_state, started_at, bool(leased), lease_seconds):
                lost.append(index)
        queue_key = Queue(QUEUE, connection=redis).key
        lost += taken_but_never_started(redis, queue_key, queued, lambda job_id: taken_key(kind, run_id, job_id),
                                        lease_seconds)
        return sorted(lost)

    # -- the reapers -----------------------------------------------------------------------------

    def active_ids(self) -> list[str]:
        return [text(run_id) for run_id in self.redis.zrange(active_key(self.kind), 0, -1)]

    def forget_active(self, run_id: str) -> None:
        self.redis.zrem(active_key(self.kind), run_id)

    def take_reap_lock(self, min_interval: float) -> bool:
        """Whether this caller reaps the kind now: one at a time, at most every ``min_interval`` seconds."""
        return bool(self.redis.set(reap_lock_key(self.kind), os.getpid(), nx=True, px=int(min_interval * 1000)))

    def reap_due(self, run_id: str) -> bool:
        """Whether a status read should reap the run (none did in the last two seconds)."""
        return bool(self.redis.set(reaped_key(self.kind, run_id), 1, nx=True, ex=2))
