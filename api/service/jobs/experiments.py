"""Experiments as chunk jobs on the simulation workers (queue ``simulations``); no Flask here.

A chunk plays games ``i .. i + chunk_size - 1`` of every variant still playing, so each game of a
variant sits beside the base's game of the same seed and the paired sums of
``engine.experiments.measures`` stay exact. A fixed-size experiment is one round of chunks; a
precision experiment plays rounds: when a round's last chunk is recorded, the worker that recorded
it (or ``status``) decides which variants have their answer and queues the next round for the others.

Redis keys, under the hash tag ``{<id>}``:

- ``exp:{id}``           hash: spec, status, timestamps, app, games_done, chunks_done,
                         chunks_queued, round, stopped (variant -> why), result, error
- ``exp:{id}:tallies``   hash: chunk index -> {variant: VariantTally}, written once (HSETNX)
- ``exp:{id}:plan``      hash: chunk index -> the variants it plays
- ``exp:{id}:jobs``      hash: chunk index -> the RQ job now responsible for it
- ``exp:{id}:lease:{i}`` a chunk in progress, refreshed by its worker
- ``exp:{id}:taken:{job}`` the reaper first saw this chunk job marked queued but in no queue
- ``exp:{id}:workers``   hash: chunk index -> the worker process that recorded it (host:pid),
                         so the results show how a study spread over the workers
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import time
from collections import Counter
from collections.abc import Callable

from redis import Redis, WatchError
from rq import Queue, get_current_job

from api.apps import notify
from api.experiments.spec import chunk_bounds, normalize_spec
from api.ground import metrics
from api.service.jobs.chunks import OwnerKeys, iso_time, lost_chunks, record_once, set_if_status, text, unqueue_chunks
from api.service.jobs.simulations import ACTIVE, QUEUE, Cancelled, ChunkRun, Settings
from engine.core.registry import get_ruleset
from engine.experiments.design import Variant
from engine.experiments.measures import VariantTally, play_experiment_chunk
from engine.experiments.report import adjust, differences, next_round_games, precision_state, sentence, stop_reason
from engine.experiments.report import variant_measures as measure_variant

ACTIVE_KEY = "exps:active"


class ExperimentNotFound(KeyError):
    pass


KEYS = OwnerKeys("exp")
meta_key, tallies_key, jobs_key, lease_key, taken_key = KEYS.meta, KEYS.tallies, KEYS.jobs, KEYS.lease, KEYS.taken
chunk_keys = KEYS.chunk_keys


def plan_key(exp_id: str) -> str:
    return KEYS.part(exp_id, "plan")


def workers_key(exp_id: str) -> str:
    return KEYS.part(exp_id, "workers")


def job_prefix(exp_id: str) -> str:
    return f"exp-{exp_id}-"



def _meta(redis: Redis, exp_id: str) -> dict:
    meta = {k.decode(): v.decode() for k, v in redis.hgetall(meta_key(exp_id)).items()}
    if not meta:
        raise ExperimentNotFound(exp_id)
    return meta


def owner(redis: Redis, exp_id: str) -> str | None:
    found, app = redis.hmget(meta_key(exp_id), ["status", "app"])
    if found is None:
        raise ExperimentNotFound(exp_id)
    return text(app)


def _transition(redis: Redis, exp_id: str, allowed: tuple[str, ...], **fields) -> bool:
    return set_if_status(redis, meta_key(exp_id), allowed, **fields)


def _queue_chunks(redis: Redis, exp_id: str, indexes: list[int], playing: list[int], settings: Settings,
                  pipeline) -> None:
    """Queue chunk jobs (in ``pipeline``) and record what each plays."""
    queue = Queue(QUEUE, connection=redis)
    prepared = []
    for index in indexes:
        job_id = f"{job_prefix(exp_id)}{index}-{secrets.token_hex(3)}"
        prepared.append((index, job_id, Queue.prepare_data(
            run_chunk, args=(exp_id, index), job_id=job_id, timeout=settings.job_timeout, result_ttl=0,
            failure_ttl=settings.ttl, description=f"experiment {exp_id} chunk {index}")))
    pipeline.hset(jobs_key(exp_id), mapping={str(index): job_id for index, job_id, _ in prepared})
    pipeline.hset(plan_key(exp_id), mapping={str(index): json.dumps(playing) for index, _, _ in prepared})
    queue.enqueue_many([data for _, _, data in prepared], pipeline=pipeline)


def submit(redis: Redis, body: dict, settings: Settings | None = None, *, owner: str | None = None,
           admit: Callable[[dict, str], None] | None = None) -> str:
    """Check the request, queue its first round, and return the experiment id. ``admit(spec, experiment
    id)`` may refuse it (quotas, experiments in flight) by raising; it sees the whole budget."""
    settings = settings or Settings.current()
    spec = normalize_spec(body)
    exp_id = secrets.token_hex(12)
    if admit is not None:
        admit(spec, exp_id)
    now = time.time()
    first = spec["games"] or next_round_games(0, spec["stop"], spec["chunk_size"])
    indexes = list(range(-(-first // spec["chunk_size"])))
    with redis.pipeline() as pipeline:
        pipeline.hset(meta_key(exp_id), mapping={
            "spec": json.dumps(spec), "status": "queued", "created_at": now, "games_done": 0, "chunks_done": 0,
            "chunks_queued": len(indexes), "round": 0, "round_games": first, "stopped": "{}", "ttl": settings.ttl,
            **({"app": owner} if owner else {}),
        })
        _queue_chunks(redis, exp_id, indexes, list(range(len(spec["variants"]))), settings, pipeline)
        for key in (meta_key(exp_id), jobs_key(exp_id), plan_key(exp_id)):
            pipeline.expire(key, settings.ttl)
        pipeline.zadd(ACTIVE_KEY, {exp_id: now})
        pipeline.execute()
    return exp_id


def run_chunk(exp_id: str, index: int) -> int:
    """The RQ job: play one chunk of every variant it names and record it once."""
    job = get_current_job()
    return ExperimentChunkRun(job.connection, exp_id, index, Settings.current()).run()


class ExperimentChunkRun(ChunkRun):
    """A simulation chunk's lease, time budget and cancellation (``ChunkRun.check``) over an
    experiment's keys."""

    def __init__(self, redis: Redis, exp_id: str, index: int, settings: Settings) -> None:
        super().__init__(redis, exp_id, index, settings)
        self.lease = lease_key(exp_id, index)

    def still_wanted(self) -> bool:
        return text(self.redis.hget(meta_key(self.sim_id), "status")) in ACTIVE

    def run(self) -> int:
        exp_id = self.sim_id
        raw_spec, status = self.redis.hmget(meta_key(exp_id), ["spec", "status"])
        raw_plan = self.redis.hget(plan_key(exp_id), self.index)
        if (raw_spec is None or raw_plan is None or text(status) not in ACTIVE
                or self.redis.hexists(tallies_key(exp_id), self.index)):
            return 0
        spec, playing = json.loads(raw_spec), json.loads(raw_plan)
        self.redis.set(self.lease, 1, ex=self.settings.lease_seconds)
        _transition(self.redis, exp_id, ("queued",), status="running", started_at=time.time())
        try:
            first, count = chunk_bounds(spec, self.index)
            variants = [Variant.from_dict(v) for v in spec["variants"]]
            self.last_beat = time.perf_counter()
            try:
                tallies = play_experiment_chunk(spec["ruleset"], spec["players"], variants, playing, spec["seed"],
                                                first, count, check=self.check, drama=spec.get("drama", False))
            except Cancelled:
                return 0
            games = sum(t.tally.games for t in tallies.values())
            done = record_once(self.redis, chunk_keys(exp_id), meta_key(exp_id), self.index,
                               json.dumps({str(v): t.to_dict() for v, t in tallies.items()}), games)
            if done != -1:
                with self.redis.pipeline() as pipeline:
                    pipeline.hset(workers_key(exp_id), self.index, f"{socket.gethostname()}:{os.getpid()}")
                    for key in (tallies_key(exp_id), workers_key(exp_id)):
                        pipeline.expire(key, self.settings.ttl)
                    pipeline.execute()
            metrics.SIMULATION_GAMES.inc(games)
            if done != -1:
                advance(self.redis, exp_id, self.settings)
            return games
        except Exception as error:
            if _transition(self.redis, exp_id, ACTIVE, status="failed", finished_at=time.time(),
                           error=f"chunk {self.index}: {type(error).__name__}: {error}"):
                _unqueue(self.redis, exp_id, self.settings)
            raise
        finally:
            self.redis.delete(self.lease)


def merged_tallies(redis: Redis, exp_id: str, spec: dict) -> tuple[list[VariantTally], dict[int, int]]:
    """Every variant's tally over the chunks recorded so far, and its games per chunk."""
    merged = [VariantTally.empty(spec["players"], v["bots"]) for v in spec["variants"]]
    games_by_chunk: dict[int, int] = {}
    for index, raw in redis.hgetall(tallies_key(exp_id)).items():
        chunk = json.loads(raw)
        games_by_chunk[int(index)] = sum(t["tally"]["games"] for t in chunk.values())
        for v, data in chunk.items():
            merged[int(v)].merge(VariantTally.from_dict(data))
    return merged, games_by_chunk


def _decide(spec: dict, tallies: list[VariantTally], stopped: dict) -> dict:
    """Stop reasons of the variants after a round (``stopped`` is updated and returned)."""
    stop = spec["stop"]
    count = len(spec["variants"])
    for v in range(1, count):
        if str(v) not in stopped:
            reason = stop_reason(precision_state(tallies[v], stop, count - 1), stop, is_base=False)
            if reason:
                stopped[str(v)] = reason
    others_done = all(str(v) in stopped for v in range(1, count))
    if others_done and "0" not in stopped:
        reason = stop_reason(precision_state(tallies[0], stop, count - 1), stop, is_base=True)
        if reason:
            stopped["0"] = reason
    return stopped


def advance(redis: Redis, exp_id: str, settings: Settings | None = None) -> None:
    """When every queued chunk is recorded: finish, or queue the next round of a precision
    experiment for the variants still without an answer. Safe to call again and concurrently."""
    settings = settings or Settings.current()
    key = meta_key(exp_id)
    with redis.pipeline() as pipeline:
        try:
            pipeline.watch(key)
            raw_spec, status, done, queued, round_, raw_stopped = pipeline.hmget(
                key, ["spec", "status", "chunks_done", "chunks_queued", "round", "stopped"])
            if raw_spec is None or text(status) not in ACTIVE or int(done) < int(queued):
                return
            spec, stopped = json.loads(raw_spec), json.loads(raw_stopped)
            tallies, _ = merged_tallies(redis, exp_id, spec)
            games_done = tallies[0].tally.games
            if spec["stop"] is None:
                stopped = {str(v): "games" for v in range(len(spec["variants"]))}
            else:
                stopped = _decide(spec, tallies, stopped)
            playing = [v for v in range(len(spec["variants"])) if str(v) not in stopped]
            if playing and 0 not in playing:
                playing = [0, *playing]  # every game needs its pair
            more = next_round_games(games_done, spec["stop"], spec["chunk_size"]) if playing and spec["stop"] else 0
            pipeline.multi()
            if more == 0:
                for v in playing:
                    stopped.setdefault(str(v), "budget")
                pipeline.hset(key, mapping={"stopped": json.dumps(stopped), "round": int(round_) + 1})
                pipeline.execute()
                finalize(redis, exp_id, settings)
                return
            first_chunk = int(queued)
            indexes = list(range(first_chunk, first_chunk + -(-more // spec["chunk_size"])))
            pipeline.hset(key, mapping={"stopped": json.dumps(stopped), "round": int(round_) + 1,
                                        "chunks_queued": first_chunk + len(indexes), "round_games": more})
            _queue_chunks(redis, exp_id, indexes, playing, settings, pipeline)
            for name in (key, jobs_key(exp_id), plan_key(exp_id)):
                pipeline.expire(name, settings.ttl)
            pipeline.execute()
        except WatchError:
            return  # another worker advanced it


def results(redis: Redis, exp_id: str, spec: dict, stopped: dict) -> dict:
    """The measures so far of every variant, their differences from the base, and the sentence."""
    tallies, _ = merged_tallies(redis, exp_id, spec)
    reports = []
    for v, variant in enumerate(spec["variants"]):
        report = measure_variant(spec["ruleset"], spec["seed"], Variant.from_dict(variant), tallies[v])
        report["stopped"] = stopped.get(str(v))
        report["difference"] = differences(tallies[v]) if v else None
        if spec["stop"] is not None:
            report["precision"] = precision_state(tallies[v], spec["stop"], len(spec["variants"]) - 1)
        reports.append(report)
    adjust(reports)
    rules_version = tallies[0].tally.rules_version or get_ruleset(spec["ruleset"]).rules_version
    return {"variants": reports, "summary": sentence(reports), "multiple_comparisons": "holm",
            "rules_version": rules_version}


def finalize(redis: Redis, exp_id: str, settings: Settings | None = None) -> None:
    settings = settings or Settings.current()
    key = meta_key(exp_id)
    raw_spec, status, raw_stopped = redis.hmget(key, ["spec", "status", "stopped"])
    if raw_spec is None or text(status) not in ACTIVE:
        return
    spec = json.loads(raw_spec)
    result = results(redis, exp_id, spec, json.loads(raw_stopped))
    cpu = sum(v["cpu_seconds"] for v in result["variants"])
    finished = _transition(redis, exp_id, ACTIVE, status="finished", finished_at=time.time(),
                           result=json.dumps(result), cpu_seconds=cpu)
    with redis.pipeline() as pipeline:
        for name in (key, tallies_key(exp_id), jobs_key(exp_id), plan_key(exp_id), workers_key(exp_id)):
            pipeline.expire(name, settings.ttl)
        pipeline.zrem(ACTIVE_KEY, exp_id)
        pipeline.execute()
    if finished:
        notify.experiment_finished(owner(redis, exp_id), exp_id, "finished")


def reap(redis: Redis, exp_id: str, settings: Settings | None = None) -> int:
    """Queue again the chunks that no live worker holds (a killed worker's); how many."""
    settings = settings or Settings.current()
    raw_spec, status, queued = redis.hmget(meta_key(exp_id), ["spec", "status", "chunks_queued"])
    if raw_spec is None or text(status) not in ACTIVE:
        redis.zrem(ACTIVE_KEY, exp_id)
        return 0
    done = {int(i) for i in redis.hkeys(tallies_key(exp_id))}
    missing = [i for i in range(int(queued)) if i not in done]
    if not missing:
        advance(redis, exp_id, settings)
        return 0
    queue_key = Queue(QUEUE, connection=redis).key
    lost = lost_chunks(redis, chunk_keys(exp_id), missing, queue_key, settings.lease_seconds)
    if not lost:
        return 0
    by_plan: dict[str, list[int]] = {}  # a chunk is queued again playing the variants it played
    for index, plan in zip(lost, redis.hmget(plan_key(exp_id), [str(i) for i in lost]), strict=True):
        by_plan.setdefault(text(plan), []).append(index)
    for plan, indexes in by_plan.items():
        with redis.pipeline() as pipeline:
            _queue_chunks(redis, exp_id, indexes, json.loads(plan), settings, pipeline)
            pipeline.execute()
    return len(lost)


REAP_LOCK_KEY = "exps:reaping"


def reap_all(redis: Redis, settings: Settings | None = None, min_interval: float = 2.0) -> int:
    """``reap`` every active experiment; one caller at a time, at most every ``min_interval`` s."""
    if not redis.set(REAP_LOCK_KEY, os.getpid(), nx=True, px=int(min_interval * 1000)):
        return 0
    return sum(reap(redis, text(exp_id), settings) for exp_id in redis.zrange(ACTIVE_KEY, 0, -1))


def _unqueue(redis: Redis, exp_id: str, settings: Settings) -> int:
    return unqueue_chunks(redis, Queue(QUEUE, connection=redis).key, job_prefix(exp_id), chunk_keys(exp_id),
                          ACTIVE_KEY, exp_id, settings.ttl)


def cancel(redis: Redis, exp_id: str, settings: Settings | None = None) -> dict:
    """Stop every chunk of a queued or running experiment: queued ones leave the queue, running ones
    stop within seconds (their lease check). Returns its status."""
    settings = settings or Settings.current()
    if not redis.exists(meta_key(exp_id)):
        raise ExperimentNotFound(exp_id)
    if _transition(redis, exp_id, ACTIVE, status="cancelled", finished_at=time.time()):
        _unqueue(redis, exp_id, settings)
        notify.experiment_finished(owner(redis, exp_id), exp_id, "cancelled")
    return status(redis, exp_id)


def _results_so_far(redis: Redis, exp_id: str, spec: dict, meta: dict, stopped: dict) -> dict:
    """``results`` of a running experiment, merged again only when a chunk or a round has been
    recorded since the last read (merging costs one parse per chunk and variant)."""
    mark = f"{meta['chunks_done']}/{meta['round']}"
    if meta.get("partial_at") == mark:
        return json.loads(meta["partial"])
    result = results(redis, exp_id, spec, stopped)
    with redis.pipeline() as pipeline:  # the TTL again, should the hash have expired meanwhile
        pipeline.hset(meta_key(exp_id), mapping={"partial": json.dumps(result), "partial_at": mark})
        pipeline.expire(meta_key(exp_id), int(meta["ttl"]))
        pipeline.execute()
    return result


def status(redis: Redis, exp_id: str) -> dict:
    """Status, progress per variant, and the results so far (final once finished)."""
    meta = _meta(redis, exp_id)
    if meta["status"] in ACTIVE and redis.set(f"{meta_key(exp_id)}:reaped", 1, nx=True, ex=2):
        reap(redis, exp_id)
        meta = _meta(redis, exp_id)
    spec = json.loads(meta["spec"])
    stopped = json.loads(meta["stopped"])
    result = json.loads(meta["result"]) if "result" in meta else _results_so_far(redis, exp_id, spec, meta, stopped)
    created_at = float(meta["created_at"])
    finished_at = float(meta["finished_at"]) if "finished_at" in meta else None
    return {
        "id": exp_id,
        "status": meta["status"],
        "ruleset": spec["ruleset"],
        "players": spec["players"],
        "bots": spec["bots"],
        "options": spec["options"],
        "sweep": spec["sweep"],
        "games": spec["games"],
        "stop": spec["stop"],
        "seed": spec["seed"],
        "chunk_size": spec["chunk_size"],
        "drama": spec.get("drama", False),  # absent from the specs of experiments queued before drama
        "progress": {
            "round": int(meta["round"]),
            "games_done": int(meta["games_done"]),
            "games_budget": spec["budget"] * len(spec["variants"]),
            "chunks_done": int(meta["chunks_done"]),
            "chunks_queued": int(meta["chunks_queued"]),
            "variants": [{"name": v["name"], "games": r["games"], "stopped": stopped.get(str(i))}
                         for i, (v, r) in enumerate(zip(spec["variants"], result["variants"], strict=True))],
            "workers": dict(Counter(text(w) for w in redis.hvals(workers_key(exp_id)))),
        },
        "created_at": iso_time(created_at),
        "started_at": iso_time(float(meta["started_at"])) if "started_at" in meta else None,
        "finished_at": iso_time(finished_at),
        "elapsed": round((finished_at or time.time()) - created_at, 3),
        "cpu_seconds": round(float(meta["cpu_seconds"]), 3) if "cpu_seconds" in meta else None,
        "result": result,
        "error": meta.get("error"),
    }
