"""Simulations run by real worker processes."""

from __future__ import annotations

import os
import signal

import pytest

from api.experiments import lifecycle as experiments
from api.hints.computing import hint_job_id
from api.play.game_keys import bot_current_key
from api.runs.keys import jobs_key, lease_key, run_key
from api.simulations import lifecycle as simulations
from engine.simulate import simulate
from tests.api.helpers import auth
from tests.processes import wait_for

RULESET = "monopoly-cars2"


def without_timing(stats: dict) -> dict:
    return {k: v for k, v in stats.items() if k not in ("seconds", "games_per_s")}


def test_two_workers_match_the_in_process_run(redis, workers):
    workers.start(2)
    body = {"ruleset": RULESET, "players": 3, "bots": ["random"], "games": 1200, "seed": 5, "chunk_size": 100}
    sim_id = simulations.submit(redis, body)
    state = wait_for(lambda: (s := simulations.status(redis, sim_id))["status"] == "finished" and s, timeout=60)
    assert state["progress"] == {"games_done": 1200, "games": 1200, "chunks_done": 12, "chunks": 12}
    assert without_timing(state["result"]) == without_timing(simulate(RULESET, 1200, 3, ["random"], {}, 5))


def test_a_new_worker_finishes_after_one_is_killed_holding_a_chunk_it_never_started(redis, workers, monkeypatch,
                                                                                    tmp_path):
    # The first worker takes a chunk from the queue (LPOP: it listens on several queues) and is
    # held at a test-only pause point (api/ground/faults.py) before RQ marks the job started.
    marker = tmp_path / "job-taken.pid"
    monkeypatch.setenv("RULEHOUSE_TEST_PAUSE", f"job-taken:{marker}")
    (first,) = workers.start(1)
    monkeypatch.delenv("RULEHOUSE_TEST_PAUSE")
    games = 400
    sim_id = simulations.submit(redis, {"ruleset": RULESET, "players": 2, "games": games, "seed": 3, "chunk_size": 200})
    wait_for(lambda: marker.exists() and marker.read_text(), timeout=60)
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    taken = redis.hget(jobs_key(simulations.KIND, sim_id), "0").decode()
    assert redis.hget(f"rq:job:{taken}", "status") == b"queued"
    assert taken.encode() not in redis.lrange("rq:queue:simulations", 0, -1)

    workers.start(1)
    # Watch the raw hash: ``simulations.status`` would re-queue the lost chunk itself; here the worker must.
    wait_for(lambda: redis.hget(run_key(simulations.KIND, sim_id), "status") == b"finished", timeout=90, interval=0.2)
    state = simulations.status(redis, sim_id)
    assert state["progress"] == {"games_done": games, "games": games, "chunks_done": 2, "chunks": 2}
    assert without_timing(state["result"]) == without_timing(simulate(RULESET, games, 2, ["random"], {}, 3))


def test_a_new_worker_finishes_after_one_is_killed_mid_chunk(redis, workers):
    (first,) = workers.start(1)
    games, chunk_size = 2400, 600
    sim_id = simulations.submit(redis, {"ruleset": RULESET, "players": 2, "games": games, "seed": 9,
                                        "chunk_size": chunk_size})
    # Kill the worker while it holds a chunk's lease, after it has recorded at least one chunk.
    wait_for(lambda: simulations.status(redis, sim_id)["progress"]["chunks_done"] >= 1, timeout=60, interval=0.01)
    wait_for(lambda: redis.keys(lease_key(simulations.KIND, sim_id, "*")), timeout=30, interval=0.005)
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    held = simulations.status(redis, sim_id)
    assert held["status"] == "running"
    assert held["progress"]["games_done"] < games

    workers.start(1)
    # Watch the raw hash: ``simulations.status`` would re-queue the lost chunk itself; here the worker must.
    wait_for(lambda: redis.hget(run_key(simulations.KIND, sim_id), "status") == b"finished", timeout=90, interval=0.2)
    state = simulations.status(redis, sim_id)
    assert state["progress"] == {"games_done": games, "games": games, "chunks_done": 4, "chunks": 4}
    assert state["result"]["games"] == games
    assert sum(state["result"]["turns"]["histogram"].values()) == games
    assert without_timing(state["result"]) == without_timing(simulate(RULESET, games, 2, ["random"], {}, 9))



@pytest.fixture
def held_worker(workers, monkeypatch, tmp_path):
    """A worker on the default queues that will be held at the pause point ``job-taken`` with the
    first job it takes (by LPOP, not yet started); call ``kill()`` to SIGKILL it there."""
    marker = tmp_path / "job-taken.pid"
    monkeypatch.setenv("RULEHOUSE_TEST_PAUSE", f"job-taken:{marker}")
    (worker,) = workers.start(1)
    monkeypatch.delenv("RULEHOUSE_TEST_PAUSE")

    def kill() -> None:
        wait_for(lambda: marker.exists() and marker.read_text(), timeout=60)
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait()

    return kill


def assert_taken_but_never_started(redis, job_id: str, queue: str) -> None:
    assert redis.hget(f"rq:job:{job_id}", "status") == b"queued"
    # In neither the queue nor RQ's intermediate list (where a worker on one queue would have put it).
    for listed in (f"rq:queue:{queue}", f"rq:queue:{queue}:intermediate"):
        assert job_id.encode() not in redis.lrange(listed, 0, -1)


@pytest.mark.parametrize(("body", "queue"), [
    ({"ruleset": RULESET, "seed": 8, "seats": [{"bot": "random"}, {"bot": "random"}]}, "bots"),
    ({"ruleset": "whipcash", "seed": 3, "seats": [{"bot": "mcts-1"}, {"bot": "mcts-1"}], "options": {"turn_cap": 3}},
     "search"),
], ids=["bot", "searching-bot"])
def test_a_bot_game_goes_on_after_a_worker_is_killed_holding_its_move_never_started(app, redis, workers, held_worker,
                                                                                    body, queue):
    client = app.test_client()
    created = client.post("/v1/games", json=body)
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    held_worker()
    store = app.extensions["rulehouse.store"]
    taken = store.redis.get(bot_current_key(game_id))
    assert_taken_but_never_started(redis, taken, queue)
    assert store.load(game_id).version == 0

    workers.start(1)
    # Straight from the store: a read through the API could queue the move itself; the worker's sweep must.
    wait_for(lambda: store.load(game_id).version >= 2, timeout=60, interval=0.2)
    assert len(store.action_log(game_id)) == store.load(game_id).version  # each move once


def test_a_hint_taken_but_never_started_is_queued_again_by_the_next_ask(app, redis, workers, held_worker):
    client = app.test_client()
    game = client.post("/v1/games", json={"ruleset": "whipcash", "seed": 7, "hints": True,
                                          "seats": [{"name": "Ann"}, {"name": "Bob"}]}).get_json()
    seat = client.get(f"/v1/games/{game['id']}/decisions").get_json()["waiting_for"][0]
    token = next(entry["token"] for entry in game["seats"] if entry["seat"] == seat)
    url = f"/v1/games/{game['id']}/hint"
    assert client.get(url, headers=auth(token)).status_code == 202
    held_worker()
    assert_taken_but_never_started(redis, hint_job_id(game["id"], seat, 0), "search")

    workers.start(1)
    reply = wait_for(lambda: (r := client.get(url + "?wait=2", headers=auth(token))).status_code == 200 and r,
                     timeout=60, interval=0.5)
    assert reply.get_json()["status"] == "ready"


def test_a_new_worker_finishes_an_experiment_after_one_is_killed_holding_a_chunk_it_never_started(redis, workers,
                                                                                                   held_worker):
    exp_id = experiments.submit(redis, {"ruleset": RULESET, "players": 2, "sweep": {"starting_money": [10]},
                                        "games": 200, "seed": 3, "chunk_size": 100})
    held_worker()
    assert_taken_but_never_started(redis, redis.hget(jobs_key(experiments.KIND, exp_id), "0").decode(), "simulations")

    workers.start(1)
    # Watch the raw hash: ``experiments.status`` would re-queue the lost chunk itself; here the worker must.
    wait_for(lambda: redis.hget(run_key(experiments.KIND, exp_id), "status") == b"finished", timeout=90, interval=0.2)
    state = experiments.status(redis, exp_id)
    assert state["progress"]["chunks_done"] == 2
    assert [v["games"] for v in state["result"]["variants"]] == [200, 200]
