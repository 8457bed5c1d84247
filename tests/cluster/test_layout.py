"""The games' connection: a cluster is detected or declared (api/play/store.py ``game_client``)."""

from __future__ import annotations

import pytest
import redis
from redis.cluster import RedisCluster

from api.app import create_app
from api.play.store import game_client, is_cluster


def test_a_cluster_is_detected_and_a_plain_redis_is_not(game_cluster, redis_db_url):
    assert is_cluster(game_cluster.url) and not is_cluster(redis_db_url)
    assert isinstance(game_client({"GAME_REDIS_URL": game_cluster.url}), RedisCluster)
    assert isinstance(game_client({"GAME_REDIS_URL": game_cluster.url, "GAME_REDIS_CLUSTER": "yes"}), RedisCluster)
    plain = game_client({"GAME_REDIS_URL": redis_db_url, "GAME_REDIS_CLUSTER": "auto"})
    assert isinstance(plain, redis.Redis) and not isinstance(plain, RedisCluster)
    assert game_client({"GAME_REDIS_URL": None}) is None
    with pytest.raises(ValueError, match="auto, yes or no"):
        game_client({"GAME_REDIS_URL": game_cluster.url, "GAME_REDIS_CLUSTER": "maybe"})


def test_the_app_keeps_games_on_the_cluster_and_the_rest_on_the_queue_redis(redis_db_url, cluster_client):
    app = create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": "bots"})
    store = app.extensions["rulehouse.store"]
    assert isinstance(store.redis, RedisCluster) and not isinstance(store.control, RedisCluster)
    client = app.test_client()
    body = {"ruleset": "cash-n-guns", "seats": [{"name": n} for n in "ABC"] + [{"name": "b", "bot": "random"}],
            "seed": 2, "decision_timeout": 60}
    game = client.post("/v1/games", json=body).get_json()
    assert client.get("/v1/ready").get_json() == {"status": "ok", "redis": "ok"}
    # The game's keys spread over no more than one slot, whichever node holds it.
    slots = {cluster_client.keyslot(key) for key in cluster_client.keys("*", target_nodes=RedisCluster.PRIMARIES)}
    assert len(slots) == 1 and cluster_client.keyslot(f"game:{{{game['id']}}}") in slots
    assert store.control.zcard("deadlines") == 1 and store.queues.bot.count == 1
