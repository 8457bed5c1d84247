"""Simulations as RQ jobs on the queue ``simulations``; no Flask requests here.

A simulation is cut into chunks of many games (engine/simulate.py makes game ``i``
depend only on ``(seed, i)``), one RQ job per chunk. Redis keys, all under the hash tag
``{<id>}`` so one simulation lives in one cluster slot:

- ``sim:{id}``           hash: spec, status, timestamps, games/chunks done, result, error,
                         and the id of the app that asked for it
- ``sim:{id}:tallies``   hash: chunk index -> that chunk's Tally JSON, written with HSETNX
                         (in one script with the counters), so a chunk run twice counts once
- ``sim:{id}:jobs``      hash: chunk index -> id of the RQ job now responsible for it
- ``sim:{id}:lease:{i}`` a chunk in progress; the worker refreshes it while it plays
- ``sim:{id}:taken:{job}`` the reaper first saw this chunk job marked queued but in no queue

A worker killed mid-chunk leaves its lease to expire. ``reap`` (run by every worker
between jobs and by ``status``) re-enqueues each chunk that is neither done nor
waiting in the queue nor held by a live lease, so any worker alive later finishes the
simulation, with exactly the games asked.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from redis import Redis, RedisError
from rq import Queue, get_current_job
from rq.job import Job
from rq.utils import utcparse

from api.apps import notify
from api.observability import metrics
from api.simulations.spec import chunk_bounds, normalize_spec
from engine.simulate import Tally, play_chunk, summarize

QUEUE = "simulations"
ACTIVE_KEY = "sims:active"
ACTIVE = ("queued", "running")
TERMINAL = ("finished", "failed", "cancelled")
#: RQ job states in which a chunk will still run without help.
WAITING_JOB_STATES = {b"queued", b"deferred", b"scheduled"}


def _env_seconds(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


@dataclass(frozen=True, slots=True)
class Settings:
    #: How long a simulation (spec, progress, result) stays in Redis after its last change.
    ttl: int
    #: A chunk whose worker stopped refreshing its lease this long ago is given to another worker.
    lease_seconds: int
    #: RQ's hard limit on one chunk job: the worker stops a job still running after it.
    job_timeout: int
    #: The most one game may take: a game still playing after it fails its simulation.
    game_seconds: int = 60

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            ttl=_env_seconds("RULEHOUSE_SIMULATION_TTL", 7 * 24 * 3600),
            lease_seconds=_env_seconds("RULEHOUSE_SIMULATION_LEASE", 10),
            job_timeout=_env_seconds("RULEHOUSE_SIMULATION_JOB_TIMEOUT", 3600),
            game_seconds=_env_seconds("RULEHOUSE_SIMULATION_GAME_SECONDS", 60),
        )


class SimulationNotFound(KeyError):
    pass


class Cancelled(Exception):
    """The simulation of a running chunk ended meanwhile (cancelled, or failed elsewhere)."""


class GameOverran(Exception):
    """A game of a chunk took longer than ``Settings.game_seconds``."""


def meta_key(sim_id: str) -> str:
    return f"sim:{{{sim_id}}}"


def tallies_key(sim_id: str) -> str:
    return f"sim:{{{sim_id}}}:tallies"


def jobs_key(sim_id: str) -> str:
    return f"sim:{{{sim_id}}}:jobs"


def lease_key(sim_id: str, index: int) -> str:
    return f"sim:{{{sim_id}}}:lease:{index}"


def taken_key(sim_id: str, job_id: str) -> str:
    return f"sim:{{{sim_id}}}:taken:{job_id}"


# Counts a chunk only the first time its tally is recorded; returns the chunks done, or -1.
_RECORD_CHUNK = """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return -1 end
redis.call('HINCRBY', KEYS[2], 'games_done', ARGV[3])
return redis.call('HINCRBY', KEYS[2], 'chunks_done', 1)
"""

# Sets fields only while the status is one of ARGV[1] (comma-separated); 1 if it did.
_TRANSITION = """
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


def owner(redis: Redis, sim_id: str) -> str | None:
    """The id of the app that asked for the simulation; ``SimulationNotFound`` if there is none."""
    found, app = redis.hmget(meta_key(sim_id), ["status", "app"])
    if found is None:
        raise SimulationNotFound(sim_id)
    return _text(app)


def _transition(redis: Redis, sim_id: str, allowed: tuple[str, ...], **fields) -> bool:
    args = [",".join(allowed)]
    for name, value in fields.items():
        args += [name, value]
    return bool(redis.eval(_TRANSITION, 1, meta_key(sim_id), *args))


def _text(value: bytes | str | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


def _chunk_job(sim_id: str, index: int, settings: Settings) -> tuple[str, object]:
    # The prefix "sim-<id>-" is how _unqueue_chunks finds a simulation's chunks in the queue.
    job_id = f"sim-{sim_id}-{index}-{secrets.token_hex(3)}"
    data = Queue.prepare_data(
        run_chunk,
        args=(sim_id, index),
        job_id=job_id,
        timeout=settings.job_timeout,
        result_ttl=0,
        failure_ttl=settings.ttl,
        description=f"simulation {sim_id} chunk {index}",
    )
    return job_id, data


def _enqueue_chunks(redis: Redis, sim_id: str, indexes: list[int], settings: Settings, pipeline) -> None:
    queue = Queue(QUEUE, connection=redis)
    jobs = [_chunk_job(sim_id, index, settings) for index in indexes]
    pipeline.hset(jobs_key(sim_id), mapping={str(i): job_id for i, (job_id, _) in zip(indexes, jobs, strict=True)})
    queue.enqueue_many([data for _, data in jobs], pipeline=pipeline)


def submit(redis: Redis, body: dict, settings: Settings | None = None, *, owner: str | None = None,
           admit: Callable[[dict], None] | None = None) -> str:
    """Check the request, queue its chunks, and return the simulation id.

    ``InvalidOptions`` (with per-field messages) when the request is not acceptable;
    ``admit(spec)`` may refuse it too (quotas), by raising. ``owner`` is the app that asked.
    """
    settings = settings or Settings.from_env()
    spec = normalize_spec(body)
    if admit is not None:
        admit(spec)
    sim_id = secrets.token_hex(12)
    now = time.time()
    with redis.pipeline() as pipeline:
        pipeline.hset(
            meta_key(sim_id),
            mapping={
                "spec": json.dumps(spec),
                "status": "queued",
                "created_at": now,
                "games_done": 0,
                "chunks_done": 0,
                "ttl": settings.ttl,
                **({"app": owner} if owner else {}),
            },
        )
        _enqueue_chunks(redis, sim_id, list(range(spec["chunks"])), settings, pipeline)
        for key in (meta_key(sim_id), jobs_key(sim_id)):
            pipeline.expire(key, settings.ttl)
        pipeline.zadd(ACTIVE_KEY, {sim_id: now})
        pipeline.execute()
    return sim_id


def run_chunk(sim_id: str, index: int) -> int:
    """The RQ job: play one chunk and record its tally once. Returns the games recorded."""
    job = get_current_job()
    return ChunkRun(job.connection, sim_id, index, Settings.from_env()).run()


class ChunkRun:
    def __init__(self, redis: Redis, sim_id: str, index: int, settings: Settings) -> None:
        self.redis = redis
        self.sim_id = sim_id
        self.index = index
        self.settings = settings
        self.lease = lease_key(sim_id, index)
        self.last_beat = self.game_began = time.perf_counter()
        self.game = -1

    def still_wanted(self) -> bool:
        status = _text(self.redis.hget(meta_key(self.sim_id), "status"))
        return status in ACTIVE

    def run(self) -> int:
        raw_spec, status = self.redis.hmget(meta_key(self.sim_id), ["spec", "status"])
        if raw_spec is None or _text(status) not in ACTIVE or self.redis.hexists(tallies_key(self.sim_id), self.index):
            return 0
        spec = json.loads(raw_spec)
        self.redis.set(self.lease, os.getpid(), ex=self.settings.lease_seconds)
        _transition(self.redis, self.sim_id, ("queued",), status="running", started_at=time.time())
        try:
            tally = self.play(spec)
            if tally is None:
                return 0
            self.record(spec, tally)
            metrics.SIMULATION_GAMES.inc(tally.games)
            metrics.SIMULATION_CHUNK_SECONDS.observe(tally.seconds)
        except RedisError:
            # Not the games' fault: RQ marks this job failed and ``reap`` queues the chunk again.
            raise
        except Exception as error:
            if _transition(
                self.redis, self.sim_id, ACTIVE,
                status="failed", finished_at=time.time(), error=f"chunk {self.index}: {type(error).__name__}: {error}",
            ):
                _unqueue_chunks(self.redis, self.sim_id, self.settings)
            raise
        finally:
            self.redis.delete(self.lease)
        return tally.games

    def play(self, spec: dict) -> Tally | None:
        """The chunk's tally, or ``None`` if the simulation was cancelled meanwhile."""
        first, count = chunk_bounds(spec, self.index)
        self.last_beat = time.perf_counter()
        try:
            return play_chunk(spec["ruleset"], spec["players"], spec["bots"], spec["options"], spec["seed"],
                              first, count, check=self.check)
        except Cancelled:
            return None

    def check(self, game: int) -> None:
        """Called inside each game every few steps: hold it to its time budget, keep the lease
        alive, and stop at once when the simulation was cancelled."""
        now = time.perf_counter()
        if game != self.game:
            self.game, self.game_began = game, now
        elif now - self.game_began > self.settings.game_seconds:
            raise GameOverran(f"game {game} took longer than {self.settings.game_seconds} s; with these options "
                              "a game does not end (or not in reasonable time)")
        if now - self.last_beat > self.settings.lease_seconds / 4:
            if not self.still_wanted():
                raise Cancelled(self.sim_id)
            self.redis.set(self.lease, os.getpid(), ex=self.settings.lease_seconds)
            self.last_beat = now

    def record(self, spec: dict, tally: Tally) -> None:
        chunks_done = self.redis.eval(
            _RECORD_CHUNK, 2, tallies_key(self.sim_id), meta_key(self.sim_id),
            self.index, json.dumps(tally.to_dict()), tally.games,
        )
        self.redis.expire(tallies_key(self.sim_id), self.settings.ttl)
        if chunks_done == spec["chunks"]:
            finalize(self.redis, self.sim_id, self.settings)


def finalize(redis: Redis, sim_id: str, settings: Settings | None = None) -> None:
    """Merge the chunks' tallies into the result once all are in. Safe to run again."""
    settings = settings or Settings.from_env()
    key = meta_key(sim_id)
    raw_spec, status = redis.hmget(key, ["spec", "status"])
    if raw_spec is None or _text(status) not in ACTIVE:
        return
    spec = json.loads(raw_spec)
    tallies = redis.hgetall(tallies_key(sim_id))
    if len(tallies) < spec["chunks"]:
        return
    redis.hsetnx(key, "finished_at", time.time())
    created_at, started_at, finished_at = redis.hmget(key, ["created_at", "started_at", "finished_at"])
    wall_seconds = float(finished_at) - float(started_at or created_at)
    total = Tally(spec["players"], spec["bots"])
    for index in sorted(tallies, key=int):
        total.merge(Tally.from_dict(json.loads(tallies[index])))
    result = summarize(spec["ruleset"], spec["seed"], total, wall_seconds=wall_seconds)
    finished = _transition(redis, sim_id, ACTIVE, status="finished", result=json.dumps(result),
                           cpu_seconds=total.seconds)
    with redis.pipeline() as pipeline:
        for name in (key, tallies_key(sim_id), jobs_key(sim_id)):
            pipeline.expire(name, settings.ttl)
        pipeline.zrem(ACTIVE_KEY, sim_id)
        pipeline.execute()
    if finished:
        notify.simulation_finished(owner(redis, sim_id), sim_id, "finished")


def _chunk_is_lost(job_state: bytes | None, started_at: bytes | None, leased: bool, lease_seconds: int) -> bool:
    """Whether a chunk job that is not marked ``queued`` (see ``_taken_but_never_started``) was left
    by a dead worker."""
    if job_state in WAITING_JOB_STATES:
        return False
    if job_state == b"started":
        if leased or not started_at:
            return False
        # Between RQ marking the job started and the chunk taking its lease.
        return (datetime.now(UTC) - utcparse(started_at.decode()).replace(tzinfo=UTC)).total_seconds() > lease_seconds
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


def _taken_but_never_started(redis: Redis, sim_id: str, queued: dict[int, str], lease_seconds: int) -> list[int]:
    """The chunks among ``queued`` (index -> job id, jobs marked ``queued``) that a worker took
    from the queue and has not started for ``lease_seconds``: lost.

    A worker listening on several queues (the default) takes a job with LPOP, so a worker
    that dies (or loses Redis) between taking a chunk and RQ marking it started leaves it
    marked ``queued`` in no list at all: nothing in RQ ever fails or re-queues it. (A
    one-queue worker moves it to RQ's intermediate list instead, which RQ cleans up a
    minute later; absent from the queue, such a chunk is lost here too.) A live worker
    starts a job it took within milliseconds; the first sighting of a chunk out of the
    queue sets ``taken_key`` and only a sighting ``lease_seconds`` later (Redis's clock:
    the key's remaining time) takes it for lost, so a slow start costs at most a second
    run of the chunk, which counts once.
    """
    if not queued:
        return []
    absent = {_text(job_id) for job_id in redis.eval(_NOT_IN_LIST, 1, Queue(QUEUE, connection=redis).key,
                                                       *queued.values())}
    grace_ms = lease_seconds * 1000
    kept_ms = max(1000, 3 * grace_ms)  # a later sighting within this time sees the first one
    taken = [(index, job_id) for index, job_id in queued.items() if job_id in absent]
    with redis.pipeline(transaction=False) as pipeline:
        for _, job_id in taken:
            pipeline.set(taken_key(sim_id, job_id), 1, nx=True, px=kept_ms)
            pipeline.pttl(taken_key(sim_id, job_id))
        answers = pipeline.execute()
    return [index for position, (index, _) in enumerate(taken)
            if not answers[2 * position] and 0 <= answers[2 * position + 1] <= kept_ms - grace_ms]


def reap(redis: Redis, sim_id: str, settings: Settings | None = None) -> int:
    """Re-enqueue the chunks of an active simulation that no live worker holds; how many."""
    settings = settings or Settings.from_env()
    raw_spec, status = redis.hmget(meta_key(sim_id), ["spec", "status"])
    if raw_spec is None or _text(status) not in ACTIVE:
        redis.zrem(ACTIVE_KEY, sim_id)
        return 0
    spec = json.loads(raw_spec)
    done = {int(i) for i in redis.hkeys(tallies_key(sim_id))}
    missing = [i for i in range(spec["chunks"]) if i not in done]
    if not missing:
        finalize(redis, sim_id, settings)
        return 0
    job_ids = [_text(job_id) or "none" for job_id in redis.hmget(jobs_key(sim_id), [str(i) for i in missing])]
    with redis.pipeline(transaction=False) as pipeline:
        for index, job_id in zip(missing, job_ids, strict=True):
            pipeline.hmget(Job.key_for(job_id), ["status", "started_at"])
            pipeline.exists(lease_key(sim_id, index))
            pipeline.hexists(tallies_key(sim_id), index)
        answers = pipeline.execute()
    lost = []
    queued = {}
    for position, (index, job_id) in enumerate(zip(missing, job_ids, strict=True)):
        (job_state, started_at), leased, recorded_since = answers[3 * position: 3 * position + 3]
        if recorded_since:
            continue
        if job_state == b"queued":
            queued[index] = job_id
        elif _chunk_is_lost(job_state, started_at, bool(leased), settings.lease_seconds):
            lost.append(index)
    lost += _taken_but_never_started(redis, sim_id, queued, settings.lease_seconds)
    if lost:
        with redis.pipeline() as pipeline:
            _enqueue_chunks(redis, sim_id, sorted(lost), settings, pipeline)
            pipeline.execute()
    return len(lost)


REAP_LOCK_KEY = "sims:reaping"


def reap_all(redis: Redis, settings: Settings | None = None, min_interval: float = 2.0) -> int:
    """``reap`` every active simulation; one caller at a time, at most every ``min_interval`` s."""
    if not redis.set(REAP_LOCK_KEY, os.getpid(), nx=True, px=int(min_interval * 1000)):
        return 0
    settings = settings or Settings.from_env()
    return sum(reap(redis, _text(sim_id), settings) for sim_id in redis.zrange(ACTIVE_KEY, 0, -1))


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


def _unqueue_chunks(redis: Redis, sim_id: str, settings: Settings) -> int:
    """Take all of an ended simulation's waiting chunks out of the queue; how many were waiting."""
    queue = Queue(QUEUE, connection=redis)
    removed = redis.eval(_UNQUEUE, 1, queue.key, f"sim-{sim_id}-")
    with redis.pipeline() as pipeline:
        for job_id in redis.hvals(jobs_key(sim_id)):
            # Not deleted: a worker may be running it right now.
            pipeline.expire(Job.key_for(_text(job_id)), settings.ttl)
        pipeline.zrem(ACTIVE_KEY, sim_id)
        pipeline.execute()
    return removed


def cancel(redis: Redis, sim_id: str, settings: Settings | None = None) -> dict:
    """Stop a queued or running simulation; its queued chunks leave the queue. Returns its status."""
    settings = settings or Settings.from_env()
    if not redis.exists(meta_key(sim_id)):
        raise SimulationNotFound(sim_id)
    if _transition(redis, sim_id, ACTIVE, status="cancelled", finished_at=time.time()):
        _unqueue_chunks(redis, sim_id, settings)
        notify.simulation_finished(owner(redis, sim_id), sim_id, "cancelled")
    return status(redis, sim_id)


def status(redis: Redis, sim_id: str) -> dict:
    """Status, progress, elapsed time and (when finished) the statistics of a simulation."""
    meta = {k.decode(): v.decode() for k, v in redis.hgetall(meta_key(sim_id)).items()}
    if not meta:
        raise SimulationNotFound(sim_id)
    spec = json.loads(meta["spec"])
    if meta["status"] in ACTIVE:
        if int(meta["chunks_done"]) >= spec["chunks"]:
            finalize(redis, sim_id)
        elif redis.set(f"{meta_key(sim_id)}:reaped", 1, nx=True, ex=2):
            reap(redis, sim_id)
        meta = {k.decode(): v.decode() for k, v in redis.hgetall(meta_key(sim_id)).items()}
    created_at = float(meta["created_at"])
    started_at = float(meta["started_at"]) if "started_at" in meta else None
    finished_at = float(meta["finished_at"]) if "finished_at" in meta else None
    return {
        "id": sim_id,
        "status": meta["status"],
        "ruleset": spec["ruleset"],
        "players": spec["players"],
        "bots": spec["bots"],
        "options": spec["options"],
        "games": spec["games"],
        "seed": spec["seed"],
        "chunk_size": spec["chunk_size"],
        "chunks": spec["chunks"],
        "progress": {
            "games_done": int(meta["games_done"]),
            "games": spec["games"],
            "chunks_done": int(meta["chunks_done"]),
            "chunks": spec["chunks"],
        },
        "created_at": _iso(created_at),
        "started_at": _iso(started_at),
        "finished_at": _iso(finished_at),
        "elapsed": round((finished_at or time.time()) - created_at, 3),
        "cpu_seconds": round(float(meta["cpu_seconds"]), 3) if "cpu_seconds" in meta else None,
        "result": json.loads(meta["result"]) if "result" in meta else None,
        "error": meta.get("error"),
    }


def _iso(timestamp: float | None) -> str | None:
    if timestamp is None:
        return None
    return datetime.fromtimestamp(timestamp, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
