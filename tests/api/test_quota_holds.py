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
    refused = holds.take(Ask("chunks", "sim:b", 10, weight=2), Ask("in-flight", "b", 1),
                         Ask("chunks", "sim:c", 10, weight=2))
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
