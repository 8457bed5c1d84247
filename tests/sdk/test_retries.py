"""Retries against a tiny scripted HTTP server: what is retried, after how long, with which key."""

from __future__ import annotations

import json
import threading
import time
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from rulehouse_sdk import Client, ConnectionFailed, RateLimited, ServiceUnavailable

HEALTHY = (200, {}, {"status": "ok"})
UNAVAILABLE = {"type": "https://rulehouse.dev/problems/service-unavailable", "title": "A backing service is "
               "unavailable", "status": 503, "detail": "Redis does not answer"}
RATE_LIMITED = {"type": "https://rulehouse.dev/problems/too-many-requests", "title": "Too many requests", "status": 429}
HANG_UP = "hang up"
ACTED = (200, {"ETag": '"1"'}, {"game_id": "g1", "seat": 0, "version": 1, "status": "active", "events": [],
                               "result": None, "replayed": False})


def unavailable(retry_after: str | None = None):
    return 503, ({"Retry-After": retry_after} if retry_after else {}), UNAVAILABLE


class ScriptedServer:
    """Answers requests with the scripted replies in order (the last one repeats); records each request."""

    def __init__(self, *replies) -> None:
        self.replies = list(replies)
        self.requests: list[tuple[str, str, dict, float]] = []
        script = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                script.requests.append((self.command, self.path, dict(self.headers), time.monotonic()))
                reply = script.replies.pop(0) if len(script.replies) > 1 else script.replies[0]
                if reply == HANG_UP:
                    self.close_connection = True
                    return
                status, headers, body = reply
                data = json.dumps(body).encode()
                self.send_response(status)
                content_type = "application/json" if status < 400 else "application/problem+json"
                headers = {"Content-Type": content_type, **headers}
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_DELETE = answer

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def __enter__(self) -> ScriptedServer:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.server.shutdown()
        self.server.server_close()

    def header(self, index: int, name: str) -> str | None:
        return self.requests[index][2].get(name)

    def gap(self, index: int) -> float:
        """Seconds between request ``index - 1`` and request ``index``."""
        return self.requests[index][3] - self.requests[index - 1][3]


@pytest.fixture
def stub_client(checker):
    def make(server: ScriptedServer, **options) -> Client:
        options = {"retries": 2, "backoff": 0.01, **options}
        return Client(server.url, "seat-token", session=checker.session(), **options)

    return make


def test_a_503_with_retry_after_is_retried_after_that_many_seconds(stub_client):
    with ScriptedServer(unavailable("1"), HEALTHY) as server:
        assert stub_client(server).health() == {"status": "ok"}
    assert len(server.requests) == 2
    assert server.gap(1) >= 0.95


def test_a_429_with_an_http_date_is_retried(stub_client):
    soon = formatdate(time.time() + 2, usegmt=True)  # whole seconds: 1 to 2 s from now
    with ScriptedServer((429, {"Retry-After": soon}, RATE_LIMITED), HEALTHY) as server:
        assert stub_client(server).health() == {"status": "ok"}
    assert len(server.requests) == 2
    assert 0.95 <= server.gap(1) <= 2.5


def test_without_retry_after_the_client_backs_off_and_gives_up(stub_client):
    with ScriptedServer(unavailable()) as server, pytest.raises(ServiceUnavailable) as raised:
        # Waits of 0.1-0.2 s, then 0.4-0.8 s (jitter halves at most): apart by more than a busy machine's noise.
        stub_client(server, retries=3, backoff=0.2).ready()
    assert len(server.requests) == 4
    assert raised.value.detail == "Redis does not answer" and raised.value.status == 503
    assert server.gap(3) > server.gap(1)  # exponential


def test_a_retry_after_beyond_max_wait_is_not_waited_for(stub_client):
    with ScriptedServer((429, {"Retry-After": "120"}, RATE_LIMITED), HEALTHY) as server, pytest.raises(RateLimited):
        stub_client(server, max_wait=5).health()
    assert len(server.requests) == 1


def test_a_dropped_connection_is_retried(stub_client):
    with ScriptedServer(HANG_UP, HEALTHY) as server:
        assert stub_client(server).health() == {"status": "ok"}
    assert len(server.requests) == 2


def test_a_connection_that_never_answers_raises_connection_failed(stub_client):
    with ScriptedServer(HANG_UP) as server, pytest.raises(ConnectionFailed) as raised:
        stub_client(server).health()
    assert raised.value.status is None
    assert len(server.requests) == 3


def test_an_action_is_retried_with_the_same_idempotency_key(stub_client):
    with ScriptedServer(unavailable("0"), HANG_UP, ACTED, ACTED) as server:
        client = stub_client(server)
        assert client.submit_action("g1", {"type": "roll"}, if_match=0)["version"] == 1
        client.submit_action("g1", {"type": "roll"}, if_match=1)
    keys = [server.header(i, "Idempotency-Key") for i in range(4)]
    assert keys[0] and keys[0] == keys[1] == keys[2]
    assert keys[3] and keys[3] != keys[0]
    assert server.header(0, "If-Match") == '"0"' and server.header(3, "If-Match") == '"1"'


def test_a_post_the_server_cannot_deduplicate_is_sent_once(stub_client):
    with ScriptedServer(unavailable("0"), HEALTHY) as server, pytest.raises(ServiceUnavailable):
        stub_client(server).create_game("monopoly-cars2", [{"name": "Ann"}])
    assert len(server.requests) == 1
    assert server.header(0, "Idempotency-Key") is None
