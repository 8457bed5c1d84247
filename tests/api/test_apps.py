"""Apps over real Redis: keys, scopes, publishable keys, ownership, rate limits, quotas, the CLI."""

from __future__ import annotations

import json

import pytest
import redis as redis_lib

from api.apps.app_store import PUBLISHABLE
from api.chat.schemas import MESSAGES_PER_WINDOW, WINDOW_SECONDS
from tests.api.helpers import api_key, assert_problem, auth
from tests.processes import run_cli

GAME = {"ruleset": "monopoly-cars2", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 3}
SIMULATION = {"ruleset": "monopoly-cars2", "players": 2, "games": 40, "seed": 1}


@pytest.fixture
def client(keyed_client):
    return keyed_client


def test_every_v1_request_needs_a_known_key_when_keys_are_required(client, keys):
    assert assert_problem(client.get("/v1/rulesets"), 401, "unauthorized")["reason"] == "app_key_required"
    body = assert_problem(client.get("/v1/rulesets", headers=api_key("rh_sk_nope_nope")), 401, "unauthorized")
    assert body["reason"] == "app_key_unknown"
    _, key = keys.create_app("Tables Inc")
    assert client.get("/v1/rulesets", headers=api_key(key)).status_code == 200
    # Health checks stay open to load balancers.
    assert client.get("/v1/health").status_code == 200


def test_keys_are_stored_hashed_and_revocable(client, keys, redis_db_url):
    app_id, key = keys.create_app("Tables Inc")
    raw = redis_lib.Redis.from_url(redis_db_url)
    for name in raw.scan_iter():
        kind = raw.type(name)
        dump = repr(raw.hgetall(name) if kind == b"hash" else raw.get(name) if kind == b"string" else b"")
        secret = key.split("_", 3)[3]  # rh_sk_<key id>_<secret>: the secret may itself hold "_"
        assert key not in dump and secret not in dump
    listed = keys.list_apps()
    assert [entry["id"] for entry in listed] == [app_id] and key not in json.dumps(listed)
    key_id = listed[0]["keys"][0]["id"]
    keys.revoke(key_id)
    assert assert_problem(client.get("/v1/rulesets", headers=api_key(key)), 401, "unauthorized")


def test_scopes_limit_what_a_key_may_do(client, keys):
    _, sims_only = keys.create_app("Lab", ("simulations",))
    body = assert_problem(client.post("/v1/games", json=GAME, headers=api_key(sims_only)), 403, "forbidden")
    assert body["reason"] == "scope_missing" and body["scope"] == "games"
    assert client.post("/v1/simulations", json=SIMULATION, headers=api_key(sims_only)).status_code == 202
    _, games_only = keys.create_app("Table", ("games",))
    assert client.post("/v1/games", json=GAME, headers=api_key(games_only)).status_code == 201
    assert_problem(client.post("/v1/simulations", json=SIMULATION, headers=api_key(games_only)), 403, "forbidden")
    assert_problem(client.get("/v1/webhooks", headers=api_key(games_only)), 403, "forbidden")


def test_a_publishable_key_plays_from_its_origins_only(client, keys):
    app_id, secret = keys.create_app("Table")
    browser_key = keys.create_key(app_id, PUBLISHABLE, ("https://table.example",))
    game = client.post("/v1/games", json=GAME, headers=api_key(secret)).get_json()
    page = {**api_key(browser_key), "Origin": "https://table.example"}
    # Spectate and play with a seat token: what a web table needs.
    seen = client.get(f"/v1/games/{game['id']}", headers=page)
    assert seen.status_code == 200
    token = game["seats"][seen.get_json()["waiting_for"][0]]["token"]
    decision = client.get(f"/v1/games/{game['id']}/decisions", headers={**page, **auth(token)}).get_json()
    option = decision["decisions"][0]["options"][0]
    moved = client.post(f"/v1/games/{game['id']}/actions", json=option,
                        headers={**page, **auth(token), "If-Match": '"0"'})
    assert moved.status_code == 200, moved.get_json()
    # Nothing else: no creating games or simulations, no webhooks.
    for method, path, body in (("post", "/v1/games", GAME), ("post", "/v1/simulations", SIMULATION),
                               ("get", "/v1/webhooks", None)):
        reply = getattr(client, method)(path, json=body, headers=page)
        assert_problem(reply, 403, "forbidden")
    # Not from another origin, nor from no origin at all.
    wrong = assert_problem(client.get(f"/v1/games/{game['id']}", headers={**api_key(browser_key),
                                                                          "Origin": "https://evil.example"}),
                           403, "forbidden")
    assert wrong["reason"] == "origin_not_allowed"
    assert_problem(client.get(f"/v1/games/{game['id']}", headers=api_key(browser_key)), 403, "forbidden")


def test_only_the_owning_app_manages_its_games_and_simulations(client, keys):
    _, mine = keys.create_app("Mine")
    _, theirs = keys.create_app("Theirs")
    _, admin = keys.create_app("Ops", ("admin",))
    game = client.post("/v1/games", json=GAME, headers=api_key(mine)).get_json()
    creator = auth(game["creator_token"])
    # A game id stays enough to spectate, for anyone.
    assert client.get(f"/v1/games/{game['id']}", headers=api_key(theirs)).status_code == 200
    body = assert_problem(client.delete(f"/v1/games/{game['id']}", headers={**api_key(theirs), **creator}),
                          403, "forbidden")
    assert body["reason"] == "not_owner"
    sim = client.post("/v1/simulations", json=SIMULATION, headers=api_key(mine)).get_json()
    assert_problem(client.get(f"/v1/simulations/{sim['id']}", headers=api_key(theirs)), 404, "not-found")
    assert_problem(client.delete(f"/v1/simulations/{sim['id']}", headers=api_key(theirs)), 404, "not-found")
    assert client.get(f"/v1/simulations/{sim['id']}", headers=api_key(mine)).status_code == 200
    assert client.get(f"/v1/simulations/{sim['id']}", headers=api_key(admin)).status_code == 200
    listed = client.get("/v1/apps/me/games", headers=api_key(mine)).get_json()
    assert [item["id"] for item in listed["items"]] == [game["id"]]
    assert client.get("/v1/apps/me/games", headers=api_key(theirs)).get_json()["items"] == []
    assert client.delete(f"/v1/games/{game['id']}", headers={**api_key(mine), **creator}).status_code == 204
    assert client.get("/v1/apps/me/games", headers=api_key(mine)).get_json()["items"] == []


def test_a_creator_token_manages_its_game_only_through_the_game_s_app(client, keys):
    """Deleting, forking while it runs, starting, handing a seat to a bot, turning chat off: whatever the
    creator token does to a game, another app holding that token is refused alike (403 not_owner), an admin
    key is not."""
    _, mine = keys.create_app("Mine")
    _, theirs = keys.create_app("Theirs")
    _, admin = keys.create_app("Ops", ("admin",))
    running = client.post("/v1/games", json=GAME, headers=api_key(mine)).get_json()
    waiting = client.post("/v1/games", json={**GAME, "seats": [{"name": "Ann"}, {"open": True}]},
                          headers=api_key(mine)).get_json()

    def attempts(key: str):
        as_creator = {**api_key(key), **auth(running["creator_token"])}
        yield client.post("/v1/games", json={"fork": {"game": running["id"]}}, headers=as_creator)
        yield client.post(f"/v1/games/{running['id']}/seats/1/bot", json={"bot": "random"}, headers=as_creator)
        yield client.post(f"/v1/games/{waiting['id']}/start", json={"fill": "bot", "bot": "random"},
                          headers={**api_key(key), **auth(waiting["creator_token"])})
        yield client.post(f"/v1/games/{running['id']}/chat/settings", json={"enabled": False}, headers=as_creator)
        yield client.delete(f"/v1/games/{running['id']}", headers=as_creator)

    for reply in attempts(theirs):
        assert assert_problem(reply, 403, "forbidden")["reason"] == "not_owner", reply.request.path
    # The game's own app (an admin's key likewise) does each of them.
    assert [reply.status_code for reply in attempts(admin)] == [201, 200, 200, 200, 204]
    # A seat's own token hands its seat to a bot from any app: playing a seat is not managing the game.
    other = client.post("/v1/games", json=GAME, headers=api_key(mine)).get_json()
    seat_token = next(seat["token"] for seat in other["seats"] if seat["seat"] == 1)
    handed = client.post(f"/v1/games/{other['id']}/seats/1/bot", json={"bot": "random"},
                         headers={**api_key(theirs), **auth(seat_token)})
    assert handed.status_code == 200, handed.get_json()


def test_rate_limit_answers_429_with_retry_after_per_app(client, keys):
    _, slow = keys.create_app("Slow", limits={"reads": "3/minute"})
    _, other = keys.create_app("Other")
    for _ in range(3):
        assert client.get("/v1/rulesets", headers=api_key(slow)).status_code == 200
    reply = client.get("/v1/rulesets", headers=api_key(slow))
    body = assert_problem(reply, 429, "too-many-requests")
    assert body["reason"] == "rate_limited" and body["limit_class"] == "reads"
    assert 1 <= int(reply.headers["Retry-After"]) <= 60
    # Another class of the same app, and another app, are not held back.
    assert client.post("/v1/games", json=GAME, headers=api_key(slow)).status_code == 201
    assert client.get("/v1/rulesets", headers=api_key(other)).status_code == 200


def test_only_the_rate_limiter_s_own_429_carries_its_wait_and_every_other_wait_is_the_answer_s_own(client, keys):
    """flask-limiter would raise every answer's Retry-After to the end of its rate-limit window (up to a minute):
    a chat's 429 said "wait 2 s" and read 28-60. The limiter's window is told only on its own 429."""
    _, key = keys.create_app("Chatty", limits={"reads": "2/minute"})
    game = client.post("/v1/games", json=GAME, headers=api_key(key)).get_json()
    seat = {**api_key(key), **auth(game["seats"][0]["token"])}
    for number in range(MESSAGES_PER_WINDOW):
        said = client.post(f"/v1/games/{game['id']}/chat", json={"text": f"hi {number}"}, headers=seat)
        assert said.status_code == 201
    fast = client.post(f"/v1/games/{game['id']}/chat", json={"text": "one more"}, headers=seat)
    body = assert_problem(fast, 429, "chat-rate-limited")
    wait = int(fast.headers["Retry-After"])
    assert 1 <= wait <= WINDOW_SECONDS and body["detail"].endswith(f"wait {wait} s")
    assert fast.headers["X-RateLimit-Limit"] == "1200", "the moves of a secret key count as ever"
    for left in (1, 0):
        read = client.get("/v1/rulesets", headers=api_key(key))
        assert read.status_code == 200 and "Retry-After" not in read.headers
        assert read.headers["X-RateLimit-Remaining"] == str(left)
    limited = client.get("/v1/rulesets", headers=api_key(key))
    body = assert_problem(limited, 429, "too-many-requests")
    assert 1 <= int(limited.headers["Retry-After"]) <= 60
    assert body["detail"].endswith(f"retry in {limited.headers['Retry-After']} s")


def test_live_game_quota(client, keys):
    _, key = keys.create_app("Small", quotas={"live_games": 2})
    games = [client.post("/v1/games", json=GAME, headers=api_key(key)).get_json() for _ in range(2)]
    body = assert_problem(client.post("/v1/games", json=GAME, headers=api_key(key)), 403, "quota-exceeded")
    assert body["reason"] == "quota_live_games" and body["allowed"] == 2 and body["used"] == 2
    me = client.get("/v1/apps/me", headers=api_key(key)).get_json()
    assert me["usage"]["live_games"] == 2 and me["quotas"]["live_games"] == 2
    client.delete(f"/v1/games/{games[0]['id']}", headers={**api_key(key), **auth(games[0]["creator_token"])})
    assert client.post("/v1/games", json=GAME, headers=api_key(key)).status_code == 201


def test_simulation_quotas_count_bot_cost_and_queued_chunks(client, keys):
    # 40 two-seat games of random bots cost 80; a second one would pass 100.
    _, key = keys.create_app("Lab", quotas={"simulation_work_per_day": 100})
    assert client.post("/v1/simulations", json=SIMULATION, headers=api_key(key)).status_code == 202
    body = assert_problem(client.post("/v1/simulations", json=SIMULATION, headers=api_key(key)), 403,
                          "quota-exceeded")
    assert body["reason"] == "quota_simulation_work_per_day"
    _, chunky = keys.create_app("Chunky", quotas={"queued_chunks": 10})
    many = {**SIMULATION, "games": 8, "chunk_size": 1}
    assert client.post("/v1/simulations", json=many, headers=api_key(chunky)).status_code == 202
    body = assert_problem(client.post("/v1/simulations", json=many, headers=api_key(chunky)), 403,
                          "quota-exceeded")
    assert body["reason"] == "quota_queued_chunks" and body["used"] == 8


def test_cancelling_a_simulation_unqueues_all_its_chunks(client, keys, redis_db_url):
    _, key = keys.create_app("Lab")
    raw = redis_lib.Redis.from_url(redis_db_url)
    keep = client.post("/v1/simulations", json={**SIMULATION, "games": 5, "chunk_size": 1},
                       headers=api_key(key)).get_json()
    big = client.post("/v1/simulations", json={**SIMULATION, "games": 3000, "chunk_size": 1},
                      headers=api_key(key)).get_json()
    assert raw.llen("rq:queue:simulations") == 3005
    assert client.delete(f"/v1/simulations/{big['id']}", headers=api_key(key)).get_json()["status"] == "cancelled"
    left = [job.decode() for job in raw.lrange("rq:queue:simulations", 0, -1)]
    assert len(left) == 5 and all(job.startswith(f"sim-{keep['id']}-") for job in left)


def test_development_mode_needs_no_key(app, redis_db_url):
    client = app.test_client()
    assert client.post("/v1/games", json=GAME).status_code == 201
    me = client.get("/v1/apps/me").get_json()
    assert me["id"] == "local" and me["usage"]["live_games"] == 1
    assert me["rate_limits"] == {"moves": None, "writes": None, "reads": None, "streams": None}
    # A key that is sent is still checked.
    assert_problem(client.get("/v1/rulesets", headers=api_key("rh_sk_x_y")), 401, "unauthorized")


def test_apps_cli_creates_lists_and_revokes_keys(redis_db_url, client):
    created = run_cli("apps", "create", "Discord bot", "--scopes", "games", "--quota", "live_games=5",
                      redis_url=redis_db_url)
    assert created.returncode == 0, created.stderr
    made = json.loads(created.stdout)
    assert client.get("/v1/apps/me", headers=api_key(made["key"])).get_json()["quotas"]["live_games"] == 5
    listed = run_cli("apps", "list", redis_url=redis_db_url)
    assert made["app"] in listed.stdout and made["key"] not in listed.stdout
    key_id = json.loads(listed.stdout)[0]["keys"][0]["id"]
    assert run_cli("apps", "revoke", key_id, redis_url=redis_db_url).returncode == 0
    assert client.get("/v1/rulesets", headers=api_key(made["key"])).status_code == 401
    bad = run_cli("apps", "create", "x", "--quota", "live_games=lots", redis_url=redis_db_url)
    assert bad.returncode != 0 and "whole number" in bad.stderr and "Traceback" not in bad.stderr
    unknown = run_cli("apps", "revoke", "nope", redis_url=redis_db_url)
    assert unknown.returncode != 0 and "Traceback" not in unknown.stderr


def test_an_app_keeps_its_finished_games_as_long_as_it_says(client, keys, redis_db_url):
    _, key = keys.create_app("Brief", retention={"finished_game_ttl": 120, "game_ttl": 600})
    raw = redis_lib.Redis.from_url(redis_db_url)
    game = client.post("/v1/games", json=GAME, headers=api_key(key)).get_json()
    assert 590 <= raw.ttl(f"game:{{{game['id']}}}") <= 600
    me = client.get("/v1/apps/me", headers=api_key(key)).get_json()
    assert me["retention"]["finished_game_ttl"] == 120 and me["retention"]["game_ttl"] == 600
    # Play it to the end: the finished game then lives 120 s, not the service's day.
    status = "active"
    while status == "active":
        seen = client.get(f"/v1/games/{game['id']}", headers=api_key(key)).get_json()
        token = auth(game["seats"][seen["waiting_for"][0]]["token"])
        decisions = client.get(f"/v1/games/{game['id']}/decisions", headers={**api_key(key), **token}).get_json()
        reply = client.post(f"/v1/games/{game['id']}/actions", json=decisions["decisions"][0]["options"][0],
                            headers={**api_key(key), **token, "If-Match": f'"{seen["version"]}"'})
        status = reply.get_json()["status"]
    assert 0 < raw.ttl(f"game:{{{game['id']}}}") <= 120


def test_search_work_counts_hints_against_the_games_app_and_spends_its_day(client, keys):
    """No search worker here: a hint asked stays reserved at the most its search can cost."""
    from api.hints.computing import hint_bound
    from engine.core.registry import get_ruleset

    ruleset = get_ruleset("whipcash")
    first = ruleset.pending(ruleset.new_game(2, {}, 7))[0]
    cost = hint_bound(ruleset, first)
    _, key = keys.create_app("Coach", quotas={"search_work_per_day": cost})
    body = {"ruleset": "whipcash", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 7, "hints": True}
    game = client.post("/v1/games", json=body, headers=api_key(key)).get_json()
    ann, bob = (seat["token"] for seat in game["seats"])
    asked = client.get(f"/v1/games/{game['id']}/hint", headers={**api_key(key), **auth(ann)})
    assert asked.status_code == 202
    # Asking the same hint again costs nothing more.
    assert client.get(f"/v1/games/{game['id']}/hint", headers={**api_key(key), **auth(ann)}).status_code == 202
    me = client.get("/v1/apps/me", headers=api_key(key)).get_json()
    assert me["usage"]["search_work_today"] == cost and me["quotas"]["search_work_per_day"] == cost
    moved = client.post(f"/v1/games/{game['id']}/actions", json={"type": "roll", "dice": 1},
                        headers={**api_key(key), **auth(ann), "If-Match": '"0"'})
    assert moved.status_code == 200
    refused = assert_problem(client.get(f"/v1/games/{game['id']}/hint", headers={**api_key(key), **auth(bob)}),
                             403, "quota-exceeded")
    assert refused["reason"] == "quota_search_work_per_day" and refused["used"] == cost
    # The day's search work is spent: no new searching bot seat either; quick bots still sit down.
    searching = {"ruleset": "whipcash", "seats": [{"name": "Ann"}, {"bot": "mcts-1"}]}
    refused = assert_problem(client.post("/v1/games", json=searching, headers=api_key(key)), 403,
                             "quota-exceeded")
    assert refused["reason"] == "quota_search_work_per_day"
    quick = {"ruleset": "whipcash", "seats": [{"name": "Ann"}, {"bot": "heuristic"}]}
    assert client.post("/v1/games", json=quick, headers=api_key(key)).status_code == 201
    created = client.post("/v1/games", json={"ruleset": "whipcash", "seats": [{"name": "Ann"}, {"name": "Bob"}]},
                          headers=api_key(key)).get_json()
    handed = client.post(f"/v1/games/{created['id']}/seats/1/bot", json={"bot": "mcts"},
                         headers={**api_key(key), **auth(created["seats"][1]["token"])})
    assert assert_problem(handed, 403, "quota-exceeded")["reason"] == "quota_search_work_per_day"
