"""A simulation's life on the workers (queue ``simulations``): submit, play a chunk, finish, reap, cancel,
read. No Flask and no Redis client of its own: the keys are ``SimulationStore``'s, what every chunked
run does the same way is ``api.runs.lifecycle``'s, and the RQ function is
``api.service.jobs.simulations.run_chunk``.

A simulation is one round of chunks of ``chunk_size`` games; the result merges their tallies once the
last is recorded (by the worker that recorded it, or by a status read).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from api.apps import notify
from api.ground import metrics
from api.runs import lifecycle as runs
from api.runs.lifecycle import ACTIVE, QUEUE, Cancelled, Settings
from api.runs.store import Connection
from api.simulations.spec import chunk_bounds, normalize_spec
from api.simulations.store import KIND, SimulationNotFound, SimulationStore
from engine.core.registry import get_ruleset
from engine.experiments.drama import drama_measures, merged_drama, play_drama_chunk
from engine.simulate import Tally, play_chunk, summarize

__all__ = ["ACTIVE", "KIND", "QUEUE", "ChunkRun", "Settings", "SimulationNotFound", "cancel", "finalize", "owner",
           "reap", "reap_all", "run_chunk", "status", "submit"]

#: The fields of a simulation's spec its status shows, in order.
SPEC_FIELDS = ("ruleset", "players", "bots", "options", "games", "seed", "chunk_size", "chunks", "drama")


def owner(redis: Connection, sim_id: str) -> str | None:
    """The id of the app that asked for the simulation; ``SimulationNotFound`` if there is none."""
    return SimulationStore(redis).owner(sim_id)


def submit(redis: Connection, body: dict, settings: Settings | None = None, *, owner: str | None = None,
           admit: Callable[[dict, str], None] | None = None) -> str:
    """Check the request, queue its chunks, and return the simulation id.

    ``InvalidOptions`` (with per-field messages) when the request is not acceptable;
    ``admit(spec, simulation id)`` may refuse it too (quotas), by raising. ``owner`` is the app that asked.
    """
    spec, sim_id = runs.admitted(body, normalize_spec, admit)
    settings = settings or Settings.current()
    now = time.time()
    SimulationStore(redis).create(sim_id, runs.new_run_fields(json.dumps(spec), now, settings.ttl, owner),
                                  list(range(spec["chunks"])), settings.job_timeout, settings.ttl, now)
    return sim_id


def run_chunk(redis: Connection, sim_id: str, index: int) -> int:
    """What the RQ job does: play one chunk and record its tally once. Returns the games recorded."""
    return ChunkRun(redis, sim_id, index, Settings.current()).run()


class ChunkRun(runs.ChunkRun):
    store_class = SimulationStore

    def load(self) -> dict | None:
        fields = self.store.active_fields(self.run_id)
        if fields is None or self.store.has_tally(self.run_id, self.index):
            return None
        return json.loads(fields[0])

    def play_and_record(self, spec: dict) -> int:
        tally = self.play(spec)
        if tally is None:
            return 0
        self.record(spec, tally)
        metrics.SIMULATION_GAMES.inc(tally.games)
        metrics.SIMULATION_CHUNK_SECONDS.observe(tally.seconds)
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

    def record(self, spec: dict, tally: Tally) -> None:
        chunks_done = self.store.record(self.run_id, self.index, json.dumps(tally.to_dict()), tally.games,
                                        self.settings.ttl)
        if chunks_done == spec["chunks"]:
            finalize(self.redis, self.run_id, self.settings)


def finalize(redis: Connection, sim_id: str, settings: Settings | None = None) -> None:
    """Merge the chunks' tallies into the result once all are in. Safe to run again."""
    settings = settings or Settings.current()
    store = SimulationStore(redis)
    fields = store.active_fields(sim_id)
    if fields is None:
        return
    spec = json.loads(fields[0])
    tallies = store.tallies(sim_id)
    if len(tallies) < spec["chunks"]:
        return
    created_at, started_at, finished_at = store.stamp_finished(sim_id, time.time())
    wall_seconds = finished_at - (started_at or created_at)
    total = Tally(spec["players"], spec["bots"])
    chunks = [tallies[index] for index in sorted(tallies)]
    for chunk in chunks:
        total.merge(Tally.from_dict(chunk))
    result = summarize(spec["ruleset"], spec["seed"], total, wall_seconds=wall_seconds)
    drama = merged_drama(chunks) if spec.get("drama") else None
    if drama is not None:
        result["drama"] = drama_measures(get_ruleset(spec["ruleset"]), drama, spec["players"])
    runs.finish(store, sim_id, settings, notify.simulation_finished, result=json.dumps(result),
                cpu_seconds=total.seconds)


def reap(redis: Connection, sim_id: str, settings: Settings | None = None) -> int:
    """Re-enqueue the chunks of an active simulation that no live worker holds; how many."""
    settings = settings or Settings.current()
    store = SimulationStore(redis)
    fields = store.active_fields(sim_id)
    if fields is None:
        store.forget_active(sim_id)
        return 0
    lost = runs.lost_chunks(store, sim_id, json.loads(fields[0])["chunks"], settings)
    if lost is None:
        finalize(redis, sim_id, settings)
        return 0
    if lost:
        store.requeue(sim_id, lost, settings.job_timeout, settings.ttl)
    return len(lost)


def reap_all(redis: Connection, settings: Settings | None = None, min_interval: float = 2.0) -> int:
    """``reap`` every active simulation; one caller at a time, at most every ``min_interval`` s."""
    settings = settings or Settings.current()
    return runs.reap_all(SimulationStore(redis), lambda sim_id: reap(redis, sim_id, settings), min_interval)


def cancel(redis: Connection, sim_id: str, settings: Settings | None = None) -> dict:
    """Stop a queued or running simulation; its queued chunks leave the queue. Returns its status."""
    runs.cancel(SimulationStore(redis), sim_id, settings or Settings.current(), notify.simulation_finished)
    return status(redis, sim_id)


def status(redis: Connection, sim_id: str) -> dict:
    """Status, progress, elapsed time and (when finished) the statistics of a simulation."""
    store = SimulationStore(redis)
    meta = store.meta(sim_id)
    spec = json.loads(meta["spec"])
    if meta["status"] in ACTIVE:
        if int(meta["chunks_done"]) >= spec["chunks"]:
            finalize(redis, sim_id)
        elif store.reap_due(sim_id):
            reap(redis, sim_id)
        meta = store.meta(sim_id)
    return {
        **runs.head(sim_id, meta, spec, SPEC_FIELDS),
        "progress": {
            "games_done": int(meta["games_done"]),
            "games": spec["games"],
            "chunks_done": int(meta["chunks_done"]),
            "chunks": spec["chunks"],
        },
        **runs.outcome(meta, json.loads(meta["result"]) if "result" in meta else None),
    }
