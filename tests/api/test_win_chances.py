"""``GET /v1/games/{id}/win-chances``: who may ask, what it counts and charges, and what it answers."""

from __future__ import annotations

import math

import pytest

from api.win_chances.routes import WORK_PER_WORLD
from tests.api.helpers import act, assert_problem, auth

#: Two people at a Whipca$h table: with seed 7 Ann (seat 0) rolls first, one die or two.
GAME = {"ruleset": "whipcash", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 7, "hints": True}


def new_game(client, headers: dict | None = None, **changes) -> tuple[dict, str, str]:
    reply = client.post("/v1/games", json={**GAME, **changes}, headers=headers or {})
    assert reply.status_code == 201, reply.get_json()
    game = reply.get_json()
    return game, game["seats"][0]["token"], game["seats"][1]["token"]


def chances(client, game_id: str, token: str | None, query: str = "", headers: dict | None = None):
    return client.get(f"/v1/games/{game_id}/win-chances{query}", headers={**auth(token), **(headers or {})})


def test_a_seat_asks_from_its_view_where_hints_are_on_and_each_version_counts_once(client):
    game, ann, bob = new_game(client)
    assert game["win_chances"] == "seats"
    assert client.get(f"/v1/games/{game['id']}").get_json()["win_chances"] == "seats"
    first = chances(client, game["id"], ann, "?worlds=4")
    assert first.status_code == 200, first.get_json()
    body = first.get_json()
    assert (body["game_id"], body["version"], body["seat"], body["basis"], body["worlds"]) == (game["id"], 0, 0,
                                                                                               "seat", 4)
    assert math.isclose(sum(body["chances"]), 1.0, abs_tol=1e-5) and len(body["chances"]) == 2
    # The same version answers the same, whatever `worlds`, and counts once (once the game moves on).
    assert chances(client, game["id"], ann, "?worlds=9").get_json() == body
    assert client.get(f"/v1/games/{game['id']}").get_json()["hint_counts"] == [0, 0]
    # Bob has nothing to decide but may still ask how he stands: it counts for him too.
    assert chances(client, game["id"], bob).get_json()["seat"] == 1
    assert act(client, game["id"], ann, {"type": "roll", "dice": 1}, 0).status_code == 200
    assert client.get(f"/v1/games/{game['id']}").get_json()["hint_counts"] == [1, 1]
    assert client.get(f"/v1/games/{game['id']}/record").get_json()["hint_counts"] == [1, 1]


def test_a_seat_of_a_game_without_hints_gets_none(client):
    game, ann, _ = new_game(client, hints=False)
    assert assert_problem(chances(client, game["id"], ann), 403, "forbidden")["reason"] == "hints_disabled"
    assert_problem(chances(client, game["id"], ann, "?seat=1"), 403, "forbidden")


def test_a_spectator_gets_none_of_a_live_game_unless_the_creator_allowed_it(client):
    game, _, _ = new_game(client)
    for token in (None, game["creator_token"]):
        body = assert_problem(chances(client, game["id"], token), 403, "forbidden")
        assert body["reason"] == "win_chances_private"
    shown, _, _ = new_game(client, win_chances="spectators", hints=False)
    assert shown["win_chances"] == "spectators"
    for token in (None, shown["creator_token"], shown["seats"][0]["token"]):  # the game says so to everyone
        assert client.get(f"/v1/games/{shown['id']}", headers=auth(token)).get_json()["win_chances"] == "spectators"
    for token in (None, shown["creator_token"]):
        body = chances(client, shown["id"], token, "?worlds=3").get_json()
        assert body["basis"] == "spectator" and body["seat"] is None and body["worlds"] == 3
        assert math.isclose(sum(body["chances"]), 1.0, abs_tol=1e-5)
    # A spectator's ask counts for no seat.
    assert client.get(f"/v1/games/{shown['id']}").get_json()["hint_counts"] is None


def test_a_finished_game_s_chances_are_open_and_are_its_result(client):
    game, ann, bob = new_game(client, hints=False, options={"turn_cap": 1})
    version = 0
    while (shown := client.get(f"/v1/games/{game['id']}").get_json())["status"] == "active":
        token = ann if shown["waiting_for"] == [0] else bob
        options = client.get(f"/v1/games/{game['id']}/decisions", headers=auth(token)).get_json()["decisions"]
        assert act(client, game["id"], token, options[0]["default"] or options[0]["options"][0],
                   version).status_code == 200
        version += 1
    winners = shown["result"]["winners"]
    body = chances(client, game["id"], None).get_json()
    assert body["basis"] == "result" and body["worlds"] == 0
    assert body["chances"] == [1 / len(winners) if seat in winners else 0.0 for seat in range(2)]


@pytest.mark.parametrize("query", ["?worlds=0", "?worlds=65", "?worlds=x", "?seat=1000"])
def test_worlds_and_seat_are_bounded(client, query):
    game, ann, _ = new_game(client)
    body = assert_problem(chances(client, game["id"], ann, query), 422, "validation-error")
    assert body["errors"][0]["pointer"] in ("/worlds", "/seat")


def test_unknown_game_and_waiting_game(client):
    assert_problem(chances(client, "nosuchgame", None), 404, "not-found")
    reply = client.post("/v1/games", json={"ruleset": "whipcash", "seats": [{"name": "Ann"}, {"open": True}],
                                           "hints": True})
    game = reply.get_json()
    body = assert_problem(chances(client, game["id"], game["seats"][0]["token"]), 409, "illegal-action")
    assert body["reason"] == "not_started"


def test_win_chances_are_charged_to_the_game_s_app_as_search_work(keyed_client, keys):
    client = keyed_client
    _, key = keys.create_app("Coach", quotas={"search_work_per_day": 5 * WORK_PER_WORLD})
    headers = {"X-Api-Key": key}
    game, ann, bob = new_game(client, headers)
    assert chances(client, game["id"], ann, "?worlds=5", headers).status_code == 200
    # Asking the same version again costs nothing more; another seat's ask is past the day's work.
    assert chances(client, game["id"], ann, "?worlds=5", headers).status_code == 200
    me = client.get("/v1/apps/me", headers=headers).get_json()
    assert me["usage"]["search_work_today"] == 5 * WORK_PER_WORLD
    body = assert_problem(chances(client, game["id"], bob, "?worlds=1", headers), 403, "quota-exceeded")
    assert body["reason"] == "quota_search_work_per_day"
