"""The cluster layout: games on a private 3-master Redis Cluster (``RULEHOUSE_GAME_REDIS_URL``),
everything else (queues, deadlines, apps, rate limits, webhooks, simulations) on the suite's
plain Redis. The modules here re-run a named subset of the API and worker tests in that layout;
they pick the cluster up from the environment, as a deployment would.
"""

from __future__ import annotations

import pytest
import redis as redis_lib
from redis.cluster import RedisCluster

from tests.api.conftest import app, client, toy_ruleset  # noqa: F401
from tests.redis_cluster import LocalCluster
from tests.workers.conftest import redis, toy_race  # noqa: F401


@pytest.fixture(scope="session")
def game_cluster(tmp_path_factory) -> LocalCluster:
    cluster = LocalCluster(tmp_path_factory.mktemp("cluster")).start()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def cluster_client(game_cluster) -> RedisCluster:
    games = RedisCluster.from_url(game_cluster.url, decode_responses=True)
    yield games
    games.close()


@pytest.fixture(autouse=True)
def games_on_the_cluster(game_cluster, cluster_client, redis_db_url, monkeypatch):
    """Every app and worker process of the test keeps its games on the cluster, and nothing else there."""
    cluster_client.flushall(target_nodes=RedisCluster.PRIMARIES)
    monkeypatch.setenv("RULEHOUSE_GAME_REDIS_URL", game_cluster.url)
    yield
    # KEYS on a cluster client asks one node unless told to ask every primary.
    stray = [key for key in cluster_client.keys("*", target_nodes=RedisCluster.PRIMARIES)
             if not key.startswith("game:{")]
    assert not stray, f"non-game keys on the games' cluster: {stray[:5]}"
    control = redis_lib.Redis.from_url(redis_db_url, decode_responses=True)
    misplaced = control.keys("game:*")
    control.close()
    assert not misplaced, f"game keys on the control Redis: {misplaced[:5]}"
