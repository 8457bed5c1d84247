"""Rules versions over HTTP and in Redis: shown with each ruleset and game, stored with the game,
and a stored game of another rules version is refused rather than replayed under new rules."""

from __future__ import annotations

import json

import pytest
import redis

from api.ground.config import settings
from api.play.game_keys import game_key
from api.play.store import GameStore
from api.service.jobs.bots import play_bot_turn
from engine.core.registry import all_rulesets, get_ruleset
from tests.api.helpers import act, assert_problem, auth, create_game

SEATS = [{"name": "Ann"}, {"name": "Bob"}]


def test_every_ruleset_shows_its_rules_version(client):
    listed = {entry["id"]: entry for entry in client.get("/v1/rulesets").get_json()["rulesets"]}
    for ruleset_id, ruleset in all_rulesets().items():
        assert listed[ruleset_id]["rules_version"] == ruleset.rules_version
        described = client.get(f"/v1/rulesets/{ruleset_id}").get_json()
        assert described["rules_version"] == ruleset.rules_version
    # Issue 11's rules fixes changed how games of all four end; one Hometown, one owner and the default
    # turn cap raised Hitchiker's again (the timeout defaults, no rules, raised none).
    assert {ruleset_id: listed[ruleset_id]["rules_version"] for ruleset_id in
            ("cash-n-guns", "hitchiker", "monopoly-cars2", "whipcash")} == {
        "cash-n-guns": 2, "hitchiker": 3, "monopoly-cars2": 2, "whipcash": 2}


def test_a_game_keeps_the_rules_version_it_was_created_under(client, redis_db_url):
    created = create_game(client, "monopoly-cars2", SEATS)
    current = get_ruleset("monopoly-cars2").rules_version
    assert created["rules_version"] == current
    game = client.get(f"/v1/games/{created['id']}").get_json()
    assert game["rules_version"] == current
    first = client.get(f"/v1/games/{created['id']}/events").get_json()["events"][0]["event"]
    assert first["type"] == "game_created" and first["rules_version"] == current
    stored = redis.Redis.from_url(redis_db_url, decode_responses=True)
    assert stored.hget(game_key(created["id"]), "rules_version") == str(current)


@pytest.mark.parametrize("old_version", [None, "1"])
def test_a_stored_game_of_an_older_rules_version_is_refused_not_replayed(client, redis_db_url, old_version):
    """``None``: a game stored before rules versions existed (version 1); ``"1"``: one stored as version 1."""
    created = create_game(client, "monopoly-cars2", SEATS)
    game_id, ann = created["id"], created["seats"][0]["token"]
    stored = redis.Redis.from_url(redis_db_url, decode_responses=True)
    if old_version is None:
        stored.hdel(game_key(game_id), "rules_version")
    else:
        stored.hset(game_key(game_id), "rules_version", old_version)
    state_before = stored.hget(game_key(game_id), "state")

    for path in ("", "/decisions", "/stream"):
        body = assert_problem(client.get(f"/v1/games/{game_id}{path}", headers=auth(ann)), 410, "rules-version")
        assert body["rules_version"] == 1 and body["current_rules_version"] == 2
        assert "rules version 1" in body["detail"]
    reply = act(client, game_id, ann, {"type": "roll"}, 0)
    assert_problem(reply, 410, "rules-version")
    assert stored.hget(game_key(game_id), "state") == state_before and stored.hget(game_key(game_id), "version") == "0"
    # Background jobs leave it alone too.
    store = GameStore.from_settings(settings({"REDIS_URL": redis_db_url, "BOT_QUEUE": None}))
    assert play_bot_turn(game_id, 0, store) == "rules-version"
    # Its log stays readable, and its creator may delete it.
    events = client.get(f"/v1/games/{game_id}/events", headers=auth(ann)).get_json()["events"]
    assert events[0]["event"]["type"] == "game_created"
    assert client.delete(f"/v1/games/{game_id}", headers=auth(created["creator_token"])).status_code == 204


def test_a_game_of_the_current_rules_version_plays_on(client):
    created = create_game(client, "monopoly-cars2", SEATS)
    decisions = client.get(f"/v1/games/{created['id']}/decisions",
                           headers=auth(created["seats"][0]["token"])).get_json()
    seat = next(s for s in created["seats"] if decisions["waiting_for"] == [s["seat"]])
    reply = act(client, created["id"], seat["token"], {"type": "roll"}, 0)
    assert reply.status_code == 200, reply.get_json()
    assert json.loads(reply.get_data())["version"] == 1
