"""An experiment's keys behind the run store: a chunked run's (``exp:{<id>}`` and its parts,
``api.runs.keys``) and its own, under the same hash tag:

- ``exp:{id}:plan``     hash: chunk index -> the variants it plays
- ``exp:{id}:workers``  hash: chunk index -> the worker process that recorded it (host:pid), so the
                        results show how a study spread over the workers

Its status hash adds ``chunks_queued``, ``round``, ``round_games``, ``stopped`` (variant -> why) and the
cached ``partial`` results of a running experiment.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from redis import WatchError

from api.runs.keys import jobs_key, part_key, tallies_key
from api.runs.store import RunNotFound, RunStore, text

KIND = "exp"
#: The RQ function of a chunk, queued by its dotted name (api/service/jobs/experiments.py).
RUN_CHUNK = "api.service.jobs.experiments.run_chunk"
#: The fields ``advance`` reads to decide a round.
ROUND_FIELDS = ("spec", "status", "chunks_done", "chunks_queued", "round", "stopped")


def plan_key(exp_id: str) -> str:
    return part_key(KIND, exp_id, "plan")


def workers_key(exp_id: str) -> str:
    return part_key(KIND, exp_id, "workers")


class ExperimentNotFound(RunNotFound):
    pass


@dataclass(frozen=True, slots=True)
class Round:
    """What ends a round: the fields it sets, and the chunks of the next one (none: the experiment ends)."""

    fields: dict
    indexes: list[int]
    playing: list[int]


class ExperimentStore(RunStore):
    kind = KIND
    noun = "experiment"
    job = RUN_CHUNK
    not_found = ExperimentNotFound

    def kept_keys(self, run_id: str) -> list[str]:
        return [*super().kept_keys(run_id), plan_key(run_id), workers_key(run_id)]

    def queue_chunks(self, pipeline, run_id: str, indexes: list[int], job_timeout: int, ttl: int, *,
                     playing: list[int]) -> None:
        """Queue the chunks and record what each plays (the variants ``playing``)."""
        super().queue_chunks(pipeline, run_id, indexes, job_timeout, ttl)
        pipeline.hset(plan_key(run_id), mapping={str(index): json.dumps(playing) for index in indexes})

    def plan(self, exp_id: str, index: int) -> list[int] | None:
        raw = self.redis.hget(plan_key(exp_id), index)
        return None if raw is None else json.loads(raw)

    def plans(self, exp_id: str, indexes: list[int]) -> list[str | None]:
        """What each chunk plays, as stored (JSON)."""
        return [text(plan) for plan in self.redis.hmget(plan_key(exp_id), [str(i) for i in indexes])]

    def record_by(self, exp_id: str, index: int, worker: str, ttl: int) -> None:
        """The worker process that recorded the chunk."""
        with self.redis.pipeline() as pipeline:
            pipeline.hset(workers_key(exp_id), index, worker)
            for key in (tallies_key(KIND, exp_id), workers_key(exp_id)):
                pipeline.expire(key, ttl)
            pipeline.execute()

    def workers(self, exp_id: str) -> dict[str, int]:
        """How many chunks each worker process recorded."""
        return dict(Counter(text(worker) for worker in self.redis.hvals(workers_key(exp_id))))

    def keep_partial(self, exp_id: str, result_json: str, mark: str, ttl: int) -> None:
        """The results so far of a running experiment, as of ``mark`` (chunks done / round)."""
        with self.redis.pipeline() as pipeline:  # the TTL again, should the hash have expired meanwhile
            pipeline.hset(self.key(exp_id), mapping={"partial": result_json, "partial_at": mark})
            pipeline.expire(self.key(exp_id), ttl)
            pipeline.execute()

    def end_round(self, exp_id: str, decide: Callable[[dict], Round | None], job_timeout: int, ttl: int) -> bool:
        """``decide(fields of ROUND_FIELDS)`` what ends the round, while nothing else changes the status
        hash (WATCH); write it and queue the next round's chunks. Whether the experiment ended here: with
        another worker advancing it at once, or ``decide`` answering None, nothing is written."""
        key = self.key(exp_id)
        with self.redis.pipeline() as pipeline:
            try:
                pipeline.watch(key)
                values = pipeline.hmget(key, list(ROUND_FIELDS))
                decided = decide({name: text(value) for name, value in zip(ROUND_FIELDS, values, strict=True)})
                if decided is None:
                    return False
                pipeline.multi()
                pipeline.hset(key, mapping=decided.fields)
                if decided.indexes:
                    self.queue_chunks(pipeline, exp_id, decided.indexes, job_timeout, ttl, playing=decided.playing)
                    for name in (key, jobs_key(KIND, exp_id), plan_key(exp_id)):
                        pipeline.expire(name, ttl)
                pipeline.execute()
                return not decided.indexes
            except WatchError:
                return False  # another worker advanced it
