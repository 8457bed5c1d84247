"""Simulations run by real worker processes."""

from __future__ import annotations

import os
import signal

from api.simulations import jobs
from api.store import bot_current_key
from engine.simulate import simulate
from tests.processes import wait_for

RULESET = "monopoly-cars2"


def without_timing(stats: dict) -> dict:
    return {k: v for k, v in stats.items() if k not in ("seconds", "games_per_s")}


def test_two_workers_match_the_in_process_run(redis, workers):
    workers.start(2)
    body = {"ruleset": RULESET, "players": 3, "bots": ["random"], "games": 1200, "seed": 5, "chunk_size": 100}
    sim_id = jobs.submit(redis, body)
    state = wait_for(lambda: (s := jobs.status(redis, sim_id))["status"] == "finished" and s, timeout=60)
    assert state["progress"] == {"games_done": 1200, "games": 1200, "chunks_done": 12, "chunks": 12}
    assert without_timing(state["result"]) == without_timing(simulate(RULESET, 1200, 3, ["random"], {}, 5))


def test_a_new_worker_finishes_after_one_is_killed_holding_a_chunk_it_never_started(redis, workers, monkeypatch,
                                                                                    tmp_path):
    # The first worker takes a chunk from the queue (LPOP: it listens on several queues) and is
    # held at a test-only pause point (api/faults.py) before RQ marks the job started.
    marker = tmp_path / "job-taken.pid"
    monkeypatch.setenv("RULEHOUSE_TEST_PAUSE", f"job-taken:{marker}")
    (first,) = workers.start(1)
    monkeypatch.delenv("RULEHOUSE_TEST_PAUSE")
    games = 400
    sim_id = jobs.submit(redis, {"ruleset": RULESET, "players": 2, "games": games, "seed": 3, "chunk_size": 200})
    wait_for(lambda: marker.exists() and marker.read_text(), timeout=60)
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    taken = redis.hget(jobs.jobs_key(sim_id), "0").decode()
    assert redis.hget(f"rq:job:{taken}", "status") == b"queued"
    assert taken.encode() not in redis.lrange("rq:queue:simulations", 0, -1)

    workers.start(1)
    # Watch the raw hash: ``jobs.status`` would re-queue the lost chunk itself; here the worker must.
    wait_for(lambda: redis.hget(jobs.meta_key(sim_id), "status") == b"finished", timeout=90, interval=0.2)
    state = jobs.status(redis, sim_id)
    assert state["progress"] == {"games_done": games, "games": games, "chunks_done": 2, "chunks": 2}
    assert without_timing(state["result"]) == without_timing(simulate(RULESET, games, 2, ["random"], {}, 3))


def test_a_new_worker_finishes_after_one_is_killed_mid_chunk(redis, workers):
    (first,) = workers.start(1)
    games, chunk_size = 2400, 600
    sim_id = jobs.submit(redis, {"ruleset": RULESET, "players": 2, "games": games, "seed": 9, "chunk_size": chunk_size})
    # Kill the worker while it holds a chunk's lease, after it has recorded at least one chunk.
    wait_for(lambda: jobs.status(redis, sim_id)["progress"]["chunks_done"] >= 1, timeout=60, interval=0.01)
    wait_for(lambda: redis.keys(jobs.lease_key(sim_id, "*")), timeout=30, interval=0.005)
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    held = jobs.status(redis, sim_id)
    assert held["status"] == "running"
    assert held["progress"]["games_done"] < games

    workers.start(1)
    # Watch the raw hash: ``jobs.status`` would re-queue the lost chunk itself; here the worker must.
    wait_for(lambda: redis.hget(jobs.meta_key(sim_id), "status") == b"finished", timeout=90, interval=0.2)
    state = jobs.status(redis, sim_id)
    assert state["progress"] == {"games_done": games, "games": games, "chunks_done": 4, "chunks": 4}
    assert state["result"]["games"] == games
    assert sum(state["result"]["turns"]["histogram"].values()) == games
    assert without_timing(state["result"]) == without_timing(simulate(RULESET, games, 2, ["random"], {}, 9))


def test_a_bot_game_goes_on_after_a_worker_is_killed_holding_its_move_never_started(app, redis, workers, monkeypatch,
                                                                                    tmp_path):
    # As above, with a bot move: the job stays marked queued, in no queue (the worker took it with LPOP).
    marker = tmp_path / "job-taken.pid"
    monkeypatch.setenv("RULEHOUSE_TEST_PAUSE", f"job-taken:{marker}")
    (first,) = workers.start(1)
    monkeypatch.delenv("RULEHOUSE_TEST_PAUSE")
    client = app.test_client()
    created = client.post("/v1/games", json={"ruleset": "monopoly-cars2", "seed": 8, "seats": [
        {"name": f"bot{seat}", "bot": "random"} for seat in range(2)]})
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    wait_for(lambda: marker.exists() and marker.read_text(), timeout=60)
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    store = app.extensions["rulehouse.store"]
    taken = store.redis.get(bot_current_key(game_id))
    assert redis.hget(f"rq:job:{taken}", "status") == b"queued"
    assert taken.encode() not in redis.lrange("rq:queue:bots", 0, -1)
    assert store.load(game_id).version == 0

    workers.start(1)
    # Straight from the store: a read through the API could queue the move itself; here the worker's sweep must.
    wait_for(lambda: store.status(game_id)[0] == "finished", timeout=90, interval=0.2)
    log = store.action_log(game_id)
    assert len(log) == store.load(game_id).version  # each move once
