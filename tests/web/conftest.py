"""Browser tests: a real service with real Redis and workers, driven through headless Chromium."""

from __future__ import annotations

import pytest

from tests.web.browser import Service, chromium


@pytest.fixture
def service(redis_db_url, workers):
    from api.app import create_app

    workers.start(1)
    app = create_app({"REDIS_URL": redis_db_url, "STREAM_KEEPALIVE_SECONDS": 2.0, "STREAM_MAX_SECONDS": 30.0})
    running = Service(app).start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser():
    driver = chromium()
    yield driver
    driver.quit()
