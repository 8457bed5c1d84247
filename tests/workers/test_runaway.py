"""A simulation whose games run away is stopped: inside a game by its time budget or by a cancel,
and inside one endless step by the worker's time limit (real workers, real Redis).

The options that used to run away (a Hitchiker Bad Ride card with ``steps`` of 2^64) are now
refused by both POST /v1/games and POST /v1/simulations: tests/api/test_options_fuzz.py. The
toy race stands in here for a game that no bound can cut short."""

from __future__ import annotations

import pytest

from tests.options_examples import full_options, replaced
from tests.processes import wait_for

#: A race nobody finishes: a million squares, a millisecond a roll.
ENDLESS = {"goal": 10**9, "step_seconds": 0.001}


@pytest.fixture
def client(redis_db_url, redis):
    from api.app import create_app

    app = create_app({"REDIS_URL": redis_db_url, "SIMULATION_JOB_TIMEOUT": 300})
    app.testing = True
    return app.test_client()


def start(client, options: dict, games: int = 4) -> str:
    reply = client.post("/v1/simulations", json={"ruleset": "toy-race", "players": 2, "games": games,
                                                 "chunk_size": games, "seed": 1, "options": options})
    assert reply.status_code == 202, reply.get_json()
    return reply.headers["Location"]


def status(client, location: str) -> dict:
    return client.get(location).get_json()


def finishes(client, timeout: float = 30) -> dict:
    """A small simulation started now ends: the workers are free again."""
    location = start(client, {"goal": 20}, games=10)
    return wait_for(lambda: (s := status(client, location))["status"] == "finished" and s, timeout=timeout)


def test_the_huge_bad_ride_of_the_probe_is_refused_before_any_worker_sees_it(client):
    options = replaced(full_options("hitchiker"), ("bad_ride_deck", "cards", 12, "steps"), 2**64)
    game = client.post("/v1/games", json={"ruleset": "hitchiker", "seats": [{"name": "a"}, {"name": "b"}],
                                          "options": options})
    simulation = client.post("/v1/simulations", json={"ruleset": "hitchiker", "games": 10, "options": options})
    assert (game.status_code, simulation.status_code) == (422, 422)


def test_a_game_past_its_time_budget_fails_its_simulation_and_frees_the_worker(client, workers, toy_race,
                                                                                monkeypatch):
    monkeypatch.setenv("RULEHOUSE_SIMULATION_GAME_SECONDS", "1")
    workers.start(1)
    location = start(client, ENDLESS)
    failed = wait_for(lambda: (s := status(client, location))["status"] == "failed" and s, timeout=30)
    assert "GameOverran: game 0 took longer than 1 s" in failed["error"]
    assert finishes(client)["progress"]["games_done"] == 10


def test_cancelling_stops_a_chunk_in_the_middle_of_a_game(client, workers, toy_race):
    workers.start(1)
    location = start(client, ENDLESS)
    wait_for(lambda: status(client, location)["status"] == "running", timeout=30)
    assert client.delete(location).get_json()["status"] == "cancelled"
    # One game takes hours: the worker is free again only if the chunk stopped inside it.
    assert finishes(client)["progress"]["games_done"] == 10
    assert status(client, location)["status"] == "cancelled"


def test_a_step_that_never_returns_is_stopped_by_the_workers_time_limit(redis_db_url, redis, workers, toy_race):
    from api.app import create_app

    app = create_app({"REDIS_URL": redis_db_url, "SIMULATION_JOB_TIMEOUT": 2})
    client = app.test_client()
    workers.start(1)
    location = start(client, {"goal": 30, "step_seconds": 3600})
    failed = wait_for(lambda: (s := status(client, location))["status"] == "failed" and s, timeout=30)
    assert "JobTimeoutException" in failed["error"]
    assert finishes(client)["progress"]["games_done"] == 10
