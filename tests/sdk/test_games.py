"""Games end to end: SDK clients against a live server, Redis and (for bot seats) an RQ worker."""

from __future__ import annotations

import random
import threading
import time

import pytest
from rulehouse_sdk import Client, NotFound

RULESET = "monopoly-cars2"


def play_until_finished(seats: dict[int, Client], game_id: str, seed: int, timeout: float = 60.0) -> int:
    """Every seat in ``seats`` plays random legal actions until the game ends; returns the actions sent.

    Seats not in ``seats`` (bots) are left to the workers: while only they are pending, poll.
    """
    chooser = random.Random(seed)
    observer = next(iter(seats.values()))
    deadline = time.monotonic() + timeout
    sent = 0
    while (game := observer.get_game(game_id))["status"] != "finished":
        assert time.monotonic() < deadline, f"game stuck at version {game['version']}: {game['waiting_for']}"
        ours = [seat for seat in game["waiting_for"] if seat in seats]
        if not ours:
            time.sleep(0.01)
            continue
        pending = seats[ours[0]].get_decisions(game_id)
        if not pending["decisions"]:
            continue  # a bot moved in between
        action = chooser.choice(pending["decisions"][0]["options"])
        outcome = seats[ours[0]].submit_action(game_id, action, if_match=pending["version"])
        assert outcome["version"] == pending["version"] + 1 and outcome["replayed"] is False
        sent += 1
    return sent


def test_rulesets_health_and_readiness(client):
    ids = [ruleset["id"] for ruleset in client.list_rulesets()["rulesets"]]
    assert RULESET in ids
    described = client.get_ruleset(RULESET)
    assert described["id"] == RULESET and "roll" in described["action_schemas"]
    assert client.health() == {"status": "ok"}
    assert client.ready() == {"status": "ok", "redis": "ok"}


def test_two_sdk_seats_play_a_whole_game(client):
    game = client.create_game(RULESET, [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    assert game["version"] == 0 and all(seat["token"] for seat in game["seats"])
    seats = {seat["seat"]: client.with_token(seat["token"]) for seat in game["seats"]}

    sent = play_until_finished(seats, game["id"], seed=3)

    final = client.get_game(game["id"])
    assert final["status"] == "finished" and final["version"] == sent
    assert final["role"] == "spectator" and final["seat"] is None
    assert set(final["result"]["winners"]) <= {0, 1} and final["result"]["winners"]
    assert seats[1].get_game(game["id"])["role"] == "seat"
    # Its past, step by step (checked against the spec like every answer here).
    start = client.get_view_at(game["id"], 0)
    assert (start["version"], start["status"], start["seat"], start["result"]) == (0, "active", None, None)
    end = client.get_view_at(game["id"], final["version"], seat=1)
    assert end["view"] == seats[1].get_game(game["id"])["view"] and end["result"] == final["result"]
    assert seats[0].get_decisions(game["id"])["decisions"] == []


def test_a_human_plays_against_a_bot_played_by_a_worker(client, worker):
    game = client.create_game(RULESET, [{"name": "Ann"}, {"name": "Robo", "bot": "heuristic"}], seed=5)
    assert game["seats"][1]["token"] is None and game["seats"][1]["bot"] == "heuristic"
    human = client.with_token(game["seats"][0]["token"])

    sent = play_until_finished({0: human}, game["id"], seed=5)

    final = human.get_game(game["id"])
    assert final["status"] == "finished"
    assert final["version"] > sent  # the rest were the bot's moves
    bot_moves = [entry for entry in human.iter_events(game["id"]) if entry["event"].get("seat") == 1]
    assert any(entry["event"]["type"] == "spun" for entry in bot_moves)


def test_events_page_by_page_equal_the_whole_log(client):
    game = client.create_game(RULESET, [{"name": "Ann"}, {"name": "Ben"}], seed=9)
    seats = {seat["seat"]: client.with_token(seat["token"]) for seat in game["seats"]}
    play_until_finished(seats, game["id"], seed=9)

    whole = client.list_events(game["id"], limit=1000)
    paged = list(client.iter_events(game["id"], page_size=7))
    assert paged == whole["events"] and len(paged) > 7
    assert paged[0]["event"]["type"] == "game_created"
    assert [entry["version"] for entry in paged] == sorted(entry["version"] for entry in paged)
    assert list(client.iter_events(game["id"], after=whole["next"])) == []


def test_the_live_stream_follows_a_game_to_its_end(client):
    game = client.create_game(RULESET, [{"name": "Ann"}, {"name": "Ben"}], seed=13)
    seats = {seat["seat"]: client.with_token(seat["token"]) for seat in game["seats"]}
    lines = client.stream_events(game["id"])  # opened before the first move
    first = next(lines)
    assert first["kind"] == "state" and first["version"] == 0 and first["status"] == "active"

    player = threading.Thread(target=play_until_finished, args=(seats, game["id"], 13))
    player.start()
    rest = list(lines)
    player.join()

    assert rest[-1]["kind"] == "end" and rest[-1]["reason"] == "finished"
    assert rest[-1]["result"] == client.get_game(game["id"])["result"]
    streamed = [{key: line[key] for key in ("cursor", "version", "event")} for line in rest if line["kind"] == "event"]
    logged = list(client.iter_events(game["id"], after=first["cursor"]))
    assert streamed == logged and streamed
    assert {line["kind"] for line in rest} <= {"event", "keepalive", "end"}


def test_a_repeated_idempotency_key_replays_the_first_outcome(client):
    game = client.create_game(RULESET, [{"name": "Ann"}, {"name": "Ben"}], seed=21)
    first_seat = client.get_game(game["id"])["waiting_for"][0]
    seat = client.with_token(game["seats"][first_seat]["token"])
    pending = seat.get_decisions(game["id"])
    action = pending["decisions"][0]["options"][0]

    once = seat.submit_action(game["id"], action, if_match=pending["version"], idempotency_key="roll-1")
    again = seat.submit_action(game["id"], action, if_match=pending["version"], idempotency_key="roll-1")

    assert once["replayed"] is False and again["replayed"] is True
    assert again["version"] == once["version"] == pending["version"] + 1
    assert seat.get_game(game["id"])["version"] == once["version"]


def test_the_creator_deletes_a_game(client):
    game = client.create_game(RULESET, [{"name": "Ann"}, {"name": "Ben"}])
    client.with_token(game["creator_token"]).delete_game(game["id"])
    with pytest.raises(NotFound):
        client.get_game(game["id"])
