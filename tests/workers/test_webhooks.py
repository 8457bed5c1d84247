"""Webhooks end to end: real workers deliver to a real local HTTP receiver, signed and retried."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import redis as redis_lib
from rulehouse_sdk import webhooks as sdk_webhooks

from api.apps.keys import AppKeys
from tests.api.helpers import assert_problem
from tests.processes import wait_for

ALL_BOTS = {"ruleset": "monopoly-cars2", "seats": [{"name": "A", "bot": "random"}, {"name": "B", "bot": "random"}],
            "seed": 5}


class Receiver:
    """An HTTP server on a free loopback port that records deliveries and answers as scripted."""

    def __init__(self, answers: list = ()) -> None:
        self.answers = list(answers)  # each 500-like status, or "hang"; then 200s
        self.received: list[dict] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received.append({"headers": dict(self.headers), "body": body})
                answer = receiver.answers.pop(0) if receiver.answers else 200
                if answer == "hang":
                    time.sleep(2.5)  # past the service's 1 s timeout
                    answer = 200
                self.send_response(answer)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receivers():
    made = []
    yield lambda answers=(): made.append(Receiver(answers)) or made[-1]
    for receiver in made:
        receiver.close()


@pytest.fixture
def service(redis_db_url, monkeypatch, workers):
    """The API (keys required, private webhook URLs allowed for the test) and two real workers."""
    from api.app import create_app

    monkeypatch.setenv("RULEHOUSE_WEBHOOK_ALLOW_PRIVATE", "1")
    monkeypatch.setenv("RULEHOUSE_WEBHOOK_RETRY_INTERVALS", "1,1,1")
    monkeypatch.setenv("RULEHOUSE_WEBHOOK_TIMEOUT_SECONDS", "1")
    workers.start(2)
    app = create_app({"REDIS_URL": redis_db_url, "REQUIRE_API_KEYS": True})
    app.testing = True
    keys = AppKeys(redis_lib.Redis.from_url(redis_db_url, decode_responses=True))
    return app.test_client(), keys


def register(client, key: str, url: str, events: list[str]) -> dict:
    reply = client.post("/v1/webhooks", json={"url": url, "events": events}, headers={"X-Api-Key": key})
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def test_a_finished_game_is_delivered_once_signed_and_only_to_its_own_app(service, receivers):
    client, keys = service
    mine, theirs = receivers(), receivers()
    _, my_key = keys.create_app("Mine")
    _, their_key = keys.create_app("Theirs")
    hook = register(client, my_key, mine.url, ["game.finished"])
    register(client, their_key, theirs.url, ["game.finished", "decision.waiting"])
    game = client.post("/v1/games", json=ALL_BOTS, headers={"X-Api-Key": my_key}).get_json()
    wait_for(lambda: mine.received, timeout=60)
    delivery = mine.received[0]
    event = sdk_webhooks.verify(hook["secret"], delivery["body"], delivery["headers"]["Rulehouse-Signature"])
    assert event["type"] == "game.finished" and event["data"]["game"] == game["id"]
    assert event["id"] == delivery["headers"]["Rulehouse-Delivery"]
    # Only ids and the public result: no seat's view, no token.
    assert set(event["data"]) == {"game", "version", "result"} and "token" not in delivery["body"].decode()
    with pytest.raises(sdk_webhooks.InvalidSignature):
        sdk_webhooks.verify("whsec_wrong", delivery["body"], delivery["headers"]["Rulehouse-Signature"])
    time.sleep(4)  # more than one worker sweep: nothing is delivered again
    assert len(mine.received) == 1 and theirs.received == []
    listed = client.get(f"/v1/webhooks/{hook['id']}/deliveries", headers={"X-Api-Key": my_key}).get_json()
    assert [(d["status"], d["attempts"], d["last_status"]) for d in listed["deliveries"]] == [("delivered", 1, 200)]
    # Another app can neither see nor delete this webhook.
    assert_problem(client.get(f"/v1/webhooks/{hook['id']}", headers={"X-Api-Key": their_key}), 404, "not-found")


def test_a_delivery_is_retried_after_a_500_and_a_timeout_then_kept_delivered(service, receivers):
    client, keys = service
    flaky = receivers([500, "hang"])
    _, key = keys.create_app("Flaky")
    hook = register(client, key, flaky.url, ["game.finished"])
    client.post("/v1/games", json=ALL_BOTS, headers={"X-Api-Key": key})

    def delivered():
        found = client.get(f"/v1/webhooks/{hook['id']}/deliveries", headers={"X-Api-Key": key}).get_json()
        return found["deliveries"] and found["deliveries"][0]["status"] == "delivered" and found["deliveries"][0]

    final = wait_for(delivered, timeout=60, interval=0.3)
    assert final["attempts"] == 3 and final["last_status"] == 200
    ids = {request["headers"]["Rulehouse-Delivery"] for request in flaky.received}
    assert len(flaky.received) == 3 and ids == {final["id"]}
    time.sleep(4)
    assert len(flaky.received) == 3


def test_webhook_urls_to_private_addresses_are_refused(redis_db_url):
    from api.app import create_app

    app = create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": None, "WEBHOOK_ALLOW_PRIVATE": False})
    client = app.test_client()
    for url in ("http://127.0.0.1:6379/", "http://localhost:8000/x", "http://169.254.169.254/latest",
                "http://10.0.0.8/hook", "http://[::1]/hook", "ftp://example.com/x", "http://user:pw@example.com/"):
        reply = client.post("/v1/webhooks", json={"url": url, "events": ["game.finished"]})
        assert_problem(reply, 422, "validation-error")
    bad_event = client.post("/v1/webhooks", json={"url": "http://example.com/x", "events": ["everything"]})
    assert_problem(bad_event, 422, "validation-error")
    assert json.loads(client.get("/v1/webhooks").data)["webhooks"] == []


def test_decisions_deadlines_and_simulations_are_told_too(service, receivers):
    client, keys = service
    inbox = receivers()
    _, key = keys.create_app("Everything")
    register(client, key, inbox.url, ["decision.waiting", "deadline.near", "simulation.finished"])
    seats = [{"name": "Ann"}, {"name": "Bot", "bot": "random"}]
    game = client.post("/v1/games", json={"ruleset": "monopoly-cars2", "seats": seats, "seed": 5,
                                          "decision_timeout": 5}, headers={"X-Api-Key": key}).get_json()
    sim = client.post("/v1/simulations", json={"ruleset": "monopoly-cars2", "players": 2, "games": 20, "seed": 2},
                      headers={"X-Api-Key": key}).get_json()

    def types():
        return {json.loads(request["body"])["type"] for request in inbox.received}

    wait_for(lambda: {"decision.waiting", "deadline.near", "simulation.finished"} <= types(), timeout=60)
    events = [json.loads(request["body"]) for request in inbox.received]
    waiting = next(e for e in events if e["type"] == "decision.waiting")
    assert waiting["data"]["game"] == game["id"] and waiting["data"]["seats"] == [0]
    near = next(e for e in events if e["type"] == "deadline.near")
    assert near["data"]["game"] == game["id"] and near["data"]["seats"] == [0] and near["data"]["deadline"]
    done = next(e for e in events if e["type"] == "simulation.finished")
    assert done["data"] == {"simulation": sim["id"], "status": "finished"}


def test_a_finished_and_a_cancelled_experiment_are_told(service, receivers):
    client, keys = service
    inbox = receivers()
    _, key = keys.create_app("Lab")
    register(client, key, inbox.url, ["experiment.finished"])
    small = {"ruleset": "monopoly-cars2", "players": 2, "sweep": {"starting_money": [10]}, "games": 30, "seed": 2}
    done = client.post("/v1/experiments", json=small, headers={"X-Api-Key": key}).get_json()
    big = client.post("/v1/experiments", json={**small, "games": 200_000, "seed": 3},
                      headers={"X-Api-Key": key}).get_json()
    assert client.delete(f"/v1/experiments/{big['id']}", headers={"X-Api-Key": key}).get_json()["status"] == "cancelled"
    wait_for(lambda: len(inbox.received) >= 2, timeout=60)
    told = sorted((json.loads(r["body"])["data"]["experiment"], json.loads(r["body"])["data"]["status"])
                  for r in inbox.received)
    assert told == sorted([(done["id"], "finished"), (big["id"], "cancelled")])
    assert {json.loads(r["body"])["type"] for r in inbox.received} == {"experiment.finished"}
