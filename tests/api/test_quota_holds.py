"""What an app holds against its count-limited quotas (api/apps/holds.py, api/apps/quotas.py) over real
Redis: a take is all or none, a holder whose thing never appeared is given back, and a deleted game's
hold at once (the bursts against a real server: tests/workers/test_quota_bursts.py)."""

from __future__ import annotations

import time

import pytest
import redis as redis_lib

from api.apps import quotas
from api.apps.holds import Ask, Holds, holders_key
from tests.api.helpers import api_key, auth

GAME = {"ruleset": "monopoly-cars2", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 3}


@pytest.fixture
def client(keyed_client):
    return keyed_client


@pytest.fixture
def control(redis_db_url):
    client = redis_lib.Redis.from_url(redis_db_url, decode_responses=True)
    yield client
    client.close()


def test_a_take_is_all_or_none_and_a_release_gives_back_its_weight(control):
    holds = Holds(control, "app_t")
    assert holds.take(Ask("chunks", "sim:a", 10, weight=7)) is None
    # Two asks on one set are bounded together: 7 + 2 + 2 passes 10, though each alone would fit.
    refused = holds.take(Ask("chunks", "sim:b", 10, weight=2), Ask("in-flight", "b", 1),
                         Ask("chunks", "sim:c", 10, weight=2))
    assert refused is not None and (refused.held, refused.asked) == (7, 4) and holds.held("in-flight") == 0
    refused = holds.take(Ask("chunks", "sim:b", 11, weight=2), Ask("in-flight", "b", 1),
                         Ask("chunks", "sim:c", 11, weight=2))
    assert refused is None and holds.held("chunks") == 11 and holds.held("in-flight") == 1
    # One set over its bound: nothing of the others is taken either.
    refused = holds.take(Ask("in-flight", "d", 1), Ask("chunks", "sim:d", 100, weight=1))
    assert refused is not None and refused.ask.holder == "d" and refused.held == 1
    assert holds.held("chunks") == 11 and [h for h, _ in holds.holders("chunks")] == ["sim:a", "sim:b", "sim:c"]
    holds.reweigh("chunks", "sim:a", 3)
    assert holds.held("chunks") == 7
    assert holds.release("chunks", "sim:a", "sim:a", "sim:zz") == 1 and holds.held("chunks") == 4


def test_a_holder_whose_game_never_appeared_is_given_back_once_it_waited_too_long(app, client, keys, control):
    app_id, key = keys.create_app("Small", quotas={"live_games": 2})
    holds = Holds(control, app_id)
    assert holds.take(Ask(quotas.LIVE_GAMES, "never-made", 2)) is None  # its request died before the game
    assert client.post("/v1/games", json=GAME, headers=api_key(key)).status_code == 201
    body = client.post("/v1/games", json=GAME, headers=api_key(key)).get_json()
    assert body["reason"] == "quota_live_games" and body["used"] == 2, "a pending holder counts a while"
    control.zadd(holders_key(app_id, quotas.LIVE_GAMES),
                 {"never-made": time.time() - quotas.PENDING_SECONDS - 1})
    made = client.post("/v1/games", json=GAME, headers=api_key(key))
    assert made.status_code == 201
    # Deleted: given back at once, without waiting for a reconciliation.
    game = made.get_json()
    assert client.delete(f"/v1/games/{game['id']}", headers={**api_key(key), **auth(game["creator_token"])}
                         ).status_code == 204
    assert holds.held(quotas.LIVE_GAMES) == 1


def rated(*players: str) -> dict:
    return {"ruleset": "monopoly-cars2", "rated": True, "seed": 3, "seats": [{"player": p} for p in players]}


def test_asks_on_one_set_are_bounded_together_and_a_holder_held_already_adds_nothing(control):
    holds = Holds(control, "app_r")
    assert holds.take(Ask("rated", "ann", 3, ttl=0), Ask("rated", "bob", 3, ttl=0)) is None
    # Two new ones where one place is left: refused together, though each alone would fit.
    refused = holds.take(Ask("rated", "cy", 3, ttl=0), Ask("rated", "dee", 3, ttl=0))
    assert refused is not None and (refused.held, refused.asked) == (2, 2) and holds.held("rated") == 2
    # Held already: nothing added, whatever the bound; the same holder twice in one request counts once.
    assert holds.take(Ask("rated", "ann", 2, ttl=0), Ask("rated", "bob", 2, ttl=0)) is None
    assert holds.take(Ask("rated", "cy", 3, ttl=0), Ask("rated", "cy", 3, ttl=0), Ask("rated", "ann", 3, ttl=0)) is None
    assert holds.held("rated") == 3
    # Kept for good (ttl 0), where the other sets expire after their last take.
    assert control.ttl(holders_key("app_r", "rated")) == -1


def test_rated_players_are_counted_once_refused_past_the_quota_and_given_back_with_their_deleted_games(
        client, keys, control):
    app_id, key = keys.create_app("Ladder", quotas={"rated_players": 3})
    me = client.get("/v1/apps/me", headers=api_key(key)).get_json()
    assert me["quotas"]["rated_players"] == 3 and me["usage"]["rated_players"] == 0
    first = client.post("/v1/games", json=rated("ann", "bob"), headers=api_key(key))
    assert first.status_code == 201, first.get_json()
    # The same players again: they cost nothing more.
    again = client.post("/v1/games", json=rated("bob", "ann"), headers=api_key(key))
    assert again.status_code == 201
    assert client.get("/v1/apps/me", headers=api_key(key)).get_json()["usage"]["rated_players"] == 2
    # Two new players where one place is left: 403, nothing made, nothing held.
    refused = client.post("/v1/games", json=rated("cy", "dee"), headers=api_key(key))
    body = refused.get_json()
    assert refused.status_code == 403 and refused.content_type == "application/problem+json"
    assert body["type"].endswith("/quota-exceeded") and body["reason"] == "quota_rated_players"
    assert (body["quota"], body["allowed"], body["used"]) == ("rated_players", 3, 2)
    assert set(control.zrange(holders_key(app_id, "rated-players"), 0, -1)) == {"ann", "bob"}
    # An unrated game's players are not counted; a bot of a rated game is, by its id.
    assert client.post("/v1/games", json={**rated("cy", "dee"), "rated": False},
                       headers=api_key(key)).status_code == 201
    third = client.post("/v1/games", json={**rated("ann"), "seats": [{"player": "ann"}, {"bot": "random"}]},
                        headers=api_key(key))
    assert third.status_code == 201
    assert set(control.zrange(holders_key(app_id, "rated-players"), 0, -1)) == {"ann", "bob", "bot:random"}
    # Deleted games (never rated): their players, with no other game and no rating, leave the quota.
    for game in (first.get_json(), again.get_json()):
        assert client.delete(f"/v1/games/{game['id']}",
                             headers={**api_key(key), **auth(game["creator_token"])}).status_code == 204
    assert set(control.zrange(holders_key(app_id, "rated-players"), 0, -1)) == {"ann", "bot:random"}
    made = client.post("/v1/games", json=rated("cy", "ann"), headers=api_key(key))
    assert made.status_code == 201
    assert client.get("/v1/apps/me", headers=api_key(key)).get_json()["usage"]["rated_players"] == 3
