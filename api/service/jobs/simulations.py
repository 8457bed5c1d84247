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
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from redis import Redis, RedisError
from rq import Queue, get_current_job

from api.apps import notify
from api.ground import config, metrics
from api.service.jobs.chunks import OwnerKeys, iso_time, lost_chunks, record_once, set_if_status, text, unqueue_chunks
from api.simulations.spec import chunk_bounds, normalize_spec
from engine.core.registry import get_ruleset
from engine.experiments.drama import drama_measures, merged_drama, play_drama_chunk
from engine.simulate import Tally, play_chunk, summarize

QUEUE = "simulations"
ACTIVE_KEY = "sims:active"
ACTIVE = ("queued", "running")
TERMINAL = ("finished", "failed", "cancelled")


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
    def from_config(cls, values: Mapping) -> Settings:
        """The simulation part of the service settings (api/ground/config.py, ``SIMULATION_*``)."""
        return cls(
            ttl=int(values["SIMULATION_TTL"]),
            lease_seconds=int(values["SIMULATION_LEASE"]),
            job_timeout=int(values["SIMULATION_JOB_TIMEOUT"]),
            game_seconds=int(values["SIMULATION_GAME_SECONDS"]),
        )

    @classmethod
    def current(cls) -> Settings:
        """This process's (``api.ground.config.current()``: a worker's own, set once at its start)."""
        return cls.from_config(config.current())


class SimulationNotFound(KeyError):
    pass


class Cancelled(Exception):
    """The simulation of a running chunk ended meanwhile (cancelled, or failed elsewhere)."""


class GameOverran(Exception):
    """A game of a chunk took longer than ``Settings.game_seconds``."""


KEYS = OwnerKeys("sim")
meta_key, tallies_key, jobs_key, lease_key, taken_key = KEYS.meta, KEYS.tallies, KEYS.jobs, KEYS.lease, KEYS.taken
chunk_keys = KEYS.chunk_keys


def owner(redis: Redis, sim_id: str) -> str | None:
    """The id of the app that asked for the simulation; ``SimulationNotFound`` if there is none."""
    found, app = redis.hmget(meta_key(sim_id), ["status", "app"])
    if found is None:
        raise SimulationNotFound(sim_id)
    return text(app)


def _transition(redis: Redis, sim_id: str, allowed: tuple[str, ...], **fields) -> bool:
    return set_if_status(redis, meta_key(sim_id), allowed, **fields)


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
           admit: Callable[[dict, str], None] | None = None) -> str:
    """Check the request, queue its chunks, and return the simulation id.

    ``InvalidOptions`` (with per-field messages) when the request is not acceptable;
    ``admit(spec, simulation id)`` may refuse it too (quotas), by raising. ``owner`` is the app that asked.
    """
    settings = settings or Settings.current()
    spec = normalize_spec(body)
    sim_id = secrets.token_hex(12)
    if admit is not None:
        admit(spec, sim_id)
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
    return ChunkRun(job.connection, sim_id, index, Settings.current()).run()


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
        status = text(self.redis.hget(meta_key(self.sim_id), "status"))
        return status in ACTIVE

    def run(self) -> int:
        raw_spec, status = self.redis.hmget(meta_key(self.sim_id), ["spec", "status"])
        if raw_spec is None or text(status) not in ACTIVE or self.redis.hexists(tallies_key(self.sim_id), self.index):
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
        # With drama, a Tally whose to_dict carries the chunk's DramaTally (engine.experiments.drama).
        play = play_drama_chunk if spec.get("drama") else play_chunk
        try:
            return play(spec["ruleset"], spec["players"], spec["bots"], spec["options"], spec["seed"],
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
        chunks_done = record_once(self.redis, chunk_keys(self.sim_id), meta_key(self.sim_id), self.index,
                                  json.dumps(tally.to_dict()), tally.games)
        self.redis.expire(tallies_key(self.sim_id), self.settings.ttl)
        if chunks_done == spec["chunks"]:
            finalize(self.redis, self.sim_id, self.settings)


def finalize(redis: Redis, sim_id: str, settings: Settings | None = None) -> None:
    """Merge the chunks' tallies into the result once all are in. Safe to run again."""
    settings = settings or Settings.current()
    key = meta_key(sim_id)
    raw_spec, status = redis.hmget(key, ["spec", "status"])
    if raw_spec is None or text(status) not in ACTIVE:
        return
    spec = json.loads(raw_spec)
    tallies = redis.hgetall(tallies_key(sim_id))
    if len(tallies) < spec["chunks"]:
        return
    redis.hsetnx(key, "finished_at", time.time())
    created_at, started_at, finished_at = redis.hmget(key, ["created_at", "started_at", "finished_at"])
    wall_seconds = float(finished_at) - float(started_at or created_at)
    total = Tally(spec["players"], spec["bots"])
    chunks = [json.loads(tallies[index]) for index in sorted(tallies, key=int)]
    for chunk in chunks:
        total.merge(Tally.from_dict(chunk))
    result = summarize(spec["ruleset"], spec["seed"], total, wall_seconds=wall_seconds)
    drama = merged_drama(chunks) if spec.get("drama") else None
    if drama is not None:
        result["drama"] = drama_measures(get_ruleset(spec["ruleset"]), drama, spec["players"])
    finished = _transition(redis, sim_id, ACTIVE, status="finished", result=json.dumps(result),
                           cpu_seconds=total.seconds)
    with redis.pipeline() as pipeline:
        for name in (key, tallies_key(sim_id), jobs_key(sim_id)):
            pipeline.expire(name, settings.ttl)
        pipeline.zrem(ACTIVE_KEY, sim_id)
        pipeline.execute()
    if finished:
        notify.simulation_finished(owner(redis, sim_id), sim_id, "finished")


def reap(redis: Redis, sim_id: str, settings: Settings | None = None) -> int:
    """Re-enqueue the chunks of an active simulation that no live worker holds; how many."""
    settings = settings or Settings.current()
    raw_spec, status = redis.hmget(meta_key(sim_id), ["spec", "status"])
    if raw_spec is None or text(status) not in ACTIVE:
        redis.zrem(ACTIVE_KEY, sim_id)
        return 0
    spec = json.loads(raw_spec)
    done = {int(i) for i in redis.hkeys(tallies_key(sim_id))}
    missing = [i for i in range(spec["chunks"]) if i not in done]
    if not missing:
        finalize(redis, sim_id, settings)
        return 0
    lost = lost_chunks(redis, chunk_keys(sim_id), missing, Queue(QUEUE, connection=redis).key, settings.lease_seconds)
    if lost:
        with redis.pipeline() as pipeline:
            _enqueue_chunks(redis, sim_id, lost, settings, pipeline)
            pipeline.execute()
    return len(lost)


REAP_LOCK_KEY = "sims:reaping"


def reap_all(redis: Redis, settings: Settings | None = None, min_interval: float = 2.0) -> int:
    """``reap`` every active simulation; one caller at a time, at most every ``min_interval`` s."""
    if not redis.set(REAP_LOCK_KEY, os.getpid(), nx=True, px=int(min_interval * 1000)):
        return 0
    settings = settings or Settings.current()
    return sum(reap(redis, text(sim_id), settings) for sim_id in redis.zrange(ACTIVE_KEY, 0, -1))


def _unqueue_chunks(redis: Redis, sim_id: str, settings: Settings) -> int:
    """Take all of an ended simulation's waiting chunks out of the queue; how many were waiting."""
    return unqueue_chunks(redis, Queue(QUEUE, connection=redis).key, f"sim-{sim_id}-", chunk_keys(sim_id), ACTIVE_KEY,
                          sim_id, settings.ttl)


def cancel(redis: Redis, sim_id: str, settings: Settings | None = None) -> dict:
    """Stop a queued or running simulation; its queued chunks leave the queue. Returns its status."""
    settings = settings or Settings.current()
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
        "drama": spec.get("drama", False),  # absent from the specs of simulations queued before drama
        "progress": {
            "games_done": int(meta["games_done"]),
            "games": spec["games"],
            "chunks_done": int(meta["chunks_done"]),
            "chunks": spec["chunks"],
        },
        "created_at": iso_time(created_at),
        "started_at": iso_time(started_at),
        "finished_at": iso_time(finished_at),
        "elapsed": round((finished_at or time.time()) - created_at, 3),
        "cpu_seconds": round(float(meta["cpu_seconds"]), 3) if "cpu_seconds" in meta else None,
        "result": json.loads(meta["result"]) if "result" in meta else None,
        "error": meta.get("error"),
    }

