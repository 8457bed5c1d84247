"""The deployed serving layout under load it must survive: quiet streams, many streams, slow clients."""

from __future__ import annotations

import json
import socket
import time

import requests

from engine.core.decisions import Decision
from engine.core.registry import get_ruleset
from engine.core.rng import Rng

PROBLEM = "application/problem+json"


def create(base: str, seed: int = 1, players: int = 2) -> dict:
    reply = requests.post(f"{base}/v1/games", json={"ruleset": "monopoly-cars2", "seed": seed,
                                                    "seats": [{"name": f"p{i}"} for i in range(players)]}, timeout=10)
    assert reply.status_code == 201, reply.text
    return reply.json()


def play_one_move(base: str, game: dict, version: int, rng: Rng) -> int:
    """One legal move of whoever is pending (chosen from the decisions the service lists); the new version."""
    for seat in game["seats"]:
        listed = requests.get(f"{base}/v1/games/{game['id']}/decisions", timeout=10,
                              headers={"Authorization": f"Bearer {seat['token']}"}).json()
        if listed["decisions"]:
            decision = Decision.from_dict(listed["decisions"][0])
            action = get_ruleset("monopoly-cars2").bot("random").act(None, decision, rng)
            reply = requests.post(f"{base}/v1/games/{game['id']}/actions", json=action, timeout=10,
                                  headers={"Authorization": f"Bearer {seat['token']}", "If-Match": f'"{version}"'})
            assert reply.status_code == 200, reply.text
            return reply.json()["version"]
    raise AssertionError("nobody is pending")


def open_stream(service, game_id: str) -> socket.socket:
    """A raw stream connection whose status line and headers have been read (its first line follows)."""
    sock = socket.create_connection((service.host, service.port), timeout=30)
    sock.sendall(f"GET /v1/games/{game_id}/stream HTTP/1.1\r\nHost: test\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        assert chunk, head
        head += chunk
    assert head.startswith(b"HTTP/1.1 200"), head
    return sock


def read_until(sock: socket.socket, marker: bytes) -> bytes:
    """What the socket sends until ``marker`` (or the end: then it is the whole rest)."""
    data = b""
    while marker not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def test_a_quiet_stream_keeps_alive_past_redis_socket_timeout_then_ends_with_an_end_line(serve):
    # redis-py's socket timeout is 5 s: the keep-alive interval is longer, and the game stays quiet for two.
    with serve(STREAM_KEEPALIVE_SECONDS="6", STREAM_MAX_SECONDS="15", WEB_WORKERS="1") as service:
        game = create(service.base)
        reply = requests.get(f"{service.base}/v1/games/{game['id']}/stream", stream=True, timeout=30)
        lines = reply.iter_lines()
        assert json.loads(next(lines))["kind"] == "state"
        # Two silent intervals (over 10 s): the stream stays open and says so.
        assert [json.loads(next(lines))["kind"] for _ in range(2)] == ["keepalive", "keepalive"]
        # After the silence a move still reaches the stream (a wake-up, not a blocking read, brings it).
        play_one_move(service.base, game, 0, Rng(3))
        rest = [json.loads(line) for line in lines]
        log = service.log_text()
    assert any(line["kind"] == "event" for line in rest)
    assert rest[-1]["kind"] == "end" and rest[-1]["reason"] == "time_limit"
    assert "Traceback" not in log and "Error handling request" not in log, log


def test_a_hundred_streams_and_slow_clients_leave_moves_and_health_checks_answering(serve):
    with serve(STREAMS_PER_CLIENT="500", HEADER_TIMEOUT="2", BODY_TIMEOUT="2") as service:
        games = [create(service.base, seed) for seed in range(10)]
        streams = [open_stream(service, games[number % 10]["id"]) for number in range(100)]
        for sock in streams:
            assert b'"kind": "state"' in read_until(sock, b'"kind": "state"')
        slow = []
        for _ in range(20):  # slowloris: a request line, then never the end of the headers
            sock = socket.create_connection((service.host, service.port), timeout=30)
            sock.sendall(b"GET /v1/health HTTP/1.1\r\nHost: test\r\n")
            slow.append(sock)
        slow_body = socket.create_connection((service.host, service.port), timeout=30)
        slow_body.sendall(b"POST /v1/games HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
                          b"Content-Length: 100\r\n\r\n{\"ruleset\":")

        # With every stream and slow client held, health checks and moves still answer.
        for _ in range(10):
            assert requests.get(f"{service.base}/v1/health", timeout=5).status_code == 200
        version, rng = 0, Rng(1)
        for _ in range(20):
            version = play_one_move(service.base, games[0], version, rng)
        # The streams of that game saw the moves.
        watching = streams[0::10]
        for sock in watching:
            assert b'"kind": "event"' in read_until(sock, b'"kind": "event"')

        # Slow clients are cut off: the headers within HEADER_TIMEOUT, the body within BODY_TIMEOUT (408).
        for sock in slow:
            assert b"200 OK" not in read_until(sock, b"never sent")  # closed, not answered
        answer = read_until(slow_body, b"never sent")
        assert answer.startswith(b"HTTP/1.1 408") and PROBLEM.encode() in answer, answer
        for sock in [*streams, *slow, slow_body]:
            sock.close()
        log = service.log_text()
    assert "Traceback" not in log, log


def test_streams_beyond_the_per_client_limit_are_429_until_one_closes(serve):
    with serve(STREAMS_PER_CLIENT="3", STREAM_KEEPALIVE_SECONDS="0.5") as service:
        game = create(service.base)
        held = [open_stream(service, game["id"]) for _ in range(3)]
        refused = requests.get(f"{service.base}/v1/games/{game['id']}/stream", timeout=10)
        assert refused.status_code == 429
        assert refused.headers["Content-Type"].startswith(PROBLEM)
        assert refused.json()["type"].endswith("/too-many-streams")
        held.pop().close()
        # The server notices the closed stream at its next write (a keep-alive at the latest).
        deadline = time.monotonic() + 30
        while (reply := requests.get(f"{service.base}/v1/games/{game['id']}/stream", stream=True,
                                     timeout=10)).status_code == 429:
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert reply.status_code == 200
        reply.close()
        for sock in held:
            sock.close()
