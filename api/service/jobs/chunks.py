"""What simulations (api/service/jobs/simulations.py) and experiments (api/service/jobs/experiments.py) share: one RQ
job a chunk of games on the queue ``simulations``, a status hash, a tally hash written once per chunk,
a lease per chunk in progress, and the reaper's answer to "which of these chunks will nobody finish?".

Each owner (a simulation or an experiment) names its keys in a ``ChunkKeys``; every key of one
owner carries the owner's hash tag, so the scripts here touch one cluster slot.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from redis import Redis
from rq.job import Job

from api.ground import times
from api.ground.heartbeats import WAITING_JOB_STATES, seconds_since

Index = TypeVar("Index")


@dataclass(frozen=True, slots=True)
class ChunkKeys:
    """The Redis keys of one simulation's or experiment's chunks."""

    #: hash: chunk index -> id of the RQ job now responsible for it
    jobs: str
    #: hash: chunk index -> the chunk's tally, written once
    tallies: str
    #: chunk index -> the key a worker holds (and refreshes) while it plays the chunk
    lease: Callable[[int], str]
    #: job id -> the key of the reaper's first sighting of that job marked queued but in no queue
    taken: Callable[[str], str]


class OwnerKeys:
    """The Redis key names of one kind of chunked owner (``sim``: simulations, ``exp``: experiments):
    ``<kind>:{<id>}`` for its status hash, ``<kind>:{<id>}:<part>`` for the rest, all under the
    owner's hash tag."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def meta(self, owner_id: str) -> str:
        return f"{self.kind}:{{{owner_id}}}"

    def part(self, owner_id: str, name: str) -> str:
        return f"{self.meta(owner_id)}:{name}"

    def tallies(self, owner_id: str) -> str:
        return self.part(owner_id, "tallies")

    def jobs(self, owner_id: str) -> str:
        return self.part(owner_id, "jobs")

    def lease(self, owner_id: str, index: int) -> str:
        return self.part(owner_id, f"lease:{index}")

    def taken(self, owner_id: str, job_id: str) -> str:
        return self.part(owner_id, f"taken:{job_id}")

    def chunk_keys(self, owner_id: str) -> ChunkKeys:
        return ChunkKeys(jobs=self.jobs(owner_id), tallies=self.tallies(owner_id),
                         lease=partial(self.lease, owner_id), taken=partial(self.taken, owner_id))


def text(value: bytes | str | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


def iso_time(timestamp: float | None) -> str | None:
    """A simulation's or experiment's time as the API writes it (UTC, milliseconds, ``Z``), or None."""
    return None if timestamp is None else times.iso_time(timestamp, "milliseconds")


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


def set_if_status(redis: Redis, key: str, allowed: tuple[str, ...], **fields: object) -> bool:
    """Set ``fields`` of the status hash ``key`` only while its status is one of ``allowed``
    (atomically: a cancel and a chunk's failure cannot both win); whether it did."""
    args: list[object] = [",".join(allowed)]
    for name, value in fields.items():
        args += [name, value]
    return bool(redis.eval(_SET_IF_STATUS, 1, key, *args))


# Counts a chunk only the first time its tally is recorded; returns the chunks done, or -1.
_RECORD_ONCE = """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return -1 end
redis.call('HINCRBY', KEYS[2], 'games_done', ARGV[3])
return redis.call('HINCRBY', KEYS[2], 'chunks_done', 1)
"""


def record_once(redis: Redis, keys: ChunkKeys, status_key: str, index: int, tally_json: str, games: int) -> int:
    """Record a chunk's tally and count its games, unless it was recorded already (a chunk run
    twice counts once): the chunks done since, or -1."""
    return int(redis.eval(_RECORD_ONCE, 2, keys.tallies, status_key, index, tally_json, games))


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


def unqueue_chunks(redis: Redis, queue_key: str, job_prefix: str, keys: ChunkKeys, active_key: str, owner_id: str,
                   ttl: int) -> int:
    """Take all of an ended owner's waiting chunk jobs (ids starting ``job_prefix``) out of the queue,
    and the owner out of ``active_key``; how many were waiting."""
    removed = redis.eval(_UNQUEUE, 1, queue_key, job_prefix)
    with redis.pipeline() as pipeline:
        for job_id in redis.hvals(keys.jobs):
            # Not deleted: a worker may be running it right now.
            pipeline.expire(Job.key_for(text(job_id)), ttl)
        pipeline.zrem(active_key, owner_id)
        pipeline.execute()
    return int(removed)


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


def lost_chunks(redis: Redis, keys: ChunkKeys, indexes: list[int], queue_key: str, lease_seconds: int) -> list[int]:
    """Of ``indexes`` (chunks without a tally when the caller looked), those that no worker will
    finish without help, to be queued again under new job ids: a chunk whose job ended (or
    vanished) without its tally, one started whose lease expired (its worker was killed), and
    one marked queued that a worker took from the queue and never started
    (``taken_but_never_started``, ``lease_seconds`` apart). Sorted."""
    if not indexes:
        return []
    job_ids = [text(job_id) or "none" for job_id in redis.hmget(keys.jobs, [str(i) for i in indexes])]
    with redis.pipeline(transaction=False) as pipeline:
        for index, job_id in zip(indexes, job_ids, strict=True):
            pipeline.hmget(Job.key_for(job_id), ["status", "started_at"])
            pipeline.exists(keys.lease(index))
            pipeline.hexists(keys.tallies, index)
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
    lost += taken_but_never_started(redis, queue_key, queued, keys.taken, lease_seconds)
    return sorted(lost)
