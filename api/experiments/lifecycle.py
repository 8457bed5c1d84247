"""An experiment's life as chunk jobs on the simulation workers (queue ``simulations``): submit, play a
chunk, advance a round, finish, reap, cancel, read. No Flask and no Redis client of its own: the keys
are ``ExperimentStore``'s, what every chunked run does the same way is ``api.runs.lifecycle``'s, and
the RQ function is ``api.service.jobs.experiments.run_chunk``.

A chunk plays games ``i .. i + chunk_size - 1`` of every variant still playing, so each game of a
variant sits beside the base's game of the same seed and the paired sums of
``engine.experiments.measures`` stay exact. A fixed-size experiment is one round of chunks; a
precision experiment plays rounds: when a round's last chunk is recorded, the worker that recorded
it (or ``status``) decides which variants have their answer and queues the next round for the others.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from api.apps import notify
from api.experiments.spec import chunk_bounds, normalize_spec
from api.experiments.store import KIND, ExperimentNotFound, ExperimentStore, Round
from api.ground import metrics
from api.runs import lifecycle as runs
from api.runs.lifecycle import ACTIVE, QUEUE, Settings
from api.runs.store import Connection
from engine.core.registry import get_ruleset
from engine.experiments.design import Variant
from engine.experiments.measures import VariantTally, play_experiment_chunk
from engine.experiments.report import adjust, differences, next_round_games, precision_state, sentence, stop_reason
from engine.experiments.report import variant_measures as measure_variant

__all__ = ["ACTIVE", "KIND", "QUEUE", "ExperimentChunkRun", "ExperimentNotFound", "Settings", "advance", "cancel",
           "finalize", "owner", "reap", "reap_all", "results", "run_chunk", "status", "submit"]

#: The fields of an experiment's spec its status shows, in order.
SPEC_FIELDS = ("ruleset", "players", "bots", "options", "sweep", "games", "stop", "seed", "chunk_size", "drama")


def owner(redis: Connection, exp_id: str) -> str | None:
    return ExperimentStore(redis).owner(exp_id)


def submit(redis: Connection, body: dict, settings: Settings | None = None, *, owner: str | None = None,
           admit: Callable[[dict, str], None] | None = None) -> str:
    """Check the request, queue its first round, and return the experiment id. ``admit(spec, experiment
    id)`` may refuse it (quotas, experiments in flight) by raising; it sees the whole budget."""
    spec, exp_id = runs.admitted(body, normalize_spec, admit)
    settings = settings or Settings.current()
    now = time.time()
    first = spec["games"] or next_round_games(0, spec["stop"], spec["chunk_size"])
    indexes = list(range(-(-first // spec["chunk_size"])))
    fields = runs.new_run_fields(json.dumps(spec), now, settings.ttl, owner, chunks_queued=len(indexes), round=0,
                                 round_games=first, stopped="{}")
    ExperimentStore(redis).create(exp_id, fields, indexes, settings.job_timeout, settings.ttl, now,
                                  playing=list(range(len(spec["variants"]))))
    return exp_id


def run_chunk(redis: Connection, exp_id: str, index: int) -> int:
    """What the RQ job does: play one chunk of every variant it names and record it once."""
    return ExperimentChunkRun(redis, exp_id, index, Settings.current()).run()


class ExperimentChunkRun(runs.ChunkRun):
    """A chunk's lease, time budget and cancellation (``api.runs.lifecycle.ChunkRun``) over an experiment's
    keys; a Redis error fails the experiment as any other error does."""

    store_class = ExperimentStore
    store_errors_retry = False

    def load(self) -> tuple[dict, list[int]] | None:
        fields = self.store.active_fields(self.run_id)
        playing = self.store.plan(self.run_id, self.index)
        if fields is None or playing is None or self.store.has_tally(self.run_id, self.index):
            return None
        return json.loads(fields[0]), playing

    def play_and_record(self, loaded: tuple[dict, list[int]]) -> int:
        spec, playing = loaded
        first, count = chunk_bounds(spec, self.index)
        variants = [Variant.from_dict(v) for v in spec["variants"]]
        self.last_beat = time.perf_counter()
        tallies = play_experiment_chunk(spec["ruleset"], spec["players"], variants, playing, spec["seed"],
                                        first, count, check=self.check, drama=spec.get("drama", False))
        games = sum(t.tally.games for t in tallies.values())
        done = self.store.record(self.run_id, self.index, json.dumps({str(v): t.to_dict() for v, t in tallies.items()}),
                                 games, self.settings.ttl)
        if done != -1:
            self.store.record_by(self.run_id, self.index, runs.worker_name(), self.settings.ttl)
        metrics.SIMULATION_GAMES.inc(games)
        if done != -1:
            advance(self.redis, self.run_id, self.settings)
        return games


def merged_tallies(store: ExperimentStore, exp_id: str, spec: dict) -> tuple[list[VariantTally], dict[int, int]]:
    """Every variant's tally over the chunks recorded so far, and its games per chunk."""
    merged = [VariantTally.empty(spec["players"], v["bots"]) for v in spec["variants"]]
    games_by_chunk: dict[int, int] = {}
    for index, chunk in store.tallies(exp_id).items():
        games_by_chunk[index] = sum(t["tally"]["games"] for t in chunk.values())
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


def _next_round(store: ExperimentStore, exp_id: str, fields: dict) -> Round | None:
    """What ends a round whose chunks are all recorded (``fields``: ``ROUND_FIELDS``); None before."""
    if fields["spec"] is None or fields["status"] not in ACTIVE or int(fields["chunks_done"]) < int(
            fields["chunks_queued"]):
        return None
    spec, stopped = json.loads(fields["spec"]), json.loads(fields["stopped"])
    tallies, _ = merged_tallies(store, exp_id, spec)
    games_done = tallies[0].tally.games
    if spec["stop"] is None:
        stopped = {str(v): "games" for v in range(len(spec["variants"]))}
    else:
        stopped = _decide(spec, tallies, stopped)
    playing = [v for v in range(len(spec["variants"])) if str(v) not in stopped]
    if playing and 0 not in playing:
        playing = [0, *playing]  # every game needs its pair
    more = next_round_games(games_done, spec["stop"], spec["chunk_size"]) if playing and spec["stop"] else 0
    round_ = int(fields["round"]) + 1
    if more == 0:
        for v in playing:
            stopped.setdefault(str(v), "budget")
        return Round({"stopped": json.dumps(stopped), "round": round_}, [], playing)
    first_chunk = int(fields["chunks_queued"])
    indexes = list(range(first_chunk, first_chunk + -(-more // spec["chunk_size"])))
    return Round({"stopped": json.dumps(stopped), "round": round_, "chunks_queued": first_chunk + len(indexes),
                  "round_games": more}, indexes, playing)


def advance(redis: Connection, exp_id: str, settings: Settings | None = None) -> None:
    """When every queued chunk is recorded: finish, or queue the next round of a precision
    experiment for the variants still without an answer. Safe to call again and concurrently."""
    settings = settings or Settings.current()
    store = ExperimentStore(redis)
    if store.end_round(exp_id, lambda fields: _next_round(store, exp_id, fields), settings.job_timeout,
                       settings.ttl):
        finalize(redis, exp_id, settings)


def results(redis: Connection, exp_id: str, spec: dict, stopped: dict) -> dict:
    """The measures so far of every variant, their differences from the base, and the sentence."""
    tallies, _ = merged_tallies(ExperimentStore(redis), exp_id, spec)
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


def finalize(redis: Connection, exp_id: str, settings: Settings | None = None) -> None:
    settings = settings or Settings.current()
    store = ExperimentStore(redis)
    fields = store.active_fields(exp_id, "stopped")
    if fields is None:
        return
    raw_spec, raw_stopped = fields
    result = results(redis, exp_id, json.loads(raw_spec), json.loads(raw_stopped))
    cpu = sum(v["cpu_seconds"] for v in result["variants"])
    runs.finish(store, exp_id, settings, notify.experiment_finished, finished_at=time.time(),
                result=json.dumps(result), cpu_seconds=cpu)


def reap(redis: Connection, exp_id: str, settings: Settings | None = None) -> int:
    """Queue again the chunks that no live worker holds (a killed worker's); how many."""
    settings = settings or Settings.current()
    store = ExperimentStore(redis)
    fields = store.active_fields(exp_id, "chunks_queued")
    if fields is None:
        store.forget_active(exp_id)
        return 0
    lost = runs.lost_chunks(store, exp_id, int(fields[1]), settings)
    if lost is None:
        advance(redis, exp_id, settings)
        return 0
    if not lost:
        return 0
    by_plan: dict[str, list[int]] = {}  # a chunk is queued again playing the variants it played
    for index, plan in zip(lost, store.plans(exp_id, lost), strict=True):
        by_plan.setdefault(plan, []).append(index)
    for plan, indexes in by_plan.items():
        store.requeue(exp_id, indexes, settings.job_timeout, settings.ttl, playing=json.loads(plan))
    return len(lost)


def reap_all(redis: Connection, settings: Settings | None = None, min_interval: float = 2.0) -> int:
    """``reap`` every active experiment; one caller at a time, at most every ``min_interval`` s."""
    return runs.reap_all(ExperimentStore(redis), lambda exp_id: reap(redis, exp_id, settings), min_interval)


def cancel(redis: Connection, exp_id: str, settings: Settings | None = None) -> dict:
    """Stop every chunk of a queued or running experiment: queued ones leave the queue, running ones
    stop within seconds (their lease check). Returns its status."""
    runs.cancel(ExperimentStore(redis), exp_id, settings or Settings.current(), notify.experiment_finished)
    return status(redis, exp_id)


def _results_so_far(redis: Connection, exp_id: str, spec: dict, meta: dict, stopped: dict) -> dict:
    """``results`` of a running experiment, merged again only when a chunk or a round has been
    recorded since the last read (merging costs one parse per chunk and variant)."""
    mark = f"{meta['chunks_done']}/{meta['round']}"
    if meta.get("partial_at") == mark:
        return json.loads(meta["partial"])
    result = results(redis, exp_id, spec, stopped)
    ExperimentStore(redis).keep_partial(exp_id, json.dumps(result), mark, int(meta["ttl"]))
    return result


def status(redis: Connection, exp_id: str) -> dict:
    """Status, progress per variant, and the results so far (final once finished)."""
    store = ExperimentStore(redis)
    meta = store.meta(exp_id)
    if meta["status"] in ACTIVE and store.reap_due(exp_id):
        reap(redis, exp_id)
        meta = store.meta(exp_id)
    spec = json.loads(meta["spec"])
    stopped = json.loads(meta["stopped"])
    result = json.loads(meta["result"]) if "result" in meta else _results_so_far(redis, exp_id, spec, meta, stopped)
    return {
        **runs.head(exp_id, meta, spec, SPEC_FIELDS),
        "progress": {
            "round": int(meta["round"]),
            "games_done": int(meta["games_done"]),
            "games_budget": spec["budget"] * len(spec["variants"]),
            "chunks_done": int(meta["chunks_done"]),
            "chunks_queued": int(meta["chunks_queued"]),
            "variants": [{"name": v["name"], "games": r["games"], "stopped": stopped.get(str(i))}
                         for i, (v, r) in enumerate(zip(spec["variants"], result["variants"], strict=True))],
            "workers": store.workers(exp_id),
        },
        **runs.outcome(meta, result),
    }
