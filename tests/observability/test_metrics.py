"""The service's metrics, from the API and from real workers (api/ground/metrics.py)."""

from __future__ import annotations

import time

import pytest
import requests
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from api.app import create_app
from api.play.timeouts import sweep
from tests.api.helpers import act
from tests.processes import free_port, wait_for


def samples(text: str) -> dict:
    """{(name, frozenset(labels)): value} of a Prometheus exposition."""
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


SEATS = [{"name": n} for n in ("Ann", "Bob", "Cy", "Di")]


def test_actions_are_counted_accepted_or_rejected_by_reason(client):
    game = client.post("/v1/games", json={"ruleset": "cash-n-guns", "seats": SEATS, "seed": 5}).get_json()
    accepted, stale = value("rulehouse_actions_total", outcome="accepted", reason=""), \
        value("rulehouse_actions_total", outcome="rejected", reason="version-mismatch")
    illegal = value("rulehouse_actions_total", outcome="rejected", reason="not_your_turn")
    token = game["seats"][0]["token"]
    assert act(client, game["id"], token, {"type": "choose_bullet", "card": "bang"}, 0).status_code == 200
    assert act(client, game["id"], token, {"type": "choose_bullet", "card": "bang"}, 0).status_code == 412
    reply = act(client, game["id"], token, {"type": "choose_bullet", "card": "bang"}, 1)
    assert reply.status_code == 409
    reason = reply.get_json()["reason"]
    assert value("rulehouse_actions_total", outcome="accepted", reason="") == accepted + 1
    assert value("rulehouse_actions_total", outcome="rejected", reason="version-mismatch") == stale + 1
    assert value("rulehouse_actions_total", outcome="rejected", reason=reason) == \
        (illegal if reason == "not_your_turn" else 0) + 1


def test_a_deadline_default_is_counted(client, app):
    store = app.extensions["rulehouse.store"]
    body = {"ruleset": "cash-n-guns", "seats": SEATS, "seed": 5, "decision_timeout": 1}
    game = client.post("/v1/games", json=body).get_json()
    for version, seat in enumerate(game["seats"][:-1]):
        bullet = {"type": "choose_bullet", "card": "bang"}
        assert act(client, game["id"], seat["token"], bullet, version).status_code == 200
    before = value("rulehouse_deadline_defaults_total")
    assert sweep(store, now=time.time() + 2) == 1
    assert value("rulehouse_deadline_defaults_total") == before + 1


def test_metrics_answer_while_the_queue_redis_is_down():
    app = create_app({"REDIS_URL": "redis://127.0.0.1:1/0", "BOT_QUEUE": "bots"})
    reply = app.test_client().get("/metrics")
    assert reply.status_code == 200
    assert samples(reply.get_data(as_text=True))[("rulehouse_queue_redis_up", frozenset())] == 0


@pytest.mark.timeout(120)
def test_a_worker_serves_bot_reply_latency_simulation_games_and_queue_depths(redis_db_url, workers):
    port = free_port()
    workers.start(1, "--metrics-port", str(port))
    app = create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": "bots"})
    client = app.test_client()
    game = client.post("/v1/games", json={"ruleset": "cash-n-guns", "seed": 3, "seats": [
        {"name": "Ann"}, {"name": "b1", "bot": "random"}, {"name": "b2", "bot": "random"},
        {"name": "b3", "bot": "random"}]}).get_json()
    # The bots choose their bullets meanwhile: answer the decision (its tag), not version 0.
    assert act(client, game["id"], game["seats"][0]["token"], {"type": "choose_bullet", "card": "bang"},
               0, **{"If-Match": '"d:0.0"'}).status_code == 200
    scrape = f"http://127.0.0.1:{port}/metrics"
    # Three bots answer the bullet phase (and go on aiming), each move one reply and one accepted action.
    found = wait_for(lambda: (s := samples(requests.get(scrape, timeout=5).text)).get(
        ("rulehouse_bot_reply_seconds_count", frozenset()), 0) >= 3 and s, timeout=60)
    replies = found[("rulehouse_bot_reply_seconds_count", frozenset())]
    assert found[("rulehouse_actions_total", frozenset({("outcome", "accepted"), ("reason", "")}))] >= replies
    assert ("rulehouse_queue_depth", frozenset({("queue", "simulations")})) in found
    # Every queue's depth, the deliveries' too, though this worker does not take them.
    assert ("rulehouse_queue_depth", frozenset({("queue", "webhooks")})) in found
    assert found[("rulehouse_queue_redis_up", frozenset())] == 1

    created = client.post("/v1/simulations", json={"ruleset": "monopoly-cars2", "games": 40, "seed": 1})
    assert created.status_code == 202
    found = wait_for(lambda: (s := samples(requests.get(scrape, timeout=5).text)).get(
        ("rulehouse_simulation_games_total", frozenset())) == 40 and s, timeout=60)
    assert found[("rulehouse_simulation_chunk_seconds_count", frozenset())] >= 1


# -- who may scrape, and what a scrape may tell -----------------------------------------------

SCRAPE_TOKEN = "scrape-token-0123456789"


def scraping(redis_db_url, **config):
    return create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": None, **config}).test_client()


def test_where_keys_are_required_a_scrape_needs_the_token(redis_db_url):
    guarded = scraping(redis_db_url, REQUIRE_API_KEYS=True, METRICS_TOKEN=SCRAPE_TOKEN)
    for headers in ({}, {"Authorization": "Bearer wrong-token-wrong-token"}, {"Authorization": f"Basic {SCRAPE_TOKEN}"},
                    {"X-Api-Key": "rh_sk_whatever"}):
        refused = guarded.get("/metrics", headers=headers)
        assert refused.status_code == 401 and refused.headers["WWW-Authenticate"].startswith("Bearer"), headers
        assert b"rulehouse_" not in refused.data
    allowed = guarded.get("/metrics", headers={"Authorization": f"Bearer {SCRAPE_TOKEN}"})
    assert allowed.status_code == 200 and b"rulehouse_http_request_duration_seconds" in allowed.data
    # Keys required and no token set: nobody scrapes (the answer says what to set).
    closed = scraping(redis_db_url, REQUIRE_API_KEYS=True).get("/metrics")
    assert closed.status_code == 401 and b"RULEHOUSE_METRICS_TOKEN" in closed.data
    # Development (no keys): open, unless a token is set.
    assert scraping(redis_db_url).get("/metrics").status_code == 200
    assert scraping(redis_db_url, METRICS_TOKEN=SCRAPE_TOKEN).get("/metrics").status_code == 401
    with pytest.raises(ValueError, match="at least 16"):
        scraping(redis_db_url, METRICS_TOKEN="short")


@pytest.mark.timeout(120)
def test_a_worker_s_metrics_need_the_token_too_and_its_health_does_not(redis_db_url, workers, monkeypatch):
    port = free_port()
    monkeypatch.setenv("RULEHOUSE_REQUIRE_API_KEYS", "1")
    monkeypatch.setenv("RULEHOUSE_METRICS_TOKEN", SCRAPE_TOKEN)
    workers.start(1, "--metrics-port", str(port))
    base = f"http://127.0.0.1:{port}"
    health = wait_for(lambda: (r := requests.get(f"{base}/health", timeout=5)).status_code == 200 and r, timeout=30)
    assert health.text == "ok\n"
    refused = requests.get(f"{base}/metrics", timeout=5)
    assert refused.status_code == 401 and "rulehouse_" not in refused.text
    assert refused.headers["WWW-Authenticate"].startswith("Bearer")
    scraped = requests.get(f"{base}/metrics", headers={"Authorization": f"Bearer {SCRAPE_TOKEN}"}, timeout=5)
    assert scraped.status_code == 200 and "rulehouse_queue_redis_up" in scraped.text


def request_samples(client) -> dict:
    return {key: value for key, value in samples(client.get("/metrics").get_data(as_text=True)).items()
            if key[0].startswith(("rulehouse_http_request", "rulehouse_actions"))}


def test_asking_for_a_hint_moves_no_metric(redis_db_url):
    """The table learns that a seat asked for a hint one version later (hint_counts); a metric that
    moved at once would tell it now."""
    client = scraping(redis_db_url, SEARCH_QUEUE="search")
    game = client.post("/v1/games", json={"ruleset": "whipcash", "seats": [{"name": "Ann"}, {"name": "Bob"}],
                                          "seed": 7, "hints": True}).get_json()
    token = next(seat["token"] for seat in game["seats"] if seat["seat"] == 0)
    before = request_samples(client)
    for _ in range(3):
        assert client.get(f"/v1/games/{game['id']}/hint", headers={"Authorization": f"Bearer {token}"}).status_code \
            == 202
    after = request_samples(client)
    moved = {key for key in after if after[key] != before.get(key)}
    assert moved and all(("route", "/metrics") in labels for _, labels in moved), moved
    assert not any("hint" in str(labels) for _, labels in after)
