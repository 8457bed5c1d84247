"""The simulation jobs without worker processes: chunks run in this process against real Redis."""

from __future__ import annotations

import json

import pytest
from rq import Queue
from rq.job import Job

from api.runs.keys import active_key, jobs_key, lease_key, run_key, tallies_key
from api.simulations import lifecycle as simulations
from api.simulations.spec import MAX_CHUNKS, MAX_GAMES, normalize_spec
from engine.core.errors import InvalidOptions
from engine.simulate import simulate
from tests.processes import wait_for

SETTINGS = simulations.Settings(ttl=600, lease_seconds=2, job_timeout=60)


def run_chunk(redis, sim_id: str, index: int) -> int:
    return simulations.ChunkRun(redis, sim_id, index, SETTINGS).run()


def submit(redis, **body) -> str:
    return simulations.submit(redis, {"ruleset": "toy-race", "players": 3, "games": 250, "seed": 11, **body}, SETTINGS)


def queued_job_ids(redis) -> list[str]:
    return Queue(simulations.QUEUE, connection=redis).get_job_ids()


def test_spec_defaults_are_filled_in(toy_race):
    spec = normalize_spec({"ruleset": "toy-race", "games": 1000, "bots": ["random"]})
    assert spec["players"] == toy_race.min_players
    assert spec["bots"] == ["random", "random"]
    assert (spec["chunk_size"], spec["chunks"]) == (250, 4)
    assert 0 <= spec["seed"] < 2**63
    assert normalize_spec({"ruleset": "toy-race", "games": 20_000})["chunks"] == 32
    assert normalize_spec({"ruleset": "toy-race", "games": 1_000_000})["chunk_size"] == 5000
    assert normalize_spec({"ruleset": "toy-race", "games": 7})["chunk_size"] == 7


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"ruleset": "no-such-game"}, "ruleset"),
        ({"players": 9}, "players"),
        ({"players": 2, "bots": ["random", "random", "random"]}, "bots"),
        ({"bots": ["genius"]}, "bots"),
        ({"options": {"goal": "far"}}, "options"),
        ({"games": 0}, "games"),
        ({"games": MAX_GAMES + 1}, "games"),
        ({"games": MAX_CHUNKS * 2, "chunk_size": 1}, "chunk_size"),
        ({"chunk_size": 0}, "chunk_size"),
        ({"seed": -1}, "seed"),
    ],
)
def test_invalid_requests_name_the_field(toy_race, body, field):
    with pytest.raises(InvalidOptions) as caught:
        normalize_spec({"ruleset": "toy-race", "games": 100, **body})
    assert field in caught.value.fields


def test_submit_queues_one_job_per_chunk(redis, toy_race):
    sim_id = submit(redis, chunk_size=100)
    state = simulations.status(redis, sim_id)
    assert state["status"] == "queued"
    assert state["chunks"] == 3
    assert state["progress"] == {"games_done": 0, "games": 250, "chunks_done": 0, "chunks": 3}
    assert len(queued_job_ids(redis)) == 3
    assert 0 < redis.ttl(run_key(simulations.KIND, sim_id)) <= SETTINGS.ttl


def test_chunks_merge_into_the_in_process_statistics(redis, toy_race):
    sim_id = submit(redis, chunk_size=100)
    assert [run_chunk(redis, sim_id, i) for i in (2, 0, 1)] == [50, 100, 100]
    state = simulations.status(redis, sim_id)
    assert state["status"] == "finished"
    assert state["progress"]["games_done"] == 250
    expected = simulate("toy-race", 250, 3, ["random"], {}, 11)
    got = state["result"]
    for timing in ("seconds", "games_per_s"):
        expected.pop(timing)
        got.pop(timing)
    assert got == expected
    assert redis.zscore(active_key(simulations.KIND), sim_id) is None
    assert 0 < redis.ttl(tallies_key(simulations.KIND, sim_id)) <= SETTINGS.ttl


def test_a_chunk_run_twice_counts_once(redis, toy_race):
    sim_id = submit(redis, chunk_size=100)
    assert run_chunk(redis, sim_id, 0) == 100
    assert run_chunk(redis, sim_id, 0) == 0
    # A retry that raced the first run to the end records nothing either.
    chunk = simulations.ChunkRun(redis, sim_id, 1, SETTINGS)
    spec = json.loads(redis.hget(run_key(simulations.KIND, sim_id), "spec"))
    tally = chunk.play(spec)
    chunk.record(spec, tally)
    chunk.record(spec, tally)
    progress = simulations.status(redis, sim_id)["progress"]
    assert progress["games_done"] == 200
    assert progress["chunks_done"] == 2


def _mark_started(redis, job_id: str, seconds_ago: float) -> None:
    from datetime import UTC, datetime, timedelta

    from rq.utils import utcformat

    started = datetime.now(UTC) - timedelta(seconds=seconds_ago)
    redis.hset(Job.key_for(job_id), mapping={"status": "started", "started_at": utcformat(started)})


def test_reap_requeues_only_chunks_nobody_holds(redis, toy_race):
    sim_id = submit(redis, games=500, chunk_size=100)
    queue = Queue(simulations.QUEUE, connection=redis)
    job_ids = {int(k): v.decode() for k, v in redis.hgetall(jobs_key(simulations.KIND, sim_id)).items()}
    for job_id in job_ids.values():
        queue.remove(job_id)
    run_chunk(redis, sim_id, 0)                       # done
    _mark_started(redis, job_ids[1], 60)              # running, lease alive
    redis.set(lease_key(simulations.KIND, sim_id, 1), 1, ex=30)
    _mark_started(redis, job_ids[2], 60)              # its worker died: no lease for long
    _mark_started(redis, job_ids[3], 0)               # just started, lease not taken yet
    redis.delete(Job.key_for(job_ids[4]))             # job gone without a tally
    assert simulations.reap(redis, sim_id, SETTINGS) == 2
    requeued = queued_job_ids(redis)
    now_responsible = {int(k): v.decode() for k, v in redis.hgetall(jobs_key(simulations.KIND, sim_id)).items()}
    assert sorted(requeued) == sorted([now_responsible[2], now_responsible[4]])
    assert now_responsible[1] == job_ids[1] and now_responsible[3] == job_ids[3]
    for index in (1, 2, 3, 4):
        run_chunk(redis, sim_id, index)
    assert simulations.status(redis, sim_id)["progress"]["games_done"] == 500


def test_reap_requeues_chunks_taken_from_the_queue_but_never_started(redis, toy_race):
    sim_id = submit(redis, games=300, chunk_size=100)
    queue = Queue(simulations.QUEUE, connection=redis)
    job_ids = {int(k): v.decode() for k, v in redis.hgetall(jobs_key(simulations.KIND, sim_id)).items()}
    # Workers that then died (or lost Redis) before RQ marked the jobs started: one on several
    # queues takes a job with LPOP, one on a single queue moves it to RQ's intermediate list.
    assert redis.lpop(queue.key).decode() == job_ids[0]
    assert redis.lmove(queue.key, queue.intermediate_queue_key).decode() == job_ids[1]
    assert {Job.fetch(job_ids[i], connection=redis).get_status() for i in (0, 1)} == {"queued"}
    # First seen out of the queue: a live worker would start them within milliseconds.
    assert simulations.reap(redis, sim_id, SETTINGS) == 0
    assert queued_job_ids(redis) == [job_ids[2]]
    # Still not started a lease later: lost, and queued again (chunk 2 waits in the queue still).
    assert wait_for(lambda: simulations.reap(redis, sim_id, SETTINGS), timeout=30) == 2
    now_responsible = {int(k): v.decode() for k, v in redis.hgetall(jobs_key(simulations.KIND, sim_id)).items()}
    assert now_responsible[2] == job_ids[2]
    assert {now_responsible[0], now_responsible[1]}.isdisjoint({job_ids[0], job_ids[1]})
    assert queued_job_ids(redis) == [job_ids[2], now_responsible[0], now_responsible[1]]
    assert simulations.reap(redis, sim_id, SETTINGS) == 0
    for index in range(3):
        run_chunk(redis, sim_id, index)
    assert simulations.status(redis, sim_id)["progress"]["games_done"] == 300


def test_cancel_unqueues_chunks_and_stops_a_running_one(redis, toy_race):
    sim_id = submit(redis, chunk_size=50)
    run_chunk(redis, sim_id, 0)
    state = simulations.cancel(redis, sim_id)
    assert state["status"] == "cancelled"
    assert state["progress"]["games_done"] == 50
    assert state["result"] is None
    assert queued_job_ids(redis) == []
    assert run_chunk(redis, sim_id, 1) == 0
    assert simulations.status(redis, sim_id)["progress"]["games_done"] == 50
    assert simulations.cancel(redis, sim_id)["status"] == "cancelled"


def test_cancel_reaches_a_chunk_between_slices(redis, toy_race):
    sim_id = submit(redis, games=400, chunk_size=400)
    chunk = simulations.ChunkRun(redis, sim_id, 0, simulations.Settings(ttl=600, lease_seconds=0, job_timeout=60))
    simulations.cancel(redis, sim_id)
    spec = json.loads(redis.hget(run_key(simulations.KIND, sim_id), "spec"))
    assert chunk.play(spec) is None


def test_a_crashing_chunk_fails_the_simulation(redis, toy_race):
    sim_id = submit(redis, options={"crash": True}, chunk_size=50)
    with pytest.raises(RuntimeError):
        run_chunk(redis, sim_id, 0)
    state = simulations.status(redis, sim_id)
    assert state["status"] == "failed"
    assert "toy race crashed on purpose" in state["error"]
    assert queued_job_ids(redis) == []
    assert run_chunk(redis, sim_id, 1) == 0


def test_unknown_simulation(redis):
    with pytest.raises(simulations.SimulationNotFound):
        simulations.status(redis, "nope")
    with pytest.raises(simulations.SimulationNotFound):
        simulations.cancel(redis, "nope")


def test_a_redis_error_in_a_chunk_leaves_it_to_be_run_again(redis, toy_race, monkeypatch):
    import redis as redis_lib

    sim_id = submit(redis, chunk_size=250)
    Queue(simulations.QUEUE, connection=redis).empty()

    def lost_connection(self, spec, tally):
        raise redis_lib.ConnectionError("connection reset")

    with monkeypatch.context() as patch:
        patch.setattr(simulations.ChunkRun, "record", lost_connection)
        with pytest.raises(redis_lib.ConnectionError):
            run_chunk(redis, sim_id, 0)
    assert redis.hget(run_key(simulations.KIND, sim_id), "status") == b"running"
    assert simulations.reap(redis, sim_id, SETTINGS) == 1
    assert len(queued_job_ids(redis)) == 1
    assert run_chunk(redis, sim_id, 0) == 250
    assert simulations.status(redis, sim_id)["status"] == "finished"
