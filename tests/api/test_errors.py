"""Every error kind: its status, its stable problem type, and application/problem+json."""

from __future__ import annotations

import pytest

from tests.api.helpers import act, assert_problem, auth, create_game

TWO_SEATS = [{"name": "ann"}, {"name": "bob"}]


@pytest.fixture
def game(client, toy_ruleset):
    return create_game(client, toy_ruleset.id, TWO_SEATS)


def tokens(game) -> list[str]:
    return [seat["token"] for seat in game["seats"]]


def test_unknown_game_is_404(client):
    assert_problem(client.get("/v1/games/doesnotexist"), 404, "not-found")
    assert_problem(client.get("/v1/games/doesnotexist/events"), 404, "not-found")
    assert_problem(act(client, "doesnotexist", "x", {"type": "roll"}, 0), 404, "not-found")


def test_unknown_route_and_ruleset_are_404(client):
    assert_problem(client.get("/v1/nothing-here"), 404, "not-found")
    assert_problem(client.get("/v1/rulesets/no-such-game"), 404, "not-found")


def test_wrong_method_is_405_with_allow(client):
    reply = client.delete("/v1/health")
    assert_problem(reply, 405, "method-not-allowed")
    assert "GET" in reply.headers["Allow"]


def test_action_without_token_is_401(client, game):
    reply = client.post(f"/v1/games/{game['id']}/actions", json={"type": "roll"}, headers={"If-Match": '"0"'})
    assert_problem(reply, 401, "unauthorized")
    assert reply.headers["WWW-Authenticate"].startswith("Bearer")


def test_unknown_or_malformed_token_is_401(client, game):
    assert_problem(act(client, game["id"], "not-a-token", {"type": "roll"}, 0), 401, "unauthorized")
    assert_problem(client.get(f"/v1/games/{game['id']}", headers=auth("wrong")), 401, "unauthorized")
    reply = client.get(f"/v1/games/{game['id']}", headers={"Authorization": "Basic abc"})
    assert_problem(reply, 401, "unauthorized")


def test_token_of_another_game_is_401(client, game, toy_ruleset):
    other = create_game(client, toy_ruleset.id, TWO_SEATS)
    assert_problem(act(client, game["id"], tokens(other)[0], {"type": "roll"}, 0), 401, "unauthorized")


def test_acting_for_another_seat_is_403(client, game):
    reply = client.post(f"/v1/games/{game['id']}/actions?seat=1", json={"type": "roll"},
                        headers={**auth(tokens(game)[0]), "If-Match": '"0"'})
    assert_problem(reply, 403, "forbidden")


def test_creator_token_cannot_act_but_can_delete(client, game):
    assert_problem(act(client, game["id"], game["creator_token"], {"type": "roll"}, 0), 403, "forbidden")
    assert_problem(client.delete(f"/v1/games/{game['id']}", headers=auth(tokens(game)[0])), 403, "forbidden")
    assert client.delete(f"/v1/games/{game['id']}", headers=auth(game["creator_token"])).status_code == 204
    assert_problem(client.get(f"/v1/games/{game['id']}"), 404, "not-found")


def test_not_your_turn_is_409_with_reason(client, game):
    body = assert_problem(act(client, game["id"], tokens(game)[1], {"type": "roll"}, 0), 409, "illegal-action")
    assert body["reason"] == "not_your_turn"
    assert body["version"] == 0


def test_action_the_rules_forbid_now_is_409_with_reason(client, game):
    body = assert_problem(act(client, game["id"], tokens(game)[0], {"type": "play_card", "card": 1}, 0),
                          409, "illegal-action")
    assert body["reason"] == "action_not_allowed"
    assert act(client, game["id"], tokens(game)[0], {"type": "roll"}, 0).status_code == 200
    hand = client.get(f"/v1/games/{game['id']}", headers=auth(tokens(game)[0])).get_json()["view"]["hand"]
    missing = next(card for card in range(1, 100) if card not in hand)
    body = assert_problem(act(client, game["id"], tokens(game)[0], {"type": "play_card", "card": missing}, 1),
                          409, "illegal-action")
    assert body["reason"] == "option_not_allowed"


def test_stale_if_match_is_412_with_current_version(client, game):
    assert act(client, game["id"], tokens(game)[0], {"type": "roll"}, 0).status_code == 200
    reply = act(client, game["id"], tokens(game)[1], {"type": "roll"}, 0)
    body = assert_problem(reply, 412, "version-mismatch")
    assert body["version"] == 1
    assert reply.headers["ETag"] == '"1.1"'
    assert body["decisions"] == ["1.1"]  # seat 1 must play a card since version 1


def test_missing_if_match_is_428(client, game):
    reply = client.post(f"/v1/games/{game['id']}/actions", json={"type": "roll"}, headers=auth(tokens(game)[0]))
    assert_problem(reply, 428, "precondition-required")


@pytest.mark.parametrize("action, pointer", [
    ({"type": "fly"}, "/type"),
    ({"type": "play_card", "card": "three"}, "/card"),
    ({"type": "play_card"}, "/card"),
    ({"type": "roll", "extra": 1}, "/extra"),
    ({}, "/type"),
    ({"type": {"nested": 1}}, "/type"),
    ({"type": ["roll"]}, "/type"),
    ({"type": "play_card", "card": 1e300}, "/card"),
])
def test_action_that_fits_no_schema_is_422_with_pointers(client, game, action, pointer):
    body = assert_problem(act(client, game["id"], tokens(game)[0], action, 0), 422, "validation-error")
    assert pointer in [error["pointer"] for error in body["errors"]]


def test_non_object_action_is_422(client, game):
    reply = client.post(f"/v1/games/{game['id']}/actions", json=[1, 2],
                        headers={**auth(tokens(game)[0]), "If-Match": '"0"'})
    assert_problem(reply, 422, "validation-error")


@pytest.mark.parametrize("text", ["[" * 5000 + "]" * 5000, '{"type": "play_card", "card": NaN}',
                                  '{"type": "roll"} trailing', b"\xff\xfe"])
def test_hostile_json_is_400_not_a_server_error(client, game, text):
    reply = client.post(f"/v1/games/{game['id']}/actions", data=text,
                        headers={**auth(tokens(game)[0]), "If-Match": '"0"', "Content-Type": "application/json"})
    assert_problem(reply, 400, "malformed-json")
    assert_problem(client.post("/v1/games", data=text, content_type="application/json"), 400, "malformed-json")


def test_oversized_body_is_413(client, game):
    reply = act(client, game["id"], tokens(game)[0], {"type": "roll", "pad": "x" * 200_000}, 0)
    assert_problem(reply, 413, "payload-too-large")


def test_body_that_is_not_json_is_415(client, game):
    reply = client.post(f"/v1/games/{game['id']}/actions", data="type=roll",
                        headers={**auth(tokens(game)[0]), "If-Match": '"0"',
                                 "Content-Type": "application/x-www-form-urlencoded"})
    assert_problem(reply, 415, "unsupported-media-type")
    assert_problem(client.post("/v1/games", data="hello", content_type="text/plain"), 415, "unsupported-media-type")


def test_malformed_json_is_400(client, game):
    reply = client.post(f"/v1/games/{game['id']}/actions", data='{"type": ',
                        headers={**auth(tokens(game)[0]), "If-Match": '"0"', "Content-Type": "application/json"})
    assert_problem(reply, 400, "malformed-json")


def test_idempotency_key_reused_with_another_body_is_422(client, game):
    first = act(client, game["id"], tokens(game)[0], {"type": "roll"}, 0, **{"Idempotency-Key": "k1"})
    assert first.status_code == 200
    reply = act(client, game["id"], tokens(game)[0], {"type": "play_card", "card": 1}, 1,
                **{"Idempotency-Key": "k1"})
    assert_problem(reply, 422, "idempotency-key-reused")


@pytest.mark.parametrize("body, pointer", [
    ({"ruleset": "no-such-game", "seats": TWO_SEATS}, "/ruleset"),
    ({"ruleset": "toy-secrets", "seats": [{"name": "solo"}]}, "/seats"),
    ({"ruleset": "toy-secrets", "seats": [{"name": "a"}, {"name": "b", "bot": "genius"}]}, "/seats/1/bot"),
    ({"ruleset": "toy-secrets", "seats": [{"name": ""}, {"name": "b"}]}, "/seats/0/name"),
    ({"ruleset": "toy-secrets", "seats": TWO_SEATS, "options": {"rounds": 0}}, "/options/rounds"),
    ({"ruleset": "toy-secrets", "seats": TWO_SEATS, "options": {"house_rule": True}}, "/options/house_rule"),
    ({"ruleset": "toy-secrets", "seats": TWO_SEATS, "seed": -1}, "/seed"),
    ({"seats": TWO_SEATS}, "/ruleset"),
])
def test_invalid_game_creation_is_422_with_pointers(client, toy_ruleset, body, pointer):
    body = assert_problem(client.post("/v1/games", json=body), 422, "validation-error")
    assert pointer in [error["pointer"] for error in body["errors"]], body


def test_invalid_query_is_422(client, game):
    assert_problem(client.get(f"/v1/games/{game['id']}/events?limit=0"), 422, "validation-error")
    assert_problem(client.get(f"/v1/games/{game['id']}/events?after=yesterday"), 422, "validation-error")
    # A cursor part past 64 bits is refused by Redis itself: it must be a 422, never a 500.
    for path in ("events", "stream"):
        assert_problem(client.get(f"/v1/games/{game['id']}/{path}?after=0-19000000000000000000"), 422,
                       "validation-error")
    largest = client.get(f"/v1/games/{game['id']}/events?after=9999999999999999999-9999999999999999999")
    assert largest.status_code == 200 and largest.get_json()["events"] == []


def test_ready_is_503_when_redis_is_unreachable():
    from api.app import create_app

    app = create_app({"REDIS_URL": "redis://127.0.0.1:1/0", "BOT_QUEUE": None})
    assert_problem(app.test_client().get("/v1/ready"), 503, "service-unavailable")
    assert app.test_client().get("/v1/health").status_code == 200
