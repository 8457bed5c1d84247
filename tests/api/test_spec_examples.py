"""The spec names every operation and its request examples work: a client generated from it, or
someone pressing "try it" on the docs page, gets good method names and examples the server accepts."""

from __future__ import annotations

import re

import pytest

from api.http.operation_ids import derived_operation_id
from tests.api.helpers import auth

HTTP_METHODS = ("get", "put", "post", "delete", "patch")
OPERATION_ID = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")


def operations(spec: dict):
    for path, item in spec["paths"].items():
        for method in HTTP_METHODS:
            if method in item:
                yield method, path, item[method], item.get("parameters", [])


@pytest.fixture
def spec(client) -> dict:
    return client.get("/openapi.json").get_json()


def test_every_operation_has_a_unique_snake_case_operation_id(spec):
    ids = [operation.get("operationId") for _, _, operation, _ in operations(spec)]
    assert all(ids), [f"{m} {p}" for m, p, o, _ in operations(spec) if not o.get("operationId")]
    assert all(OPERATION_ID.match(name) for name in ids), ids
    assert len(set(ids)) == len(ids), sorted(ids)


def test_the_operation_ids_a_client_is_named_after(spec):
    named = {operation["operationId"]: f"{method.upper()} {path}" for method, path, operation, _ in operations(spec)}
    for name, route in {
        "list_rulesets": "GET /v1/rulesets", "get_ruleset": "GET /v1/rulesets/{ruleset_id}",
        "create_game": "POST /v1/games", "get_game": "GET /v1/games/{game_id}",
        "delete_game": "DELETE /v1/games/{game_id}", "get_decisions": "GET /v1/games/{game_id}/decisions",
        "submit_action": "POST /v1/games/{game_id}/actions", "list_events": "GET /v1/games/{game_id}/events",
        "stream_events": "GET /v1/games/{game_id}/stream", "create_simulation": "POST /v1/simulations",
        "get_simulation": "GET /v1/simulations/{sim_id}", "cancel_simulation": "DELETE /v1/simulations/{sim_id}",
        "health": "GET /v1/health", "ready": "GET /v1/ready",
    }.items():
        assert named.get(name) == route, name


@pytest.mark.parametrize(("method", "view", "path", "expected"), [
    ("get", "Games", "/v1/games", "list_games"),
    ("post", "Games", "/v1/games", "create_game"),
    ("get", "Game", "/v1/games/{game_id}", "get_game"),
    ("delete", "Game", "/v1/games/{game_id}", "delete_game"),
    ("post", "LobbySeats", "/v1/lobby/{game_id}/seats", "create_lobby_seat"),
    ("put", "GameRecord", "/v1/games/{game_id}/record", "replace_game_record"),
])
def test_a_new_endpoint_gets_an_operation_id_by_convention(method, view, path, expected):
    assert derived_operation_id(method, view, path) == expected


def request_example(operation: dict):
    content = operation["requestBody"]["content"]["application/json"]
    if "example" in content:
        return content["example"]
    examples = content.get("examples") or {}
    assert examples, f"{operation['operationId']} has a request body but no example"
    return next(iter(examples.values()))["value"]


def new_example_game(client, spec: dict) -> tuple[dict, str, str]:
    """A game made from the create_game example: (created game, token of a seat to act, its ETag)."""
    create = next(o for _, _, o, _ in operations(spec) if o["operationId"] == "create_game")
    reply = client.post("/v1/games", json=request_example(create))
    assert reply.status_code == 201, reply.get_json()
    game = reply.get_json()
    tokens = {seat["seat"]: seat["token"] for seat in game["seats"] if seat["token"]}
    waiting = client.get(f"/v1/games/{game['id']}/decisions").get_json()["waiting_for"]
    seat = next(seat for seat in waiting if seat in tokens)
    return game, tokens[seat], reply.headers["ETag"]


@pytest.fixture
def example_host_resolves(monkeypatch):
    """The webhook example names hooks.example.com; this sandbox has no DNS, so it resolves here to a
    public address, as it would for a user (the URL checks themselves run unchanged)."""
    import socket

    from api.apps import webhook_addresses

    real = socket.getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        if host == "hooks.example.com":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", 443))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(webhook_addresses.socket, "getaddrinfo", getaddrinfo)


TABLE_OPERATIONS = {"join_game", "start_game"}
#: sent with the creator token
CREATOR_OPERATIONS = {"set_chat"}
WAITING_TABLE = {"ruleset": "monopoly-cars2", "seats": [{"name": "Ann"}, {"open": True}], "listed": True}


@pytest.mark.usefixtures("example_host_resolves")
def test_every_request_example_is_accepted_as_sent(client, spec):
    sent = []
    for method, path, operation, path_parameters in operations(spec):
        if "requestBody" not in operation:
            continue
        game, token, etag = new_example_game(client, spec)
        values = {"game_id": game["id"], "ruleset_id": game["ruleset"],
                  "seat": str(next(seat["seat"] for seat in game["seats"] if seat["token"] == token))}
        headers = auth(token)
        if operation["operationId"] in TABLE_OPERATIONS:
            # Joining and starting need a table still waiting for a player (listed: no invite needed).
            table = client.post("/v1/games", json=WAITING_TABLE).get_json()
            values["game_id"] = table["id"]
            headers = auth(table["creator_token"]) if operation["operationId"] == "start_game" else {}
        if operation["operationId"] in CREATOR_OPERATIONS:
            headers = auth(game["creator_token"])
        url = path
        for parameter in [*path_parameters, *operation.get("parameters", [])]:
            name, where = parameter["name"], parameter["in"]
            if where == "path":
                assert name in values, f"{operation['operationId']}: give the test a value for {{{name}}}"
                url = url.replace("{" + name + "}", values[name])
            elif where == "header" and name == "If-Match":
                headers["If-Match"] = etag
            elif parameter.get("required"):
                pytest.fail(f"{operation['operationId']}: give the test a value for the {where} parameter {name}")
        reply = client.open(url, method=method.upper(), json=request_example(operation), headers=headers)
        documented = [int(code) for code in operation["responses"] if code.isdigit() and int(code) < 300]
        assert reply.status_code in documented, (operation["operationId"], reply.status_code, reply.get_json())
        sent.append(operation["operationId"])
    assert {"create_game", "submit_action", "create_simulation"} <= set(sent)
