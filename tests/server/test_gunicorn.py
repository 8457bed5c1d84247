"""The API under real gunicorn: body limits on chunked uploads, the server's own errors as
problem+json, and concurrent retries of one idempotent action."""

from __future__ import annotations

import json
import socket
import threading
import uuid
from urllib.parse import urlsplit

import pytest
import requests

PROBLEM = "application/problem+json"
LIMIT = 64 * 1024


def raw_request(base: str, data: bytes) -> tuple[int, dict, bytes]:
    """Send ``data`` as is on a fresh connection; the status, headers and body of the answer."""
    where = urlsplit(base)
    with socket.create_connection((where.hostname, where.port), timeout=10) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    return int(status_line.split()[1]), headers, body


def assert_problem(status: int, headers: dict, body: bytes, expected: int, kind: str) -> dict:
    assert status == expected, body
    assert headers["content-type"].startswith(PROBLEM)
    problem = json.loads(body)
    assert problem["type"] == f"https://rulehouse.dev/problems/{kind}"
    assert problem["status"] == expected
    return problem


def chunked(body: bytes, size: int = 8192):
    for start in range(0, len(body), size):
        yield body[start:start + size]


GAME = {"ruleset": "monopoly-cars2", "seats": [{"name": "a"}, {"name": "b"}], "seed": 3}


def test_a_chunked_body_past_the_limit_is_413_not_cut_and_processed(api_server):
    # Valid JSON whose first 64 KiB are valid JSON too: cut at the limit, it would create a game.
    body = json.dumps(GAME).encode() + b" " * (LIMIT + 1000)
    reply = requests.post(f"{api_server}/v1/games", data=chunked(body), headers={"Content-Type": "application/json"})
    assert "Content-Length" not in reply.request.headers  # really sent chunked
    assert reply.status_code == 413, reply.text
    assert reply.headers["Content-Type"].startswith(PROBLEM)
    assert reply.json()["type"] == "https://rulehouse.dev/problems/payload-too-large"


def test_a_chunked_body_within_the_limit_is_read_whole(api_server):
    body = json.dumps(GAME).encode() + b" " * (LIMIT - 500)
    reply = requests.post(f"{api_server}/v1/games", data=chunked(body), headers={"Content-Type": "application/json"})
    assert reply.status_code == 201, reply.text


def test_a_body_with_content_length_past_the_limit_is_413(api_server):
    body = json.dumps(GAME).encode() + b" " * LIMIT
    reply = requests.post(f"{api_server}/v1/games", data=body, headers={"Content-Type": "application/json"})
    assert reply.status_code == 413
    assert reply.headers["Content-Type"].startswith(PROBLEM)


@pytest.mark.parametrize(("request_bytes", "status", "kind"), [
    (b"GET /v1/" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri-too-long"),
    (b"GET /v1/health HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n", 400, "bad-request"),
    (b"GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Long: " + b"v" * 9000 + b"\r\n\r\n", 431, "headers-too-large"),
    (b"GET /v1/health HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(120)) + b"\r\n",
     431, "headers-too-large"),
    (b"NOT A REQUEST LINE\r\n\r\n", 400, "bad-request"),
])
def test_the_servers_own_errors_are_problems(api_server, request_bytes, status, kind):
    assert_problem(*raw_request(api_server, request_bytes), status, kind)


# -- idempotent retries racing each other ----------------------------------------------------

RETRIES = 8
ROUNDS = 12


def test_concurrent_retries_with_one_idempotency_key_all_get_the_stored_outcome(api_server):
    created = requests.post(f"{api_server}/v1/games", json=GAME).json()
    tokens = [seat["token"] for seat in created["seats"]]
    session = requests.Session()
    for _ in range(ROUNDS):
        game = session.get(f"{api_server}/v1/games/{created['id']}").json()
        seat = game["waiting_for"][0]
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        decision = session.get(f"{api_server}/v1/games/{created['id']}/decisions", headers=headers).json()
        action = decision["decisions"][0]["options"][0]
        headers.update({"If-Match": f'"{decision["version"]}"', "Idempotency-Key": uuid.uuid4().hex})
        start = threading.Barrier(RETRIES)
        replies: list = [None] * RETRIES

        def retry(slot: int, action=action, headers=headers, start=start, replies=replies) -> None:
            start.wait()
            replies[slot] = requests.post(f"{api_server}/v1/games/{created['id']}/actions", json=action,
                                          headers=headers, timeout=30)

        threads = [threading.Thread(target=retry, args=(slot,)) for slot in range(RETRIES)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert [reply.status_code for reply in replies] == [200] * RETRIES, [r.text for r in replies]
        bodies = [reply.json() for reply in replies]
        assert sum(not body["replayed"] for body in bodies) == 1
        assert len({json.dumps({**body, "replayed": None}, sort_keys=True) for body in bodies}) == 1
        assert bodies[0]["version"] == decision["version"] + 1
