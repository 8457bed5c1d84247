"""What every chunked run does the same way, whatever it plays: its settings and states, a chunk's run
(lease, time budget, cancellation, failure), cancelling, ending and reaping. No Flask and no Redis
here: a run's keys are its store's (``api.runs.store``).

A run is cut into chunks of games (game ``i`` depends only on ``(seed, i)``), one RQ job a chunk. A
worker killed mid-chunk leaves its lease to expire; the reapers (every worker between jobs, and a
status read) queue again each chunk that is neither done, nor waiting in the queue, nor held by a live
lease, so any worker alive later finishes the run with exactly the games asked.
"""

from __future__ import annotations

import os
import secrets
import socket
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from api.ground import config, times
from api.runs.store import ACTIVE, QUEUE, RunStore, StoreError

#: What a run's room re-exports of the store (its lifecycle's users need not know the store).
__all__ = ["ACTIVE", "QUEUE"]

TERMINAL = ("finished", "failed", "cancelled")

#: ``notify(app id, run id, how it ended)``: the room's word to the app that asked (its webhooks).
Notify = Callable[[str | None, str, str], None]


@dataclass(frozen=True, slots=True)
class Settings:
    #: How long a run (spec, progress, result) stays in Redis after its last change.
    ttl: int
    #: A chunk whose worker stopped refreshing its lease this long ago is given to another worker.
    lease_seconds: int
    #: RQ's hard limit on one chunk job: the worker stops a job still running after it.
    job_timeout: int
    #: The most one game may take: a game still playing after it fails its run.
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


class Cancelled(Exception):
    """The run of a running chunk ended meanwhile (cancelled, or failed elsewhere)."""


class GameOverran(Exception):
    """A game of a chunk took longer than ``Settings.game_seconds``."""


def iso_time(timestamp: float | None) -> str | None:
    """A run's time as the API writes it (UTC, milliseconds, ``Z``), or None."""
    return None if timestamp is None else times.iso_time(timestamp, "milliseconds")


def admitted(body: dict, normalize: Callable[[dict], dict], admit: Callable[[dict, str], None] | None
             ) -> tuple[dict, str]:
    """A request's spec (``normalize``: ``InvalidOptions`` when it is not acceptable) and the new run's id,
    once ``admit(spec, run id)`` let it through (it refuses by raising: quotas)."""
    spec = normalize(body)
    run_id = secrets.token_hex(12)
    if admit is not None:
        admit(spec, run_id)
    return spec, run_id


def new_run_fields(spec_json: str, now: float, ttl: int, owner: str | None, **more: object) -> dict:
    """The status hash of a run just queued: ``more`` are the kind's own fields."""
    return {"spec": spec_json, "status": "queued", "created_at": now, "games_done": 0, "chunks_done": 0, **more,
            "ttl": ttl, **({"app": owner} if owner else {})}


def head(run_id: str, meta: dict[str, str], spec: dict, names: tuple[str, ...]) -> dict[str, Any]:
    """The start of a run's status: its id and state, then the spec's fields ``names`` in that order
    (``drama`` is False where absent: the specs of runs queued before drama have none)."""
    return {"id": run_id, "status": meta["status"],
            **{name: spec.get(name, False) if name == "drama" else spec[name] for name in names}}


def outcome(meta: dict[str, str], result: dict | None) -> dict[str, Any]:
    """The end of a run's status (``meta``: its status hash): its times (created, started, finished,
    elapsed), CPU seconds, ``result`` and error."""
    created_at = float(meta["created_at"])
    finished_at = float(meta["finished_at"]) if "finished_at" in meta else None
    return {
        "created_at": iso_time(created_at),
        "started_at": iso_time(float(meta["started_at"])) if "started_at" in meta else None,
        "finished_at": iso_time(finished_at),
        "elapsed": round((finished_at or time.time()) - created_at, 3),
        "cpu_seconds": round(float(meta["cpu_seconds"]), 3) if "cpu_seconds" in meta else None,
        "result": result,
        "error": meta.get("error"),
    }


class ChunkRun:
    """One chunk job of a run: take the lease, play, record once; a failure fails the whole run. A kind
    names its store and says what to load (``load``: None when there is nothing to play) and how to
    play and record it (``play_and_record``: the games recorded), calling ``check`` inside each game."""

    store_class: type[RunStore] = RunStore
    #: A Redis error fails the job but not the run: the reaper queues the chunk again.
    store_errors_retry = True

    def __init__(self, connection, run_id: str, index: int, settings: Settings) -> None:
        self.store = self.store_class(connection)
        self.redis = connection
        self.run_id = run_id
        self.index = index
        self.settings = settings
        self.last_beat = self.game_began = time.perf_counter()
        self.game = -1

    def load(self) -> Any:
        raise NotImplementedError

    def play_and_record(self, loaded: Any) -> int:
        raise NotImplementedError

    def still_wanted(self) -> bool:
        return self.store.status(self.run_id) in ACTIVE

    def run(self) -> int:
        loaded = self.load()
        if loaded is None:
            return 0
        self.store.take_lease(self.run_id, self.index, self.settings.lease_seconds)
        self.store.transition(self.run_id, ("queued",), status="running", started_at=time.time())
        try:
            return self.play_and_record(loaded)
        except Cancelled:
            return 0
        except Exception as error:
            if not (self.store_errors_retry and isinstance(error, StoreError)):
                self.fail(error)
            raise
        finally:
            self.store.drop_lease(self.run_id, self.index)

    def fail(self, error: Exception) -> None:
        if self.store.transition(self.run_id, ACTIVE, status="failed", finished_at=time.time(),
                                 error=f"chunk {self.index}: {type(error).__name__}: {error}"):
            self.store.unqueue(self.run_id, self.settings.ttl)

    def check(self, game: int) -> None:
        """Called inside each game every few steps: hold it to its time budget, keep the lease
        alive, and stop at once when the run was cancelled."""
        now = time.perf_counter()
        if game != self.game:
            self.game, self.game_began = game, now
        elif now - self.game_began > self.settings.game_seconds:
            raise GameOverran(f"game {game} took longer than {self.settings.game_seconds} s; with these options "
                              "a game does not end (or not in reasonable time)")
        if now - self.last_beat > self.settings.lease_seconds / 4:
            if not self.still_wanted():
                raise Cancelled(self.run_id)
            self.store.take_lease(self.run_id, self.index, self.settings.lease_seconds)
            self.last_beat = now


def lost_chunks(store: RunStore, run_id: str, chunks: int, settings: Settings) -> list[int] | None:
    """Of a run's first ``chunks`` chunks, those no live worker will finish (``RunStore.lost_chunks``);
    None when every one is recorded."""
    done = store.tallied(run_id)
    missing = [index for index in range(chunks) if index not in done]
    if not missing:
        return None
    return store.lost_chunks(run_id, missing, settings.lease_seconds)


def finish(store: RunStore, run_id: str, settings: Settings, notify: Notify, **fields: object) -> None:
    """End an active run as ``finished`` with ``fields`` (its result), once, and tell its app."""
    finished = store.transition(run_id, ACTIVE, status="finished", **fields)
    store.end(run_id, settings.ttl)
    if finished:
        notify(store.owner(run_id), run_id, "finished")


def cancel(store: RunStore, run_id: str, settings: Settings, notify: Notify) -> None:
    """Stop a queued or running run: its queued chunks leave the queue, running ones stop within seconds
    (their lease check); ``not_found`` if there is none."""
    if not store.exists(run_id):
        raise store.not_found(run_id)
    if store.transition(run_id, ACTIVE, status="cancelled", finished_at=time.time()):
        store.unqueue(run_id, settings.ttl)
        notify(store.owner(run_id), run_id, "cancelled")


def reap_all(store: RunStore, reap: Callable[[str], int], min_interval: float) -> int:
    """``reap`` every active run of the store's kind; one caller at a time, at most every ``min_interval`` s."""
    if not store.take_reap_lock(min_interval):
        return 0
    return sum(reap(run_id) for run_id in store.active_ids())


def worker_name() -> str:
    """This process as the results name the worker that recorded a chunk (host:pid)."""
    return f"{socket.gethostname()}:{os.getpid()}"
