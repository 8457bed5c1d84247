"""Bot seats played by real RQ worker processes against the test Redis."""

from __future__ import annotations

import json
import time

import pytest

from engine.core.decisions import Decision
from engine.core.registry import get_ruleset
from engine.core.rng import Rng
from tests.api.helpers import act, auth
from tests.processes import wait_for

WORKERS = 2
GAME_TIMEOUT = 90


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def bot_workers(workers):
    """Worker processes serving queue ``bots`` (and ``simulations``), stopped after the test."""
    return workers.start(WORKERS)


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
        game = wait_for(lambda: (lambda g: g if g["status"] == "finished" or 0 in g["waiting_for"] else None)(
            client.get(f"/v1/games/{game_id}", headers=auth(token)).get_json()), GAME_TIMEOUT)
        if game["status"] == "finished":
            break
        listed = client.get(f"/v1/games/{game_id}/decisions", headers=auth(token)).get_json()
        action = bot.act(None, Decision.from_dict(listed["decisions"][0]), rng)
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
    game = wait_for(lambda: (lambda g: g if g["status"] == "finished" else None)(
        client.get(f"/v1/games/{created['id']}").get_json()), GAME_TIMEOUT)
    assert game["result"]["winners"]
    assert_log_replays_to_stored_state(app, created["id"], "monopoly-cars2", 3, 77)
    # Each version was played once: the job ids are unique per version and the log has no gaps.
    assert len(app.extensions["rulehouse.store"].action_log(created["id"])) == game["version"]


def test_a_lost_bot_job_is_queued_again_when_the_game_is_read(client, app, redis_db_url, bot_workers):
    import redis as redis_lib
    from rq import Queue

    # Create the game while no bot job can be queued, as if the queueing had been lost.
    app.extensions["rulehouse.store"].queues.bot, queue = None, app.extensions["rulehouse.store"].queues.bot
    created = client.post("/v1/games", json={"ruleset": "monopoly-cars2", "seed": 5, "seats": [
        {"name": "b0", "bot": "random"}, {"name": "b1", "bot": "random"}]}).get_json()
    time.sleep(0.3)
    assert client.get(f"/v1/games/{created['id']}").get_json()["version"] == 0  # nobody moved
    assert Queue("bots", connection=redis_lib.Redis.from_url(redis_db_url)).count == 0
    app.extensions["rulehouse.store"].queues.bot = queue
    game = wait_for(lambda: (lambda g: g if g["status"] == "finished" else None)(
        client.get(f"/v1/games/{created['id']}").get_json()), GAME_TIMEOUT)
    assert game["version"] > 0


def test_a_bot_move_the_rules_refuse_falls_back_to_the_default_and_the_game_goes_on(client, app, toy_race,
                                                                                      workers):
    """A buggy bot (the toy's ``cheater`` proposes a ``boost`` it is never offered) must not stall its game:
    every proposal of it is refused before submitting, counted, and its seat rolls instead."""
    import requests

    from tests.observability.test_metrics import samples
    from tests.processes import free_port

    port = free_port()
    workers.start(1, "--metrics-port", str(port))
    created = client.post("/v1/games", json={"ruleset": "toy-race", "seed": 12, "options": {"goal": 12}, "seats": [
        {"name": "crook", "bot": "cheater"}, {"name": "fair", "bot": "random"}]})
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    game = wait_for(lambda: (lambda g: g if g["status"] == "finished" else None)(
        client.get(f"/v1/games/{game_id}").get_json()), GAME_TIMEOUT)
    log = app.extensions["rulehouse.store"].action_log(game_id)
    assert len(log) == game["version"] and log
    assert all(action == {"type": "roll"} for _, action in log)
    cheats = sum(1 for seat, _ in log if seat == 0)
    assert cheats >= 1
    refused = ("rulehouse_bot_moves_refused_total",
               frozenset({("ruleset", "toy-race"), ("bot", "cheater"), ("reason", "action_not_allowed")}))
    assert samples(requests.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text).get(refused) == cheats
