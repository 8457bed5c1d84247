"""Browser tests: a real service with real Redis and workers, driven through headless Chromium."""

from __future__ import annotations

import pytest

from tests.web.browser import Service, chromium


@pytest.fixture
def make_service(redis_db_url, workers, browser):
    """Starts the service (once per test) with these settings over the tests' own."""
    from api.app import create_app

    started: list[Service] = []

    def make(**config) -> Service:
        workers.start(1)
        # Short streams: a page following a game reconnects (with its cursor) several times per game.
        app = create_app({"REDIS_URL": redis_db_url, "STREAM_KEEPALIVE_SECONDS": 0.5, "STREAM_MAX_SECONDS": 4.0,
                          **config})
        started.append(Service(app).start())
        return started[-1]

    yield make
    browser.get("about:blank")  # closes the pages' live streams before the server and Redis stop
    for running in started:
        running.stop()


@pytest.fixture
def service(make_service):
    return make_service()


@pytest.fixture(scope="session")
def browser():
    driver = chromium()
    yield driver
    driver.quit()
