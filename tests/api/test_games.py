"""Games over HTTP with the toy ruleset: creation, play, idempotency, paging, the live stream."""

from __future__ import annotations

import json

from engine.core.registry import get_ruleset
from tests.api.helpers import act, assert_problem, auth, create_game
from tests.api.playthrough import play_over_http, read_all_events, visible_events


def test_create_answers_tokens_location_and_etag(client, toy_ruleset, app):
    reply = client.post("/v1/games", json={"ruleset": toy_ruleset.id, "seed": 5,
                                           "seats": [{"name": "ann"}, {"name": "bot", "bot": "random"}]})
    assert reply.status_code == 201
    body = reply.get_json()
    assert reply.headers["Location"] == f"/v1/games/{body['id']}"
    assert reply.headers["ETag"] == '"0.c"'
    assert body["version"] == 0 and body["status"] == "active" and body["seed"] == 5
    assert body["seats"][0]["token"] and body["seats"][1]["token"] is None
    assert body["seats"][1]["bot"] == "random"
    # Only digests are stored: no token appears anywhere in Redis.
    redis = app.extensions["rulehouse.store"].redis
    # scan_iter visits every node of a cluster (tests/cluster re-runs this test on one).
    stored = json.dumps({key: redis.hgetall(key) for key in redis.scan_iter("game:*") if redis.type(key) == "hash"})
    assert body["seats"][0]["token"] not in stored and body["creator_token"] not in stored


def test_a_seed_drawn_by_the_service_stays_secret(client, toy_ruleset):
    reply = client.post("/v1/games", json={"ruleset": toy_ruleset.id, "seats": [{"name": "a"}, {"name": "b"}]})
    assert reply.status_code == 201 and reply.get_json()["seed"] is None


def test_a_cached_state_is_used_only_at_its_version(client, toy_ruleset, app):
    from api.play.moves import states

    game = create_game(client, toy_ruleset.id, [{"name": "a"}, {"name": "b"}])
    record = app.extensions["rulehouse.store"].load(game["id"])
    stale = toy_ruleset.new_game(2, None, 999)
    stale.money = [100, 100]
    states.put(game["id"], 5, stale)  # a version the game is not at
    taken = states.take(toy_ruleset, record)
    assert taken is not stale and taken.money == [5, 5]
    states.put(game["id"], record.version, stale)
    assert states.take(toy_ruleset, record) is stale
    assert states.take(toy_ruleset, record) is not stale  # taken out while in use


def test_spectator_and_creator_get_the_spectator_view(client, toy_ruleset):
    game = create_game(client, toy_ruleset.id, [{"name": "a"}, {"name": "b"}])
    spectator = client.get(f"/v1/games/{game['id']}").get_json()
    creator = client.get(f"/v1/games/{game['id']}", headers=auth(game["creator_token"])).get_json()
    assert spectator["role"] == "spectator" and creator["role"] == "creator"
    assert spectator["view"] == creator["view"]
    assert "hand" not in spectator["view"]


def test_toy_game_played_to_the_end_over_http(client, toy_ruleset):
    play = play_over_http(client, toy_ruleset.id, 3, seed=21, options={"rounds": 4})
    assert play.finished
    assert len(play.actions) == 4 * (1 + 3)


def test_stored_action_log_replays_to_the_stored_state(client, toy_ruleset, app):
    play = play_over_http(client, toy_ruleset.id, 2, seed=8, options={"rounds": 3}, check_every=3)
    store = app.extensions["rulehouse.store"]
    assert store.action_log(play.game_id) == [(seat, action) for seat, action in play.actions]
    record = store.load(play.game_id)
    assert json.loads(record.state) == toy_ruleset.to_dict(play.state)


def test_repeated_idempotency_key_replays_without_applying_again(client, toy_ruleset):
    game = create_game(client, toy_ruleset.id, [{"name": "a"}, {"name": "b"}])
    token = game["seats"][0]["token"]
    first = act(client, game["id"], token, {"type": "roll"}, 0, **{"Idempotency-Key": "roll-1"})
    again = act(client, game["id"], token, {"type": "roll"}, 0, **{"Idempotency-Key": "roll-1"})
    assert first.status_code == again.status_code == 200
    assert again.get_json()["replayed"] is True and first.get_json()["replayed"] is False
    assert {**again.get_json(), "replayed": False} == first.get_json()
    assert client.get(f"/v1/games/{game['id']}").get_json()["version"] == 1
    # Another seat may use the same key for its own action.
    other = game["seats"][1]["token"]
    hand = client.get(f"/v1/games/{game['id']}", headers=auth(other)).get_json()["view"]["hand"]
    reply = act(client, game["id"], other, {"type": "play_card", "card": hand[0]}, 1, **{"Idempotency-Key": "roll-1"})
    assert reply.status_code == 200 and reply.get_json()["replayed"] is False


def test_events_are_paged_and_filtered_per_seat(client, toy_ruleset):
    play = play_over_http(client, toy_ruleset.id, 3, seed=4, options={"rounds": 2}, check_every=5)
    ruleset = get_ruleset(toy_ruleset.id)
    replay = ruleset.new_game(3, {"rounds": 2}, 4)
    everything = [ruleset.apply(replay, seat, action) for seat, action in play.actions]
    for seat, token in [*enumerate(play.tokens), (None, None)]:
        entries = read_all_events(client, play.game_id, token)
        assert entries[0]["event"]["type"] == "game_created"
        setup = visible_events(ruleset.setup_events(ruleset.new_game(3, {"rounds": 2}, 4)), seat)
        expected = setup + [event for events in everything for event in visible_events(events, seat)]
        assert [entry["event"] for entry in entries[1:]] == expected
        assert len({entry["cursor"] for entry in entries}) == len(entries)


def test_stream_sends_state_then_events_then_end(client, toy_ruleset):
    play = play_over_http(client, toy_ruleset.id, 2, seed=3, options={"rounds": 1}, check_every=10)
    reply = client.get(f"/v1/games/{play.game_id}/stream?after=0", headers=auth(play.tokens[1]))
    assert reply.status_code == 200
    assert reply.headers["Content-Type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in reply.get_data(as_text=True).splitlines()]
    assert lines[0]["kind"] == "state" and lines[0]["seat"] == 1 and lines[0]["status"] == "finished"
    assert lines[-1]["kind"] == "end" and lines[-1]["reason"] == "finished" and lines[-1]["result"]
    events = [line["event"] for line in lines if line["kind"] == "event"]
    assert events == [entry["event"] for entry in read_all_events(client, play.game_id, play.tokens[1])]
    # Resuming from a cursor sends only what follows it.
    middle = [line for line in lines if line["kind"] == "event"][2]
    resumed = client.get(f"/v1/games/{play.game_id}/stream?after={middle['cursor']}", headers=auth(play.tokens[1]))
    tail = [json.loads(line) for line in resumed.get_data(as_text=True).splitlines()]
    assert [line["event"] for line in tail if line["kind"] == "event"] == events[3:]


def test_stream_of_an_active_game_keeps_alive_and_ends_at_its_time_limit(client, toy_ruleset, app):
    app.config["STREAM_MAX_SECONDS"] = 0.5
    game = create_game(client, toy_ruleset.id, [{"name": "a"}, {"name": "b"}])
    reply = client.get(f"/v1/games/{game['id']}/stream")
    lines = [json.loads(line) for line in reply.get_data(as_text=True).splitlines()]
    assert lines[0]["kind"] == "state" and lines[0]["status"] == "active"
    assert {"kind": "keepalive"} in lines
    assert lines[-1]["kind"] == "end" and lines[-1]["reason"] == "time_limit"


def test_stream_of_unknown_game_is_404(client):
    assert_problem(client.get("/v1/games/nope/stream"), 404, "not-found")


def test_rulesets_list_and_describe_with_json_schemas(client, toy_ruleset):
    listed = client.get("/v1/rulesets").get_json()["rulesets"]
    assert toy_ruleset.id in [entry["id"] for entry in listed]
    body = client.get(f"/v1/rulesets/{toy_ruleset.id}").get_json()
    assert body["min_players"] == 2 and body["max_players"] == 4
    assert body["action_schemas"]["play_card"]["required"] == ["card", "type"]
    assert body["action_schemas"]["roll"]["properties"]["type"]["enum"] == ["roll"]
    assert body["options_schema"]["properties"]["rounds"]["minimum"] == 1
    assert body["rules_doc"] == f"/v1/rulesets/{toy_ruleset.id}/rules"


def test_health_ready_openapi_and_docs(client):
    assert client.get("/v1/health").get_json() == {"status": "ok"}
    assert client.get("/v1/ready").get_json() == {"status": "ok", "redis": "ok"}
    assert client.get("/openapi.json").get_json()["openapi"] == "3.0.3"
    docs = client.get("/docs")
    assert docs.status_code == 200 and b"/openapi.json" in docs.data
    assert b"https://" not in docs.data and b"http://" not in docs.data  # its assets are served here (tests/web)


def test_every_registered_ruleset_is_described_from_the_engine(client):
    from engine.core.registry import all_rulesets

    listed = {entry["id"]: entry for entry in client.get("/v1/rulesets").get_json()["rulesets"]}
    assert set(listed) == set(all_rulesets())
    for ruleset_id, ruleset in all_rulesets().items():
        body = client.get(f"/v1/rulesets/{ruleset_id}").get_json()
        metadata = ruleset.metadata()
        assert body["min_players"] == ruleset.min_players and body["max_players"] == ruleset.max_players
        assert set(body["action_schemas"]) == set(ruleset.action_schemas) == set(body["action_types"])
        assert body["bots"] == ruleset.bot_names()
        assert set(body["options_schema"]["properties"]) >= {"turn_cap"}
        assert body["data"] == ruleset.default_data()
        assert body["rules_doc"] == f"/v1/rulesets/{ruleset_id}/rules" == listed[ruleset_id]["rules_doc"]
        assert body["title"] == metadata["title"]


def test_stream_delivers_events_as_they_happen_and_ends_with_the_game(client, toy_ruleset, app):
    import threading

    game = create_game(client, toy_ruleset.id, [{"name": "a"}, {"name": "b"}], options={"rounds": 1})
    tokens = [seat["token"] for seat in game["seats"]]
    lines: list[dict] = []
    started = threading.Event()

    def read() -> None:  # the stream is opened and read in one thread (Flask contexts are per thread)
        reply = app.test_client().get(f"/v1/games/{game['id']}/stream", headers=auth(tokens[0]), buffered=False)
        for chunk in reply.response:
            lines.extend(json.loads(line) for line in chunk.decode().splitlines())
            started.set()

    reader = threading.Thread(target=read)
    reader.start()
    assert started.wait(10)
    for version, seat in enumerate((0, 0, 1)):
        decisions = client.get(f"/v1/games/{game['id']}/decisions", headers=auth(tokens[seat])).get_json()
        action = decisions["decisions"][0]["options"][0]
        assert act(client, game["id"], tokens[seat], action, version).status_code == 200
    reader.join(timeout=10)
    assert not reader.is_alive()
    assert lines[0]["kind"] == "state" and lines[0]["version"] == 0
    streamed = [line for line in lines if line["kind"] == "event"]
    assert [line["version"] for line in streamed] == sorted(line["version"] for line in streamed)
    assert {line["version"] for line in streamed} == {1, 2, 3}
    assert streamed == [{"kind": "event", **entry} for entry in read_all_events(client, game["id"], tokens[0])[1:]]
    assert lines[-1]["kind"] == "end" and lines[-1]["reason"] == "finished" and lines[-1]["version"] == 3


def test_if_none_match_with_the_current_version_is_304(client, toy_ruleset):
    game = create_game(client, toy_ruleset.id, [{"name": "a"}, {"name": "b"}])
    token = game["seats"][0]["token"]
    for path in (f"/v1/games/{game['id']}", f"/v1/games/{game['id']}/decisions"):
        unchanged = client.get(path, headers={**auth(token), "If-None-Match": '"0.0"'})
        assert unchanged.status_code == 304 and unchanged.headers["ETag"] == '"0.0"' and not unchanged.data
        assert unchanged.headers["Cache-Control"] == "private" and "Authorization" in unchanged.headers["Vary"]
        # The whole tag is compared: the spectator's body of this version is another body.
        assert client.get(path, headers={**auth(token), "If-None-Match": '"0"'}).status_code == 200
        spectator = client.get(path, headers={"If-None-Match": '"0"'})
        assert spectator.status_code == 304 and spectator.headers["ETag"] == '"0"'
    assert act(client, game["id"], token, {"type": "roll"}, 0).status_code == 200
    changed = client.get(f"/v1/games/{game['id']}", headers={**auth(token), "If-None-Match": '"0.0"'})
    assert changed.status_code == 200 and changed.headers["ETag"] == '"1.0"'
