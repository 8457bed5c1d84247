"""``GET /v1/games/{id}/hint`` without workers: who may ask, the errors, the job queued once, the counts.

A real search worker computing hints is tests/workers/test_search.py.
"""

from __future__ import annotations

import pytest
import redis as redis_lib
from rq import Queue

from api.hints.computing import hint_job_id
from api.play.game_keys import game_key
from tests.api.helpers import act, assert_problem, auth

#: Two people at a Whipca$h table: with seed 7 Ann (seat 0) rolls first, one die or two.
GAME = {"ruleset": "whipcash", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 7, "hints": True}


@pytest.fixture
def search_queue(redis_db_url) -> Queue:
    return Queue("search", connection=redis_lib.Redis.from_url(redis_db_url))


def new_game(client, **changes) -> tuple[dict, str, str]:
    """A game of GAME (with ``changes``): (created answer, Ann's token, Bob's token)."""
    reply = client.post("/v1/games", json={**GAME, **changes})
    assert reply.status_code == 201, reply.get_json()
    game = reply.get_json()
    return game, game["seats"][0]["token"], game["seats"][1]["token"]


def hint(client, game_id: str, token: str | None, query: str = ""):
    return client.get(f"/v1/games/{game_id}/hint{query}", headers=auth(token))


def test_hints_are_off_unless_the_game_asked_for_them(client):
    game, ann, _ = new_game(client, hints=False)
    assert game["hints"] is False
    shown = client.get(f"/v1/games/{game['id']}").get_json()
    assert shown["hints"] is False and shown["hint_counts"] is None
    body = assert_problem(hint(client, game["id"], ann), 403, "forbidden")
    assert body["reason"] == "hints_disabled"
    assert client.get(f"/v1/games/{game['id']}/record").get_json()["hint_counts"] is None


def test_only_a_seat_asks_and_only_for_itself(client, search_queue):
    game, ann, bob = new_game(client)
    assert game["hints"] is True
    assert_problem(hint(client, game["id"], None), 401, "unauthorized")
    assert_problem(hint(client, game["id"], "not-a-token-of-this-game"), 401, "unauthorized")
    assert assert_problem(hint(client, game["id"], game["creator_token"]), 403, "forbidden").get("reason") is None
    assert_problem(hint(client, game["id"], ann, "?seat=1"), 403, "forbidden")
    # Bob has nothing to decide while Ann rolls: the moves endpoint's code, with the version.
    body = assert_problem(hint(client, game["id"], bob), 409, "illegal-action")
    assert body["reason"] == "not_your_turn" and body["version"] == 0
    assert_problem(hint(client, "nosuchgame", ann), 404, "not-found")
    assert search_queue.count == 0  # none of these queued a search


@pytest.mark.parametrize("query", ["?wait=11", "?wait=-1", "?wait=soon", "?wait=nan", "?seat=1000", "?seat=x"])
def test_wait_and_seat_are_bounded(client, query):
    game, ann, _ = new_game(client)
    body = assert_problem(hint(client, game["id"], ann, query), 422, "validation-error")
    assert body["errors"][0]["pointer"] in ("/wait", "/seat")


def test_a_hint_is_queued_once_per_seat_and_version_and_counted_once_the_game_moves_on(client, search_queue):
    game, ann, bob = new_game(client)
    first = hint(client, game["id"], ann, "?seat=0")
    assert first.status_code == 202, first.get_json()
    pending = first.get_json()
    assert pending["status"] == "pending" and "action" not in pending
    assert (pending["game_id"], pending["seat"], pending["version"], pending["decision"]) == (game["id"], 0, 0, "0.0")
    assert pending["bot"] == "mcts" and pending["level"] >= 1 and "iterations" not in pending
    assert first.headers["Retry-After"] == "1"
    assert first.headers["Location"] == f"/v1/games/{game['id']}/hint?seat=0"
    assert search_queue.job_ids == [hint_job_id(game["id"], 0, 0)]
    # Asking again (waiting a moment for the search) queues nothing more and counts nothing more.
    assert hint(client, game["id"], ann, "?wait=0.2").status_code == 202
    assert search_queue.job_ids == [hint_job_id(game["id"], 0, 0)]
    # A hint counts once the game has moved on from its version: reads of one version never change.
    assert client.get(f"/v1/games/{game['id']}").get_json()["hint_counts"] == [0, 0]
    assert act(client, game["id"], ann, {"type": "roll", "dice": 1}, 0).status_code == 200
    assert hint(client, game["id"], bob).status_code == 202
    assert search_queue.count == 2
    assert client.get(f"/v1/games/{game['id']}").get_json()["hint_counts"] == [1, 0]
    record = client.get(f"/v1/games/{game['id']}/record").get_json()
    assert record["hint_counts"] == [1, 0]
    assert act(client, game["id"], bob, {"type": "roll", "dice": 1}, 1).status_code == 200
    assert client.get(f"/v1/games/{game['id']}").get_json()["hint_counts"] == [1, 1]


def test_a_game_that_is_over_or_under_other_rules_gives_no_hint(client, redis_db_url):
    game, ann, bob = new_game(client, options={"turn_cap": 1})
    version = 0
    while (shown := client.get(f"/v1/games/{game['id']}").get_json())["status"] == "active":
        token = ann if shown["waiting_for"] == [0] else bob
        options = client.get(f"/v1/games/{game['id']}/decisions", headers=auth(token)).get_json()["decisions"]
        assert act(client, game["id"], token, options[0]["default"] or options[0]["options"][0], version
                   ).status_code == 200
        version += 1
    assert assert_problem(hint(client, game["id"], ann), 409, "illegal-action")["reason"] == "game_over"
    other, ann, _ = new_game(client)
    redis_lib.Redis.from_url(redis_db_url).hset(game_key(other["id"]), "rules_version", 1)
    assert_problem(hint(client, other["id"], ann), 410, "rules-version")


def test_a_waiting_table_gives_no_hint_yet(client):
    table, ann, _ = new_game(client, seats=[{"name": "Ann"}, {"open": True}], listed=True)
    assert table["status"] == "waiting"
    assert assert_problem(hint(client, table["id"], ann), 409, "illegal-action")["reason"] == "not_started"
    lobby = client.get("/v1/games?status=waiting").get_json()["games"]
    assert [entry["hints"] for entry in lobby if entry["id"] == table["id"]] == [True]
