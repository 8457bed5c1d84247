"""Bot seats played by real RQ worker processes against the test Redis."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.core.decisions import Decision
from engine.core.registry import get_ruleset
from engine.core.rng import Rng
from tests.api.helpers import act, auth

ROOT = Path(__file__).resolve().parents[2]
WORKERS = 2
GAME_TIMEOUT = 90


@pytest.fixture
def app(redis_db_url):
    from api.app import create_app

    app = create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": "bots"})
    app.testing = True
    return app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def bot_workers(redis_db_url, tmp_path):
    """Worker processes on queue ``bots``, stopped (by their own pids) at the end of the test.

    The first finds the games through ``REDIS_URL``; the others only through ``--url``.
    """
    processes = []
    for number in range(WORKERS):
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        env.pop("REDIS_URL", None)
        if number == 0:
            env["REDIS_URL"] = redis_db_url
        log = open(tmp_path / f"worker{number}.log", "w")  # noqa: SIM115 - closed with the process below
        processes.append((subprocess.Popen(
            [sys.executable, "-m", "rq.cli", "worker", "bots", "--url", redis_db_url,
             "--worker-class", "rq.worker.SimpleWorker", "--name", f"test-bots-{os.getpid()}-{number}"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT), log))
    yield [process for process, _ in processes]
    for process, log in processes:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def wait_until(predicate, timeout: float = GAME_TIMEOUT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out")


def assert_log_replays_to_stored_state(app, game_id: str, ruleset_id: str, players: int, seed: int) -> None:
    store = app.extensions["rulehouse.store"]
    ruleset = get_ruleset(ruleset_id)
    state = ruleset.new_game(players, {}, seed)
    log = store.action_log(game_id)
    for seat, action in log:
        ruleset.apply(state, seat, action)
    record = store.load(game_id)
    assert record.version == len(log)
    assert json.loads(record.state) == ruleset.to_dict(state)


def test_bot_seat_answers_a_human_by_itself(client, app, bot_workers):
    created = client.post("/v1/games", json={
        "ruleset": "monopoly-cars2", "seed": 31,
        "seats": [{"name": "human"}, {"name": "robot", "bot": "heuristic"}],
    }).get_json()
    game_id, token = created["id"], created["seats"][0]["token"]
    ruleset = get_ruleset("monopoly-cars2")
    bot = ruleset.bot("random")
    rng = Rng(5)
    human_moves = 0
    while True:
        game = wait_until(lambda: (lambda g: g if g["status"] == "finished" or 0 in g["waiting_for"] else None)(
            client.get(f"/v1/games/{game_id}", headers=auth(token)).get_json()))
        if game["status"] == "finished":
            break
        listed = client.get(f"/v1/games/{game_id}/decisions", headers=auth(token)).get_json()
        action = bot.act(None, Decision(**listed["decisions"][0]), rng)
        reply = act(client, game_id, token, action, listed["version"])
        if reply.status_code == 412:
            continue  # the bot moved in between (both pending at once); look again
        assert reply.status_code == 200, reply.get_json()
        human_moves += 1
    store = app.extensions["rulehouse.store"]
    log = store.action_log(game_id)
    assert {seat for seat, _ in log} == {0, 1}
    assert sum(1 for seat, _ in log if seat == 0) == human_moves
    assert_log_replays_to_stored_state(app, game_id, "monopoly-cars2", 2, 31)


def test_game_of_bots_only_plays_itself_to_the_end(client, app, bot_workers):
    created = client.post("/v1/games", json={
        "ruleset": "monopoly-cars2", "seed": 77,
        "seats": [{"name": f"bot{i}", "bot": name} for i, name in enumerate(["heuristic", "random", "random"])],
    }).get_json()
    assert all(seat["token"] is None for seat in created["seats"])
    game = wait_until(lambda: (lambda g: g if g["status"] == "finished" else None)(
        client.get(f"/v1/games/{created['id']}").get_json()))
    assert game["result"]["winners"]
    assert_log_replays_to_stored_state(app, created["id"], "monopoly-cars2", 3, 77)
    # Each version was played once: the job ids are unique per version and the log has no gaps.
    assert len(app.extensions["rulehouse.store"].action_log(created["id"])) == game["version"]


def test_a_lost_bot_job_is_queued_again_when_the_game_is_read(client, app, redis_db_url, bot_workers):
    import redis as redis_lib
    from rq import Queue

    # Create the game while no bot job can be queued, as if the queueing had been lost.
    app.extensions["rulehouse.store"].bot_queue, queue = None, app.extensions["rulehouse.store"].bot_queue
    created = client.post("/v1/games", json={"ruleset": "monopoly-cars2", "seed": 5, "seats": [
        {"name": "b0", "bot": "random"}, {"name": "b1", "bot": "random"}]}).get_json()
    time.sleep(0.3)
    assert client.get(f"/v1/games/{created['id']}").get_json()["version"] == 0  # nobody moved
    assert Queue("bots", connection=redis_lib.Redis.from_url(redis_db_url)).count == 0
    app.extensions["rulehouse.store"].bot_queue = queue
    game = wait_until(lambda: (lambda g: g if g["status"] == "finished" else None)(
        client.get(f"/v1/games/{created['id']}").get_json()))
    assert game["version"] > 0
