"""``POST /v1/games/{id}/rematch``: the creator of a finished game starts the same game again, once."""

from __future__ import annotations

import json

from api.play.game_keys import rematch_key, token_digest
from api.service.jobs.bots import play_bot_turn
from tests.api.helpers import act, api_key, assert_problem, auth

SEATS = [{"name": "Ann", "player": "ann"}, {"name": "Robo", "bot": "random"}]


def rematch(client, game_id: str, token: str | None, headers: dict | None = None):
    return client.post(f"/v1/games/{game_id}/rematch", headers={**auth(token), **(headers or {})})


def play_out(client, app, game: dict) -> dict:
    """Ann plays her first option whenever she is asked, the bot its own move in-process: the finished game."""
    store, ann = app.extensions["rulehouse.store"], game["seats"][0]["token"]
    while (shown := client.get(f"/v1/games/{game['id']}").get_json())["status"] == "active":
        if 0 in shown["waiting_for"]:
            decision = client.get(f"/v1/games/{game['id']}/decisions", headers=auth(ann)).get_json()["decisions"][0]
            assert act(client, game["id"], ann, decision["options"][0], shown["version"]).status_code == 200
        else:
            assert play_bot_turn(game["id"], shown["version"], store).startswith(("seat", "over"))
    return shown


def test_the_creator_of_a_finished_game_gets_one_rematch_with_its_seats_and_options_and_a_new_seed(
        client, app, toy_ruleset):
    game = client.post("/v1/games", json={"ruleset": toy_ruleset.id, "seats": SEATS, "seed": 3, "listed": True,
                                          "options": {"rounds": 1}, "decision_timeout": 600}).get_json()
    assert_problem(rematch(client, game["id"], game["creator_token"]), 409, "illegal-action")  # still playing
    play_out(client, app, game)

    assert_problem(rematch(client, game["id"], None), 401, "unauthorized")
    assert_problem(rematch(client, game["id"], game["seats"][0]["token"]), 403, "forbidden")
    first = rematch(client, game["id"], game["creator_token"])
    assert first.status_code == 201, first.get_json()
    made = first.get_json()
    assert made["id"] != game["id"] and first.headers["Location"].endswith(f"/v1/games/{made['id']}")
    assert made["status"] == "active" and made["seed"] is None  # the service drew a new seed
    assert made["seed_commitment"] != game["seed_commitment"]
    assert [(seat["name"], seat["bot"]) for seat in made["seats"]] == [("Ann", None), ("Robo", "random")]
    assert made["seats"][0]["token"] not in (None, game["seats"][0]["token"]) and made["seats"][1]["token"] is None
    assert made["decision_timeout"] == 600
    shown = client.get(f"/v1/games/{made['id']}", headers=auth(made["seats"][0]["token"])).get_json()
    assert shown["role"] == "seat" and shown["seat"] == 0
    store = app.extensions["rulehouse.store"]
    assert store.load(made["id"]).options == {"rounds": 1}
    assert store.load(made["id"]).listed is store.load(game["id"]).listed is True  # listed again in the lobby

    again = rematch(client, game["id"], game["creator_token"])
    assert again.status_code == 200 and again.get_json() == made  # the same rematch, not another game


def test_a_tournament_table_and_a_missing_game_have_no_rematch(client, keys, toy_ruleset):
    _, secret = keys.create_app("League")
    made = client.post("/v1/tournaments", headers=api_key(secret), json={
        "ruleset": toy_ruleset.id, "format": "round_robin", "table_size": 2, "entrants": ["ann", "bob"],
        "options": {"rounds": 1}})
    assert made.status_code == 201, made.get_json()
    table = made.get_json()["played"][0]["tables"][0]
    token = table["tokens"][table["entrants"][0]]
    body = assert_problem(rematch(client, table["game"], token, api_key(secret)), 409, "illegal-action")
    assert body["reason"] == "tournament_table"
    assert_problem(rematch(client, "nosuchgame", "whatever"), 404, "not-found")


def test_two_rematch_calls_at_once_start_one_game(client, app, toy_ruleset):
    from concurrent.futures import ThreadPoolExecutor

    game = client.post("/v1/games", json={"ruleset": toy_ruleset.id, "seats": SEATS, "seed": 5,
                                          "options": {"rounds": 1}}).get_json()
    play_out(client, app, game)
    with ThreadPoolExecutor(4) as pool:  # a client each: the test client is not shared across threads
        answers = list(pool.map(lambda _: rematch(app.test_client(), game["id"], game["creator_token"]), range(4)))
    assert sorted(answer.status_code for answer in answers) == [200, 200, 200, 201]
    assert len({answer.get_json()["id"] for answer in answers}) == 1


def every_value(redis, key: str) -> str:
    """All that ``key`` holds, whatever its type, as one text to search."""
    kind = redis.type(key)
    if kind == "string":
        return redis.get(key) or ""
    if kind == "hash":
        return json.dumps(redis.hgetall(key))
    if kind == "list":
        return json.dumps(redis.lrange(key, 0, -1))
    if kind == "set":
        return json.dumps(sorted(redis.smembers(key)))
    if kind == "zset":
        return json.dumps(redis.zrange(key, 0, -1))
    if kind == "stream":
        return json.dumps(redis.xrange(key))
    return ""


def tokens_in(answer: dict) -> list[str]:
    """Every token the creation answer hands out: the creator token and each human seat's."""
    return [answer["creator_token"], *(seat["token"] for seat in answer["seats"] if seat.get("token"))]


def test_the_kept_rematch_answer_holds_no_usable_token_and_opens_only_with_the_creator_token(
        client, app, toy_ruleset):
    seats = [{"name": "Ann"}, {"name": "Bea"}, {"name": "Robo", "bot": "random"}]
    game = client.post("/v1/games", json={"ruleset": toy_ruleset.id, "seats": seats, "seed": 7,
                                          "options": {"rounds": 1}}).get_json()
    ann, bea = game["seats"][0]["token"], game["seats"][1]["token"]
    store = app.extensions["rulehouse.store"]
    while (shown := client.get(f"/v1/games/{game['id']}").get_json())["status"] == "active":
        seat = shown["waiting_for"][0]
        if seat == 2:
            play_bot_turn(game["id"], shown["version"], store)
            continue
        token = (ann, bea)[seat]
        decision = client.get(f"/v1/games/{game['id']}/decisions", headers=auth(token)).get_json()["decisions"][0]
        assert act(client, game["id"], token, decision["options"][0], shown["version"]).status_code == 200

    first = rematch(client, game["id"], game["creator_token"])
    assert first.status_code == 201, first.get_json()
    made = first.get_json()
    handed_out = tokens_in(made)
    assert len(handed_out) == 3  # a new creator token and the two human seats'

    kept = store.redis.get(rematch_key(game["id"]))
    assert kept is not None and kept != "creating"
    for secret in [*handed_out, game["creator_token"]]:
        assert secret not in kept and token_digest(secret) not in kept
    assert made["id"] not in kept  # sealed whole, not only its tokens
    # nothing else kept in Redis names a handed-out token either (the new game keeps digests only)
    everything = "\n".join(every_value(store.redis, key) for key in store.redis.scan_iter("*"))
    assert not any(secret in everything for secret in handed_out)

    again = rematch(client, game["id"], game["creator_token"])
    assert again.status_code == 200 and again.get_json() == made and tokens_in(again.get_json()) == handed_out
    for other in (ann, bea, made["creator_token"]):
        assert rematch(client, game["id"], other).status_code in (401, 403)
    assert_problem(rematch(client, game["id"], ann), 403, "forbidden")
    assert_problem(rematch(client, game["id"], "not-a-token-of-this-game"), 401, "unauthorized")
