"""Fixtures of the worker tests: the Redis client with short simulation leases, the toy ruleset."""

from __future__ import annotations

import pytest
import redis as redis_lib

from tests.api.conftest import keys  # noqa: F401
from tests.conftest import suite_db_url
from tests.processes import LEASE_SECONDS, ApiServer


@pytest.fixture
def redis(redis_db_url, monkeypatch):
    monkeypatch.setenv("RULEHOUSE_SIMULATION_LEASE", str(LEASE_SECONDS))
    client = redis_lib.Redis.from_url(redis_db_url)
    yield client
    client.close()


@pytest.fixture
def toy_race():
    from tests.workers.toy_race import registered

    with registered() as ruleset:
        yield ruleset


@pytest.fixture
def app(redis_db_url):
    """The API app on the test database, queueing bot jobs on ``bots``."""
    from api.app import create_app

    app = create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": "bots"})
    app.testing = True
    return app


@pytest.fixture(scope="module")
def server(redis_url):
    """The API under two gunicorn processes on the suite's database (bot jobs queued, webhooks to local
    addresses allowed): requests sent together reach different processes, as in a deployment."""
    api = ApiServer(suite_db_url(redis_url), RULEHOUSE_WEBHOOK_ALLOW_PRIVATE="1")
    yield api.start(web_workers=2, threads=8)
    api.stop()
