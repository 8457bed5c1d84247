"""``/v1/simulations`` over HTTP (Flask test client; real Redis; real workers where games are played)."""

from __future__ import annotations

import pytest

from engine.simulate import simulate
from tests.processes import wait_for

PROBLEM = "application/problem+json"


@pytest.fixture
def client(redis_db_url, redis):
    from api.app import create_app

    app = create_app({"REDIS_URL": redis_db_url})
    app.testing = True
    return app.test_client()


def start(client, **body):
    return client.post("/v1/simulations", json={"ruleset": "monopoly-cars2", "players": 2, "games": 200, **body})


def test_post_answers_202_with_location_and_the_workers_finish_it(client, workers):
    # The worker starts after the answer: an idle one could start a chunk before the POST reads it back.
    response = start(client, seed=3, chunk_size=50, bots=["heuristic", "random"])
    assert response.status_code == 202
    location = response.headers["Location"]
    created = response.get_json()
    assert location == f"/v1/simulations/{created['id']}"
    assert created["status"] == "queued"
    assert created["progress"] == {"games_done": 0, "games": 200, "chunks_done": 0, "chunks": 4}
    assert created["bots"] == ["heuristic", "random"]
    assert created["result"] is None

    workers.start(1)
    finished = wait_for(lambda: (r := client.get(location).get_json())["status"] == "finished" and r, timeout=60)
    assert finished["progress"]["games_done"] == 200
    assert finished["finished_at"] is not None and finished["elapsed"] > 0
    expected = simulate("monopoly-cars2", 200, 2, ["heuristic", "random"], {}, 3)
    for timing in ("seconds", "games_per_s"):
        expected.pop(timing), finished["result"].pop(timing)
    assert finished["result"] == expected
    assert finished["result"]["bot_stats"]["heuristic"]["win_rate_ci95"][0] >= 0


def test_a_seed_is_chosen_and_reported_when_none_is_given(client):
    body = start(client).get_json()
    assert isinstance(body["seed"], int)


def test_delete_cancels_a_queued_simulation(client, redis):
    location = start(client, games=1000, chunk_size=100).headers["Location"]
    response = client.delete(location)
    assert response.status_code == 200
    assert response.get_json()["status"] == "cancelled"
    assert client.get(location).get_json()["status"] == "cancelled"
    assert redis.llen("rq:queue:simulations") == 0
    assert client.delete(location).get_json()["status"] == "cancelled"


def test_unknown_simulation_is_404(client):
    for method in (client.get, client.delete):
        response = method("/v1/simulations/nope")
        assert response.status_code == 404
        assert response.content_type == PROBLEM
        assert response.get_json()["type"].endswith("/not-found")


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"games": 0}, "/games"),
        ({"games": 1_000_001}, "/games"),
        ({"games": 50_000, "chunk_size": 1}, "/chunk_size"),
        ({"chunk_size": 0}, "/chunk_size"),
        ({"ruleset": "chess"}, "/ruleset"),
        ({"players": 7}, "/players"),
        ({"bots": ["oracle"]}, "/bots"),
        ({"options": {"turn_cap": 0}}, "/options/turn_cap"),
        ({"colour": "red"}, "/colour"),
    ],
)
def test_invalid_requests_are_422_problems_naming_the_field(client, body, pointer):
    response = start(client, **body)
    assert response.status_code == 422
    assert response.content_type == PROBLEM
    problem = response.get_json()
    assert problem["type"].endswith("/validation-error")
    assert pointer in [error["pointer"] for error in problem["errors"]], problem


def test_missing_games_is_422(client):
    response = client.post("/v1/simulations", json={"ruleset": "monopoly-cars2"})
    assert response.status_code == 422
    assert "/games" in [error["pointer"] for error in response.get_json()["errors"]]
