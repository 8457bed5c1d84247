"""The table chat through the SDK: post, read, the creator's switch, typed errors, and a chat stream
that resumes across the server's time limit without losing or repeating a message."""

from __future__ import annotations

import threading
import time

import pytest
from rulehouse_sdk import Client, Forbidden, RateLimited

from tests.sdk.test_typed import short_streams_url  # noqa: F401 (a fixture)

SEATS = [{"name": "Ann"}, {"name": "Ben"}]


def test_seats_talk_spectators_read_and_the_creator_switches_it_off(client):
    game = client.create_game("monopoly-cars2", SEATS, seed=3)
    ann, ben = (client.with_token(seat["token"]) for seat in game["seats"])
    creator = client.with_token(game["creator_token"])
    said = ann.post_chat_message(game["id"], "good luck!")
    assert said["seat"] == 0 and said["name"] == "Ann" and said["text"] == "good luck!"
    ben.post_chat_message(game["id"], "you too")
    page = client.get_chat(game["id"])  # no token: a spectator
    assert [(m["name"], m["text"]) for m in page["messages"]] == [("Ann", "good luck!"), ("Ben", "you too")]
    assert client.get_chat(game["id"], after=said["cursor"])["messages"][0]["text"] == "you too"
    with pytest.raises(Forbidden) as refused:
        creator.post_chat_message(game["id"], "I host")
    assert refused.value.reason == "not_seated"
    assert creator.set_chat(game["id"], False) == {"game_id": game["id"], "enabled": False}
    with pytest.raises(Forbidden) as off:
        ann.post_chat_message(game["id"], "hello?")
    assert off.value.reason == "chat_disabled"
    assert client.get_game(game["id"])["version"] == 0


def test_a_seat_too_fast_gets_rate_limited(client):
    game = client.create_game("monopoly-cars2", SEATS, seed=3)
    ann = client.with_token(game["seats"][0]["token"])
    page = client.get_chat(game["id"])
    for number in range(page["bounds"]["messages_per_window"]):
        ann.post_chat_message(game["id"], f"spam {number}")
    with pytest.raises(RateLimited) as limited:
        ann.post_chat_message(game["id"], "more spam")
    assert limited.value.kind == "chat-rate-limited" and limited.value.response.headers["Retry-After"]


def test_the_chat_stream_resumes_after_its_time_limit(short_streams_url, checker):  # noqa: F811
    session = checker.session()
    opened = []
    session.hooks["response"].append(lambda response, *a, **k: opened.append(response.url)
                                     if "/chat/stream" in response.url else None)
    client = Client(short_streams_url, session=session)
    game = client.create_game("monopoly-cars2", SEATS, seed=3)
    seats = [client.with_token(seat["token"]) for seat in game["seats"]]
    texts = [f"message {number}" for number in range(4)]

    def talk() -> None:  # slower than the streams' time limit, so the stream is cut between messages
        for number, text in enumerate(texts):
            time.sleep(0.4)
            seats[number % 2].post_chat_message(game["id"], text)

    lines = client.stream_chat(game["id"])
    talker = threading.Thread(target=talk)
    talker.start()
    seen = []
    for line in lines:
        seen.append(line)
        if sum(line["kind"] == "message" for line in seen) == len(texts):
            break
    lines.close()
    talker.join()
    assert len(opened) >= 3, opened  # cut and resumed
    assert seen[0] == {"kind": "settings", "enabled": True, "cursor": "0"}
    assert [line["text"] for line in seen if line["kind"] == "message"] == texts
    assert {line["kind"] for line in seen} <= {"settings", "message", "keepalive"}
    assert [line for line in seen if line["kind"] == "message"] == [
        {"kind": "message", **message} for message in client.get_chat(game["id"])["messages"]]
    session.close()
