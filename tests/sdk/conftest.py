"""A live server in a thread on the test Redis database, workers, and SDK clients whose every
request and answer is checked against openapi.yaml."""

from __future__ import annotations

import contextlib
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Test the SDK of this checkout even where `pip install -e ./sdk` has not been run.
if str(ROOT / "sdk") not in sys.path:
    sys.path.insert(0, str(ROOT / "sdk"))

from rulehouse_sdk import Client  # noqa: E402

from tests.sdk.openapi_check import OpenApiChecker  # noqa: E402

STREAM_KEEPALIVE_SECONDS = 0.5
STREAM_MAX_SECONDS = 20.0


@pytest.fixture(scope="session")
def checker() -> OpenApiChecker:
    return OpenApiChecker.from_file()


@contextlib.contextmanager
def serving(config: dict):
    """The API app made with ``config`` on a free loopback port, served by werkzeug in a thread."""
    from werkzeug.serving import make_server

    from api.app import create_app

    server = make_server("127.0.0.1", 0, create_app(config), threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="sdk-test-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


@pytest.fixture
def base_url(redis_db_url):
    with serving({"REDIS_URL": redis_db_url, "STREAM_KEEPALIVE_SECONDS": STREAM_KEEPALIVE_SECONDS,
                  "STREAM_MAX_SECONDS": STREAM_MAX_SECONDS}) as url:
        yield url


@pytest.fixture
def client(base_url, checker):
    session = checker.session()
    with Client(base_url, session=session, retries=1, backoff=0.05) as client:
        yield client
    session.close()


@pytest.fixture
def worker(workers):
    """One ``rulehouse worker`` process (queues ``bots`` and ``simulations``) on the test database."""
    return workers.start(1)[0]
