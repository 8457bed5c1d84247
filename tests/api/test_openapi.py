"""openapi.yaml: generated from the code, valid, and honoured by the app under fuzzing."""

from __future__ import annotations

from pathlib import Path

import pytest
import schemathesis
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openapi_spec_validator import validate
from schemathesis.specs.openapi.checks import positive_data_acceptance

from api.openapi import spec_dict, spec_yaml
from tests.api.helpers import create_game

COMMITTED = Path(__file__).resolve().parents[2] / "openapi.yaml"
EXAMPLES_PER_OPERATION = 12
# A schema-valid body may still name an unknown ruleset or break the rules of the game (422, 409):
# the spec cannot say which, so "valid data is accepted" is not checked; every other check is.


def test_committed_openapi_yaml_matches_the_code():
    assert COMMITTED.read_text() == spec_yaml(), "openapi.yaml is stale: run `python -m api.openapi > openapi.yaml`"


def test_openapi_yaml_is_a_valid_openapi_document():
    validate(yaml.safe_load(COMMITTED.read_text()))


def test_served_spec_equals_the_generated_one(client):
    assert client.get("/openapi.json").get_json() == spec_dict()


def test_every_operation_is_described(client):
    spec = client.get("/openapi.json").get_json()
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            assert operation.get("summary") and operation.get("description"), (method, path)


@pytest.fixture
def real_game(client, toy_ruleset):
    return create_game(client, toy_ruleset.id, [{"name": "a"}, {"name": "b"}])


def fuzz(operation, game: dict, tokens: list, real_ids: dict[str, str] | None = None,
         examples: int = EXAMPLES_PER_OPERATION, derandomize: bool = False):
    """A hypothesis test of one operation; half the cases aim at a real game (and real ruleset, and
    the ``real_ids`` of other path parameters)."""
    params = {p.name for p in operation.path_parameters}
    if operation.method.upper() == "DELETE":
        tokens = [token for token in tokens if token != game["creator_token"]]  # keep the game for other cases
    real_values = {"game_id": game["id"], "ruleset_id": "toy-secrets", **(real_ids or {})}

    @settings(max_examples=examples, deadline=None, database=None, derandomize=derandomize,
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(), real=st.booleans(), token=st.sampled_from(tokens))
    def check(case, real, token):
        for name in params & set(real_values) if real else ():
            case.path_parameters[name] = real_values[name]
        if token is not None:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
        response = case.call_and_validate(excluded_checks=[positive_data_acceptance])
        assert response.status_code < 500

    return check


def test_fuzzed_requests_get_no_server_error_and_fit_the_spec(app, real_game):
    app.config["STREAM_MAX_SECONDS"] = 0.05  # a live stream of the real game ends at once
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    tokens = [None, real_game["creator_token"], *(seat["token"] for seat in real_game["seats"])]
    ran = 0
    for result in schema.get_all_operations():
        fuzz(result.ok(), real_game, tokens)()
        ran += 1
    assert ran >= 9


#: the paths of players, ratings, tournaments, experiments and past views, fuzzed harder with real ids
COMPETITION_PATHS = ("/v1/players", "/v1/ratings", "/v1/tournaments", "/v1/experiments", "/views/")


def test_fuzzed_requests_to_players_tournaments_experiments_and_views_with_real_ids_get_no_server_error(
        app, client, toy_ruleset):
    game = create_game(client, toy_ruleset.id, [{"player": "ann"}, {"player": "bob"}])
    tournament = client.post("/v1/tournaments", json={"ruleset": toy_ruleset.id, "format": "swiss", "table_size": 2,
                                                      "entrants": ["ann", "bob", "cy", "dee"]}).get_json()
    experiment = client.post("/v1/experiments", json={"ruleset": "monopoly-cars2", "players": 2, "games": 10,
                                                      "sweep": {"starting_money": [10, 13]}}).get_json()
    real_ids = {"player_id": "ann", "tournament_id": tournament["id"], "exp_id": experiment["id"]}
    tokens = [None, *(seat["token"] for seat in game["seats"])]
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    fuzzed = []
    for result in schema.get_all_operations():
        operation = result.ok()
        if any(part in operation.path for part in COMPETITION_PATHS):
            fuzz(operation, {**game, "creator_token": None}, tokens, real_ids, examples=30, derandomize=True)()
            fuzzed.append(operation.path)
    assert len(fuzzed) >= 8, fuzzed
