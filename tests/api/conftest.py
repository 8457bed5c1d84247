"""Fixtures for the HTTP API: an app on the test Redis database, and a toy ruleset with secrets."""

from __future__ import annotations

import pytest
import redis as redis_lib

from api.apps.app_store import AppKeys
from engine.core.registry import all_rulesets
from tests.api.toy_game import RULESET as TOY


@pytest.fixture
def toy_ruleset():
    """Registers the toy ruleset for one test."""
    registry = all_rulesets()
    registry[TOY.id] = TOY
    yield TOY
    registry.pop(TOY.id, None)


@pytest.fixture
def app(redis_db_url):
    from api.app import create_app

    app = create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": None, "STREAM_KEEPALIVE_SECONDS": 0.2,
                      "STREAM_MAX_SECONDS": 5.0})
    app.testing = True
    yield app
    # A stream response the test never closed keeps its client slot, and so this app's wake-up subscriber,
    # alive until the end of the run, when it finds the suite's Redis gone and says so after the summary.
    hub = app.extensions.get("rulehouse.streams")
    assert hub is None or hub.held_slots() == 0, "a live stream was left open: close its response"


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def keyed_app(redis_db_url):
    """An app on the test Redis database that refuses every /v1 request without a known API key."""
    from api.app import create_app

    app = create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": None, "REQUIRE_API_KEYS": True})
    app.testing = True
    return app


@pytest.fixture
def keyed_client(keyed_app):
    return keyed_app.test_client()


@pytest.fixture
def keys(redis_db_url) -> AppKeys:
    """The apps and keys store on the test Redis database, to make apps and keys with."""
    return AppKeys(redis_lib.Redis.from_url(redis_db_url, decode_responses=True))
