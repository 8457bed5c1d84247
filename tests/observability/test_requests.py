"""Request ids, JSON log lines and the per-request metrics (api/observability/requests.py)."""

from __future__ import annotations

import io
import json
import logging

import pytest
from prometheus_client import REGISTRY

from api.observability.requests import JsonLinesFormatter
from tests.api.helpers import assert_problem


def test_a_given_request_id_is_echoed_and_named_in_the_problem(client):
    reply = client.get("/v1/games/nope", headers={"X-Request-Id": "lb-7f3a.2:x_y"})
    body = assert_problem(reply, 404, "not-found")
    assert reply.headers["X-Request-Id"] == "lb-7f3a.2:x_y"
    assert body["request_id"] == "lb-7f3a.2:x_y"


def test_without_a_request_id_the_service_makes_one_up(client):
    first = client.get("/v1/games/nope")
    second = client.get("/v1/games/nope")
    assert first.get_json()["request_id"] == first.headers["X-Request-Id"]
    assert len(first.headers["X-Request-Id"]) == 32
    assert first.headers["X-Request-Id"] != second.headers["X-Request-Id"]


@pytest.mark.parametrize("bad", ["has space", "x" * 129, "semi;colon", "ünicode", ""])
def test_a_malformed_request_id_is_a_400_problem_with_an_id_of_its_own(client, bad):
    reply = client.get("/v1/rulesets", headers={"X-Request-Id": bad})
    body = assert_problem(reply, 400, "bad-request")
    assert body["reason"] == "request_id_invalid"
    assert body["request_id"] != bad and body["request_id"] == reply.headers["X-Request-Id"]


def test_the_longest_request_id_is_accepted(client):
    assert client.get("/v1/rulesets", headers={"X-Request-Id": "a" * 128}).headers["X-Request-Id"] == "a" * 128


def test_each_request_writes_one_json_log_line_with_its_id_route_and_status(client):
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonLinesFormatter())
    logger = logging.getLogger("rulehouse.http")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        client.get("/v1/games/abc", headers={"X-Request-Id": "req-1"})
    finally:
        logger.removeHandler(handler)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert len(lines) == 1
    line = lines[0]
    assert line["request_id"] == "req-1" and line["msg"] == "request" and line["logger"] == "rulehouse.http"
    assert line["route"] == "/v1/games/<game_id>" and line["status"] == 404 and line["method"] == "GET"
    assert line["duration_ms"] >= 0 and line["level"] == "info" and line["ts"].endswith("Z")


def test_request_latency_is_counted_by_route_and_status_not_by_path(client):
    labels = {"method": "GET", "route": "/v1/games/<game_id>", "status": "404"}
    before = REGISTRY.get_sample_value("rulehouse_http_request_duration_seconds_count", labels) or 0
    for game_id in ("a", "b", "c"):
        client.get(f"/v1/games/{game_id}")
    assert REGISTRY.get_sample_value("rulehouse_http_request_duration_seconds_count", labels) == before + 3
    scraped = client.get("/metrics")
    assert scraped.status_code == 200 and scraped.headers["Content-Type"].startswith("text/plain")
    text = scraped.get_data(as_text=True)
    assert 'route="/v1/games/<game_id>"' in text and 'route="/v1/games/a"' not in text


def test_an_open_stream_counts_until_it_closes(client):
    game = client.post("/v1/games", json={"ruleset": "cash-n-guns", "seats": [{"name": n} for n in "ABCD"]})
    game_id = game.get_json()["id"]
    before = REGISTRY.get_sample_value("rulehouse_stream_connections") or 0
    stream = client.get(f"/v1/games/{game_id}/stream", buffered=False)
    assert stream.status_code == 200
    assert REGISTRY.get_sample_value("rulehouse_stream_connections") == before + 1
    next(stream.response)  # the first line: the state
    stream.close()
    assert REGISTRY.get_sample_value("rulehouse_stream_connections") == before
