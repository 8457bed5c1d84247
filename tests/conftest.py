"""Shared fixtures. Tests that need Redis get a real server: the one at ``REDIS_URL``,
else an embedded one started for the session (its URL is exported so worker
subprocesses find it), one per test process. Each test gets a flushed database of its own number."""

from __future__ import annotations

import os

import pytest

#: This process's database: RULEHOUSE_TEST_DB (13) plus the number of its pytest-xdist worker, so
#: the test processes of `make test` never share one on a REDIS_URL given to them.
TEST_DB = int(os.environ.get("RULEHOUSE_TEST_DB", "13")) + int(os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:])


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory) -> str:
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    from api.service.embedded_redis import EmbeddedRedis

    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"), persist=False).start()
    os.environ["REDIS_URL"] = server.url
    try:
        yield server.url
    finally:
        os.environ.pop("REDIS_URL", None)
        server.stop()


def suite_db_url(redis_url: str) -> str:
    """``redis_url`` on this suite's own database number."""
    base = redis_url.rsplit("/", 1)[0] if redis_url.count("/") > 2 else redis_url
    return f"{base}/{TEST_DB}"


@pytest.fixture
def redis_db_url(redis_url) -> str:
    """A URL on this suite's own database number, emptied before and after the test."""
    import redis

    url = suite_db_url(redis_url)
    client = redis.Redis.from_url(url)
    client.flushdb()
    yield url
    client.flushdb()
    client.close()


@pytest.fixture
def workers(redis_db_url):
    """Real ``rulehouse worker`` processes on the test's database, stopped after the test."""
    from tests.processes import Workers

    pool = Workers(redis_db_url)
    yield pool
    pool.stop()


@pytest.fixture(scope="module")
def api_server(redis_url):
    """The API under real gunicorn (deployed settings) on a free port; its base URL. No bot queue.

    One server per test module (starting and stopping gunicorn takes seconds): its tests share
    the test database, so each must use only what it creates (games have random ids)."""
    from tests.processes import ApiServer

    server = ApiServer(suite_db_url(redis_url), RULEHOUSE_BOT_QUEUE="")
    yield server.start()
    server.stop()
