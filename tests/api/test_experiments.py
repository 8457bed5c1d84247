"""``/v1/experiments`` over HTTP (no workers): bad variants are 422 naming the field; quotas,
experiments in flight and ownership as for simulations."""

from __future__ import annotations

import pytest
import redis as redis_lib
from rq import Queue

from api.experiments.spec import MAX_EXPERIMENTS_IN_FLIGHT
from api.runs.store import QUEUE
from engine.experiments.design import MAX_VARIANTS
from tests.api.helpers import api_key, assert_problem

BASE = {"ruleset": "monopoly-cars2", "players": 2, "bots": ["random"], "games": 40, "seed": 1}


@pytest.fixture
def client(keyed_client):
    return keyed_client


@pytest.mark.parametrize(("extra", "pointer"), [
    ({"sweep": {"colour": ["red", "blue"]}}, "/sweep/colour"),
    ({"sweep": {"starting_money": [10, -3]}}, "/sweep/starting_money/1"),
    ({"sweep": {"starting_money": [10, 10]}}, "/sweep"),
    ({"sweep": {"starting_money": list(range(MAX_VARIANTS + 1))}}, "/sweep"),
    ({"sweep": {"starting_money": [1], "turn_cap": [9], "spinner_faces": [[1]]}}, "/sweep"),
    ({"variants": [{"name": "x", "options": {"starting_money": 10_001}}]}, "/variants/0/options/starting_money"),
    ({"variants": [{"name": "x", "bots": ["genius"]}]}, "/variants/0/bots"),
    ({"variants": [{"name": "x"}] * (MAX_VARIANTS + 1)}, "/variants"),
    ({"variants": [{"name": "x"}], "games": 0}, "/games"),
    ({"variants": [{"name": "x"}], "games": 20_000, "chunk_size": 3}, "/chunk_size"),
    ({"variants": [{"name": "x" * 65}]}, "/variants/0/name"),
    ({"variants": [{"name": "x"}], "games": None, "stop": {"max_games": 100}}, "/stop/win_rate_within"),
    ({"variants": [{"name": "x"}], "stop": {"max_games": 100, "win_rate_within": 0.01}}, "/games"),
    ({"variants": [{"name": "x"}], "games": None, "stop": {"max_games": 100, "min_games": 101,
                                                          "win_rate_within": 0.01}}, "/stop/min_games"),
])
def test_bad_variants_are_422_naming_the_field(client, keys, extra, pointer):
    _, key = keys.create_app("Lab", scopes=["simulations"])
    body = assert_problem(client.post("/v1/experiments", json={**BASE, **extra}, headers=api_key(key)), 422,
                          "validation-error")
    assert pointer in [error["pointer"] for error in body["errors"]], body


def test_an_experiment_is_queued_owned_and_cancelled(client, keys, redis_db_url):
    _, key = keys.create_app("Lab", scopes=["simulations"])
    _, other = keys.create_app("Other", scopes=["simulations"])
    reply = client.post("/v1/experiments", json={**BASE, "sweep": {"starting_money": [10, 20]}}, headers=api_key(key))
    assert reply.status_code == 202
    made = reply.get_json()
    assert reply.headers["Location"] == f"/v1/experiments/{made['id']}"
    assert [v["name"] for v in made["progress"]["variants"]] == ["base", "starting_money=10", "starting_money=20"]
    assert made["status"] == "queued" and made["progress"]["games_budget"] == 120
    assert client.get(f"/v1/experiments/{made['id']}", headers=api_key(other)).status_code == 404
    queue = Queue(QUEUE, connection=redis_lib.Redis.from_url(redis_db_url))
    assert len(queue.get_job_ids()) == 1
    cancelled = client.delete(f"/v1/experiments/{made['id']}", headers=api_key(key)).get_json()
    assert cancelled["status"] == "cancelled"
    assert queue.get_job_ids() == []


def test_the_whole_budget_is_admitted_against_the_quotas(client, keys):
    # 3 variants x 1000 games of two random seats cost 6000 of simulation work, however soon they stop.
    _, key = keys.create_app("Small", scopes=["simulations"], quotas={"simulation_work_per_day": 5999})
    precision = {**BASE, "games": None, "sweep": {"starting_money": [10, 20]},
                 "stop": {"difference_within": 0.05, "max_games": 1000}}
    body = assert_problem(client.post("/v1/experiments", json=precision, headers=api_key(key)), 403, "quota-exceeded")
    assert body["reason"] == "quota_simulation_work_per_day" and body["used"] == 0
    _, enough = keys.create_app("Enough", scopes=["simulations"], quotas={"simulation_work_per_day": 6000})
    assert client.post("/v1/experiments", json=precision, headers=api_key(enough)).status_code == 202
    # Chunks count once per variant: 3 variants x 10 chunks.
    _, chunky = keys.create_app("Chunky", scopes=["simulations"], quotas={"queued_chunks": 29})
    reply = client.post("/v1/experiments", json={**precision, "chunk_size": 100}, headers=api_key(chunky))
    body = assert_problem(reply, 403, "quota-exceeded")
    assert body["reason"] == "quota_queued_chunks"
    # An experiment's chunks still to play count against the next experiment: 3 x 10 of 60 taken.
    _, sixty = keys.create_app("Sixty", scopes=["simulations"], quotas={"queued_chunks": 60})
    chunked = {**precision, "chunk_size": 100}
    assert client.post("/v1/experiments", json=chunked, headers=api_key(sixty)).status_code == 202
    assert client.post("/v1/experiments", json=chunked, headers=api_key(sixty)).status_code == 202
    body = assert_problem(client.post("/v1/experiments", json=chunked, headers=api_key(sixty)), 403, "quota-exceeded")
    assert body["reason"] == "quota_queued_chunks" and body["used"] == 60


def test_drama_is_off_by_default_and_its_work_is_counted_ten_times(client, keys):
    # 2 variants x 100 games of two random seats: 400 of work; with drama, its model calls make it 4000.
    body = {**BASE, "games": 100, "variants": [{"name": "rich", "options": {"starting_money": 24}}]}
    _, key = keys.create_app("Drama", scopes=["simulations"], quotas={"simulation_work_per_day": 3999})
    assert client.post("/v1/experiments", json=body, headers=api_key(key)).get_json()["drama"] is False
    refused = assert_problem(client.post("/v1/experiments", json={**body, "drama": True}, headers=api_key(key)), 403,
                             "quota-exceeded")
    assert refused["reason"] == "quota_simulation_work_per_day"
    _, enough = keys.create_app("Enough drama", scopes=["simulations"], quotas={"simulation_work_per_day": 4000})
    reply = client.post("/v1/experiments", json={**body, "drama": True}, headers=api_key(enough))
    assert reply.status_code == 202 and reply.get_json()["drama"] is True
    assert_problem(client.post("/v1/experiments", json={**body, "drama": "yes please"}, headers=api_key(enough)), 422,
                   "validation-error")


def test_a_simulation_with_drama_counts_its_work_ten_times(client, keys):
    body = {"ruleset": "monopoly-cars2", "players": 2, "games": 100, "seed": 1}  # 200 of work; 2000 with drama
    _, key = keys.create_app("Sim drama", scopes=["simulations"], quotas={"simulation_work_per_day": 1999})
    assert client.post("/v1/simulations", json=body, headers=api_key(key)).get_json()["drama"] is False
    refused = assert_problem(client.post("/v1/simulations", json={**body, "drama": True}, headers=api_key(key)), 403,
                             "quota-exceeded")
    assert refused["reason"] == "quota_simulation_work_per_day"


def test_drama_of_a_ruleset_without_a_value_model_is_422(client, keys, toy_ruleset):
    _, key = keys.create_app("Toy drama", scopes=["simulations"])
    for path, body in (("/v1/simulations", {"ruleset": toy_ruleset.id, "games": 10, "drama": True}),
                       ("/v1/experiments", {"ruleset": toy_ruleset.id, "games": 10, "drama": True,
                                            "variants": [{"name": "long", "options": {"rounds": 3}}]})):
        problem = assert_problem(client.post(path, json=body, headers=api_key(key)), 422, "validation-error")
        assert "/drama" in [error["pointer"] for error in problem["errors"]], problem
        assert client.post(path, json={**body, "drama": False}, headers=api_key(key)).status_code == 202


def test_a_simulations_admission_counts_the_chunks_its_apps_experiments_hold_and_the_other_way_round(
        client, keys):
    _, key = keys.create_app("Mixed", scopes=["simulations"], quotas={"queued_chunks": 40})
    chunked = {**BASE, "games": None, "sweep": {"starting_money": [10, 20]},
               "stop": {"difference_within": 0.05, "max_games": 1000}, "chunk_size": 100}
    assert client.post("/v1/experiments", json=chunked, headers=api_key(key)).status_code == 202  # 3 x 10 chunks
    me = client.get("/v1/apps/me", headers=api_key(key)).get_json()
    assert me["usage"]["queued_chunks"] == 30
    simulation = {"ruleset": "monopoly-cars2", "players": 2, "bots": ["random"], "seed": 1, "chunk_size": 1}
    body = assert_problem(client.post("/v1/simulations", json={**simulation, "games": 11}, headers=api_key(key)),
                          403, "quota-exceeded")
    assert body["reason"] == "quota_queued_chunks" and body["used"] == 30 and body["allowed"] == 40
    assert client.post("/v1/simulations", json={**simulation, "games": 10}, headers=api_key(key)).status_code == 202
    # The simulation's 10 chunks and the experiment's 30 fill the quota: the next experiment is refused.
    body = assert_problem(client.post("/v1/experiments", json={**chunked, "chunk_size": 1000}, headers=api_key(key)),
                          403, "quota-exceeded")
    assert body["reason"] == "quota_queued_chunks" and body["used"] == 40


def test_experiments_in_flight_are_bounded_per_app(client, keys):
    _, key = keys.create_app("Busy", scopes=["simulations"])
    body = {**BASE, "sweep": {"starting_money": [10]}}
    for _ in range(MAX_EXPERIMENTS_IN_FLIGHT):
        assert client.post("/v1/experiments", json=body, headers=api_key(key)).status_code == 202
    refused = assert_problem(client.post("/v1/experiments", json=body, headers=api_key(key)), 403, "quota-exceeded")
    assert refused["reason"] == "quota_experiments_in_flight"


def test_experiments_need_the_simulations_scope(client, keys):
    _, key = keys.create_app("Tables", scopes=["games"])
    assert client.post("/v1/experiments", json={**BASE, "sweep": {"starting_money": [10]}},
                       headers=api_key(key)).status_code == 403


def test_a_big_experiment_gets_chunks_big_enough_to_bound_its_tallies():
    from api.experiments.spec import normalize_spec
    from api.simulations.spec import MAX_CHUNKS

    spec = normalize_spec({**BASE, "games": 30_000, "sweep": {"starting_money": list(range(64))}})
    assert spec["budget_chunks"] * len(spec["variants"]) <= MAX_CHUNKS
    assert spec["chunk_size"] == 197  # 30,000 games in at most 10,000 // 65 = 153 chunks
