"""The live games quota and deleted games on the cluster layout: the app's holds on the plain Redis, its games
on the cluster (no script can see both), under a burst of requests released together; a deleted game leaves
nothing on either."""

import pytest
import redis as redis_lib

from tests.api.conftest import keys  # noqa: F401
from tests.conftest import suite_db_url
from tests.processes import ApiServer
from tests.workers.test_deleted_games import (  # noqa: F401
    test_deleted_games_leave_no_key_or_index_of_theirs_or_of_their_players,
)
from tests.workers.test_quota_bursts import (  # noqa: F401
    test_a_burst_of_games_is_admitted_up_to_the_live_games_quota_and_ended_games_give_it_back,
    test_tournaments_and_games_released_together_share_the_live_games_quota,
)


@pytest.fixture
def games_redis(cluster_client):
    return cluster_client


@pytest.fixture
def scanned(control, cluster_client) -> list:
    return [control, cluster_client]


@pytest.fixture
def control(redis_db_url):
    client = redis_lib.Redis.from_url(redis_db_url)
    yield client
    client.close()


@pytest.fixture(scope="module")
def server(redis_url, game_cluster):
    """Two gunicorn processes keeping their games on the cluster."""
    api = ApiServer(suite_db_url(redis_url), RULEHOUSE_GAME_REDIS_URL=game_cluster.url)
    yield api.start(web_workers=2, threads=8)
    api.stop()
