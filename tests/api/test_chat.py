"""The table chat over real Redis: who posts and who reads, its bounds, the per-seat rate limit, the
creator's switch, its own live stream, and that it never touches the game (version, ETag, deadline,
event log, record) and expires with it."""

from __future__ import annotations

import json
import threading

import pytest
import redis as redis_lib

from api.apps.app_store import PUBLISHABLE, AppKeys
from api.chat.schemas import KEPT_MESSAGES, MAX_TEXT_LENGTH, MESSAGES_PER_WINDOW, WINDOW_SECONDS
from api.play.game_keys import chat_key, game_key
from tests.api.helpers import SHOWABLE_TEXTS, UNSHOWABLE_TEXTS, act, assert_problem, auth
from tests.processes import wait_for

SEATS = [{"name": name} for name in ("Ann", "Bob", "Cy", "Di")]


def new_game(client, **extra) -> dict:
    reply = client.post("/v1/games", json={"ruleset": "cash-n-guns", "seats": SEATS, "seed": 5, **extra})
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def token(game: dict, seat: int) -> str:
    return game["seats"][seat]["token"]


def post(client, game: dict, text, seat: int | None = 0, tok: str | None = None, **headers):
    return client.post(f"/v1/games/{game['id']}/chat", json={"text": text},
                       headers={**auth(tok if tok is not None else token(game, seat)), **headers})


def chat_of(client, game: dict, tok: str | None = None, after: str = "0") -> dict:
    reply = client.get(f"/v1/games/{game['id']}/chat?after={after}", headers=auth(tok))
    assert reply.status_code == 200, reply.get_json()
    return reply.get_json()


def test_seats_post_and_everyone_who_may_watch_reads(client):
    game = new_game(client)
    assert game["chat"] is True
    said = post(client, game, "  <b>Nice</b> bluff & <script>alert(1)</script>  ")
    assert said.status_code == 201, said.get_json()
    message = said.get_json()
    assert message["seat"] == 0 and message["name"] == "Ann"
    assert message["text"] == "<b>Nice</b> bluff & <script>alert(1)</script>"  # kept as sent, trimmed: text
    assert message["at"].endswith("Z")
    assert post(client, game, "Sure it was.", seat=2).status_code == 201
    for reader in (None, game["creator_token"], token(game, 3)):
        page = chat_of(client, game, reader)
        assert page["enabled"] is True
        assert [(m["seat"], m["name"], m["text"]) for m in page["messages"]] == [
            (0, "Ann", message["text"]), (2, "Cy", "Sure it was.")]
        assert page["bounds"] == {"max_length": MAX_TEXT_LENGTH, "messages_per_window": MESSAGES_PER_WINDOW,
                                  "window_seconds": WINDOW_SECONDS, "kept": KEPT_MESSAGES}
    # Paging with the chat's own cursors.
    first = chat_of(client, game)["messages"][0]
    rest = chat_of(client, game, after=first["cursor"])
    assert [m["text"] for m in rest["messages"]] == ["Sure it was."]
    assert chat_of(client, game, after=rest["next"]) == {**rest, "messages": []}
    assert_problem(client.get(f"/v1/games/{game['id']}/chat", headers=auth("not-a-token")), 401, "unauthorized")
    assert_problem(client.get(f"/v1/games/{game['id']}/chat?limit=0"), 422, "validation-error")
    assert_problem(client.get("/v1/games/nope/chat"), 404, "not-found")


def test_only_a_seat_token_posts(client, app):
    game = new_game(client)
    creator = assert_problem(post(client, game, "I made this table", tok=game["creator_token"]), 403, "forbidden")
    assert creator["reason"] == "not_seated"
    assert_problem(client.post(f"/v1/games/{game['id']}/chat", json={"text": "hi"}), 401, "unauthorized")
    assert_problem(post(client, game, "hi", tok="someone-elses"), 401, "unauthorized")
    assert_problem(post(client, {"id": "nope", "seats": game["seats"]}, "hi"), 404, "not-found")
    # A seat handed to a bot: its token no longer speaks, and the bot has none.
    assert client.post(f"/v1/games/{game['id']}/seats/1/bot", json={"bot": "random"},
                       headers=auth(token(game, 1))).status_code == 200
    assert_problem(post(client, game, "beep", seat=1), 401, "unauthorized")
    # Also when the hand-over comes between reading the game and posting (the store checks the token again).
    store = app.extensions["rulehouse.store"]
    posted = store.chat.post(game["id"], 1, token(game, 1), {"seat": 1, "name": "Bob", "text": "beep"},
                             per_window=5, window_seconds=10, kept=10)
    assert posted.outcome == "token"
    assert chat_of(client, game)["messages"] == []


@pytest.mark.parametrize("text", ["", "   ", "a" * (MAX_TEXT_LENGTH + 1), "tab\there", "esc\x1b[31m", 42, None,
                                  ["hi"], *UNSHOWABLE_TEXTS])
def test_text_out_of_bounds_is_422(client, text):
    game = new_game(client)
    body = assert_problem(post(client, game, text), 422, "validation-error")
    assert {error["pointer"] for error in body["errors"]} == {"/text"}
    assert chat_of(client, game)["messages"] == []


def test_the_longest_text_and_other_bodies(client):
    game = new_game(client)
    longest = "🂡" * MAX_TEXT_LENGTH  # characters, not bytes: 280 of 4 bytes each
    assert post(client, game, longest).get_json()["text"] == longest
    assert post(client, game, "Nicht schlecht, ça va 👍").status_code == 201
    for text in SHOWABLE_TEXTS:  # the joiners of words and emoji, where they join
        assert post(client, game, text, seat=1).get_json()["text"] == text
    path, headers = f"/v1/games/{game['id']}/chat", auth(token(game, 0))
    assert_problem(client.post(path, json={"text": "hi", "to": 2}, headers=headers), 422, "validation-error")
    assert_problem(client.post(path, json={}, headers=headers), 422, "validation-error")
    lone_surrogate = client.post(path, data='{"text": "\\ud800"}', content_type="application/json", headers=headers)
    assert_problem(lone_surrogate, 422, "validation-error")
    assert_problem(client.post(path, data="hi", content_type="text/plain", headers=headers), 415,
                   "unsupported-media-type")
    assert_problem(client.post(path, data="{", content_type="application/json", headers=headers), 400,
                   "malformed-json")
    assert len(chat_of(client, game)["messages"]) == 2 + len(SHOWABLE_TEXTS)


def test_each_seat_posts_at_most_its_messages_per_window(client, app):
    game = new_game(client)
    for number in range(MESSAGES_PER_WINDOW):
        assert post(client, game, f"message {number}").status_code == 201
    too_fast = post(client, game, "one more")
    body = assert_problem(too_fast, 429, "chat-rate-limited")
    assert str(MESSAGES_PER_WINDOW) in body["detail"]
    assert 1 <= int(too_fast.headers["Retry-After"]) <= WINDOW_SECONDS
    assert post(client, game, "my turn to talk", seat=1).status_code == 201  # per seat: Bob is not held back
    texts = [m["text"] for m in chat_of(client, game)["messages"]]
    assert texts == [f"message {n}" for n in range(MESSAGES_PER_WINDOW)] + ["my turn to talk"]
    # Once the window has passed, the seat speaks again (here a window of 0.3 s, through the store).
    store = app.extensions["rulehouse.store"]
    message = {"seat": 0, "name": "Ann", "text": "later"}
    assert store.chat.post(game["id"], 0, token(game, 0), message, per_window=1, window_seconds=0.3,
                           kept=KEPT_MESSAGES).outcome == "fast"
    wait_for(lambda: store.chat.post(game["id"], 0, token(game, 0), message, per_window=1, window_seconds=0.3,
                                     kept=KEPT_MESSAGES).outcome == "ok", timeout=10)


def test_the_creator_turns_chat_off_at_creation_and_on_and_off_later(client):
    game = new_game(client, chat=False)
    assert game["chat"] is False
    assert assert_problem(post(client, game, "hello?"), 403, "forbidden")["reason"] == "chat_disabled"
    assert chat_of(client, game)["enabled"] is False
    settings = f"/v1/games/{game['id']}/chat/settings"
    assert_problem(client.post(settings, json={"enabled": True}, headers=auth(token(game, 0))), 403, "forbidden")
    assert_problem(client.post(settings, json={"enabled": True}), 401, "unauthorized")
    assert_problem(client.post(settings, json={"enabled": "maybe"}, headers=auth(game["creator_token"])), 422,
                   "validation-error")
    turned = client.post(settings, json={"enabled": True}, headers=auth(game["creator_token"]))
    assert turned.status_code == 200 and turned.get_json() == {"game_id": game["id"], "enabled": True}
    assert post(client, game, "hello!").status_code == 201
    assert client.post(settings, json={"enabled": False}, headers=auth(game["creator_token"])).status_code == 200
    assert assert_problem(post(client, game, "still there?"), 403, "forbidden")["reason"] == "chat_disabled"
    # What was said stays readable.
    page = chat_of(client, game)
    assert page["enabled"] is False and [m["text"] for m in page["messages"]] == ["hello!"]
    assert_problem(client.post("/v1/games/nope/chat/settings", json={"enabled": True},
                               headers=auth(game["creator_token"])), 404, "not-found")


def test_a_message_changes_no_version_etag_deadline_event_log_or_record(client):
    game = new_game(client, decision_timeout=600)
    path = f"/v1/games/{game['id']}"
    assert act(client, game["id"], token(game, 0), {"type": "choose_bullet", "card": "bang"}, 0).status_code == 200
    views = {seat: client.get(path, headers=auth(token(game, seat))) for seat in (0, 3)}
    spectator = client.get(path)
    events = client.get(f"{path}/events").get_json()
    record = client.get(f"{path}/record").get_json()
    decisions = client.get(f"{path}/decisions", headers=auth(token(game, 3))).get_json()

    for seat in (0, 1, 3):
        assert post(client, game, f"seat {seat} says hi", seat=seat).status_code == 201
    settings = f"{path}/chat/settings"
    assert client.post(settings, json={"enabled": False}, headers=auth(game["creator_token"])).status_code == 200
    assert client.post(settings, json={"enabled": True}, headers=auth(game["creator_token"])).status_code == 200

    for seat, before in views.items():
        again = client.get(path, headers={**auth(token(game, seat)), "If-None-Match": before.headers["ETag"]})
        assert again.status_code == 304 and again.headers["ETag"] == before.headers["ETag"]
        body = client.get(path, headers=auth(token(game, seat))).get_json()
        assert body == before.get_json()  # version, deadline, updated, view: all as they were
    assert client.get(path, headers={"If-None-Match": spectator.headers["ETag"]}).status_code == 304
    assert client.get(f"{path}/events").get_json() == events
    assert client.get(f"{path}/record").get_json() == record
    assert "says hi" not in json.dumps(record)
    assert client.get(f"{path}/decisions", headers=auth(token(game, 3))).get_json() == decisions
    # A move still answers to the version read before the chat.
    version = views[3].get_json()["version"]
    assert act(client, game["id"], token(game, 1), {"type": "choose_bullet", "card": "click"}, version).status_code \
        == 200


def test_the_chat_keeps_its_last_messages_and_lives_as_long_as_the_game(client, app, redis_db_url):
    store = app.extensions["rulehouse.store"]
    raw = redis_lib.Redis.from_url(redis_db_url)
    game = new_game(client)
    for number in range(KEPT_MESSAGES + 3):
        posted = store.chat.post(game["id"], 0, token(game, 0), {"seat": 0, "name": "Ann", "text": str(number)},
                                 per_window=10_000, window_seconds=60, kept=KEPT_MESSAGES)
        assert posted.outcome == "ok"
    page = client.get(f"/v1/games/{game['id']}/chat?limit={KEPT_MESSAGES}").get_json()
    assert [m["text"] for m in page["messages"]] == [str(n) for n in range(3, KEPT_MESSAGES + 3)]
    # The chat's TTL is the game's, and every write of the game (a move, a seat change) carries it along.
    raw.expire(game_key(game["id"]), 5000)
    raw.expire(chat_key(game["id"]), 100)
    assert act(client, game["id"], token(game, 0), {"type": "choose_bullet", "card": "bang"}, 0).status_code == 200
    assert abs(raw.ttl(chat_key(game["id"])) - raw.ttl(game_key(game["id"]))) <= 1
    raw.expire(chat_key(game["id"]), 100)
    assert client.post(f"/v1/games/{game['id']}/seats/2/bot", json={"bot": "random"},
                       headers=auth(token(game, 2))).status_code == 200
    assert abs(raw.ttl(chat_key(game["id"])) - raw.ttl(game_key(game["id"]))) <= 1
    raw.expire(game_key(game["id"]), 50)
    assert post(client, game, "one more", seat=1).status_code == 201
    assert 0 < raw.pttl(chat_key(game["id"])) <= raw.pttl(game_key(game["id"])) + 50
    # Deleted with its game.
    assert client.delete(f"/v1/games/{game['id']}", headers=auth(game["creator_token"])).status_code == 204
    assert raw.exists(chat_key(game["id"])) == 0
    assert_problem(client.get(f"/v1/games/{game['id']}/chat"), 404, "not-found")
    raw.close()


def test_the_chat_stream_sends_what_was_said_then_each_new_message_and_setting(client, app):
    game = new_game(client)
    assert post(client, game, "before the stream").status_code == 201
    lines: list[dict] = []
    got = threading.Condition()

    def read() -> None:  # the stream is opened and read in one thread (Flask contexts are per thread)
        with app.test_client().get(f"/v1/games/{game['id']}/chat/stream", buffered=False) as reply:
            assert reply.headers["Content-Type"].startswith("application/x-ndjson")
            for chunk in reply.response:
                with got:
                    lines.extend(json.loads(line) for line in chunk.decode().splitlines())
                    got.notify_all()
                if lines and lines[-1]["kind"] == "settings" and lines[-1]["enabled"] is False:
                    return

    def seen(kind: str, **fields) -> bool:
        return any(line["kind"] == kind and all(line.get(k) == v for k, v in fields.items()) for line in lines)

    reader = threading.Thread(target=read)
    reader.start()
    with got:
        assert got.wait_for(lambda: seen("message", text="before the stream"), timeout=10)
    assert post(client, game, "live!", seat=3).status_code == 201
    with got:
        assert got.wait_for(lambda: seen("message", text="live!", seat=3, name="Di"), timeout=10)
    assert client.post(f"/v1/games/{game['id']}/chat/settings", json={"enabled": False},
                       headers=auth(game["creator_token"])).status_code == 200
    reader.join(timeout=10)
    assert not reader.is_alive()
    assert lines[0] == {"kind": "settings", "enabled": True, "cursor": "0"}
    messages = [line for line in lines if line["kind"] == "message"]
    assert [m["text"] for m in messages] == ["before the stream", "live!"]
    assert messages == [{"kind": "message", **m} for m in chat_of(client, game)["messages"]]
    assert lines[-1] == {"kind": "settings", "enabled": False, "cursor": messages[-1]["cursor"]}
    # Resuming after a cursor sends only what follows it; a gone game ends the stream.
    app.config["STREAM_MAX_SECONDS"] = 0.3
    resumed = client.get(f"/v1/games/{game['id']}/chat/stream?after={messages[0]['cursor']}")
    tail = [json.loads(line) for line in resumed.get_data(as_text=True).splitlines()]
    assert [line["text"] for line in tail if line["kind"] == "message"] == ["live!"]
    assert tail[-1] == {"kind": "end", "reason": "time_limit"}
    assert client.delete(f"/v1/games/{game['id']}", headers=auth(game["creator_token"])).status_code == 204
    assert_problem(client.get(f"/v1/games/{game['id']}/chat/stream"), 404, "not-found")


def test_a_browser_key_posts_and_its_posts_count_as_moves(redis_db_url):
    from api.app import create_app

    # A browser key counts at the publishable figures (an app's own --limit is its secret keys').
    limits = {"moves": "3/minute", "reads": "600/minute", "writes": "30/minute", "streams": "30/minute"}
    keyed_client = create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": None, "REQUIRE_API_KEYS": True,
                               "PUBLISHABLE_RATE_LIMITS": limits}).test_client()
    keys = AppKeys(redis_lib.Redis.from_url(redis_db_url, decode_responses=True))
    app_id, secret = keys.create_app("Table")
    browser_key = keys.create_key(app_id, PUBLISHABLE, ("https://table.example",))
    game = keyed_client.post("/v1/games", json={"ruleset": "cash-n-guns", "seats": SEATS, "seed": 5},
                             headers={"X-Api-Key": secret}).get_json()
    page = {"X-Api-Key": browser_key, "Origin": "https://table.example"}
    assert post(keyed_client, game, "from the page", **page).status_code == 201
    assert act(keyed_client, game["id"], token(game, 0), {"type": "choose_bullet", "card": "bang"}, 0,
               **page).status_code == 200
    # Reading the chat is a read, not a move.
    for _ in range(4):
        assert keyed_client.get(f"/v1/games/{game['id']}/chat", headers=page).status_code == 200
    assert post(keyed_client, game, "third move of the minute", seat=1, **page).status_code == 201
    body = assert_problem(post(keyed_client, game, "one too many", seat=2, **page), 429, "too-many-requests")
    assert body["limit_class"] == "moves"
