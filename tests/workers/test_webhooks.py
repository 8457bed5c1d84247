"""Webhooks end to end: real workers deliver to a real local HTTP receiver, signed and retried."""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import redis as redis_lib
from rulehouse_sdk import webhooks as sdk_webhooks

from api.apps.app_store import AppKeys
from tests.api.helpers import assert_problem
from tests.processes import wait_for
from tests.workers.tarpit import TarPit

#: ISO 8601 UTC as the service writes it: whole seconds, or (``AUTO``) with microseconds when it has them.
SECONDS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
AUTO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z")

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
    """The API (keys required, private webhook URLs allowed for the test), a real worker for the bots
    and two real delivery workers (``--queues webhooks``), as ``rulehouse serve`` runs them."""
    from api.app import create_app

    monkeypatch.setenv("RULEHOUSE_WEBHOOK_ALLOW_PRIVATE", "1")
    monkeypatch.setenv("RULEHOUSE_WEBHOOK_RETRY_INTERVALS", "1,1,1")
    monkeypatch.setenv("RULEHOUSE_WEBHOOK_TIMEOUT_SECONDS", "1")
    workers.start(1)
    workers.start(2, "--queues", "webhooks")
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
    # Each time keeps its precision (api/ground/times.py): the warning's deadline in whole seconds, an
    # envelope's time as the games' (microseconds when it has them).
    assert SECONDS.fullmatch(near["data"]["deadline"])
    assert all(AUTO.fullmatch(event["created"]) for event in events)


def test_an_apps_tar_pit_receivers_hold_up_neither_other_apps_deliveries_nor_its_own_slots(
        service, receivers, redis_db_url):
    """App A's 20 webhooks point at a tar pit (a byte every 0.3 s, never done) and each gets a delivery;
    at most one of A's deliveries is in a worker at once (one slot), each attempt ends at the 1 s
    limit, and app B's delivery meanwhile arrives through the other delivery worker at once."""
    from api.apps.webhooks import EXTENSION_NAME, Webhooks

    client, keys = service
    pit = TarPit(every=0.3)
    try:
        slow_app, slow_key = keys.create_app("Tar pit")
        quick_app, quick_key = keys.create_app("Quick")
        for _ in range(20):
            register(client, slow_key, pit.url, ["game.finished"])
        inbox = receivers()
        register(client, quick_key, inbox.url, ["game.finished"])
        hooks: Webhooks = client.application.extensions[EXTENSION_NAME]
        lined_up = hooks.emit(slow_app, "game.finished", {"game": "g_slow"})
        assert len(lined_up) == 20
        wait_for(lambda: pit.open == 1, timeout=20)  # A's first attempt is in the pit
        started = time.monotonic()
        hooks.emit(quick_app, "game.finished", {"game": "g_quick"})
        wait_for(lambda: inbox.received, timeout=20)
        assert time.monotonic() - started < 1.0  # not behind A's attempts (1 s each)
        in_flight = []
        wait_for(lambda: in_flight.append((hooks.in_flight(slow_app), pit.open)) or len(pit.held) >= 3, timeout=30)
        # One slot: never more than one of A's deliveries queued or running, one connection in the pit.
        assert max(slots for slots, _ in in_flight) == 1 and max(held for _, held in in_flight) <= 1
        assert all(seconds < 1.8 for seconds in pit.held), pit.held
        # Nothing dropped: the other 19 wait in A's own line, in order.
        waiting = hooks.redis.lrange(f"app:{{{slow_app}}}:deliveries:waiting", 0, -1)
        assert set(waiting) < set(lined_up) and len(waiting) >= 15
    finally:
        pit.close()


def test_every_delivery_of_a_busy_app_arrives_one_slot_at_a_time(service, receivers):
    """20 deliveries of one app through its one slot: all arrive, each once."""
    from api.apps.webhooks import EXTENSION_NAME

    client, keys = service
    inbox = receivers()
    app_id, key = keys.create_app("Busy")
    for _ in range(20):
        register(client, key, inbox.url, ["game.finished"])
    hooks = client.application.extensions[EXTENSION_NAME]
    lined_up = hooks.emit(app_id, "game.finished", {"game": "g"})
    wait_for(lambda: len(inbox.received) >= 20, timeout=60)
    assert sorted(r["headers"]["Rulehouse-Delivery"] for r in inbox.received) == sorted(lined_up)
    assert hooks.in_flight(app_id) == 0


def test_a_slot_left_by_a_killed_worker_is_taken_back_and_its_delivery_made(redis_db_url, monkeypatch, workers,
                                                                            receivers):
    """A delivery whose job was lost with its worker (its queued job gone, its slot still held): once
    the slot's lease runs out, a delivery worker's sweep puts it back in its app's line and delivers
    it, and the app's next delivery was waiting behind it, not dropped."""
    from rq import Queue

    from api.apps.webhooks import QUEUE, Webhooks, in_flight_key
    from api.ground.config import settings

    inbox = receivers()
    config = {**settings(), "REDIS_URL": redis_db_url, "WEBHOOK_ALLOW_PRIVATE": True}
    hooks = Webhooks(redis_lib.Redis.from_url(redis_db_url, decode_responses=True),
                     redis_lib.Redis.from_url(redis_db_url), config)
    hooks.register("app_lost", inbox.url, ["game.finished"])
    lost, behind = hooks.emit("app_lost", "game.finished", {"game": "g1"}) + hooks.emit(
        "app_lost", "game.finished", {"game": "g2"})
    queue = Queue(QUEUE, connection=redis_lib.Redis.from_url(redis_db_url))
    assert [job_id.split("-")[0] for job_id in queue.job_ids] == [lost]  # one slot: the other waits
    queue.empty()  # the worker that took it died with it
    hooks.redis.zadd(in_flight_key("app_lost"), {lost: time.time() - 1})  # and its lease ran out
    monkeypatch.setenv("RULEHOUSE_WEBHOOK_ALLOW_PRIVATE", "1")
    workers.start(1, "--queues", "webhooks")
    wait_for(lambda: len(inbox.received) == 2, timeout=30)
    assert [r["headers"]["Rulehouse-Delivery"] for r in inbox.received] == [lost, behind]
    # The worker frees the slot after the receiver has answered: the inbox can hold both first.
    wait_for(lambda: hooks.in_flight("app_lost") == 0, timeout=10)


def test_a_delivery_that_expired_in_its_slot_frees_it_for_the_next(redis_db_url, monkeypatch, workers, receivers):
    from api.apps.webhooks import Webhooks, delivery_key
    from api.ground.config import settings

    inbox = receivers()
    config = {**settings(), "REDIS_URL": redis_db_url, "WEBHOOK_ALLOW_PRIVATE": True}
    hooks = Webhooks(redis_lib.Redis.from_url(redis_db_url, decode_responses=True),
                     redis_lib.Redis.from_url(redis_db_url), config)
    hooks.register("app_old", inbox.url, ["game.finished"])
    [gone] = hooks.emit("app_old", "game.finished", {"game": "g1"})
    [behind] = hooks.emit("app_old", "game.finished", {"game": "g2"})
    hooks.redis.delete(delivery_key(gone))  # kept DELIVERY_TTL, and that ran out before a worker came
    monkeypatch.setenv("RULEHOUSE_WEBHOOK_ALLOW_PRIVATE", "1")
    workers.start(1, "--queues", "webhooks")
    wait_for(lambda: inbox.received, timeout=30)
    assert [r["headers"]["Rulehouse-Delivery"] for r in inbox.received] == [behind]
    wait_for(lambda: hooks.in_flight("app_old") == 0, timeout=10)


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
