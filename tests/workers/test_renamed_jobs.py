"""Jobs queued under the dotted names of before issue 27's move still run (kept for one release)."""

from __future__ import annotations

import importlib

import pytest
import redis as redis_lib
from rq import Queue
from rq.job import Job
from rq.utils import import_attribute

from api.service.jobs import renamed
from tests.processes import wait_for

#: every job function queued by name before the move, and where it lives now
OLD_NAMES = {
    "api.bot_seats.play_bot_turn": "api.service.jobs.bots.play_bot_turn",
    "api.hints.jobs.compute_hint": "api.service.jobs.hints.compute_hint",
    "api.analysis.jobs.compute_analysis": "api.service.jobs.analysis.compute_analysis",
    "api.simulations.jobs.run_chunk": "api.service.jobs.simulations.run_chunk",
    "api.experiments.jobs.run_chunk": "api.service.jobs.experiments.run_chunk",
}


@pytest.mark.parametrize("old", sorted(OLD_NAMES))
def test_an_old_job_name_resolves_to_the_moved_function(old):
    new_module, _, name = OLD_NAMES[old].rpartition(".")
    assert import_attribute(old) is getattr(importlib.import_module(new_module), name)


def test_every_renamed_module_is_covered():
    assert {old.rpartition(".")[0] for old in OLD_NAMES} == set(renamed.RENAMED)


@pytest.mark.parametrize("queue", ["bots", "search"])
def test_a_worker_runs_a_job_queued_under_its_old_name(redis_db_url, workers, queue):
    """On ``search`` RQ keeps the job's result: it is the moved function's answer. On ``bots`` the worker runs
    it as a lean bot job (api/service/worker.py, ``LEAN_JOBS`` names the old name too), which keeps none;
    a name that did not resolve would have failed the job there as well."""
    connection = redis_lib.Redis.from_url(redis_db_url)
    job = Queue(queue, connection=connection).enqueue("api.bot_seats.play_bot_turn", "no-such-game", 0)
    workers.start(1)
    finished = wait_for(lambda: Job.fetch(job.id, connection=connection).get_status() == "finished")
    assert finished
    assert Job.fetch(job.id, connection=connection).return_value() == ("gone" if queue == "search" else None)


@pytest.mark.parametrize("kind", ["simulations", "experiments"])
def test_a_chunk_queued_under_its_old_name_runs(redis, workers, kind):
    """A run's chunk queued by the release before issue 27's move (``api.simulations.jobs.run_chunk``,
    ``api.experiments.jobs.run_chunk``) is played and recorded by today's worker."""
    from api.experiments import lifecycle as experiments
    from api.runs.keys import jobs_key
    from api.simulations import lifecycle as simulations

    runs = {"simulations": simulations, "experiments": experiments}[kind]
    body = {"ruleset": "monopoly-cars2", "players": 2, "games": 40, "seed": 5, "chunk_size": 40,
            **({"sweep": {"starting_money": [10]}} if kind == "experiments" else {})}
    run_id = runs.submit(redis, body)
    queue = Queue("simulations", connection=redis)
    queue.remove(redis.hget(jobs_key(runs.KIND, run_id), "0").decode())  # as if queued before the deploy:
    old = queue.enqueue(f"api.{kind}.jobs.run_chunk", run_id, 0)
    redis.hset(jobs_key(runs.KIND, run_id), "0", old.id)
    workers.start(1)
    assert wait_for(lambda: Job.fetch(old.id, connection=redis).get_status() == "finished", timeout=90)
    assert runs.status(redis, run_id)["status"] == "finished"
    assert redis.hget(jobs_key(runs.KIND, run_id), "0").decode() == old.id  # no reaper stood in for it
    assert Job.fetch(old.id, connection=redis).return_value() == (40 if kind == "simulations" else 80)
