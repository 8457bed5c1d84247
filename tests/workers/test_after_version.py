"""Every writer of a game's versions does what a new version owes (api/play/after.py): told here by the
``decision.waiting`` webhook each of them must send, delivered by real workers to a real receiver.

The writers: a creation, a start through the seats (the last open seat joined, or the creator's early
start; these sent nothing before), a move, a default played at a deadline, a bot's move, a fork.
"""

from __future__ import annotations

import json

from tests.processes import wait_for
from tests.workers.test_webhooks import receivers, register, service  # noqa: F401 - fixtures, used by name

RULESET = "monopoly-cars2"
#: with seed 7 seat 0 moves first (api/games/routes.py's example)
SEED = 7


def events_of(receiver, event_type: str, game_id: str) -> list[dict]:
    found = [json.loads(delivery["body"]) for delivery in receiver.received]
    return [event["data"] for event in found if event["type"] == event_type and event["data"]["game"] == game_id]


def waiting_at(receiver, game_id: str, version: int) -> dict:
    """The ``decision.waiting`` of ``game_id`` at ``version``, once delivered."""
    return wait_for(lambda: next((data for data in events_of(receiver, "decision.waiting", game_id)
                                  if data["version"] == version), None), timeout=60)


def create(client, key: str, seats: list[dict], **extra) -> dict:
    reply = client.post("/v1/games", json={"ruleset": RULESET, "seats": seats, "seed": SEED, **extra},
                        headers={"X-Api-Key": key})
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def test_a_game_that_starts_through_its_seats_sends_decision_waiting(service, receivers):  # noqa: F811 - the imported fixtures
    client, keys = service
    receiver = receivers()
    _, key = keys.create_app("Lobby")
    register(client, key, receiver.url, ["decision.waiting"])
    headers = {"X-Api-Key": key}

    joined = create(client, key, [{"name": "Ann"}, {"open": True}])
    assert joined["status"] == "waiting"
    invite = joined["invites"][0]["invite"]
    reply = client.post(f"/v1/games/{joined['id']}/join", json={"name": "Bea", "invite": invite}, headers=headers)
    assert reply.status_code == 201, reply.get_json()
    # The join that filled the last seat is version 1, the game's start: seat 0 decides first.
    assert waiting_at(receiver, joined["id"], 1)["seats"] == [0]

    early = create(client, key, [{"name": "Ann"}, {"name": "Bea"}, {"open": True}])
    reply = client.post(f"/v1/games/{early['id']}/start", json={"fill": "remove"},
                        headers={**headers, "Authorization": f"Bearer {early['creator_token']}"})
    assert reply.status_code == 200, reply.get_json()
    assert waiting_at(receiver, early["id"], 1)["seats"] == [0]
    # Before the start there was nothing to decide: no webhook of version 0.
    assert [data["version"] for data in events_of(receiver, "decision.waiting", joined["id"])] == [1]
    assert [data["version"] for data in events_of(receiver, "decision.waiting", early["id"])] == [1]


def test_every_writer_of_a_version_sends_what_it_owes(service, receivers):  # noqa: F811 - the imported fixtures
    client, keys = service
    receiver = receivers()
    _, key = keys.create_app("Writers")
    register(client, key, receiver.url, ["decision.waiting"])

    # A creation: version 0 waits for seat 0.
    game = create(client, key, [{"name": "Ann"}, {"name": "Bob"}])
    assert waiting_at(receiver, game["id"], 0)["seats"] == [0]

    # A move: version 1 waits for whoever decides next.
    moved = client.post(f"/v1/games/{game['id']}/actions", json={"type": "roll"},
                        headers={"X-Api-Key": key, "Authorization": f"Bearer {game['seats'][0]['token']}",
                                 "If-Match": '"0"'})
    assert moved.status_code == 200, moved.get_json()
    assert waiting_at(receiver, game["id"], 1)["seats"]

    # A fork of the running game (its creator): the fork's version 0.
    fork = client.post("/v1/games", json={"fork": {"game": game["id"], "version": None}},
                       headers={"X-Api-Key": key, "Authorization": f"Bearer {game['creator_token']}"})
    assert fork.status_code == 201, fork.get_json()
    assert waiting_at(receiver, fork.get_json()["id"], 0)["seats"]

    # A default played by the workers' deadline sweep: version 1 of a game nobody moved in.
    slow = create(client, key, [{"name": "Ann"}, {"name": "Bob"}], decision_timeout=1)
    assert waiting_at(receiver, slow["id"], 1)["seats"]
    log = client.get(f"/v1/games/{slow['id']}/events", headers={"X-Api-Key": key}).get_json()["events"]
    assert {"type": "timed_out", "seat": 0} in [entry["event"] for entry in log if entry["version"] == 1]

    # A bot's move: the bot at seat 0 moves first, and the version it made waits for the human.
    botted = create(client, key, [{"name": "Robo", "bot": "random"}, {"name": "Ann"}])
    first = wait_for(lambda: [data["version"] for data in events_of(receiver, "decision.waiting", botted["id"])
                              if data["version"] > 0], timeout=60)[0]
    played = client.application.extensions["rulehouse.store"].action_log(botted["id"])
    assert len(played) >= first and {seat for seat, _ in played[:first]} == {0}, played
